import type { ScreenData } from '@/lib/screen-data';
import { store } from '@/lib/store';
import { districtOverviewQuery } from './api/get-district-view';
import { optionsQuery } from './api/get-options';
import { schoolViewQuery } from './api/get-school-view';
import { dataCenterFamilyAtom, filtersAtom } from './atoms';
import { DISTRICT_FILTERS, SCHOOL_FILTERS } from './filters';
import { viewFilters } from './hooks/use-filter-url-sync';

/**
 * The school dashboard's data preload (docs/decisions/012-lean-first-screen.md): the school view and the filter bar's
 * choices, with the family and filters the dashboard renders with (K12 and university school views, and a school's
 * read-only view under a bureau's overview, whose school is the `orgId` filter).
 */
export const schoolViewData: ScreenData = ({ prefetch, search }) => {
  const family = store.get(dataCenterFamilyAtom);
  const filters = viewFilters(search, store.get(filtersAtom), SCHOOL_FILTERS);
  prefetch(schoolViewQuery(family, filters));
  prefetch(optionsQuery(family, filters.orgId));
};

/** The bureau's overview (a district's first page): the schools side by side, one call. */
export const districtOverviewData: ScreenData = ({ prefetch, search }) => {
  prefetch(districtOverviewQuery(viewFilters(search, store.get(filtersAtom), DISTRICT_FILTERS)));
};
