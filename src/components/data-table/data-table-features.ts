import {
  columnOrderingFeature,
  columnPinningFeature,
  columnVisibilityFeature,
  createSortedRowModel,
  createTableHook,
  metaHelper,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_datetime,
  sortFn_text,
  tableFeatures,
  type CellContext,
  type RowData,
  type SortingState,
  type TableOptions,
} from '@tanstack/react-table';

/** Per-column presentation hints read by DataTable. */
export interface DataTableColumnMeta {
  align?: 'left' | 'center' | 'right';
  /** CSS width of the column (px number or any CSS length). Needed in `virtual` mode, where the layout is fixed. */
  width?: number | string;
  className?: string;
  /**
   * A class for the cell from its row (a level's colour): set on the cell itself, so a template can answer plain text
   * instead of a styled element of its own. In a virtual table every element of a row entering the view is styled and
   * laid out that frame (decision 014), so fewer elements per cell make each frame cheaper.
   */
  cellClass?(row: unknown): string | undefined;
  headerClassName?: string;
  /**
   * 'right' keeps the column at the right edge of the table while the rest scrolls under it (row actions; a
   * `rowActionsColumn` is pinned already), in paged and virtual mode alike.
   */
  pin?: 'right';
  /**
   * The cell folds into one menu on a phone's card (rowActionsColumn), so it sits beside the card's title; another
   * actions cell (buttons of its own) is the card's last line (data-table-cards.tsx).
   */
  foldsOnCards?: boolean;
  /**
   * What a column's `cell` component reads when the component itself is a module-level constant. A template that keeps
   * state (an open confirm dialog, a menu) must not be a new function each time the columns are made: DataTable mounts
   * a template as a component, so a new function is a new component and its state is lost (rowActionsColumn).
   */
  cellProps?: unknown;
  /**
   * Column settings: the name the settings list gives a column whose `header` is not plain text; `keep: true` marks a
   * column the user cannot hide (the list's key column is kept anyway, see column-settings.tsx).
   */
  label?: string;
  keep?: boolean;
}

/**
 * The one feature set of every product table: sorting (client-side unless the table hands it to the
 * server), the user's column settings (visibility, order, pinning: src/components/data-table/column-settings.tsx) and
 * typed column meta. Paging is the server's (docs/product-rules.md#lists), so no client pagination model.
 */
export const dataTableFeatures = tableFeatures({
  rowSortingFeature,
  columnVisibilityFeature,
  columnOrderingFeature,
  columnPinningFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic, datetime: sortFn_datetime, text: sortFn_text },
  columnMeta: metaHelper<DataTableColumnMeta>(),
});

export type DataTableFeatures = typeof dataTableFeatures;

const tableHook = createTableHook({
  features: dataTableFeatures,
  // Sorting is opt-in per column (`enableSorting: true`): most product columns are not sortable.
  defaultColumn: { enableSorting: false },
  enableSortingRemoval: true,
  enableMultiSort: false,
  // Predictable cycle on every column type: ascending, descending, unsorted.
  sortDescFirst: false,
});

export const useDataTable = tableHook.useAppTable;

/**
 * Typed column helper for DataTable columns:
 * `const col = createDataTableColumnHelper<Student>(); const columns = col.columns([col.accessor('name', { header: t('…') })])`.
 */
export const createDataTableColumnHelper = tableHook.createAppColumnHelper;

/** Column definitions accepted by DataTable (what `createDataTableColumnHelper<T>().columns([...])` returns). */
export type DataTableColumns<T extends RowData> = TableOptions<DataTableFeatures, T>['columns'];

/** What a cell template of a DataTable column gets. */
export type DataTableCellContext<T extends RowData> = CellContext<DataTableFeatures, T, unknown>;

export type { RowData, SortingState };
