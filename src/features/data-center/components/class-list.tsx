import { useCallback, useMemo } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import type { RankRow } from '@/domain/data-center/types';
import { PageHeader } from '@/components/page-header/page-header';
import { useClassListQuery } from '../api/get-class-list';
import { unitListCharts } from '../charts/options';
import { dataCenterFamilyAtom } from '../atoms';
import type { FilterKey } from '../filters';
import { gradeLabel } from '../format';
import { useDrill } from '../hooks/use-drill';
import { useFilterUrlSync } from '../hooks/use-filter-url-sync';
import { useSemanticColors } from '../hooks/use-level-colors';
import { ChartCard } from './chart-card';
import { DashboardChart } from './dashboard-chart';
import { DrillBreadcrumbs } from './drill-breadcrumbs';
import { FilterBar } from './filter-bar';
import { ItemHeatTable } from './item-heat-table';
import { RankingTable } from './ranking-table';
import { ViewBody } from './view-states';
import { ViewMeta } from './view-meta';

export const CLASS_LIST_FILTERS: readonly FilterKey[] = ['orgId', 'schoolYear', 'semesterCode', 'planId', 'gradeNo', 'collegeId', 'majorId', 'gender'];

/** Every class with its figures (/k12/dataCenter/class): side by side, levels, item means; a class opens its view. */
export function ClassList() {
  const { t } = useTranslation(['dashboard', 'physique']);
  const filters = useFilterUrlSync(CLASS_LIST_FILTERS);
  const family = useAtomValue(dataCenterFamilyAtom);
  const query = useClassListQuery(family, filters);
  const view = query.data;
  const { links, go } = useDrill(useMemo(() => ({ ...view?.filters, ...filters }), [view?.filters, filters]));
  const colors = useSemanticColors();
  const refreshing = query.isFetching && query.isPlaceholderData;
  const toClass = useCallback((id: string) => go(links.classDetail(id)), [go, links]);
  const onRow = useCallback((row: RankRow) => toClass(row.id), [toClass]);

  const charts = useMemo(() => (view ? unitListCharts(t, colors, view.rows) : null), [view, t, colors]);

  const crumbs = [
    { label: view?.scope.orgName ?? t('school.title'), to: links.school },
    ...(filters.gradeNo ? [{ label: gradeLabel(t, filters.gradeNo), to: links.grade(filters.gradeNo) }] : []),
    { label: t('classList.title') },
  ];
  const testedRows = view?.rows.filter((r) => r.tested > 0) ?? [];

  return (
    <div data-testid="dc-class-list">
      <PageHeader title={t('classList.title')} description={<ViewMeta scope={view?.scope} period={view?.period} asOf={view?.asOf} />} />
      <DrillBreadcrumbs items={crumbs} />
      <FilterBar show={CLASS_LIST_FILTERS} value={filters} applied={view?.filters} />
      <ViewBody query={query} data={view && charts && { view, charts }} empty={testedRows.length === 0}>
        {({ view, charts }) => (
          <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
            <ChartCard title={t('grade.classes')} description={t('drill.hintClass')}>
              <DashboardChart option={charts.units} height={320} loading={refreshing} onSelect={toClass} aria-label={t('grade.classes')} />
            </ChartCard>
            <div className="grid gap-4 xl:grid-cols-2">
              <ChartCard title={t('grade.levelsByClass')}>
                <DashboardChart option={charts.levels} height={Math.max(240, view.rows.length * 30 + 60)} loading={refreshing} onSelect={toClass} aria-label={t('grade.levelsByClass')} />
              </ChartCard>
              <ChartCard title={t('grade.itemsByClass')}>
                <ItemHeatTable rowHeader={t('ranking.class')} rows={view.rows.map((r) => ({ id: r.id, label: r.name, items: r.items }))} items={charts.items} onRowClick={toClass} />
              </ChartCard>
            </div>
            <ChartCard title={t('ranking.title')} data-testid="ranking-table">
              <RankingTable rows={view.rows} unit="class" loading={refreshing} onRowClick={onRow} height={480} />
            </ChartCard>
          </div>
        )}
      </ViewBody>
    </div>
  );
}
