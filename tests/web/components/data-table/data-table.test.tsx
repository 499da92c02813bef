import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler } from 'react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { pageItems } from '@/components/data-table/data-table-pagination';
import { i18next } from '@/lib/i18n';

interface Student {
  id: string;
  name: string;
  score: number;
}

const col = createDataTableColumnHelper<Student>();
const columns = col.columns([
  col.accessor('name', { header: '姓名' }),
  col.accessor('score', { header: '成绩', enableSorting: true, meta: { align: 'right' } }),
]);

const students: Student[] = [
  { id: 's1', name: '张三', score: 72 },
  { id: 's2', name: '李四', score: 95 },
  { id: 's3', name: '王五', score: 88 },
];

const bodyRows = () =>
  screen.getAllByRole<HTMLTableRowElement>('row').filter((r) => r.getAttribute('data-slot') === 'data-table-row');

describe('DataTable', () => {
  it('renders the rows and calls onRowClick with the record', async () => {
    const onRowClick = vi.fn();
    render(<DataTable columns={columns} data={students} rowKey="id" onRowClick={onRowClick} />);
    expect(bodyRows()).toHaveLength(3);
    await userEvent.click(screen.getByText('李四'));
    expect(onRowClick).toHaveBeenCalledWith(students[1]);
  });

  it('sorts sortable columns in the browser when the server does not sort', async () => {
    render(<DataTable columns={columns} data={students} rowKey="id" />);
    const scoreHeader = screen.getByRole('columnheader', { name: /成绩/ });
    await userEvent.click(within(scoreHeader).getByRole('button'));
    expect(bodyRows().map((r) => r.cells[1].textContent)).toEqual(['72', '88', '95']);
    expect(scoreHeader).toHaveAttribute('aria-sort', 'ascending');
    await userEvent.click(within(scoreHeader).getByRole('button'));
    expect(bodyRows().map((r) => r.cells[1].textContent)).toEqual(['95', '88', '72']);
    // Columns without enableSorting are plain text.
    expect(within(screen.getByRole('columnheader', { name: '姓名' })).queryByRole('button')).toBeNull();
  });

  it('hands sorting to the server when sorting and onSortingChange are given', async () => {
    const onSortingChange = vi.fn();
    render(<DataTable columns={columns} data={students} rowKey="id" sorting={[]} onSortingChange={onSortingChange} />);
    await userEvent.click(within(screen.getByRole('columnheader', { name: /成绩/ })).getByRole('button'));
    expect(onSortingChange).toHaveBeenCalledWith([{ id: 'score', desc: false }]);
    // Rows keep the server's order.
    expect(bodyRows().map((r) => r.cells[0].textContent)).toEqual(['张三', '李四', '王五']);
  });

  it('shows the empty state without rows and a loading overlay while loading', () => {
    const { rerender } = render(<DataTable columns={columns} data={[]} rowKey="id" />);
    expect(screen.getByText(i18next.t('components:empty.title'))).toBeInTheDocument();
    rerender(<DataTable columns={columns} data={students} rowKey="id" loading />);
    expect(screen.getByRole('status', { name: i18next.t('components:dataTable.loading') })).toBeInTheDocument();
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
  });
});

describe('DataTable server paging (docs/product-rules.md#lists)', () => {
  const setup = (current = 1, size = 10, total = 95) => {
    const onChange = vi.fn();
    render(<DataTable columns={columns} data={students} rowKey="id" pagination={{ current, size, total, onChange }} />);
    return onChange;
  };

  it('shows the total count', () => {
    setup();
    expect(screen.getByText(i18next.t('components:dataTable.total', { total: 95 }))).toBeInTheDocument();
    expect(screen.getByText('共 95 条')).toBeInTheDocument();
  });

  it('next and previous pages call onChange', async () => {
    const onChange = setup(2);
    await userEvent.click(screen.getByRole('button', { name: i18next.t('components:dataTable.next') }));
    expect(onChange).toHaveBeenLastCalledWith(3, 10);
    await userEvent.click(screen.getByRole('button', { name: i18next.t('components:dataTable.prev') }));
    expect(onChange).toHaveBeenLastCalledWith(1, 10);
    await userEvent.click(screen.getByRole('button', { name: i18next.t('components:dataTable.pageN', { page: 10 }) }));
    expect(onChange).toHaveBeenLastCalledWith(10, 10);
  });

  it('previous is disabled on the first page, next on the last', () => {
    setup(1, 10, 10);
    expect(screen.getByRole('button', { name: i18next.t('components:dataTable.prev') })).toBeDisabled();
    expect(screen.getByRole('button', { name: i18next.t('components:dataTable.next') })).toBeDisabled();
  });

  it('choosing page size 20 calls onChange with page 1 and size 20', async () => {
    const onChange = setup(3);
    await userEvent.click(screen.getByRole('combobox', { name: i18next.t('components:dataTable.pageSize') }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['10 条/页', '20 条/页', '50 条/页', '80 条/页']);
    await userEvent.click(screen.getByRole('option', { name: '20 条/页' }));
    expect(onChange).toHaveBeenCalledWith(1, 20);
  });

  it('quick jump goes to the typed page on Enter, clamped to the last page', async () => {
    const onChange = setup();
    const jump = screen.getByRole('textbox', { name: i18next.t('components:dataTable.jumpInput') });
    await userEvent.type(jump, '7{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(7, 10);
    expect(jump).toHaveValue('');
    await userEvent.type(jump, '99{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(10, 10);
  });

  it('lists pages with jumps around the current one', () => {
    expect(pageItems(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 4, 5, 'jump-next', 20]);
    expect(pageItems(10, 20)).toEqual([1, 'jump-prev', 8, 9, 10, 11, 12, 'jump-next', 20]);
    expect(pageItems(20, 20)).toEqual([1, 'jump-prev', 16, 17, 18, 19, 20]);
  });
});

describe('DataTable virtual mode', () => {
  const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
  const clientWidth = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
  beforeEach(() => {
    // jsdom lays nothing out: give the scroll area its size so the virtualizers see a viewport.
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 400 });
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 600 });
  });
  afterEach(() => {
    if (clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight);
    if (clientWidth) Object.defineProperty(HTMLElement.prototype, 'clientWidth', clientWidth);
  });

  const many: Student[] = Array.from({ length: 10_000 }, (_, i) => ({ id: `s${i}`, name: `学生${i}`, score: i % 100 }));
  const scrollTo = (scroller: HTMLElement, axis: 'scrollTop' | 'scrollLeft', px: number) => {
    // jsdom does not scroll: set the offset the virtualizer reads, then tell it.
    Object.defineProperty(scroller, axis, { configurable: true, writable: true, value: px });
    fireEvent.scroll(scroller);
  };

  it('renders far fewer DOM rows than data rows for 10,000 rows', () => {
    render(<DataTable columns={columns} data={many} rowKey="id" virtual height={400} rowHeight={40} />);
    const rendered = bodyRows();
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThan(50);
    expect(rendered[0]).toHaveTextContent('学生0');
    // The body keeps the full scroll height (10,000 × 40 px); a spacer above the rendered rows puts them in view.
    const body = screen.getByRole('table').querySelector('[data-slot=data-table-body]') as HTMLElement;
    expect(parseInt(body.style.height, 10)).toBe(10_000 * 40);
    expect((body.querySelector('[data-slot=data-table-spacer]') as HTMLElement).style.height).toBe('0px');
    expect(rendered[1]).toHaveAttribute('aria-rowindex', '3');
  });

  it("scrolls by the spacer row's height and leaves the body's own style alone (a change to it restyles every row)", () => {
    render(<DataTable columns={columns} data={many} rowKey="id" virtual height={400} rowHeight={40} />);
    const scroller = screen.getByRole('table').parentElement as HTMLElement;
    const body = screen.getByRole('table').querySelector('[data-slot=data-table-body]') as HTMLElement;
    const style = body.getAttribute('style');
    act(() => scrollTo(scroller, 'scrollTop', 4_000));
    const spacer = body.querySelector('[data-slot=data-table-spacer]') as HTMLElement;
    // Row 100 is at the top of the view, one row of overscan above it.
    expect(bodyRows()[0]).toHaveTextContent('学生99');
    expect(spacer.style.height).toBe(`${99 * 40}px`);
    expect(spacer).toHaveAttribute('aria-hidden', 'true');
    expect(body.getAttribute('style')).toBe(style);
  });

  it('keeps sorting and row clicks in virtual mode', async () => {
    const onRowClick = vi.fn();
    render(<DataTable columns={columns} data={students} rowKey="id" virtual height={400} rowHeight={40} onRowClick={onRowClick} />);
    await userEvent.click(within(screen.getByRole('columnheader', { name: /成绩/ })).getByRole('button'));
    expect(bodyRows().map((r) => r.cells[1].textContent)).toEqual(['72', '88', '95']);
    await userEvent.click(screen.getByText('李四'));
    expect(onRowClick).toHaveBeenCalledWith(students[1]);
  });

  it('colours a cell from its row (meta.cellClass) on the cell itself, in virtual and paged mode alike', () => {
    // A failing score in red, as the class table colours levels: the cell keeps its text as plain text.
    const toned = col.columns([
      col.accessor('name', { header: '姓名' }),
      col.accessor('score', { header: '成绩', meta: { cellClass: (r: Student) => (r.score < 80 ? 'text-destructive' : undefined) } }),
    ]);
    const scoreCell = (name: string) => bodyRows().find((r) => r.textContent?.includes(name))!.cells[1];
    const { unmount } = render(<DataTable columns={toned} data={students} rowKey="id" virtual height={400} rowHeight={40} />);
    expect(scoreCell('张三')).toHaveClass('text-destructive');
    expect(scoreCell('张三').children).toHaveLength(0);
    expect(scoreCell('李四')).not.toHaveClass('text-destructive');
    unmount();
    render(<DataTable columns={toned} data={students} rowKey="id" />);
    expect(scoreCell('张三')).toHaveClass('text-destructive');
    expect(scoreCell('王五')).not.toHaveClass('text-destructive');
  });

  it('draws only the cells in horizontal view of a table wider than its scroll area', () => {
    const wide = col.columns(
      Array.from({ length: 10 }, (_, i) => col.accessor((r) => `${r.name}-${i}`, { id: `c${i}`, header: `列${i}`, meta: { width: 200 } })),
    );
    render(<DataTable columns={wide} data={many} rowKey="id" virtual height={400} rowHeight={40} />);
    // Every header, but only the cells of the columns in view (600 px of 2,000, and one more each side).
    expect(screen.getAllByRole('columnheader')).toHaveLength(10);
    expect(bodyRows()[0].cells.length).toBeLessThan(6);
    expect(bodyRows()[0]).toHaveTextContent('学生0-0');
    expect(bodyRows()[0]).not.toHaveTextContent('学生0-9');

    const scroller = screen.getByRole('table').parentElement as HTMLElement;
    act(() => scrollTo(scroller, 'scrollLeft', 1400));
    const row = bodyRows()[0];
    expect(row).toHaveTextContent('学生0-9');
    expect(row).not.toHaveTextContent('学生0-0');
    // The first cell drawn sits in its own column of the shared grid.
    expect(row.cells[0].style.gridColumnStart).not.toBe('');
  });

  it('keeps the cells of the columns still in view when the table scrolls sideways, and draws the new ones in order', () => {
    const wide = col.columns(
      Array.from({ length: 10 }, (_, i) => col.accessor((r) => `${r.name}-${i}`, { id: `c${i}`, header: `列${i}`, meta: { width: 200 } })),
    );
    render(<DataTable columns={wide} data={many} rowKey="id" virtual height={400} rowHeight={40} />);
    const scroller = screen.getByRole('table').parentElement as HTMLElement;
    const cellOf = (row: HTMLTableRowElement, column: number) => [...row.cells].find((c) => c.textContent === `学生0-${column}`);
    const kept = cellOf(bodyRows()[0], 2);
    expect(kept).toBeDefined();
    act(() => scrollTo(scroller, 'scrollLeft', 400));
    const row = bodyRows()[0];
    expect(cellOf(row, 2)).toBe(kept);
    const shown = [...row.cells].map((c) => Number(c.textContent?.split('-')[1]));
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    expect(shown.at(-1)).toBeGreaterThan(4);
    expect(row.cells[0].style.gridColumnStart).toBe(String(shown[0]! + 1));
  });

  it('shows placeholder rows while flung and draws the rows where the scroll stops', async () => {
    render(<DataTable columns={columns} data={many} rowKey="id" virtual height={400} rowHeight={40} />);
    const scroller = screen.getByRole('table').parentElement as HTMLElement;
    const body = screen.getByRole('table').querySelector('[data-slot=data-table-body]') as HTMLElement;

    // One long jump (Page Down, a click on the scrollbar track) draws its rows at once.
    act(() => scrollTo(scroller, 'scrollTop', 4_000));
    expect(body).not.toHaveAttribute('data-flinging');
    expect(bodyRows()[0]).toHaveTextContent('学生99');

    // Two long steps in a row are a fling: placeholders in view, the rows drawn last left as they were.
    act(() => scrollTo(scroller, 'scrollTop', 40_000));
    act(() => scrollTo(scroller, 'scrollTop', 80_000));
    expect(body).toHaveAttribute('data-flinging');
    expect(body.style.backgroundImage).toContain('repeating-linear-gradient');
    expect(bodyRows()[0]).toHaveTextContent('学生99');

    // When the scroll settles, the rows at the new place are drawn.
    await vi.waitFor(() => expect(body).not.toHaveAttribute('data-flinging'));
    expect(bodyRows().some((r) => r.textContent?.includes('学生2000'))).toBe(true);
    expect(body.style.backgroundImage).toBe('');
  });

  it('draws every step of a scroll slower than half a view a step', () => {
    render(<DataTable columns={columns} data={many} rowKey="id" virtual height={400} rowHeight={40} />);
    const scroller = screen.getByRole('table').parentElement as HTMLElement;
    const body = screen.getByRole('table').querySelector('[data-slot=data-table-body]') as HTMLElement;
    for (let top = 150; top <= 1_500; top += 150) {
      act(() => scrollTo(scroller, 'scrollTop', top));
      expect(body).not.toHaveAttribute('data-flinging');
    }
    expect(bodyRows().some((r) => r.textContent?.includes('学生37'))).toBe(true);
  });

  it('moves focus between rows with the arrow keys, Home and End, scrolling the row into view', async () => {
    // jsdom has no Element.scrollTo: one that sets the offset and reports it, as a browser's would.
    Object.defineProperty(HTMLElement.prototype, 'scrollTo', {
      configurable: true,
      value(this: HTMLElement, options?: ScrollToOptions) {
        if (options?.top !== undefined) scrollTo(this, 'scrollTop', options.top);
      },
    });
    onTestFinished(() => void delete (HTMLElement.prototype as Partial<HTMLElement>).scrollTo);
    const onRowClick = vi.fn();
    render(<DataTable columns={columns} data={many} rowKey="id" virtual height={400} rowHeight={40} onRowClick={onRowClick} />);
    // … and the content height the virtualizer clamps scrolling to.
    Object.defineProperty(screen.getByRole('table').parentElement, 'scrollHeight', { configurable: true, value: 10_000 * 40 + 40 });
    bodyRows()[0].focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toHaveTextContent('学生1');
    await userEvent.keyboard('{End}');
    await vi.waitFor(() => expect(document.activeElement).toHaveTextContent('学生9999'));
    await userEvent.keyboard('{Enter}');
    expect(onRowClick).toHaveBeenCalledWith(many[9_999]);
    await userEvent.keyboard('{Home}');
    await vi.waitFor(() => expect(document.activeElement).toHaveTextContent('学生0'));
  });

  it('draws a scroll step without a React render, and a row entering at either end moves only that row', () => {
    // The rows are a pool filled straight from the row model (decision 014): a frame costs the rows that enter the view.
    const commits = vi.fn();
    render(
      <Profiler id="table" onRender={commits}>
        <DataTable columns={columns} data={many} rowKey="id" virtual height={400} rowHeight={40} />
      </Profiler>,
    );
    const scroller = screen.getByRole('table').parentElement as HTMLElement;
    const body = screen.getByRole('table').querySelector('[data-slot=data-table-body]') as HTMLElement;
    act(() => scrollTo(scroller, 'scrollTop', 4_000));
    const moved = vi.fn();
    const observer = new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach(() => moved())));
    observer.observe(body, { childList: true });
    const rendersBefore = commits.mock.calls.length;
    const shownBefore = bodyRows().find((r) => r.textContent?.includes('学生105'));
    // One row down, then one row up: each step brings one new row at one end.
    act(() => scrollTo(scroller, 'scrollTop', 4_040));
    expect(bodyRows()[0]).toHaveTextContent('学生100');
    expect(bodyRows().at(-1)).toHaveTextContent(`学生${100 + bodyRows().length - 1}`);
    act(() => scrollTo(scroller, 'scrollTop', 4_000));
    expect(bodyRows()[0]).toHaveTextContent('学生99');
    observer.takeRecords().forEach((r) => r.addedNodes.forEach(() => moved()));
    observer.disconnect();
    expect(moved).toHaveBeenCalledTimes(2);
    expect(commits.mock.calls.length).toBe(rendersBefore);
    // A row that stayed in view kept its element, and every row shows its own record in order.
    expect(bodyRows().find((r) => r.textContent?.includes('学生105'))).toBe(shownBefore);
    bodyRows().forEach((r, i) => {
      expect(r).toHaveAttribute('aria-rowindex', String(99 + i + 2));
      expect(r.cells[0]).toHaveTextContent(new RegExp(`^学生${99 + i}$`));
    });
  });

  it('draws cells with components (a link) in pooled rows, and clicks and keys act on the record the row shows after a scroll', async () => {
    const linked = col.columns([
      col.accessor('name', { header: '姓名', cell: ({ row, getValue }) => <a href={`/students/${row.original.id}`}>{getValue()}</a> }),
      col.accessor('score', { header: '成绩', meta: { align: 'right' } }),
    ]);
    const onRowClick = vi.fn();
    render(<DataTable columns={linked} data={many} rowKey="id" virtual height={400} rowHeight={40} onRowClick={onRowClick} />);
    expect(within(bodyRows()[0]).getByRole('link', { name: '学生0' })).toHaveAttribute('href', '/students/s0');
    const scroller = screen.getByRole('table').parentElement as HTMLElement;
    act(() => scrollTo(scroller, 'scrollTop', 4_000));
    // Every drawn row's link is its own record's, one link a row.
    bodyRows().forEach((r) => {
      const index = Number(r.getAttribute('aria-rowindex')) - 2;
      expect(within(r).getAllByRole('link')).toHaveLength(1);
      expect(within(r).getByRole('link')).toHaveAttribute('href', `/students/s${index}`);
      expect(r.cells[1]).toHaveTextContent(String(index % 100));
    });
    const row = bodyRows().find((r) => r.getAttribute('aria-rowindex') === '103')!;
    await userEvent.click(row.cells[1]);
    expect(onRowClick).toHaveBeenLastCalledWith(many[101]);
    row.focus();
    await userEvent.keyboard('{Enter}');
    expect(onRowClick).toHaveBeenLastCalledWith(many[101]);
    expect(onRowClick).toHaveBeenCalledTimes(2);
  });

  it('draws the pooled rows again in the new order when sorted after a scroll', async () => {
    render(<DataTable columns={columns} data={many} rowKey="id" virtual height={400} rowHeight={40} />);
    const scroller = screen.getByRole('table').parentElement as HTMLElement;
    act(() => scrollTo(scroller, 'scrollTop', 4_000));
    await userEvent.click(within(screen.getByRole('columnheader', { name: /成绩/ })).getByRole('button'));
    // Sorted by score ascending (ties in the data's order): 100 students per score, so rows 99… are score 0 and 1.
    const sorted = [...many].sort((a, b) => a.score - b.score);
    bodyRows().forEach((r) => {
      const index = Number(r.getAttribute('aria-rowindex')) - 2;
      expect(r.cells[0]).toHaveTextContent(new RegExp(`^${sorted[index]!.name}$`));
      expect(r.cells[1]).toHaveTextContent(new RegExp(`^${sorted[index]!.score}$`));
    });
  });

  it('takes focus off a row whose slot scrolls away to show another record', () => {
    render(<DataTable columns={columns} data={many} rowKey="id" virtual height={400} rowHeight={40} onRowClick={vi.fn()} />);
    const scroller = screen.getByRole('table').parentElement as HTMLElement;
    bodyRows()[0].focus();
    act(() => scrollTo(scroller, 'scrollTop', 4_000));
    expect(document.activeElement).toBe(scroller);
  });
});
