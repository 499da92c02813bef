import { useEffect, useMemo, useRef } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { useSearchParams } from 'react-router-dom';
import { DATA_CENTER_FILTER_KEYS, type DataCenterFilter } from '@/domain/data-center/filters';
import { filtersAtom, replaceFiltersAtom } from '../atoms';
import { filtersFromSearch, filtersKey, withFilters } from '../filters';

/**
 * Mirrors the filter atom in the URL's query string, both ways (docs/product-rules.md#data-centre: filters):
 * - URL → atom: on arrival and on every URL change (a link, a wall screen, back/forward), the URL wins.
 * - atom → URL: a filter changed on the page pushes a history entry, so back undoes it.
 * Arriving without any filter in the URL (the side menu) keeps the current filters and writes them into
 * the URL in place, so the period chosen on one view carries to the next.
 * `keep` limits the filters a view uses: the others stay in the atom but not in this view's URL.
 */
export function useFilterUrlSync(keep?: readonly (keyof DataCenterFilter)[]): DataCenterFilter {
  const [search, setSearch] = useSearchParams();
  const filters = useAtomValue(filtersAtom);
  const replaceFilters = useSetAtom(replaceFiltersAtom);
  const scoped = scope(filters, keep);
  const urlFilters = scope(filtersFromSearch(search), keep);
  const urlKey = filtersKey(urlFilters);
  const atomKey = filtersKey(scoped);
  // What URL and atom last agreed on: tells which side moved.
  const synced = useRef<string | null>(null);

  useEffect(() => {
    if (synced.current === null) {
      // Arrival: a URL with filters wins; a URL without any takes the current filters.
      if (urlKey !== '' || atomKey === '') {
        synced.current = urlKey;
        if (urlKey !== atomKey) replaceFilters({ ...filters, ...clear(keep), ...urlFilters });
      } else {
        synced.current = atomKey;
        setSearch(withFilters(search, scoped), { replace: true });
      }
      return;
    }
    if (urlKey !== synced.current) {
      synced.current = urlKey;
      if (urlKey !== atomKey) replaceFilters({ ...filters, ...clear(keep), ...urlFilters });
      return;
    }
    if (atomKey !== synced.current) {
      synced.current = atomKey;
      setSearch(withFilters(search, scoped));
    }
    // Keys capture every value the effect compares; the objects themselves change identity each render.
  }, [urlKey, atomKey]);

  // One object per filter set, so query keys, drill links and chart handlers stay put between renders.
  const effectiveKey = urlKey !== '' ? `url:${urlKey}` : `atom:${atomKey}`;
  return useMemo(() => viewFilters(search, filters, keep), [effectiveKey]);
}

/**
 * The filters a view renders with: the URL's as soon as it carries any, so a link's first request already uses them,
 * else the current ones. A dashboard's data preload (screen-data.ts) starts its call with the same, so the same key.
 */
export function viewFilters(search: URLSearchParams, current: DataCenterFilter, keep?: readonly (keyof DataCenterFilter)[]): DataCenterFilter {
  const url = scope(filtersFromSearch(search), keep);
  return filtersKey(url) !== '' ? url : scope(current, keep);
}

function scope(filters: DataCenterFilter, keep?: readonly (keyof DataCenterFilter)[]): DataCenterFilter {
  if (!keep) return filters;
  const out: DataCenterFilter = {};
  for (const key of keep) if (filters[key] !== undefined) Object.assign(out, { [key]: filters[key] });
  return out;
}

/** Every kept filter set to undefined: the URL's absence of a filter clears it. */
function clear(keep?: readonly (keyof DataCenterFilter)[]): DataCenterFilter {
  const out: DataCenterFilter = {};
  for (const key of keep ?? DATA_CENTER_FILTER_KEYS) Object.assign(out, { [key]: undefined });
  return out;
}
