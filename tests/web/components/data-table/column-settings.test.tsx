import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { listSettingsSchema, saveListSettingsSchema, type ListSettingsEntry } from '@/domain/list-settings/list-settings';
import { pageAccess } from '@/domain/menus/access';
import { AppProvider } from '@/app/provider';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { LIST_SETTINGS_API } from '@/components/data-table/use-column-settings';
import { ListScreen } from '@/components/list/list-screen';
import { useListState } from '@/components/list/use-list-state';
import { permissionsAtom } from '@/lib/permissions';
import { queryClient } from '@/lib/query-client';
import { store } from '@/lib/store';
import { fakeApi, resetApp, type Reply } from '../../app/fake-api';

type Row = { id: string; name: string; code: string; grade: string };
const classes = pageAccess('k12.org.class');
const col = createDataTableColumnHelper<Row>();
const columns = col.columns([
  col.accessor('name', { header: '班级名称' }),
  col.accessor('code', { header: '班级编号' }),
  col.accessor('grade', { header: '年级' }),
]);
const KEY = 'k12.org.class:list';

let exported: Record<string, unknown>[] = [];

function ClassList() {
  const state = useListState<{ name?: string }>(['name']);
  const query = { data: { records: [{ id: '1', name: '一年级1班', code: 'C01', grade: '一年级' }], total: 1, current: 1, size: 10 }, isPending: false, isFetching: false, error: null, refetch: () => undefined };
  return <ListScreen pageKey="k12.org.class" state={state} filters={[]} query={query} columns={columns} rowKey="id" exportLayout="list" onExport={(f) => void exported.push(f)} />;
}

/**
 * The server's list settings as the routes behave (server/modules/list-settings, tested on the real database in
 * tests/server/list-settings): the body is checked by the same domain schema, rows are kept per list key.
 */
function settingsServer(saved: ListSettingsEntry[] = [], saveReply?: Reply) {
  const rows = new Map(saved.map((e) => [e.listKey, e]));
  const api = fakeApi({
    [`GET ${LIST_SETTINGS_API}`]: () => ({ data: [...rows.values()] }),
    [`POST ${LIST_SETTINGS_API}/save`]: (body) => {
      if (saveReply) return saveReply;
      const parsed = saveListSettingsSchema.safeParse(body);
      if (!parsed.success) return { status: 400, code: '400', msg: '列设置格式不正确' };
      rows.set(parsed.data.listKey, { ...parsed.data, updatedAt: new Date().toISOString() });
      return { data: rows.get(parsed.data.listKey) };
    },
    [`POST ${LIST_SETTINGS_API}/reset`]: (body) => {
      rows.delete((body as { listKey: string }).listKey);
      return { data: null };
    },
  });
  return { api, rows };
}

function renderList() {
  store.set(permissionsAtom, new Set([classes.view, classes.need('export')]));
  const router = createMemoryRouter([{ path: '/', element: <ClassList /> }]);
  return render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent);
const table = () => screen.getByRole('table');

/** A new session in another browser: nothing cached, the page opened again. */
function newBrowser(view: ReturnType<typeof render>) {
  view.unmount();
  queryClient.clear();
  return renderList();
}

describe('column settings of the list kit', () => {
  beforeEach(() => {
    resetApp();
    exported = [];
  });

  it('hides a column, saves it on the server, and a new session shows it hidden; the key column cannot be hidden', async () => {
    const { rows } = settingsServer();
    const view = renderList();
    expect(await screen.findByText('一年级1班')).toBeInTheDocument();
    expect(headers()).toEqual(['班级名称', '班级编号', '年级']);
    await userEvent.click(screen.getByTestId('list-columns'));
    const popover = await screen.findByTestId('column-settings');
    // The panel loads with the popover's first opening.
    expect(await within(popover).findByRole('checkbox', { name: '显示“班级名称”' })).toBeDisabled();
    await userEvent.click(within(popover).getByRole('checkbox', { name: '显示“班级编号”' }));
    expect(headers()).toEqual(['班级名称', '年级']);
    await waitFor(() => expect(rows.get(KEY)?.settings.hidden).toEqual(['code']), { timeout: 3000 });

    newBrowser(view);
    expect(await screen.findByText('一年级1班')).toBeInTheDocument();
    await waitFor(() => expect(headers()).toEqual(['班级名称', '年级']));
  });

  it('shows the order, pinning and density saved on the server, and reset brings the defaults back here and there', async () => {
    const settings = listSettingsSchema.parse({ hidden: [], order: ['grade', 'name', 'code'], pinStart: ['code'], pinEnd: [], density: 'compact' });
    const { rows } = settingsServer([{ listKey: KEY, settings, updatedAt: '2026-11-01T00:00:00.000Z' }]);
    renderList();
    expect(await screen.findByText('一年级1班')).toBeInTheDocument();
    // Pinned to the start comes first, then the saved order.
    await waitFor(() => expect(headers()).toEqual(['班级编号', '年级', '班级名称']));
    expect(screen.getByRole('columnheader', { name: '班级编号' })).toHaveAttribute('data-pin', 'start');
    expect(table()).toHaveAttribute('data-density', 'compact');

    await userEvent.click(screen.getByTestId('list-columns'));
    const popover = await screen.findByTestId('column-settings');
    await userEvent.click(await within(popover).findByRole('radio', { name: '宽松' }));
    expect(table()).toHaveAttribute('data-density', 'loose');
    await userEvent.click(within(within(popover).getByTestId('column-settings-item-code')).getByRole('button', { name: '固定在左侧' }));
    expect(headers()).toEqual(['年级', '班级名称', '班级编号']);
    expect(screen.getByRole('columnheader', { name: '班级编号' })).not.toHaveAttribute('data-pin');
    await waitFor(() => expect(rows.get(KEY)?.settings).toMatchObject({ density: 'loose', pinStart: [] }), { timeout: 3000 });

    await userEvent.click(within(popover).getByTestId('column-settings-reset'));
    expect(headers()).toEqual(['班级名称', '班级编号', '年级']);
    expect(table()).toHaveAttribute('data-density', 'default');
    await waitFor(() => expect(rows.has(KEY)).toBe(false));
  });

  it('ignores a saved column the list no longer has', async () => {
    const settings = listSettingsSchema.parse({ hidden: ['renamedAway', 'grade'], order: ['renamedAway', 'code', 'name', 'grade'], pinStart: [], pinEnd: ['renamedAway'], density: 'default' });
    settingsServer([{ listKey: KEY, settings, updatedAt: '2026-11-01T00:00:00.000Z' }]);
    renderList();
    expect(await screen.findByText('一年级1班')).toBeInTheDocument();
    await waitFor(() => expect(headers()).toEqual(['班级编号', '班级名称']));
  });

  it('a failed save says so and keeps the list as the user set it', async () => {
    settingsServer([], { status: 500, code: '500', msg: '服务器开小差了' });
    renderList();
    expect(await screen.findByText('一年级1班')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('list-columns'));
    await userEvent.click(await within(await screen.findByTestId('column-settings')).findByRole('checkbox', { name: '显示“年级”' }));
    expect(await screen.findByText(/列设置没有保存到服务器/, undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(headers()).toEqual(['班级名称', '班级编号']);
  });

  it('the export says it follows the current filter and the shown columns, and sends them once they differ from the defaults', async () => {
    settingsServer();
    renderList();
    expect(await screen.findByText('一年级1班')).toBeInTheDocument();
    const button = screen.getByTestId('list-export');
    expect(button).toHaveAttribute('title', '导出当前筛选的 1 条，按当前显示的列');
    await userEvent.click(button);
    expect(exported.at(-1)).not.toHaveProperty('columns');
    await userEvent.click(screen.getByTestId('list-columns'));
    await userEvent.click(await within(await screen.findByTestId('column-settings')).findByRole('checkbox', { name: '显示“班级编号”' }));
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByTestId('list-export'));
    expect(exported.at(-1)).toMatchObject({ columns: 'name,grade' });
  });
});
