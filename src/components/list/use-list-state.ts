import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@/domain/constants';
import type { DataTablePaginationState } from '@/components/data-table/data-table-pagination';

/** Filter values as they live in the URL: strings, absent when not set. */
export type ListFilters = Record<string, string | undefined>;

export interface ListState<F extends ListFilters> {
  /** The applied filters (from the URL). */
  filters: F;
  current: number;
  size: number;
  /** Filters and paging as the list query sends them. */
  query: F & { current: number; size: number };
  /** Applies new filters and goes back to page 1. */
  setFilters(next: F): void;
  /** Clears every filter (page 1). */
  reset(): void;
  /** DataTable's `pagination` for a total. */
  pagination(total: number): DataTablePaginationState;
  /** The shown view (a tab of ListScreen's `views`, `?view=`); the first view when the list has none. */
  view: string;
  /** Shows another view from page 1; the filters stay. */
  setView(view: string): void;
}

const positive = (v: string | null, fallback: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
};

/**
 * The state of a server-paged list kept in the URL's search params (`?name=…&current=2&size=20`), so a link, a reload
 * or the browser's back button reopens the same page of the same filters. Sizes outside 10/20/50/80 fall back to 10.
 * `names` are the filter names this list owns; other params of the URL are left alone. `views` are the tabs the list
 * offers to this user (the first is the default, kept out of the URL); a `?view=` outside them shows the first.
 */
export function useListState<F extends ListFilters>(names: readonly (keyof F & string)[], { views = [''] }: { views?: readonly string[] } = {}): ListState<F> {
  const [params, setParams] = useSearchParams();
  const key = names.join(',');
  const filters = useMemo(() => {
    const out: ListFilters = {};
    for (const name of key.split(',')) {
      const v = params.get(name);
      if (v !== null && v !== '') out[name] = v;
    }
    return out as F;
  }, [params, key]);
  const current = positive(params.get('current'), 1);
  const sizeParam = positive(params.get('size'), DEFAULT_PAGE_SIZE);
  const size = (PAGE_SIZES as readonly number[]).includes(sizeParam) ? sizeParam : DEFAULT_PAGE_SIZE;
  const viewParam = params.get('view');
  const view = viewParam !== null && views.includes(viewParam) ? viewParam : views[0];
  const defaultView = views[0];

  const write = useCallback(
    (next: ListFilters, page: number, pageSize: number, nextView: string) =>
      setParams(
        (prev) => {
          const out = new URLSearchParams(prev);
          for (const name of key.split(',')) {
            const v = next[name];
            if (v === undefined || v === '') out.delete(name);
            else out.set(name, v);
          }
          if (page === 1) out.delete('current');
          else out.set('current', String(page));
          if (pageSize === DEFAULT_PAGE_SIZE) out.delete('size');
          else out.set('size', String(pageSize));
          if (nextView === defaultView) out.delete('view');
          else out.set('view', nextView);
          return out;
        },
        { replace: false },
      ),
    [setParams, key, defaultView],
  );

  return {
    filters,
    current,
    size,
    query: { ...filters, current, size },
    setFilters: (next) => write(next, 1, size, view),
    reset: () => write({}, 1, size, view),
    pagination: (total) => ({ current, size, total, onChange: (c, s) => write(filters, c, s, view) }),
    view,
    setView: (next) => write(filters, 1, size, next),
  };
}
