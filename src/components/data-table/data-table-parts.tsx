import { memo, type KeyboardEvent } from 'react';
import { constructCell, flexRender, type Column, type HeaderGroup, type Row, type RowData } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import { cn } from '@/lib/cn';
import type { DataTableColumnMeta, DataTableFeatures, SortingState } from './data-table-features';

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

/** Width of a virtual column without `meta.width`. */
const DEFAULT_VIRTUAL_WIDTH = '120px';

/**
 * Fixed column widths for virtual mode, as one CSS grid template shared by the header row and every body row through
 * the `--dt-cols` variable on the table: each column gets at least its width and an equal share of spare room, so all
 * rows line up without a table layout pass and no cell carries an inline style.
 */
export function virtualGridTemplate<T extends RowData>(columns: readonly Column<DataTableFeatures, T>[]): { template: string; minWidth: string } {
  const widths = columns.map((column) => {
    const width = column.columnDef.meta?.width;
    return width === undefined ? DEFAULT_VIRTUAL_WIDTH : typeof width === 'number' ? `${width}px` : width;
  });
  return { template: widths.map((w) => `minmax(${w}, 1fr)`).join(' '), minWidth: `calc(${widths.join(' + ')})` };
}

/** Class of each virtual body cell, built once per column set rather than per cell per frame. */
export function virtualCellClasses<T extends RowData>(columns: readonly Column<DataTableFeatures, T>[]): string[] {
  return columns.map((column) => {
    const meta = column.columnDef.meta;
    return cn('block truncate px-3', meta?.align && ALIGN[meta.align], meta?.className);
  });
}

interface HeaderProps<T extends RowData> {
  headerGroups: readonly HeaderGroup<DataTableFeatures, T>[];
  /** Only read to re-render when sorting changes: the header objects themselves stay the same. */
  sorting: SortingState;
  virtual: boolean;
}

function DataTableHeaderImpl<T extends RowData>({ headerGroups, virtual }: HeaderProps<T>) {
  return (
    <thead
      className={cn(
        'sticky top-0 z-10 bg-muted text-muted-foreground shadow-[inset_0_-1px_0_var(--color-border)]',
        virtual && 'block',
      )}
    >
      {headerGroups.map((group) => (
        <tr key={group.id} className={virtual ? 'grid grid-cols-(--dt-cols)' : undefined}>
          {group.headers.map((header) => {
            const meta = header.column.columnDef.meta;
            const canSort = header.column.getCanSort();
            const sorted = header.column.getIsSorted();
            const content = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
            return (
              <th
                key={header.id}
                colSpan={header.colSpan}
                scope="col"
                aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : canSort ? 'none' : undefined}
                style={virtual ? undefined : { width: meta?.width }}
                className={cn(
                  'px-3 text-left align-middle font-medium whitespace-nowrap',
                  virtual ? cn('flex min-h-10 min-w-0 items-center py-1', meta?.align && JUSTIFY[meta.align]) : 'h-10',
                  meta?.align && ALIGN[meta.align],
                  meta?.headerClassName,
                )}
              >
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
    ? (e: KeyboardEvent<HTMLTableRowElement>) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onRowClick(row);
        }
      }
    : undefined;
}

interface VirtualRowProps<T extends RowData> {
  row: Row<DataTableFeatures, T>;
  /** Position in the displayed (sorted) order. */
  index: number;
  height: number;
  /** The leaf columns (stable while the column definitions stay). */
  columns: readonly Column<DataTableFeatures, T>[];
  cellClasses: readonly string[];
  onRowClick?(row: T): void;
}

/**
 * One body row of a virtual table, in normal flow after the body's top padding. Memoised on the row object (TanStack
 * Table keeps it while data and sorting stay), so a steady scroll only renders the rows entering the view, and
 * `contain: strict` makes each row its own layout and paint boundary.
 */
function VirtualRowImpl<T extends RowData>({ row, index, height, columns, cellClasses, onRowClick }: VirtualRowProps<T>) {
  return (
    <tr
      data-slot="data-table-row"
      aria-rowindex={index + 2}
      tabIndex={onRowClick ? 0 : undefined}
      onClick={onRowClick ? () => onRowClick(row.original) : undefined}
      onKeyDown={rowKeyHandler(onRowClick, row.original)}
      className={cn('grid w-full grid-cols-(--dt-cols) [contain:strict]', ROW_CLASS, onRowClick && CLICKABLE_ROW_CLASS)}
      style={{ height }}
    >
      {columns.map((column, i) => {
        // A throwaway cell, not row.getAllCells(): that caches cells on the row for good, so a fling through
        // 100,000 rows would keep hundreds of thousands of objects alive and pay for it in long GC pauses.
        const cell = constructCell(column, row, row.table);
        return (
          <td key={column.id} className={cellClasses[i]}>
            {flexRender(column.columnDef.cell, cell.getContext())}
          </td>
        );
      })}
    </tr>
  );
}

export const VirtualRow = memo(VirtualRowImpl) as typeof VirtualRowImpl;
