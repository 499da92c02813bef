import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { pageAccess } from '@/domain/menus/access';
import { AppProvider } from '@/app/provider';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { ListScreen } from '@/components/list/list-screen';
import { useListState } from '@/components/list/use-list-state';
import { permissionsAtom } from '@/lib/permissions';
import { store } from '@/lib/store';
import { resetApp } from '../../app/fake-api';

type Row = { id: string; name: string };
const col = createDataTableColumnHelper<Row>();
const columns = col.columns([col.accessor('name', { header: '名称' })]);

/** A section list the server answers whole (its latest N): 12 rows, more than a page of 10. */
function Whole({ rows, paged }: { rows: Row[]; paged?: boolean }) {
  const state = useListState<Record<string, never>>([]);
  const query = { data: { records: rows, total: rows.length, current: 1, size: 30 }, isPending: false, isFetching: false, error: null, refetch: () => undefined };
  return <ListScreen pageKey="k12.system.retention" section={{ title: '执行记录' }} state={state} filters={[]} query={query} columns={columns} rowKey="id" paged={paged} empty="暂无执行记录" data-testid="whole" />;
}

function renderWhole(rows: Row[], paged?: boolean) {
  store.set(permissionsAtom, new Set([pageAccess('k12.system.retention').view]));
  render(
    <AppProvider>
      <RouterProvider router={createMemoryRouter([{ path: '/', element: <Whole rows={rows} paged={paged} /> }])} />
    </AppProvider>,
  );
}

const twelve = Array.from({ length: 12 }, (_, i) => ({ id: String(i), name: `第${i + 1}次` }));

describe('ListScreen: a list shown whole (paged={false}) and its own empty text', () => {
  beforeEach(() => resetApp());

  it('shows every row the server answered and no pager', async () => {
    renderWhole(twelve, false);
    expect(await screen.findByText('第12次')).toBeInTheDocument();
    expect(screen.getByTestId('whole').querySelector('[data-slot=data-table-pagination]')).toBeNull();
  });

  it('a paged list keeps its pager', async () => {
    renderWhole(twelve);
    await screen.findByText('第1次');
    expect(screen.getByTestId('whole').querySelector('[data-slot=data-table-pagination]')).not.toBeNull();
  });

  it('says why the list is empty in the screen’s words', async () => {
    renderWhole([], false);
    expect(await screen.findByText('暂无执行记录')).toBeInTheDocument();
  });
});
