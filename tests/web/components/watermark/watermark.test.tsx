import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { pageAccess } from '@/domain/menus/access';
import { AppProvider } from '@/app/provider';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { ListScreen } from '@/components/list/list-screen';
import { useListState } from '@/components/list/use-list-state';
import { permissionsAtom } from '@/lib/permissions';
import { store } from '@/lib/store';
import { fakeApi, resetApp } from '../../app/fake-api';

type Row = { id: string; name: string };
const col = createDataTableColumnHelper<Row>();
const columns = col.columns([col.accessor('name', { header: '姓名' })]);
const WATERMARK = 'GET /api/busi/web/k12/data-access/watermark';

function People({ personalData }: { personalData?: boolean }) {
  const state = useListState<{ name?: string }>(['name']);
  const query = { data: { records: [{ id: '1', name: '张三' }], total: 1, current: 1, size: 10 }, isPending: false, isFetching: false, error: null, refetch: () => undefined };
  return <ListScreen pageKey="k12.user.student" state={state} filters={[]} query={query} columns={columns} rowKey="id" personalData={personalData} />;
}

function renderPeople(personalData: boolean | undefined, on: boolean) {
  store.set(permissionsAtom, new Set([pageAccess('k12.user.student').view]));
  const calls = fakeApi({ [WATERMARK]: () => ({ data: { on, name: '陈丽华', account: 'school01' } }) });
  const router = createMemoryRouter([{ path: '/', element: <People personalData={personalData} /> }]);
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return calls;
}

describe('the watermark over personal data (docs/product-rules.md#personal-data-access)', () => {
  beforeEach(() => resetApp());

  it('a list declared personalData draws the viewer’s name and account, taking no clicks', async () => {
    renderPeople(true, true);
    const mark = await screen.findByTestId('watermark');
    expect(mark).toHaveAttribute('data-text', '陈丽华 school01');
    expect(mark.className).toContain('pointer-events-none');
    expect(mark.style.backgroundImage).toContain('svg');
  });

  it('draws nothing when the organisation turned it off', async () => {
    const calls = renderPeople(true, false);
    await screen.findByText('张三');
    await waitFor(() => expect(calls.find(WATERMARK)).toHaveLength(1));
    expect(screen.queryByTestId('watermark')).toBeNull();
  });

  it('a list without the flag neither asks nor draws', async () => {
    const none = renderPeople(undefined, true);
    await screen.findAllByText('张三');
    expect(none.find(WATERMARK)).toHaveLength(0);
    expect(screen.queryByTestId('watermark')).toBeNull();
  });
});
