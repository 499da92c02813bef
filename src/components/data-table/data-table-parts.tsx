import { memo, type KeyboardEvent, type ReactNode } from 'react';
import { constructCell, flexRender, type CellContext, type Column, type HeaderGroup, type Row, type RowData } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import { cn } from '@/lib/cn';
import type { DataTableColumnMeta, DataTableFeatures, SortingState } from './data-table-features';
import { pinCellClass, pinStyle, type PinSide } from './pinned-columns';

export const ALIGN: Record<NonNullable<DataTableColumnMeta['align']>, string> = {
  left: 'text-left',
  center: 'text-center',
  right: 'text-right',
};

// Header cells are flex boxes in virtual mode, where text-align does not move their content.
const JUSTIFY: Record<NonNullable<DataTableColumnMeta['align']>, string> = {
  left: 'justify-start',
  center: 'justify-center',
  right: 'justify-end',
};

/** Width in px of a virtual column without `meta.width`. */
const DEFAULT_VIRTUAL_WIDTH = 120;

/**
 * The least width of each virtual column as CSS, and in px when every width is a number (null otherwise): the
 * column's `meta.width`, or the width its header needs on one line when that is more (`headerWidths`, measured by
 * DataTable): a column declared for 性别 reads "Gender" in English, and a header wider than its column would run into
 * the next one.
 */
function virtualWidths<T extends RowData>(
  columns: readonly Column<DataTableFeatures, T>[],
  headerWidths: readonly number[] | undefined,
): { css: string[]; px: number[] | null } {
  const widths = columns.map((column, i) => {
    const declared = column.columnDef.meta?.width ?? DEFAULT_VIRTUAL_WIDTH;
    const header = headerWidths?.[i] ?? 0;
    if (typeof declared === 'number') return Math.max(declared, header);
    return header > 0 ? `max(${declared}, ${header}px)` : declared;
  });
  return {
    css: widths.map((w) => (typeof w === 'number' ? `${w}px` : w)),
    px: widths.every((w) => typeof w === 'number') ? (widths as number[]) : null,
  };
}

/**
 * Fixed column widths for virtual mode, as one CSS grid template shared by the header row and every body row through
 * the `--dt-cols` variable on the table: each column gets at least its width and an equal share of spare room, so all
 * rows line up without a table layout pass and no cell carries an inline style. `pxWidths` (when every width is a
 * number) are the columns' exact widths whenever the table is wider than its scroll area, which is when body cells
 * out of view can be skipped (see DataTable).
 */
export function virtualGridTemplate<T extends RowData>(
  columns: readonly Column<DataTableFeatures, T>[],
  headerWidths?: readonly number[],
): { template: string; minWidth: string; pxWidths: number[] | null } {
  const { css, px } = virtualWidths(columns, headerWidths);
  return { template: css.map((w) => `minmax(${w}, 1fr)`).join(' '), minWidth: `calc(${css.join(' + ')})`, pxWidths: px };
}

/**
 * Class of each virtual body cell, built once per column set rather than per cell per frame. Cells are not clipped: a
 * clip on every cell cost 12–18 % of a frame's CPU (tests/bench/class-table-scroll.ts), so a column of free text that can
 * outgrow its width (a name) says `truncate` in its `meta.className` (decision 014).
 */
export function virtualCellClasses<T extends RowData>(columns: readonly Column<DataTableFeatures, T>[], sides: readonly PinSide[]): string[] {
  return columns.map((column, i) => {
    const meta = column.columnDef.meta;
    return cn('block whitespace-nowrap px-3', meta?.align && ALIGN[meta.align], pinCellClass(sides[i], false), meta?.className);
  });
}

/**
 * Text styles for virtual body cells, as plain CSS: Tailwind's `tabular-nums`, `font-medium` and `font-semibold` also set
 * a `--tw-*` custom property registered with @property, and Chromium then resolves such a cell's style twice (a class
 * table row entering the view restyled 26 elements instead of 15; decision 014). They look the same.
 */
export const CELL_TEXT = {
  tabularNums: '[font-variant-numeric:tabular-nums]',
  medium: '[font-weight:500]',
  semibold: '[font-weight:600]',
} as const;

interface HeaderProps<T extends RowData> {
  headerGroups: readonly HeaderGroup<DataTableFeatures, T>[];
  /** Only read to re-render when sorting changes: the header objects themselves stay the same. */
  sorting: SortingState;
  virtual: boolean;
  /** Where each leaf column sticks, in display order (pinned-columns.ts; the phone's scroll layout pins its first column). */
  sides: readonly PinSide[];
}

function DataTableHeaderImpl<T extends RowData>({ headerGroups, virtual, sides }: HeaderProps<T>) {
  return (
    <thead
      className={cn(
        'sticky top-0 z-10 bg-muted text-muted-foreground shadow-[inset_0_-1px_0_var(--color-border)]',
        virtual && 'block',
      )}
    >
      {headerGroups.map((group, g) => (
        <tr key={group.id} className={virtual ? 'grid grid-cols-(--dt-cols)' : undefined}>
          {group.headers.map((header, i) => {
            const meta = header.column.columnDef.meta;
            const pin = g === headerGroups.length - 1 ? (sides[i] ?? false) : false;
            const canSort = header.column.getCanSort();
            const sorted = header.column.getIsSorted();
            const content = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
            return (
              <th
                key={header.id}
                colSpan={header.colSpan}
                scope="col"
                aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : canSort ? 'none' : undefined}
                data-pin={pin || undefined}
                style={virtual ? pinStyle(pin, i) : { width: meta?.width, ...pinStyle(pin, i) }}
                className={cn(
                  'px-3 text-left align-middle font-medium whitespace-nowrap',
                  virtual ? cn('flex min-h-10 min-w-0 items-center py-1', meta?.align && JUSTIFY[meta.align]) : 'h-10',
                  meta?.align && ALIGN[meta.align],
                  pinCellClass(pin, true),
                  meta?.headerClassName,
                )}
              >
                {/* One element around the content in virtual mode, whose width DataTable measures (useHeaderWidths). */}
                {header.isPlaceholder ? null : canSort ? (
                  <button
                    type="button"
                    className="inline-flex items-center gap-1 rounded-sm hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                    onClick={header.column.getToggleSortingHandler()}
                  >
                    {content}
                    {sorted === 'asc' ? (
                      <ArrowUp aria-hidden className="size-3.5" />
                    ) : sorted === 'desc' ? (
                      <ArrowDown aria-hidden className="size-3.5" />
                    ) : (
                      <ChevronsUpDown aria-hidden className="size-3.5 opacity-50" />
                    )}
                  </button>
                ) : virtual ? (
                  <span>{content}</span>
                ) : (
                  content
                )}
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );
}

/** The header, memoised so scrolling a virtual table (one render per frame) does not re-render it. */
export const DataTableHeader = memo(DataTableHeaderImpl) as typeof DataTableHeaderImpl;

export const ROW_CLASS = 'border-b border-border hover:bg-muted/50';
export const CLICKABLE_ROW_CLASS = 'cursor-pointer focus-visible:bg-muted focus-visible:outline-none';

/** Enter or Space on a focused row acts as a click. */
export function rowKeyHandler<T>(onRowClick: ((row: T) => void) | undefined, row: T) {
  return onRowClick
    ? (e: KeyboardEvent<HTMLElement>) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onRowClick(row);
        }
      }
    : undefined;
}

/**
 * A virtual body cell's content, made for one frame and dropped. Not `flexRender(def.cell, cell.getContext())`: that
 * builds a cell object, caches its value on the row for good and mounts the template as a component, so a fast scroll
 * through 100,000 rows allocated ~0.5 kB a cell and paid for it in GC pauses (tests/bench/class-table-scroll.ts). So
 * in virtual mode a column's `cell` is called as a plain function: it must not use hooks.
 */
export function renderVirtualCell<T extends RowData>(column: Column<DataTableFeatures, T>, row: Row<DataTableFeatures, T>): ReactNode {
  const template = column.columnDef.cell;
  if (typeof template !== 'function') return template ?? null;
  const context = new VirtualCellContext(column, row, column.accessorFn?.(row.original, row.index));
  return template(context as unknown as CellContext<DataTableFeatures, T, unknown>) as ReactNode;
}

/**
 * The context a cell template gets in virtual mode. A class, not an object literal: the `cell` getter on a literal
 * made every context a slow dictionary object (a third of all memory allocated while scrolling).
 */
class VirtualCellContext<T extends RowData> {
  readonly table: Row<DataTableFeatures, T>['table'];
  // Own functions, not methods: templates destructure them (`({ getValue }) => …`).
  readonly getValue: () => unknown;
  readonly renderValue: () => unknown;

  constructor(
    readonly column: Column<DataTableFeatures, T>,
    readonly row: Row<DataTableFeatures, T>,
    value: unknown,
  ) {
    const table = row.table;
    this.table = table;
    this.getValue = () => value;
    this.renderValue = () => value ?? table.options.renderFallbackValue;
  }

  /** Seldom read: a real cell only for a template that asks for one. */
  get cell() {
    return constructCell(this.column, this.row, this.table);
  }
}

// Built once: the pool's rows (row-pool.ts) take them.
export const VIRTUAL_ROW_CLASS = cn('grid w-full grid-cols-(--dt-cols) [contain:strict]', ROW_CLASS);
export const VIRTUAL_CLICKABLE_ROW_CLASS = cn(VIRTUAL_ROW_CLASS, CLICKABLE_ROW_CLASS);
