import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { describe, expect, it, vi } from 'vitest';
import { pageAccess } from '@/domain/menus/access';
import { DataTable } from '@/components/data-table/data-table';
import { RowActions, rowActionsColumn } from '@/components/list/row-actions';
import { Toaster } from '@/components/ui/toast';
import { permissionsAtom } from '@/lib/permissions';

const access = pageAccess('k12.org.class');

function renderWith(codes: string[], onDelete = vi.fn().mockResolvedValue(undefined), onEdit = vi.fn()) {
  const store = createStore();
  store.set(permissionsAtom, new Set(codes));
  render(
    <Provider store={store}>
      <RowActions
        row={{ id: '1', name: '一年级1班' }}
        pageKey="k12.org.class"
        actions={[
          { action: 'edit', onClick: onEdit },
          { action: 'delete', destructive: true, confirm: (r) => ({ title: `确定删除班级“${r.name}”吗？`, description: '有学生的班级不能删除。' }), onClick: onDelete },
        ]}
      />
      <Toaster />
    </Provider>,
  );
  return { onDelete, onEdit };
}

describe('RowActions', () => {
  it('shows only the actions whose catalogue button the role holds, labelled from the catalogue', () => {
    renderWith([access.need('edit')]);
    expect(screen.getByRole('button', { name: '编辑' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
  });

  it('a dangerous action asks first with its text and runs only when confirmed, then says so', async () => {
    const { onDelete } = renderWith([access.need('edit'), access.need('delete')]);
    await userEvent.click(screen.getByRole('button', { name: '删除' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('确定删除班级“一年级1班”吗？');
    expect(onDelete).not.toHaveBeenCalled();
    await userEvent.click(screen.getAllByRole('button', { name: '删除' }).at(-1)!);
    expect(onDelete).toHaveBeenCalledWith({ id: '1', name: '一年级1班' });
    expect(await screen.findByText('删除成功')).toBeInTheDocument();
  });
});

describe('RowActions with more actions than fit', () => {
  function renderMany(maxInline: number | undefined) {
    const store = createStore();
    store.set(permissionsAtom, new Set([access.need('edit'), access.need('delete')]));
    const calls = { edit: vi.fn(), second: vi.fn(), third: vi.fn(), remove: vi.fn().mockResolvedValue(undefined) };
    render(
      <Provider store={store}>
        <RowActions
          row={{ id: '1', name: '一年级1班' }}
          pageKey="k12.org.class"
          maxInline={maxInline}
          actions={[
            { action: 'edit', onClick: calls.edit },
            { action: 'edit', label: '调班', testId: 'row-second', onClick: calls.second },
            { action: 'edit', label: '开通账号', testId: 'row-third', onClick: calls.third },
            { action: 'delete', destructive: true, confirm: (r) => ({ title: `确定删除班级“${r.name}”吗？` }), onClick: calls.remove },
          ]}
        />
        <Toaster />
      </Provider>,
    );
    return calls;
  }
  // The row's own buttons (the toaster has buttons of its own).
  const rowButtons = () => within(document.querySelector<HTMLElement>('[data-slot=row-actions]')!).getAllByRole('button');

  it('by default a row with four or more actions keeps two buttons and puts the rest in the "more" menu', () => {
    renderMany(undefined);
    expect(rowButtons().map((b) => b.textContent)).toEqual(['编辑', '调班', '更多']);
  });

  it('shows the first maxInline − 1 as buttons and the rest in a "more" menu that the keyboard opens', async () => {
    const calls = renderMany(3);
    expect(rowButtons().map((b) => b.textContent)).toEqual(['编辑', '调班', '更多']);
    screen.getByRole('button', { name: '更多' }).focus();
    await userEvent.keyboard('{Enter}');
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['开通账号', '删除']);
    await userEvent.keyboard('{Enter}');
    expect(calls.third).toHaveBeenCalledWith({ id: '1', name: '一年级1班' });
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('a dangerous action in the menu still asks first', async () => {
    const calls = renderMany(3);
    await userEvent.click(screen.getByRole('button', { name: '更多' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: '删除' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('确定删除班级“一年级1班”吗？');
    expect(calls.remove).not.toHaveBeenCalled();
    await userEvent.click(screen.getAllByRole('button', { name: '删除' }).at(-1)!);
    expect(calls.remove).toHaveBeenCalled();
  });

  it('a row with no more actions than maxInline shows them all as buttons', () => {
    renderMany(4);
    expect(rowButtons()).toHaveLength(4);
  });
});

describe('rowActionsColumn', () => {
  it('keeps a row’s confirm dialog open when the screen makes its columns again (a re-render, a mutation’s state)', async () => {
    const store = createStore();
    store.set(permissionsAtom, new Set([access.need('delete')]));
    const rows = [{ id: '1', name: '一年级1班' }];
    // A new actions array and a new column each time, as a screen's useMemo does when one of its inputs changes.
    const table = () => (
      <Provider store={store}>
        <DataTable
          rowKey="id"
          data={rows}
          columns={[
            rowActionsColumn<(typeof rows)[number]>({
              pageKey: 'k12.org.class',
              header: '操作',
              actions: [{ action: 'delete', destructive: true, confirm: (r) => ({ title: `确定删除班级“${r.name}”吗？` }), onClick: vi.fn() }],
            }),
          ]}
        />
      </Provider>
    );
    const { rerender } = render(table());
    await userEvent.click(screen.getByRole('button', { name: '删除' }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent('确定删除班级“一年级1班”吗？');
    rerender(table());
    expect(screen.getByRole('alertdialog')).toHaveTextContent('确定删除班级“一年级1班”吗？');
  });
});
