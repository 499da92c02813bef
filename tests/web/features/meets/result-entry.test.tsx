import { fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ResultRow } from '@/domain/meets/results';
import { pageAccess } from '@/domain/menus/access';
import { AppProvider } from '@/app/provider';
import { meets, type Arrangement } from '@/features/meets/api';
import { ScoreEntryScreen } from '@/features/meets/components/single-screens';
import { permissionsAtom } from '@/lib/permissions';
import { store } from '@/lib/store';
import { fakeApi, resetApp } from '../../app/fake-api';

/** A mark that cannot be read is shown by its field and nothing is saved, never sent as null. */

const access = pageAccess('single.sportsMeet.score');
const base = meets('k12').base;
const heat = { id: 'h1', eventId: 'e1', eventName: '100米', groupName: '男子甲组', type: 'track', round: 0, no: 1, day: 0, startMin: null, endMin: null, venueId: null, athletes: [{}] };
const row = (id: string, lane: number, name: string): ResultRow =>
  ({ id, heatId: 'h1', entryId: `en-${id}`, lane, studentName: name, legNames: null, className: '初一1班', bib: `00${lane}`, mark: null, attempts: null, failuresAtBest: null, failures: null, status: 'ok', state: 'pending', place: null, invalid: false, invalidReason: null, newRecord: false, qualified: false, version: 1 }) as ResultRow;

function renderEntry() {
  store.set(permissionsAtom, new Set([access.view, access.need('entry')]));
  const api = fakeApi({
    [`GET ${base}/m1/arrangement`]: () => ({ data: { arrangeState: 'scheduled', drawSeed: 1, drawMode: 'random', days: ['2026-12-01'], heats: [heat], conflicts: [] } as unknown as Arrangement }),
    [`GET ${base}/m1/heats/h1/results`]: () => ({ data: [row('r1', 1, '张三'), row('r2', 2, '李四')] }),
    [`PUT ${base}/m1/heats/h1/results`]: () => ({ data: null }),
  });
  const router = createMemoryRouter([{ path: '/score/:meetId', element: <ScoreEntryScreen family="k12" /> }], { initialEntries: ['/score/m1'] });
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return api;
}

describe('meet result entry', () => {
  beforeEach(() => resetApp());

  it('refuses an unreadable time by its field, saves nothing and keeps what was typed', async () => {
    const api = renderEntry();
    const first = await screen.findByLabelText('张三的成绩');
    const second = screen.getByLabelText('李四的成绩');
    fireEvent.change(first, { target: { value: 'abc' } });
    fireEvent.change(second, { target: { value: '12.5' } });
    fireEvent.click(screen.getByTestId('results-save'));

    const message = await screen.findByTestId('mark-error');
    expect(message).toHaveTextContent('请填写秒数，例如 12.5 或 1:05.30');
    expect(first).toHaveAttribute('aria-invalid', 'true');
    expect(within(first.closest('tr')!).getByRole('alert')).toBe(message);
    expect(api.find(`PUT ${base}/m1/heats/h1/results`)).toHaveLength(0);
    expect(screen.queryByText('成绩已保存')).toBeNull();
    expect(first).toHaveValue('abc');
    expect(second).toHaveValue('12.5');

    // Fixed, it saves both marks as numbers.
    fireEvent.change(first, { target: { value: '1:05.3' } });
    expect(screen.queryByTestId('mark-error')).toBeNull();
    fireEvent.click(screen.getByTestId('results-save'));
    await screen.findByText('成绩已保存');
    expect(api.find(`PUT ${base}/m1/heats/h1/results`)[0].body).toEqual({
      results: [
        { id: 'r1', mark: 65.3, status: 'ok' },
        { id: 'r2', mark: 12.5, status: 'ok' },
      ],
    });
  });
});
