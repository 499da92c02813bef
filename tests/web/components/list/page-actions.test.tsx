import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExerciseRecordRow } from '@/domain/activities/exercise-records';
import { pageAccess, pageApi } from '@/domain/menus/access';
import { AppProvider } from '@/app/provider';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { ListScreen } from '@/components/list/list-screen';
import type { PageActions } from '@/components/list/page-actions';
import { useListState } from '@/components/list/use-list-state';
import { ExerciseRecordScreen } from '@/features/activities/exercise-records/exercise-record-screen';
import { permissionsAtom } from '@/lib/permissions';
import { store } from '@/lib/store';
import { fakeApi, resetApp } from '../../app/fake-api';

type Row = { id: string; name: string };
const classes = pageAccess('k12.org.class');
const col = createDataTableColumnHelper<Row>();
const columns = col.columns([col.accessor('name', { header: '班级名称' })]);

function ClassList({ actions, refetch }: { actions: PageActions<Row>; refetch(): void }) {
  const state = useListState<{ name?: string }>(['name']);
  const query = { data: { records: [{ id: '1', name: '一年级1班' }], total: 1, current: 1, size: 10 }, isPending: false, isFetching: false, error: null, refetch };
  return <ListScreen pageKey="k12.org.class" state={state} filters={[]} query={query} columns={columns} rowKey="id" selectable actions={actions} />;
}

function renderList(codes: string[], actions: PageActions<Row>) {
  store.set(permissionsAtom, new Set(codes));
  const refetch = vi.fn();
  const router = createMemoryRouter([{ path: '/', element: <ClassList actions={actions} refetch={refetch} /> }]);
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { refetch };
}

describe('a page’s actions map on the list kit', () => {
  beforeEach(() => resetApp());

  it('draws row and toolbar buttons labelled by their catalogue button, only for a role holding it', async () => {
    const actions: PageActions<Row> = {
      remove: { button: 'delete', confirm: () => ({ title: 'x' }), run: vi.fn() },
      exportSome: { button: 'export', where: 'toolbar', run: vi.fn() },
    };
    renderList([classes.view, classes.need('export')], actions);
    expect(await screen.findByText('一年级1班')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(screen.getByTestId('list-exportSome')).toHaveTextContent('导出');
  });

  it('asks first when declared, runs on the row, toasts the catalogue’s message and reloads the list', async () => {
    const run = vi.fn().mockResolvedValue(undefined);
    const { refetch } = renderList([classes.view, classes.need('delete')], {
      remove: { button: 'delete', confirm: ([r]) => ({ title: `确定删除班级“${r.name}”吗？` }), run },
    });
    await userEvent.click(await screen.findByRole('button', { name: '删除' }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent('确定删除班级“一年级1班”吗？');
    expect(run).not.toHaveBeenCalled();
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: '删除' }));
    expect(run).toHaveBeenCalledWith([{ id: '1', name: '一年级1班' }]);
    expect(await screen.findByText('删除成功')).toBeInTheDocument();
    expect(refetch).toHaveBeenCalled();
  });

  it('a toolbar action on selected rows waits for a selection, then acts on them with its own message', async () => {
    const run = vi.fn().mockResolvedValue({ moved: 1 });
    renderList([classes.view, classes.need('edit')], {
      move: { button: 'edit', where: 'toolbar', label: '批量调整', needsSelection: true, run, success: (out) => `已调整 ${(out as { moved: number }).moved} 个` },
    });
    const button = await screen.findByTestId('list-move');
    expect(button).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: '选择此行' }));
    await userEvent.click(button);
    expect(run).toHaveBeenCalledWith([{ id: '1', name: '一年级1班' }]);
    expect(await screen.findByText('已调整 1 个')).toBeInTheDocument();
  });
});

const exercise = pageAccess('k12.sportData.exerciseRecord');
const base = pageApi('k12.sportData.exerciseRecord');
const record = (id: string, name: string, invalid: boolean) =>
  ({ id, name, regNo: `G${id}`, orgId: 'o', orgName: '一中', studentId: `s${id}`, gender: 'male', gradeNo: 7, classId: 'c', className: '七年级1班', item: 'run', unit: 'm', value: 1000, durationS: 300, source: 'app', deviceSn: null, measuredAt: '2026-11-20T08:00:00Z', invalid, invalidReason: invalid ? '代跑' : null, invalidAt: null }) as unknown as ExerciseRecordRow;

describe('validityActions: the set-invalid / valid-again pair of exercise records', () => {
  beforeEach(() => resetApp());

  function renderRecords(codes: string[]) {
    store.set(permissionsAtom, new Set(codes));
    const api = fakeApi({
      [`GET ${base}/page`]: () => ({ data: { records: [record('1', '张三', false), record('2', '李四', true)], total: 2, current: 1, size: 10 } }),
      [`GET ${base}/options`]: () => ({ data: { schools: [], schoolYears: [], grades: [], classes: [] } }),
      [`POST ${base}/invalid`]: (body) => ({ data: { changed: (body as { ids: string[] }).ids.length } }),
      [`POST ${base}/valid`]: (body) => ({ data: { changed: (body as { ids: string[] }).ids.length } }),
    });
    const router = createMemoryRouter([{ path: '/', element: <ExerciseRecordScreen family="k12" /> }]);
    render(
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    return api;
  }

  it('a row shows the one that fits its state; a role without "restore" sees only "set invalid"', async () => {
    renderRecords([exercise.view, exercise.need('invalid')]);
    const valid = (await screen.findByText('张三')).closest('tr')!;
    const invalid = screen.getByText('李四').closest('tr')!;
    expect(within(valid).getByTestId('row-invalid')).toBeInTheDocument();
    expect(within(invalid).queryByTestId('row-invalid')).toBeNull();
    expect(within(invalid).queryByTestId('row-valid')).toBeNull();
    expect(screen.queryByTestId('list-valid')).toBeNull();
  });

  it('the toolbar acts on the selected rows it fits, with the reason, and toasts the count', async () => {
    const api = renderRecords([exercise.view, exercise.need('invalid'), exercise.need('valid')]);
    await screen.findByText('张三');
    expect(screen.getByTestId('list-invalid')).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: '全选本页' }));
    await userEvent.click(screen.getByTestId('list-invalid'));
    const dialog = screen.getByRole('alertdialog');
    await userEvent.type(within(dialog).getByRole('textbox'), '代跑');
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.find(`POST ${base}/invalid`)).toHaveLength(1));
    // Only the valid row is set invalid; the one already invalid is left out.
    expect(api.find(`POST ${base}/invalid`)[0].body).toMatchObject({ ids: ['1'], reason: '代跑' });
    expect(await screen.findByText('已更新 1 条记录')).toBeInTheDocument();
  });
});
