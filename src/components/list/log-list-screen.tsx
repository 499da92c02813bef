import type { RowData } from '@tanstack/react-table';
import type { Resource } from '@/lib/resource';
import { ListScreen, type FilterDef, type ListScreenProps } from './list-screen';
import type { ListFilters } from './use-list-state';
import { useListState } from './use-list-state';

/** What a log's list reads: its page and its export (server/lib/log-list.ts `registerLogList`). */
export type LogResource<T> = Pick<Resource<T, never>, 'useList' | 'exportList'>;

export interface LogListScreenProps<T extends RowData & { id: string }, F extends ListFilters>
  extends Omit<ListScreenProps<T, F>, 'state' | 'query' | 'rowKey' | 'onExport' | 'exportLayout' | 'onAdd' | 'selectable'> {
  /** The log's routes: `pageApi(pageKey)` with `/page` and `/export`. */
  api: LogResource<T>;
  /** The filters in the URL, in the order they show; their names are the list query's fields. */
  filters: readonly FilterDef<F>[];
}

/**
 * A log screen (docs/product-rules.md#platform-logs): the sign-in, operation, unmasked-view and access logs are each a
 * declaration of their page key, routes, filters and columns; the list state, the query and the export (following the
 * shown columns) are the kit's. A log is read-only: no add, no selection, no write.
 */
export function LogListScreen<T extends RowData & { id: string }, F extends ListFilters>({ api, filters, ...rest }: LogListScreenProps<T, F>) {
  const state = useListState<F>(filters.map((f) => f.name));
  const query = api.useList(state.query);
  return <ListScreen<T, F> {...rest} state={state} filters={filters} query={query} rowKey="id" onExport={(f) => api.exportList(f)} exportLayout="list" />;
}
