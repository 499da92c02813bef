import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageAccess } from '@/domain/menus/access';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { rowActionsColumn } from '@/components/list/row-actions';
import { Badge } from '@/components/ui/badge';
import { FormDialog } from '@/components/form/form-dialog';
import { TextField } from '@/components/form/fields';
import { permissionsAtom } from '@/lib/permissions';
import { z } from 'zod';

interface Student {
  id: string;
  name: string;
  regNo: string;
  className: string;
  gender: string;
  status: string;
  note: string;
}

const access = pageAccess('k12.org.class');
const col = createDataTableColumnHelper<Student>();
const ROWS: Student[] = [
  { id: '1', name: '李思颖', regNo: 'G320102202006204302', className: '一年级1班', gender: '女', status: '在读', note: '左撇子' },
  { id: '2', name: '刘博涛', regNo: 'G320102202007012636', className: '一年级1班', gender: '男', status: '休学', note: '' },
];

/** The viewport as the app's media query sees it: phone-narrow (below 768 px) or not. */
function viewport(narrow: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: narrow && query.includes('max-width'), media: query, addEventListener: vi.fn(), removeEventListener: vi.fn() })),
  );
}

function renderList(onEdit = vi.fn()) {
  const store = createStore();
  store.set(permissionsAtom, new Set([access.need('edit'), access.need('delete')]));
  const columns = col.columns([
    col.accessor('name', { header: '姓名' }),
    col.accessor('regNo', { header: '学籍号' }),
    col.accessor('className', { header: '班级' }),
    col.accessor('gender', { header: '性别' }),
    col.accessor('status', { header: '状态', cell: ({ getValue }) => <Badge data-testid="status-badge">{getValue()}</Badge> }),
    col.accessor('note', { header: '备注' }),
    rowActionsColumn<Student>({
      pageKey: 'k12.org.class',
      header: '操作',
      actions: [
        { action: 'edit', onClick: onEdit },
        { action: 'delete', destructive: true, onClick: vi.fn() },
      ],
    }),
  ]);
  render(
    <Provider store={store}>
      <DataTable aria-label="学生" columns={columns} data={ROWS} rowKey="id" />
    </Provider>,
  );
  return { onEdit };
}

afterEach(() => vi.unstubAllGlobals());

describe('DataTable on a phone', () => {
  it('shows each row as a card: the whole name as title, its badge, key fields as label: value lines, the rest folded', () => {
    viewport(true);
    renderList();
    expect(screen.queryByRole('table')).toBeNull();
    const cards = screen.getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const first = within(cards[0]);
    expect(cards[0].querySelector('[data-slot=data-table-card-title]')).toHaveTextContent('李思颖');
    expect(cards[0].querySelector('[data-slot=data-table-card-badge]')).toHaveTextContent('在读');
    // The three columns after the title are lines; the badge is not repeated as a line.
    const lines = [...cards[0].querySelectorAll(':scope > dl dt')].map((dt) => dt.textContent);
    expect(lines).toEqual(['学籍号', '班级', '性别']);
    expect(first.getByText('G320102202006204302')).toBeVisible();
    // The note is folded under "All fields".
    expect(first.getByText('全部字段')).toBeInTheDocument();
    expect(cards[0].querySelector('details dt')).toHaveTextContent('备注');
  });

  it("puts the row's actions in one menu", async () => {
    viewport(true);
    const { onEdit } = renderList();
    const card = screen.getAllByRole('listitem')[1];
    // No inline buttons on the card: one trigger named for the actions.
    expect(within(card).queryByRole('button', { name: '编辑' })).toBeNull();
    await userEvent.click(within(card).getByRole('button', { name: '操作' }));
    const menu = await screen.findByRole('menu');
    await userEvent.click(within(menu).getByRole('menuitem', { name: '编辑' }));
    expect(onEdit).toHaveBeenCalledWith(ROWS[1]);
  });

  it('a list may choose the sideways-scrolling table, its first column kept in view', () => {
    viewport(true);
    const columns = col.columns([col.accessor('name', { header: '姓名' }), col.accessor('regNo', { header: '学籍号' })]);
    render(<DataTable aria-label="成绩" columns={columns} data={ROWS} rowKey="id" phone={{ mode: 'scroll' }} />);
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: '成绩' })).toHaveAttribute('tabindex', '0');
    // kept at the start edge (pinned-columns.ts: sticky, its offset from the start measured after layout)
    const name = screen.getByRole('cell', { name: '李思颖' });
    expect(name).toHaveClass('sticky');
    expect(name.style.left).toBe('var(--dt-pin-0, 0px)');
    expect(screen.getByRole('cell', { name: 'G320102202006204302' })).not.toHaveClass('sticky');
  });

  it('is the table, actions as buttons, from 768 px up', () => {
    viewport(false);
    renderList();
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
    expect(screen.getAllByRole('button', { name: '编辑' })).toHaveLength(2);
  });
});

describe('a dialog on a phone', () => {
  it('is a full-screen sheet below 768 px and keeps its width classes for wider screens', () => {
    render(
      <FormDialog open onOpenChange={() => {}} schema={z.object({ name: z.string() })} defaults={{ name: '' }} title="调班" submit={async () => null}>
        {() => <TextField name="name" label="姓名" />}
      </FormDialog>,
    );
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveClass('max-md:inset-0!', 'max-md:h-dvh!', 'max-md:max-w-none!', 'sm:max-w-lg');
  });
});
