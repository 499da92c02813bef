import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { describe, expect, it, vi } from 'vitest';
import { pageAccess } from '@/domain/menus/access';
import { RowActions } from '@/components/list/row-actions';
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
