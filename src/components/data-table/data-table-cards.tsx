import { useRef, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useVirtualizer } from '@tanstack/react-virtual';
import { flexRender, type Column, type Header, type Row } from '@tanstack/react-table';
import { ChevronRight } from 'lucide-react';
import { cn } from '@/lib/cn';
import type { DataTableFeatures, RowData } from './data-table-features';
import { renderVirtualCell, rowKeyHandler } from './data-table-parts';
import { cardColumns, DataTableLayoutContext, type DataTablePhone } from './data-table-phone';

type AnyColumn<T extends RowData> = Column<DataTableFeatures, T>;

interface DataTableCardsProps<T extends RowData> {
  rows: readonly Row<DataTableFeatures, T>[];
  columns: readonly AnyColumn<T>[];
  /** The table's leaf headers, for the `label:` of each line (and the select-all checkbox). */
  headers: readonly Header<DataTableFeatures, T, unknown>[];
  phone: DataTablePhone | undefined;
  /** Cards of a `virtual` table: only those in view are drawn, in a scroll area this tall. */
  virtual: boolean;
  height?: number | string;
  loading: boolean;
  /** What an empty list shows (the table's empty state). */
  empty: ReactNode;
  onRowClick?(row: T): void;
  'aria-label'?: string;
}

// A card's usual height (title, three lines, padding), the first guess of a virtual card before it is measured.
const ESTIMATED_CARD_HEIGHT = 132;
const DEFAULT_VIRTUAL_HEIGHT = 480;
/** A virtual card, placed at its offset by a transform (cards differ in height, so no padding trick as in rows). */
const PLACED: CSSProperties = { position: 'absolute', top: 0, left: 0, width: '100%' };
/** A click or key in a card's checkbox, actions or folded fields is theirs, not a click on the card (its row click). */
const OWN_EVENTS = { onClick: (e: { stopPropagation(): void }) => e.stopPropagation(), onKeyDown: (e: { stopPropagation(): void }) => e.stopPropagation() };

/**
 * A list's rows as cards below 768 px (docs/decisions/054-phone-layout.md): the selection checkbox, the title, the
 * status badge and the row's actions (one menu: row-actions.tsx reads the layout) on top, a few `label: value` lines,
 * every other column folded under "All fields". Cards carry `data-slot=data-table-row` like table rows, so code and
 * tests that find rows find cards. A `virtual` table's cards are measured as they are drawn (their heights differ),
 * in a scroll area of the table's height.
 */
export function DataTableCards<T extends RowData>({
  rows,
  columns,
  headers,
  phone,
  virtual,
  height,
  loading,
  empty,
  onRowClick,
  'aria-label': ariaLabel,
}: DataTableCardsProps<T>) {
  const { t } = useTranslation('components');
  const scrollRef = useRef<HTMLDivElement>(null);
  const layout = cardColumns(columns, phone);
  const menu = layout.actions?.columnDef.meta?.foldsOnCards === true;
  const headerOf = new Map(headers.map((h) => [h.column.id, h]));
  const label = (column: AnyColumn<T>) => {
    const header = headerOf.get(column.id);
    return header ? flexRender(column.columnDef.header, header.getContext()) : column.id;
  };
  const cell = (column: AnyColumn<T> | undefined, row: Row<DataTableFeatures, T>): ReactNode => {
    if (!column) return null;
    // Virtual templates are plain functions (data-table-parts.tsx, renderVirtualCell); others may use hooks.
    if (virtual) return renderVirtualCell(column, row);
    const c = row.getAllCells().find((x) => x.column.id === column.id);
    return c ? flexRender(column.columnDef.cell, c.getContext()) : null;
  };
  const lines = (list: readonly AnyColumn<T>[], row: Row<DataTableFeatures, T>) => (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
      {list.map((column) => (
        <div key={column.id} className="contents" data-column={column.id}>
          <dt className="text-muted-foreground">{label(column)}</dt>
          <dd className={cn('min-w-0 break-words', column.columnDef.meta?.cellClass?.(row.original))}>{cell(column, row)}</dd>
        </div>
      ))}
    </dl>
  );

  const card = (row: Row<DataTableFeatures, T>, index: number, style?: CSSProperties, measure?: (el: Element | null) => void) => (
    <li
      key={row.id}
      ref={measure}
      data-index={index}
      data-slot="data-table-row"
      data-row-id={row.id}
      tabIndex={onRowClick ? 0 : undefined}
      onClick={onRowClick ? () => onRowClick(row.original) : undefined}
      onKeyDown={onRowClick ? (e) => e.target === e.currentTarget && rowKeyHandler(onRowClick, row.original)?.(e) : undefined}
      style={style}
      className={cn(
        'grid gap-2 border-b border-border px-3 py-3 last:border-b-0',
        onRowClick && 'cursor-pointer hover:bg-muted/50 focus-visible:bg-muted focus-visible:outline-none',
      )}
    >
      <div className="flex items-center gap-2">
        {layout.select ? (
          // The checkbox's own hit area is widened on phones (ui/checkbox.tsx); this keeps it off the title.
          <div className="flex size-6 shrink-0 items-center justify-center" data-slot="data-table-card-select" {...OWN_EVENTS}>
            {cell(layout.select, row)}
          </div>
        ) : null}
        <div className="min-w-0 flex-1 self-center font-medium break-words" data-slot="data-table-card-title">
          {cell(layout.title, row)}
        </div>
        {layout.badge ? (
          <div className="shrink-0 self-center" data-slot="data-table-card-badge">
            {cell(layout.badge, row)}
          </div>
        ) : null}
        {layout.actions && menu ? (
          <div className="-my-2 -mr-2 shrink-0" data-slot="data-table-card-actions" {...OWN_EVENTS}>
            {cell(layout.actions, row)}
          </div>
        ) : null}
      </div>
      {layout.fields.length ? lines(layout.fields, row) : null}
      {layout.actions && !menu ? (
        <div className="flex flex-wrap justify-end gap-2" data-slot="data-table-card-actions" {...OWN_EVENTS}>
          {cell(layout.actions, row)}
        </div>
      ) : null}
      {layout.rest.length ? (
        <details className="group text-sm" {...OWN_EVENTS}>
          <summary className="flex min-h-11 w-fit cursor-pointer list-none items-center gap-1 rounded-sm text-primary outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden">
            <ChevronRight aria-hidden className="size-4 transition-transform group-open:rotate-90" />
            {t('dataTable.moreFields')}
          </summary>
          {lines(layout.rest, row)}
        </details>
      ) : null}
    </li>
  );

  const scrollHeight = virtual ? (height ?? DEFAULT_VIRTUAL_HEIGHT) : height;
  // TanStack Virtual hands out fresh functions each render, so the React Compiler skips this component on purpose.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_CARD_HEIGHT,
    overscan: 2,
    enabled: virtual,
    initialRect: { width: 0, height: typeof scrollHeight === 'number' ? scrollHeight : DEFAULT_VIRTUAL_HEIGHT },
  });

  const selectAll = layout.select ? headerOf.get(layout.select.id) : undefined;
  let list: ReactNode;
  if (rows.length === 0) {
    list = loading ? <div className="h-40" /> : empty;
  } else if (virtual) {
    list = (
      <ul aria-label={ariaLabel} aria-busy={loading || undefined} className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) =>
          card(rows[item.index]!, item.index, { ...PLACED, transform: `translateY(${item.start}px)` }, virtualizer.measureElement),
        )}
      </ul>
    );
  } else {
    list = (
      <ul aria-label={ariaLabel} aria-busy={loading || undefined}>
        {rows.map((row, i) => card(row, i))}
      </ul>
    );
  }

  return (
    <DataTableLayoutContext.Provider value="cards">
      {selectAll && rows.length > 0 ? (
        <div className="flex min-h-11 items-center gap-2 border-b border-border bg-muted px-3 text-sm text-muted-foreground" data-slot="data-table-select-all">
          <div className="flex size-6 items-center justify-center">{flexRender(selectAll.column.columnDef.header, selectAll.getContext())}</div>
          <span aria-hidden>{t('list.selectAll')}</span>
        </div>
      ) : null}
      <div
        ref={scrollRef}
        data-slot="data-table-scroll"
        className="relative w-full overflow-y-auto"
        style={scrollHeight === undefined ? undefined : virtual ? { height: scrollHeight } : { maxHeight: scrollHeight }}
      >
        {list}
      </div>
    </DataTableLayoutContext.Provider>
  );
}
