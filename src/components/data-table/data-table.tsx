import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type CSSProperties, type RefObject, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { createPortal, flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { elementScroll, observeElementRect, useVirtualizer, Virtualizer, type VirtualizerOptions } from '@tanstack/react-virtual';
import { EmptyState } from '@/components/empty-state/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { useNarrowViewport } from '@/lib/use-narrow-viewport';
import { flexRender } from '@tanstack/react-table';
import { rowHeightAt, type ResolvedListSettings } from '@/domain/list-settings/list-settings';
import { useDataTable, type DataTableColumns, type RowData, type SortingState } from './data-table-features';
import { DENSITY_CELL_CLASS, settingsState } from './column-settings-state';
import { pinCellClass, pinOf, pinStyle, usePinnedOffsets, type PinSide } from './pinned-columns';
import {
  ALIGN,
  CLICKABLE_ROW_CLASS,
  DataTableHeader,
  ROW_CLASS,
  rowKeyHandler,
  VIRTUAL_CLICKABLE_ROW_CLASS,
  VIRTUAL_ROW_CLASS,
  virtualCellClasses,
  virtualGridTemplate,
} from './data-table-parts';
import { RowPool, type PoolCell } from './row-pool';
import { DataTablePagination, type DataTablePaginationState } from './data-table-pagination';
import { FlingTracker } from './fling';
import { DataTableCards } from './data-table-cards';
import { phoneScrollSides, type DataTablePhone } from './data-table-phone';

export interface DataTableProps<T extends RowData> {
  /** Column definitions; keep them stable (module scope or useMemo). Build them with `createDataTableColumnHelper<T>()`. */
  columns: DataTableColumns<T>;
  /** Rows of the current page (server paging) or the whole list (`virtual`). Keep the array stable between changes. */
  data?: readonly T[];
  /** Stable id of a row: a property name, or a function kept stable (module scope or useCallback). */
  rowKey: keyof T | ((row: T) => string | number);
  loading?: boolean;
  /** Server paging (docs/product-rules.md#lists). Omit for lists shown whole. */
  pagination?: DataTablePaginationState;
  /**
   * Server sorting: pass both to hand sorting to the server (rows arrive sorted). Without them,
   * sortable columns (`enableSorting: true`) sort the loaded rows in the browser.
   */
  sorting?: SortingState;
  onSortingChange?(sorting: SortingState): void;
  /**
   * Render only the rows in view (TanStack Virtual) for long lists such as 100k results. Rows have a
   * fixed height (`rowHeight`) and are never measured; give columns a `meta.width` (px numbers let cells out of
   * horizontal view be skipped) since the layout is fixed. Cell templates are called as plain functions here: no hooks.
   */
  virtual?: boolean;
  /** Height of the scroll area (px or CSS length). Needed for `virtual` (default 480); otherwise a max height. */
  height?: number | string;
  /** Row height in px for `virtual` mode at the default density (compact and loose rows are 8 px less and more). */
  rowHeight?: number;
  onRowClick?(row: T): void;
  /** Replaces the default empty state. */
  empty?: ReactNode;
  /** The user's column settings (hidden, order, pinned, density), resolved for these columns (ListScreen passes them). */
  settings?: ResolvedListSettings;
  /**
   * Below 768 px: rows as cards (the default; which columns a card shows) or `{ mode: 'scroll' }` for a wide numeric
   * table that scrolls sideways with its first column kept (data-table-phone.ts).
   */
  phone?: DataTablePhone;
  className?: string;
  'aria-label'?: string;
}

const NO_ROWS: readonly never[] = [];
const DEFAULT_VIRTUAL_HEIGHT = 480;
const DEFAULT_ROW_HEIGHT = 40;
// Rows rendered beyond each edge of the view: enough to hide a wheel step, few enough that a fling (every row new
// every frame) stays cheap.
const OVERSCAN = 1;
// How long after the last scroll event a fling counts as settled and the real rows are drawn.
const SETTLE_MS = 90;

/** Placeholder rows drawn as one background: a muted bar and the bottom border in every row's height. */
function placeholderRows(rowHeight: number): string {
  const bar = Math.round(rowHeight * 0.3);
  return [
    `repeating-linear-gradient(to bottom, transparent 0 ${rowHeight - 1}px, var(--color-border) ${rowHeight - 1}px ${rowHeight}px)`,
    `repeating-linear-gradient(to bottom, transparent 0 ${bar}px, var(--color-muted) ${bar}px ${rowHeight - bar}px, transparent ${rowHeight - bar}px ${rowHeight}px)`,
  ].join(', ');
}

/**
 * The product's one table: TanStack Table v9 + TanStack Virtual. Server paging with sizes 10/20/50/80,
 * quick jump and total (docs/product-rules.md#lists); client or server sorting; loading overlay; empty state; row click;
 * sticky header; `virtual` mode for 100k-row lists.
 */
export function DataTable<T extends RowData>({
  columns,
  data,
  rowKey,
  loading = false,
  pagination,
  sorting,
  onSortingChange,
  virtual = false,
  height,
  rowHeight: defaultRowHeight = DEFAULT_ROW_HEIGHT,
  onRowClick,
  empty,
  settings,
  phone,
  className,
  'aria-label': ariaLabel,
}: DataTableProps<T>) {
  const { t } = useTranslation('components');
  const scrollRef = useRef<HTMLDivElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const density = settings?.density ?? 'default';
  // The virtual rows' fixed size follows the density, so the scroll height and the rows drawn stay right.
  const rowHeight = rowHeightAt(defaultRowHeight, density);

  // getRowId changes only with rowKey: a new one would rebuild the row model, so pass a name or a stable function.
  const getRowId = useMemo(
    () => (row: T, index: number) => {
      const id = typeof rowKey === 'function' ? rowKey(row) : row[rowKey];
      return id === undefined || id === null ? String(index) : String(id);
    },
    [rowKey],
  );

  const serverSorting = sorting !== undefined && onSortingChange !== undefined;
  const columnState = useMemo(() => (settings ? settingsState(settings) : undefined), [settings]);
  const table = useDataTable({
    columns,
    data: (data ?? NO_ROWS) as readonly T[],
    getRowId,
    ...(serverSorting
      ? {
          manualSorting: true,
          state: { sorting, ...columnState },
          onSortingChange: (updater) => onSortingChange(typeof updater === 'function' ? updater(sorting) : updater),
        }
      : columnState
        ? { state: columnState }
        : {}),
  });

  const rows = table.getRowModel().rows;
  // The shown columns in their order: visible, pinned to the start first and to the end last (the header's order).
  const headerGroups = table.getHeaderGroups();
  const leafColumns = useMemo(() => headerGroups.at(-1)?.headers.map((h) => h.column) ?? [], [headerGroups]);
  const withSettings = settings !== undefined;
  const columnCount = leafColumns.length;
  const narrow = useNarrowViewport();
  const layout = !narrow ? 'table' : phone?.mode === 'scroll' ? 'scroll' : 'cards';
  const cards = layout === 'cards';
  const overflows = useSidewaysOverflow(scrollRef, tableRef, layout);
  const sides = useMemo(() => (layout === 'scroll' ? phoneScrollSides(leafColumns) : leafColumns.map((c) => pinOf(c, withSettings))), [leafColumns, layout, withSettings]);
  const scrollHeight = virtual ? (height ?? DEFAULT_VIRTUAL_HEIGHT) : height;
  const headerWidths = useHeaderWidths(tableRef, leafColumns, virtual && !cards);
  const gridTemplate = useMemo(() => (virtual ? virtualGridTemplate(leafColumns, headerWidths) : undefined), [virtual, leafColumns, headerWidths]);
  const cellClasses = useMemo(() => (virtual ? virtualCellClasses(leafColumns, sides) : null), [virtual, leafColumns, sides]);
  usePinnedOffsets(tableRef, sides, virtual ? leafColumns : data);
  const [fling] = useState(() => new FlingTracker());
  const [pool] = useState(() => new RowPool<T>());
  // Draws the rows in view into the pool (set after each render, called by the row virtualizer on every scroll step).
  const drawRows = useRef<(sync: boolean) => void>(() => {});
  // A render of the cells drawn by React (templates answering components), after the pool filled some.
  const [, renderComponentCells] = useReducer((n: number) => n + 1, 0);

  // Columns too: when the table is wider than its scroll area, body cells out of horizontal view are not rendered (a
  // fling through 100k rows costs style, layout and text shaping per cell). In that case every column is exactly its
  // least width, so the px widths place them; otherwise all fit and the window covers them all.
  const pxWidths = gridTemplate?.pxWidths ?? null;
  // Keyed by width too: the virtualizer keeps the sizes it estimated until its key function changes, and a header
  // measured wider than its declared width widens its column after the first render.
  const columnKey = useCallback((i: number) => `${i}:${pxWidths?.[i] ?? 0}`, [pxWidths]);
  // TanStack Virtual hands out fresh functions each render, so the React Compiler skips this component on purpose (it
  // also reads the pool's component cells in render).
  // eslint-disable-next-line react-hooks/incompatible-library
  const columnVirtualizer = useVirtualizer({
    horizontal: true,
    count: pxWidths ? pxWidths.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => pxWidths?.[i] ?? 0,
    getItemKey: columnKey,
    overscan: 1,
    enabled: pxWidths !== null && !cards,
    // Until the scroll area is measured, render every column rather than too few.
    initialRect: { width: pxWidths ? pxWidths.reduce((a, b) => a + b, 0) : 0, height: 0 },
  });
  // The rows' virtualizer re-renders nothing: a scroll step draws the rows straight into the pool (row-pool.ts). Made
  // after the columns' so its scroll listener runs last: the columns' reads the scroll area's size, which after the
  // pool's writes forced a layout inside the scroll handler (decision 014).
  const virtualizer = useRowVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scrollRef.current,
    // Fixed row height: nothing is measured per row, which keeps 100k rows cheap.
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    enabled: virtual && !cards,
    observeElementOffset: fling.observe,
    isScrollingResetDelay: SETTLE_MS,
    initialRect: { width: 0, height: typeof scrollHeight === 'number' ? scrollHeight : DEFAULT_VIRTUAL_HEIGHT },
    onChange: (_, sync) => drawRows.current(sync),
  });

  const columnItems = columnVirtualizer.getVirtualItems();
  const firstColumn = pxWidths ? (columnItems[0]?.index ?? 0) : 0;
  const lastColumn = pxWidths ? (columnItems.at(-1)?.index ?? columnCount - 1) : columnCount - 1;
  // The cells of every pooled row: the columns in horizontal view, and pinned ones out of it (always in view).
  const poolCells = useMemo(() => (cellClasses ? pooledCells(sides, columnCount, firstColumn, lastColumn) : []), [cellClasses, sides, columnCount, firstColumn, lastColumn]);
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const spacerRef = useRef<HTMLTableRowElement>(null);
  useLayoutEffect(() => {
    drawRows.current = (sync) => {
      if (!cellClasses) return;
      const inView = virtualizer.getVirtualItems();
      // Always the same number of rows (slots) from the first one wanted: the count in view changes by one with the
      // scroll position, and a constant count keeps each row on its slot (row-pool.ts).
      const viewHeight = virtualizer.scrollRect?.height ?? (typeof scrollHeight === 'number' ? scrollHeight : DEFAULT_VIRTUAL_HEIGHT);
      const slots = Math.max(inView.length, Math.ceil(viewHeight / rowHeight) + 2 * OVERSCAN + 1);
      // While flung (see FlingTracker) the rows last drawn stay as they are, where they were, now out of view (so
      // nothing is restyled and a focused row keeps focus), and the body's background shows placeholder rows.
      const first = fling.firstRowToDraw(inView[0]?.index ?? 0);
      pool.draw(first, slots, fling.flinging && rows.length > 0, placeholderRows(rowHeight));
      // In a scroll handler (sync) the cells drawn by React show in the same frame as the text.
      if (pool.takeComponentChanges()) {
        if (sync) flushSync(renderComponentCells);
        else renderComponentCells();
      }
    };
    pool.attach(bodyRef.current, spacerRef.current);
    if (cellClasses) {
      pool.configure({
        rows,
        columns: leafColumns,
        cellClasses,
        cells: poolCells,
        rowClass: onRowClick ? VIRTUAL_CLICKABLE_ROW_CLASS : VIRTUAL_ROW_CLASS,
        height: rowHeight,
        focusable: onRowClick !== undefined,
      });
    }
    drawRows.current(false);
  });

  const scrollStyle: CSSProperties | undefined =
    scrollHeight === undefined ? undefined : virtual ? { height: scrollHeight } : { maxHeight: scrollHeight };
  const showEmpty = !loading && rows.length === 0;
  const emptyRow =
    rows.length === 0 ? (
      <tr className={virtual ? 'block' : undefined}>
        <td colSpan={columnCount} className={cn('p-0', virtual && 'block')}>
          {showEmpty ? (empty ?? <EmptyState />) : <div className="h-40" />}
        </td>
      </tr>
    ) : null;

  let body: ReactNode;
  if (cards) {
    body = null;
  } else if (cellClasses) {
    // Virtual: the body is as tall as all rows and one empty spacer row above the rendered rows puts them in view, in
    // normal flow. No table layout (the table, its sections and rows are blocks and grids sharing one column
    // template), so a frame costs only the rows that change. The offset is the spacer's height, not the body's top
    // padding: a change to the body's own style restyled every row in it each frame (28 elements restyled instead of 52
    // when one new row enters; decision 014). Rows are deliberately not absolutely positioned (or
    // transformed) to their offsets: in Chromium that made each frame's style recalculation ≈ 30× dearer
    // (tests/bench/class-table-scroll.ts, fast fling: p50 67 ms against 17 ms). The rows themselves are the pool's
    // (row-pool.ts), drawn by the scroll handler; React renders the body, its spacer and the portals of component cells.
    // Arrow keys, Home and End move between focusable rows, scrolling the next one into view first when needed.
    const onBodyKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
      const from = (e.target as HTMLElement).closest('[data-slot=data-table-row]');
      if (!onRowClick || !from) return;
      const current = Number(from.getAttribute('aria-rowindex')) - 2;
      // Enter or Space on a row (or in it) acts as a click, as on a paged table's row (rowKeyHandler).
      if (e.key === 'Enter' || e.key === ' ') {
        const row = rows[current];
        if (row) rowKeyHandler(onRowClick, row.original)?.(e);
        return;
      }
      const next = { ArrowDown: current + 1, ArrowUp: current - 1, Home: 0, End: rows.length - 1 }[e.key];
      if (next === undefined || next < 0 || next >= rows.length || next === current) return;
      e.preventDefault();
      const body = e.currentTarget;
      const focusNext = (tries: number) => {
        const target = body.querySelector<HTMLElement>(`[data-slot=data-table-row][aria-rowindex="${next + 2}"]`);
        if (target) target.focus({ preventScroll: true });
        else if (tries > 0) requestAnimationFrame(() => focusNext(tries - 1));
      };
      virtualizer.scrollToIndex(next, { align: 'auto' });
      focusNext(10);
    };
    // A click anywhere in a row (the rows are the pool's, not React's) opens its record.
    const onBodyClick = (e: MouseEvent<HTMLTableSectionElement>) => {
      const from = (e.target as HTMLElement).closest('[data-slot=data-table-row]');
      const row = from ? rows[Number(from.getAttribute('aria-rowindex')) - 2] : undefined;
      if (onRowClick && row) onRowClick(row.original);
    };
    body = (
      <tbody
        ref={bodyRef}
        data-slot="data-table-body"
        onKeyDown={onRowClick ? onBodyKeyDown : undefined}
        onClick={onRowClick ? onBodyClick : undefined}
        className="relative block"
        // One line of text centred in each row (the 1 px is the row's bottom border), inherited by every cell. The
        // placeholder background of a fling is the pool's to set (row-pool.ts).
        style={rows.length > 0 ? { height: virtualizer.getTotalSize(), contain: 'strict', lineHeight: `${rowHeight - 1}px` } : undefined}
      >
        {/* The rows drawn are the pool's (row-pool.ts), after this spacer whose height (set by the pool) puts them in view. */}
        <tr ref={spacerRef} aria-hidden data-slot="data-table-spacer" className="block" />
        {pool.componentCellList().map(([cell, content, key]) => createPortal(content, cell, key))}
        {emptyRow}
      </tbody>
    );
  } else {
    body = (
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.id}
            data-slot="data-table-row"
            tabIndex={onRowClick ? 0 : undefined}
            onClick={onRowClick ? () => onRowClick(row.original) : undefined}
            onKeyDown={rowKeyHandler(onRowClick, row.original)}
            className={cn(ROW_CLASS, 'transition-colors last:border-b-0', onRowClick && CLICKABLE_ROW_CLASS)}
          >
            {row.getVisibleCells().map((cell, i) => {
              const meta = cell.column.columnDef.meta;
              return (
                <td
                  key={cell.id}
                  style={pinStyle(sides[i], i)}
                  className={cn('px-3 align-middle', DENSITY_CELL_CLASS[density], meta?.align && ALIGN[meta.align], pinCellClass(sides[i], false), meta?.className, meta?.cellClass?.(row.original))}
                >
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              );
            })}
          </tr>
        ))}
        {emptyRow}
      </tbody>
    );
  }

  return (
    <div data-slot="data-table" className={cn('flex w-full flex-col', className)}>
      <div className="relative overflow-hidden rounded-md border border-border bg-card">
        {cards ? (
          <DataTableCards
            rows={rows}
            columns={leafColumns}
            headers={table.getLeafHeaders()}
            phone={phone}
            virtual={virtual}
            height={height}
            loading={loading}
            empty={empty ?? <EmptyState />}
            onRowClick={onRowClick}
            aria-label={ariaLabel}
          />
        ) : (
          <div
            ref={scrollRef}
            data-slot="data-table-scroll"
            // Virtual: focusable from code only, to take focus from a row whose slot scrolls away (row-pool.ts). A
            // phone's sideways-scrolling table is a region in the tab order, so the keys can scroll it too.
            // A desktop table wider than its area (a log's long routes) scrolls sideways: a region in the tab order too
            // (axe scrollable-region-focusable).
            tabIndex={layout === 'scroll' || (overflows && !virtual) ? 0 : virtual ? -1 : undefined}
            role={layout === 'scroll' || (overflows && !virtual) ? 'region' : undefined}
            aria-label={layout === 'scroll' || (overflows && !virtual) ? ariaLabel : undefined}
            className={cn('relative w-full overflow-auto outline-none', (layout === 'scroll' || overflows) && 'focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset')}
            style={scrollStyle}
          >
            <table
              ref={tableRef}
              data-density={settings ? density : undefined}
              aria-label={ariaLabel}
              aria-busy={loading || undefined}
              aria-rowcount={virtual ? rows.length + 1 : undefined}
              // break-keep: a Chinese name (七年级2班, 风雨操场) wraps as a whole, never inside itself, when the columns are
              // tight; text still wraps at spaces and after punctuation, and a wider table scrolls in its own area. On a
              // phone that scrolls sideways nothing wraps: the table grows wide and scrolls under its first column.
              className={cn('w-full caption-bottom border-collapse text-sm break-keep', virtual && 'block', layout === 'scroll' && 'whitespace-nowrap')}
              // Virtual: the column template shared by all rows; as wide as the scroll area, at least the columns' widths.
              style={gridTemplate ? ({ '--dt-cols': gridTemplate.template, minWidth: gridTemplate.minWidth } as CSSProperties) : undefined}
            >
              <DataTableHeader headerGroups={headerGroups} sorting={table.state.sorting} virtual={virtual} sides={sides} />
              {body}
            </table>
          </div>
        )}
        {loading ? (
          <div
            data-slot="data-table-loading"
            className="absolute inset-0 z-20 flex items-center justify-center bg-background/60 backdrop-blur-[1px]"
          >
            <Spinner label={t('dataTable.loading')} />
          </div>
        ) : null}
      </div>
      {pagination ? <DataTablePagination {...pagination} disabled={loading} /> : null}
    </div>
  );
}

export { CELL_TEXT } from './data-table-parts';
export { createDataTableColumnHelper, type DataTableCellContext, type DataTableColumnMeta, type DataTableColumns, type RowData, type SortingState } from './data-table-features';
export type { DataTablePaginationState } from './data-table-pagination';
export type { DataTablePhone } from './data-table-phone';

/** The cells of a pooled row: each column in horizontal view, and pinned columns out of it (always in view). */
function pooledCells(sides: readonly PinSide[], count: number, firstColumn: number, lastColumn: number): PoolCell[] {
  // A cell after skipped columns starts at its own grid track; the skipped ones leave their tracks empty.
  const placed = (i: number): CSSProperties => ({ gridColumnStart: i + 1, ...pinStyle(sides[i], i) });
  const cells: PoolCell[] = [];
  for (let i = 0; i < Math.min(firstColumn, count); i++) if (sides[i]) cells.push({ column: i, style: placed(i) });
  for (let i = firstColumn; i <= Math.min(lastColumn, count - 1); i++) cells.push({ column: i, style: i === firstColumn && i > 0 ? placed(i) : pinStyle(sides[i], i) });
  for (let i = lastColumn + 1; i < count; i++) if (sides[i]) cells.push({ column: i, style: placed(i) });
  return cells;
}

/**
 * TanStack Virtual's virtualizer without a React render on every change (useVirtualizer re-renders the component each
 * time the rows in view change): `onChange` draws the rows itself (decision 014).
 */
function useRowVirtualizer(options: Omit<VirtualizerOptions<HTMLDivElement, Element>, 'observeElementRect' | 'scrollToFn'>): Virtualizer<HTMLDivElement, Element> {
  const resolved: VirtualizerOptions<HTMLDivElement, Element> = { observeElementRect, scrollToFn: elementScroll, ...options };
  const [instance] = useState(() => new Virtualizer(resolved));
  instance.setOptions(resolved);
  useLayoutEffect(() => instance._didMount(), [instance]);
  useLayoutEffect(() => instance._willUpdate());
  return instance;
}

/** Whether the table is wider than its scroll area (checked again when either is resized or the layout changes). */
function useSidewaysOverflow(area: RefObject<HTMLDivElement | null>, table: RefObject<HTMLTableElement | null>, layout: string): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = area.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const check = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    if (table.current) observer.observe(table.current);
    return () => observer.disconnect();
  }, [area, table, layout]);
  return overflows;
}

/**
 * The width each virtual column's header needs on one line (its content and padding), in display order: measured when
 * the columns change (another language, the user's settings) and again when a header's content changes size (a web
 * font arriving), never while scrolling. Virtual rows share one fixed column template (decision 014) that no header
 * can stretch, so the template takes these as least widths (virtualGridTemplate) and headers never overlap.
 */
function useHeaderWidths(table: RefObject<HTMLTableElement | null>, columns: readonly unknown[], enabled: boolean): readonly number[] | undefined {
  const [widths, setWidths] = useState<readonly number[]>();
  useLayoutEffect(() => {
    const cells = enabled && table.current ? [...table.current.querySelectorAll<HTMLElement>('thead > tr:last-child > th')] : [];
    if (cells.length === 0) return;
    const measure = () => {
      const next = cells.map((th) => {
        const content = th.firstElementChild;
        if (!content) return 0;
        const style = getComputedStyle(th);
        const padding = (parseFloat(style.paddingLeft) || 0) + (parseFloat(style.paddingRight) || 0);
        return Math.ceil(content.getBoundingClientRect().width + padding);
      });
      setWidths((prev) => (prev?.length === next.length && prev.every((w, i) => w === next[i]) ? prev : next));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    for (const th of cells) if (th.firstElementChild) observer.observe(th.firstElementChild);
    return () => observer.disconnect();
  }, [table, columns, enabled]);
  return widths;
}
