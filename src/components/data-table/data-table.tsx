import { useMemo, useRef, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import { EmptyState } from '@/components/empty-state/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import {
  useDataTable,
  type DataTableColumnMeta,
  type DataTableColumns,
  type RowData,
  type SortingState,
} from './data-table-features';
import { DataTablePagination, type DataTablePaginationState } from './data-table-pagination';

export interface DataTableProps<T extends RowData> {
  /** Column definitions; keep them stable (module scope or useMemo). Build them with `createDataTableColumnHelper<T>()`. */
  columns: DataTableColumns<T>;
  /** Rows of the current page (server paging) or the whole list (`virtual`). Keep the array stable between changes. */
  data?: readonly T[];
  /** Stable id of a row: a property name, or a function kept stable (module scope or useCallback). */
  rowKey: keyof T | ((row: T) => string | number);
  loading?: boolean;
  /** Server paging (spec §9). Omit for lists shown whole. */
  pagination?: DataTablePaginationState;
  /**
   * Server sorting: pass both to hand sorting to the server (rows arrive sorted). Without them,
   * sortable columns (`enableSorting: true`) sort the loaded rows in the browser.
   */
  sorting?: SortingState;
  onSortingChange?(sorting: SortingState): void;
  /**
   * Render only the rows in view (TanStack Virtual) for long lists such as 100k results. Rows have a
   * fixed height (`rowHeight`) and are never measured; give columns a `meta.width` since the layout is fixed.
   */
  virtual?: boolean;
  /** Height of the scroll area (px or CSS length). Needed for `virtual` (default 480); otherwise a max height. */
  height?: number | string;
  /** Row height in px for `virtual` mode. */
  rowHeight?: number;
  onRowClick?(row: T): void;
  /** Replaces the default empty state. */
  empty?: ReactNode;
  className?: string;
  'aria-label'?: string;
}

const NO_ROWS: readonly never[] = [];
const DEFAULT_VIRTUAL_HEIGHT = 480;
const DEFAULT_ROW_HEIGHT = 40;

const ALIGN: Record<NonNullable<DataTableColumnMeta['align']>, string> = {
  left: 'text-left',
  center: 'text-center',
  right: 'text-right',
};

/**
 * The product's one table: TanStack Table v9 + TanStack Virtual. Server paging with sizes 10/20/50/80,
 * quick jump and total (spec §9); client or server sorting; loading overlay; empty state; row click;
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
  rowHeight = DEFAULT_ROW_HEIGHT,
  onRowClick,
  empty,
  className,
  'aria-label': ariaLabel,
}: DataTableProps<T>) {
  const { t } = useTranslation('components');
  const scrollRef = useRef<HTMLDivElement>(null);

  // getRowId changes only with rowKey: a new one would rebuild the row model, so pass a name or a stable function.
  const getRowId = useMemo(
    () => (row: T, index: number) => {
      const id = typeof rowKey === 'function' ? rowKey(row) : row[rowKey];
      return id === undefined || id === null ? String(index) : String(id);
    },
    [rowKey],
  );

  const serverSorting = sorting !== undefined && onSortingChange !== undefined;
  const table = useDataTable({
    columns,
    data: (data ?? NO_ROWS) as readonly T[],
    getRowId,
    ...(serverSorting
      ? {
          manualSorting: true,
          state: { sorting },
          onSortingChange: (updater) => onSortingChange(typeof updater === 'function' ? updater(sorting) : updater),
        }
      : {}),
  });

  const rows = table.getRowModel().rows;
  const columnCount = table.getAllLeafColumns().length;
  const scrollHeight = virtual ? (height ?? DEFAULT_VIRTUAL_HEIGHT) : height;

  // TanStack Virtual hands out fresh functions each render, so the React Compiler skips this component on purpose.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scrollRef.current,
    // Fixed row height: nothing is measured per row, which keeps 100k rows cheap.
    estimateSize: () => rowHeight,
    overscan: 8,
    enabled: virtual,
    initialRect: { width: 0, height: typeof scrollHeight === 'number' ? scrollHeight : DEFAULT_VIRTUAL_HEIGHT },
  });
  const virtualItems = virtual ? virtualizer.getVirtualItems() : [];
  const padTop = virtualItems.length > 0 ? virtualItems[0].start : 0;
  const padBottom = virtualItems.length > 0 ? virtualizer.getTotalSize() - virtualItems[virtualItems.length - 1].end : 0;
  const visibleRows = virtual ? virtualItems.map((item) => rows[item.index]) : rows;

  const onRowKey = (e: KeyboardEvent<HTMLTableRowElement>, row: T) => {
    if (onRowClick && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      onRowClick(row);
    }
  };

  const scrollStyle: CSSProperties | undefined =
    scrollHeight === undefined ? undefined : virtual ? { height: scrollHeight } : { maxHeight: scrollHeight };
  const rowStyle: CSSProperties | undefined = virtual ? { height: rowHeight } : undefined;
  const showEmpty = !loading && rows.length === 0;

  return (
    <div data-slot="data-table" className={cn('flex w-full flex-col', className)}>
      <div className="relative overflow-hidden rounded-md border border-border bg-card">
        <div ref={scrollRef} data-slot="data-table-scroll" className="relative w-full overflow-auto" style={scrollStyle}>
          <table
            aria-label={ariaLabel}
            aria-busy={loading || undefined}
            aria-rowcount={virtual ? rows.length + 1 : undefined}
            className={cn('w-full caption-bottom border-collapse text-sm', virtual && 'table-fixed')}
          >
            <thead className="sticky top-0 z-10 bg-muted text-muted-foreground shadow-[inset_0_-1px_0_var(--color-border)]">
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const meta = header.column.columnDef.meta;
                    const canSort = header.column.getCanSort();
                    const sorted = header.column.getIsSorted();
                    return (
                      <th
                        key={header.id}
                        colSpan={header.colSpan}
                        scope="col"
                        aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : canSort ? 'none' : undefined}
                        style={{ width: meta?.width }}
                        className={cn(
                          'h-10 px-3 text-left align-middle font-medium whitespace-nowrap',
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
                            <table.FlexRender header={header} />
                            {sorted === 'asc' ? (
                              <ArrowUp aria-hidden className="size-3.5" />
                            ) : sorted === 'desc' ? (
                              <ArrowDown aria-hidden className="size-3.5" />
                            ) : (
                              <ChevronsUpDown aria-hidden className="size-3.5 opacity-50" />
                            )}
                          </button>
                        ) : (
                          <table.FlexRender header={header} />
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {padTop > 0 ? (
                <tr aria-hidden style={{ height: padTop }}>
                  <td colSpan={columnCount} className="p-0" />
                </tr>
              ) : null}
              {visibleRows.map((row) => (
                <tr
                  key={row.id}
                  data-slot="data-table-row"
                  aria-rowindex={virtual ? row.index + 2 : undefined}
                  style={rowStyle}
                  tabIndex={onRowClick ? 0 : undefined}
                  onClick={onRowClick ? () => onRowClick(row.original) : undefined}
                  onKeyDown={onRowClick ? (e) => onRowKey(e, row.original) : undefined}
                  className={cn(
                    'border-b border-border transition-colors last:border-b-0 hover:bg-muted/50',
                    onRowClick && 'cursor-pointer focus-visible:bg-muted focus-visible:outline-none',
                  )}
                >
                  {row.getAllCells().map((cell) => {
                    const meta = cell.column.columnDef.meta;
                    return (
                      <td
                        key={cell.id}
                        className={cn(
                          'px-3 py-2 align-middle',
                          virtual && 'truncate',
                          meta?.align && ALIGN[meta.align],
                          meta?.className,
                        )}
                      >
                        <table.FlexRender cell={cell} />
                      </td>
                    );
                  })}
                </tr>
              ))}
              {padBottom > 0 ? (
                <tr aria-hidden style={{ height: padBottom }}>
                  <td colSpan={columnCount} className="p-0" />
                </tr>
              ) : null}
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={columnCount} className="p-0">
                    {showEmpty ? (empty ?? <EmptyState />) : <div className="h-40" />}
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
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

export { createDataTableColumnHelper, type DataTableColumnMeta, type DataTableColumns, type RowData, type SortingState } from './data-table-features';
export type { DataTablePaginationState } from './data-table-pagination';
