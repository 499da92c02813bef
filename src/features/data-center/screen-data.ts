import type { ChartPart } from '@/lib/chart-parts';
import type { ScreenData } from '@/lib/screen-data';
import { store } from '@/lib/store';
import { districtOverviewQuery } from './api/get-district-view';
import { optionsQuery } from './api/get-options';
import { schoolViewQuery } from './api/get-school-view';
import { dataCenterFamilyAtom, filtersAtom } from './atoms';
import { DISTRICT_FILTERS, SCHOOL_FILTERS } from './filters';
import { viewFilters } from './hooks/use-filter-url-sync';

/**
 * The ECharts parts the school dashboard's charts draw (`chartParts` of its options: bars, lines, rings and what they
 * set), loaded with its calls. tests/web/features/data-center/school-dashboard.test.tsx reads them off the options drawn.
 */
export const SCHOOL_VIEW_CHARTS: readonly ChartPart[] = ['grid', 'tooltip', 'legend', 'title', 'bar', 'line', 'pie'];

/**
 * The school dashboard's data preload (docs/decisions/012-lean-first-screen.md): the school view and the filter bar's
 * choices, with the family and filters the dashboard renders with (K12 and university school views, and a school's
 * read-only view under a bureau's overview, whose school is the `orgId` filter).
 */
export const schoolViewData: ScreenData = ({ prefetch, charts, search }) => {
  const family = store.get(dataCenterFamilyAtom);
  const filters = viewFilters(search, store.get(filtersAtom), SCHOOL_FILTERS);
  prefetch(schoolViewQuery(family, filters));
  prefetch(optionsQuery(family, filters.orgId));
  charts(SCHOOL_VIEW_CHARTS);
};

/**
 * The ECharts parts the bureau's overview draws, but the data zoom of its schools' comparison, which only a district of
 * more than `UNITS_IN_VIEW` schools draws (it loads as that chart draws). Checked by
 * tests/web/features/data-center/district-overview.test.tsx against the options drawn.
 */
export const DISTRICT_OVERVIEW_CHARTS: readonly ChartPart[] = ['grid', 'tooltip', 'legend', 'bar', 'line'];

/** The bureau's overview (a district's first page): the schools side by side, one call, and its charts' parts. */
export const districtOverviewData: ScreenData = ({ prefetch, charts, search }) => {
  prefetch(districtOverviewQuery(viewFilters(search, store.get(filtersAtom), DISTRICT_FILTERS)));
  charts(DISTRICT_OVERVIEW_CHARTS);
};
