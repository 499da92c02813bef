import { useCallback, useMemo } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { RankRow } from '@/domain/data-center/types';
import { PageHeader } from '@/components/page-header/page-header';
import { useCollegeListQuery } from '../api/get-college-list';
import { unitListCharts } from '../charts/options';
import { dataCenterFamilyAtom, filtersAtom } from '../atoms';
import { filtersFromSearch, type FilterKey } from '../filters';
import { gradeLabel } from '../format';
import { useDrill } from '../hooks/use-drill';
import { useFilterUrlSync } from '../hooks/use-filter-url-sync';
import { useSemanticColors } from '../hooks/use-level-colors';
import { ChartCard } from './chart-card';
import { DashboardChart } from './dashboard-chart';
import { DrillBreadcrumbs } from './drill-breadcrumbs';
import { FilterBar } from './filter-bar';
import { GradeDashboard } from './grade-dashboard';
import { ItemHeatTable } from './item-heat-table';
import { RankingTable } from './ranking-table';
import { ViewBody } from './view-states';
import { ViewMeta } from './view-meta';

/** Filters of the colleges side by side: the period, a year of study and gender (a college opens its own page). */
export const COLLEGE_LIST_FILTERS: readonly FilterKey[] = ['schoolYear', 'semesterCode', 'planId', 'gradeNo', 'gender'];

/**
 * A university's college page (/gx/dataCenter/college): without a college, every college side by side (figures,
 * levels, item means, ranking); with `collegeId`, that college's own dashboard (its classes side by side). The
 * URL decides, as the filter sync does: a URL with filters wins, otherwise the filters in effect.
 */
export function CollegeDashboard() {
  const [search] = useSearchParams();
  const atomCollege = useAtomValue(filtersAtom).collegeId;
  const collegeId = search.toString() !== '' ? filtersFromSearch(search).collegeId : atomCollege;
  return collegeId ? <GradeDashboard mode="college" /> : <CollegeComparison />;
}

function CollegeComparison() {
  const { t } = useTranslation(['dashboard', 'physique']);
  const filters = useFilterUrlSync(COLLEGE_LIST_FILTERS);
  const family = useAtomValue(dataCenterFamilyAtom);
  const query = useCollegeListQuery(family, filters);
  const view = query.data;
  const { links, go } = useDrill(useMemo(() => ({ ...view?.filters, ...filters }), [view?.filters, filters]));
  const colors = useSemanticColors();
  const refreshing = query.isFetching && query.isPlaceholderData;
  const toCollege = useCallback((id: string) => go(links.college(id, filters.gradeNo)), [go, links, filters.gradeNo]);
  const onRow = useCallback((row: RankRow) => toCollege(row.id), [toCollege]);

  const charts = useMemo(() => (view ? unitListCharts(t, colors, view.rows) : null), [view, t, colors]);

  const crumbs = [
    { label: view?.scope.orgName ?? t('school.title'), to: links.school },
    ...(filters.gradeNo ? [{ label: t('college.all'), to: links.college() }, { label: gradeLabel(t, filters.gradeNo) }] : [{ label: t('college.all') }]),
  ];
  const tested = view?.rows.some((r) => r.tested > 0) ?? false;

  return (
    <div data-testid="dc-college-list">
      <PageHeader title={t('college.title')} description={<ViewMeta scope={view?.scope} period={view?.period} asOf={view?.asOf} />} />
      <DrillBreadcrumbs items={crumbs} />
      <FilterBar show={COLLEGE_LIST_FILTERS} value={filters} applied={view?.filters} />
      <ViewBody query={query} data={view && charts && { view, charts }} empty={!tested}>
        {({ view, charts }) => (
          <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
            <ChartCard title={t('college.colleges')} description={t('drill.hintCollege')} data-testid="college-units">
              <DashboardChart option={charts.units} height={320} loading={refreshing} onSelect={toCollege} aria-label={t('college.colleges')} />
            </ChartCard>
            <div className="grid gap-4 xl:grid-cols-2">
              <ChartCard title={t('college.levelsByCollege')} description={t('drill.hintCollege')}>
                <DashboardChart
                  option={charts.levels}
                  height={Math.max(240, view.rows.length * 34 + 60)}
                  loading={refreshing}
                  onSelect={toCollege}
                  aria-label={t('college.levelsByCollege')}
                />
              </ChartCard>
              <ChartCard title={t('college.itemsByCollege')} description={t('drill.hintCollege')} data-testid="items-by-college">
                <ItemHeatTable
                  rowHeader={t('ranking.college')}
                  rows={view.rows.map((r) => ({ id: r.id, label: r.name, items: r.items }))}
                  items={charts.items}
                  onRowClick={toCollege}
                />
              </ChartCard>
            </div>
            <ChartCard title={t('ranking.title')} data-testid="ranking-table">
              <RankingTable rows={view.rows} unit="college" loading={refreshing} onRowClick={onRow} height={Math.min(480, view.rows.length * 44 + 60)} />
            </ChartCard>
          </div>
        )}
      </ViewBody>
    </div>
  );
}
