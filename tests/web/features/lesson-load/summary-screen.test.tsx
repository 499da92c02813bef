import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoadSummary } from '@/domain/lesson-load/reports';
import { pageAccess, pageApi } from '@/domain/menus/access';
import { AppProvider } from '@/app/provider';
import { LoadSummaryScreen } from '@/features/lesson-load/summary/summary-screen';
import { permissionsAtom } from '@/lib/permissions';
import { store } from '@/lib/store';
import { fakeApi, resetApp } from '../../app/fake-api';

vi.mock('@/components/chart/echarts-react', () => ({ default: () => <div data-testid="echarts" /> }));

const KEY = 'k12.class.load';
const URL = `${pageApi(KEY)}/summary`;
const figures = { lessons: 4, meetsShare: 0.5, mainMeanBpm: 146.5, groupDensity: 0.75, individualDensity: 0.55, targetShare: 0.45 };
const answer = (group: LoadSummary['group']): LoadSummary => ({
  term: { schoolYear: 2040, semester: 13, from: '2040-08-01', to: '2041-01-31' },
  group,
  total: figures,
  rows: group === 'teacher' ? [{ id: 't1', name: '王老师', ...figures }] : [{ id: 'c1', name: '七年级2班', ...figures }],
  weeks: [{ week: '2040-09-03', ...figures }, { week: '2040-09-10', ...figures }],
  below: [{ studentId: 's1', name: '李明', regNo: 'G1', className: '七年级2班', lessons: 4, count: 3, share: 0.75 }],
  above: [],
});

function renderSummary(held: string[]) {
  store.set(permissionsAtom, new Set(held));
  const calls = fakeApi({ [`GET ${URL}`]: (_b, config) => ({ data: answer(((config.params as { group?: string })?.group ?? 'class') as LoadSummary['group']) }) });
  const router = createMemoryRouter([{ path: '/k12/class/load/summary', element: <LoadSummaryScreen family="k12" /> }], { initialEntries: ['/k12/class/load/summary'] });
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return calls;
}

describe('lesson-load summary screen', () => {
  beforeEach(() => resetApp());

  it("shows the term's figures, the class table and the students persistently below; regroups by teacher", async () => {
    const calls = renderSummary([pageAccess(KEY).view]);
    const total = await screen.findByTestId('load-total');
    expect(within(total).getByTestId('load-total-meetsShare')).toHaveTextContent('50.0%');
    expect(within(total).getByTestId('load-total-mainMeanBpm')).toHaveTextContent('146.5');
    expect(screen.getByText('2040-2041 学年秋季学期（2040-08-01 至 2041-01-31）已结束课堂的负荷，对照课程标准目标')).toBeInTheDocument();
    expect(screen.getAllByText('七年级2班').length).toBeGreaterThan(0);
    expect(within(screen.getByTestId('load-below')).getByText('李明')).toBeInTheDocument();
    expect(within(screen.getByTestId('load-above')).getByText('没有持续偏低或偏高的学生')).toBeInTheDocument();
    // No export button without the page's export permission.
    expect(screen.queryByTestId('load-summary-export')).toBeNull();

    await userEvent.click(screen.getByRole('combobox', { name: '汇总方式' }));
    await userEvent.click(await screen.findByRole('option', { name: '按教师' }));
    expect(await screen.findByText('王老师')).toBeInTheDocument();
    expect(calls.calls.some((c) => (c.config.params as { group?: string } | undefined)?.group === 'teacher')).toBe(true);
  });

  it('offers the export to a role holding it', async () => {
    renderSummary([pageAccess(KEY).view, pageAccess(KEY).need('export')]);
    await waitFor(() => expect(screen.getByTestId('load-summary-export')).toBeEnabled());
  });
});
