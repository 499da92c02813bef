import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageAccess } from '@/domain/menus/access';
import { AppProvider } from '@/app/provider';
import { createDataTableColumnHelper, type DataTableColumns } from '@/components/data-table/data-table';
import { ListScreen, type ListScreenProps } from '@/components/list/list-screen';
import type { PageActions } from '@/components/list/page-actions';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { permissionsAtom } from '@/lib/permissions';
import { store } from '@/lib/store';
import { resetApp } from '../../app/fake-api';

type Row = { id: string; name: string };
type Props = Pick<ListScreenProps<Row, { name?: string }>, 'actions' | 'rowButtons' | 'toolbar'> & { columns?: DataTableColumns<Row> };
const classes = pageAccess('k12.org.class');
const col = createDataTableColumnHelper<Row>();
const nameOnly = col.columns([col.accessor('name', { header: '班级名称' })]);
const row = { id: '1', name: '一年级1班' };

function ClassList({ columns = nameOnly, ...props }: Props) {
  const state = useListState<{ name?: string }>(['name']);
  const query = { data: { records: [row], total: 1, current: 1, size: 10 }, isPending: false, isFetching: false, error: null, refetch: () => undefined };
  return <ListScreen pageKey="k12.org.class" state={state} filters={[]} query={query} columns={columns} rowKey="id" selectable {...props} />;
}

function renderList(buttons: string[], props: Props) {
  store.set(permissionsAtom, new Set([classes.view, ...buttons.map((b) => classes.need(b as never))]));
  const router = createMemoryRouter([{ path: '/', element: <ClassList {...props} /> }]);
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

/** The texts of the row's inline buttons, in order (the "more" trigger included). */
async function rowButtonTexts() {
  const cell = (await screen.findByText('一年级1班')).closest('tr')!;
  return within(cell)
    .getAllByRole('button')
    .map((b) => b.textContent);
}

describe('ListScreen: the page actions map and the screen’s own row buttons in one actions column', () => {
  beforeEach(() => resetApp());
  afterEach(() => vi.restoreAllMocks());

  it('shows the map’s row action beside the screen’s edit button, under one 操作 header', async () => {
    const onEdit = vi.fn();
    renderList(['edit', 'delete'], {
      actions: { remove: { button: 'delete', confirm: () => ({ title: '删除?' }), run: vi.fn() } },
      rowButtons: [editAction(onEdit)],
    });
    expect(await rowButtonTexts()).toEqual(['编辑', '删除']);
    expect(screen.getAllByRole('columnheader', { name: '操作' })).toHaveLength(1);
    await userEvent.click(screen.getByTestId('row-edit'));
    expect(onEdit).toHaveBeenCalledWith(row);
  });

  it('orders them as rowButtons names them (unnamed map actions last), by permission, past 3 in the 更多 menu', async () => {
    const onDelete = vi.fn().mockResolvedValue(undefined);
    const actions: PageActions<Row> = {
      exportOne: { button: 'export', label: '导出本班', run: vi.fn() },
      move: { button: 'edit', label: '调班', run: vi.fn() },
    };
    const rowButtons = [editAction<Row>(vi.fn()), 'move', deleteAction<Row>(() => ({ title: '删除?' }), onDelete)];
    renderList(['edit', 'delete', 'export'], { actions, rowButtons });
    expect(await rowButtonTexts()).toEqual(['编辑', '调班', '更多']);
    expect(screen.getByTestId('row-move')).toHaveTextContent('调班');
    await userEvent.click(screen.getByTestId('row-more'));
    const menu = await screen.findByTestId('row-more-menu');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['删除', '导出本班']);
  });

  it('leaves out the buttons the role does not hold', async () => {
    renderList(['edit'], {
      actions: { move: { button: 'edit', label: '调班', run: vi.fn() }, exportOne: { button: 'export', label: '导出本班', run: vi.fn() } },
      rowButtons: ['move', editAction<Row>(vi.fn()), deleteAction<Row>(() => ({ title: '删除?' }), vi.fn())],
    });
    expect(await rowButtonTexts()).toEqual(['调班', '编辑']);
  });

  it('places the map’s toolbar action where `toolbar` names it', async () => {
    renderList(['edit', 'export'], {
      actions: { moveMany: { button: 'edit', where: 'toolbar', label: '批量调班' } },
      toolbar: ['moveMany', { action: 'export', id: 'report', label: '导出报表', onClick: vi.fn() }],
    });
    await screen.findByText('一年级1班');
    const ids = [screen.getByTestId('list-moveMany'), screen.getByTestId('list-report')];
    expect(ids[0].compareDocumentPosition(ids[1]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('warns in development when a hand actions column would hide the map’s row buttons', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const hand = col.columns([...nameOnly, rowActionsColumn<Row>({ pageKey: 'k12.org.class', header: '操作', actions: [editAction<Row>(vi.fn())] })]);
    renderList(['edit', 'delete'], { columns: hand, actions: { remove: { button: 'delete', run: vi.fn() } } });
    expect(await rowButtonTexts()).toEqual(['编辑']);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('rowButtons'));
  });
});
