import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import type { RankRow } from '@/domain/data-center/types';
import type { ItemKey } from '@/domain/physique/standard';
import { PageHeader } from '@/components/page-header/page-header';
import { Select } from '@/components/ui/select';
import { useGradeViewQuery } from '../api/get-grade-view';
import { useOptionsQuery } from '../api/get-options';
import {
  boxplotOption,
  genderOption,
  histogramOption,
  levelDonutOption,
  levelStackOption,
  trendOption,
  unitsOption,
  weakestOption,
} from '../charts/options';
import { dataCenterFamilyAtom } from '../atoms';
import type { FilterKey } from '../filters';
import { gradeLabel, itemLabel, levelRatesOf, scoredItemsIn } from '../format';
import { useDrill } from '../hooks/use-drill';
import { useFilterUrlSync } from '../hooks/use-filter-url-sync';
import { useSemanticColors } from '../hooks/use-level-colors';
import { ChartCard } from './chart-card';
import { DashboardChart } from './dashboard-chart';
import { DrillBreadcrumbs } from './drill-breadcrumbs';
import { FilterBar } from './filter-bar';
import { ItemHeatTable } from './item-heat-table';
import { KpiCards } from './kpi-cards';
import { RankingTable } from './ranking-table';
import { ViewBody } from './view-states';
import { ViewMeta } from './view-meta';

export const GRADE_FILTERS: readonly FilterKey[] = ['orgId', 'schoolYear', 'semesterCode', 'planId', 'gradeNo', 'collegeId', 'majorId', 'gender'];
/** Filters of a university's college page (every year of study unless one is chosen). */
export const COLLEGE_FILTERS: readonly FilterKey[] = ['schoolYear', 'semesterCode', 'planId', 'collegeId', 'majorId', 'gradeNo', 'gender'];

/**
 * The grade dashboard (/k12/dataCenter/grade): one grade's figures, its classes side by side (figures, levels,
 * item means), the score distributions (box plots, histogram of one item), gender, trend and weakest items.
 * `mode="college"` shows one college of a university the same way (/gx/dataCenter/college?collegeId=…): the server's
 * grade view with the college filter, all its years of study unless one is chosen.
 */
export function GradeDashboard({ mode = 'grade', extra }: { mode?: 'grade' | 'college'; /** Cards of other areas the app composes in under the headline figures (lesson load). */ extra?: ReactNode }) {
  const { t } = useTranslation(['dashboard', 'physique']);
  const college = mode === 'college';
  const filters = useFilterUrlSync(college ? COLLEGE_FILTERS : GRADE_FILTERS);
  const family = useAtomValue(dataCenterFamilyAtom);
  const query = useGradeViewQuery(family, filters);
  const collegeName = useOptionsQuery(family, filters.orgId).data?.colleges.find((c) => c.id === filters.collegeId)?.name;
  const view = query.data;
  const { links, go } = useDrill(useMemo(() => ({ ...view?.filters, ...filters }), [view?.filters, filters]));
  const colors = useSemanticColors();
  const refreshing = query.isFetching && query.isPlaceholderData;
  const [histItem, setHistItem] = useState<ItemKey | 'total'>('total');

  const toClass = useCallback((id: string) => go(links.classDetail(id)), [go, links]);
  const onUnitRow = useCallback((row: RankRow) => (view?.units.unit === 'class' ? toClass(row.id) : undefined), [toClass, view?.units.unit]);
  const gradeName = gradeLabel(t, view?.gradeNo ?? filters.gradeNo);
  const crumbs = college
    ? [
        { label: view?.scope.orgName ?? t('school.title'), to: links.school },
        { label: t('college.all'), to: links.college(null, filters.gradeNo) },
        ...(filters.gradeNo ? [{ label: collegeName ?? t('college.title'), to: links.college(filters.collegeId) }, { label: gradeName }] : [{ label: collegeName ?? t('college.title') }]),
      ]
    : [{ label: view?.scope.orgName ?? t('school.title'), to: links.school }, { label: gradeName }];

  const charts = useMemo(() => {
    if (!view) return null;
    const units = view.units.rows;
    const items = scoredItemsIn(view.items);
    const dist = view.distributions.find((d) => d.item === histItem) ?? view.distributions.find((d) => d.item === 'total');
    return {
      items,
      units: unitsOption(t, colors, units),
      levels: levelStackOption(
        t,
        colors,
        units.map((u) => ({ id: u.id, label: u.name })),
        units.map((u) => ({ levels: u.levels, rates: levelRatesOf(u.levels) })),
        undefined,
        { horizontal: true },
      ),
      levelDonut: levelDonutOption(t, colors, view.overview, undefined, 'stacked'),
      boxplot: boxplotOption(t, colors, view.distributions),
      histogram: histogramOption(t, colors, dist),
      gender: genderOption(t, colors, view.byGender, items),
      trend: trendOption(t, colors, view.trend),
      weakest: weakestOption(t, colors, view.weakestItems),
    };
  }, [view, t, colors, histItem]);

  return (
    <div data-testid={college ? 'dc-college' : 'dc-grade'}>
      <PageHeader
        title={college && collegeName ? collegeName : t(college ? 'college.title' : 'grade.title')}
        description={<ViewMeta scope={view?.scope} period={view?.period} asOf={view?.asOf} />}
      />
      <DrillBreadcrumbs items={crumbs} />
      <FilterBar show={college ? COLLEGE_FILTERS : GRADE_FILTERS} value={filters} applied={view?.filters} required={college ? ['collegeId'] : ['gradeNo']} />
      <ViewBody query={query} data={view && charts && { view, charts }} empty={view?.overview.tested === 0}>
        {({ view, charts }) => (
          <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
            <KpiCards indicators={view.overview} />
            {extra}
            <div className="grid gap-4 xl:grid-cols-3">
              <ChartCard className="xl:col-span-2" title={t('grade.classes')} description={t('drill.hintClass')} data-testid="grade-units">
                <DashboardChart option={charts.units} height={320} loading={refreshing} onSelect={toClass} aria-label={t('grade.classes')} />
              </ChartCard>
              <ChartCard title={t('school.levelShare')}>
                <DashboardChart option={charts.levelDonut} height={320} loading={refreshing} aria-label={t('school.levelShare')} />
              </ChartCard>
            </div>
            <div className="grid gap-4 xl:grid-cols-2">
              <ChartCard title={t('grade.levelsByClass')} description={t('drill.hintClass')}>
                <DashboardChart
                  option={charts.levels}
                  height={Math.max(260, view.units.rows.length * 34 + 60)}
                  loading={refreshing}
                  onSelect={toClass}
                  aria-label={t('grade.levelsByClass')}
                />
              </ChartCard>
              <ChartCard title={t('school.weakest')} description={t('school.weakestHint')}>
                <DashboardChart option={charts.weakest} height={Math.max(260, view.weakestItems.length * 34)} loading={refreshing} aria-label={t('school.weakest')} />
              </ChartCard>
            </div>
            <ChartCard title={t('grade.itemsByClass')} description={t('drill.hintClass')}>
              <ItemHeatTable
                rowHeader={t('ranking.class')}
                rows={view.units.rows.map((u) => ({ id: u.id, label: u.name, items: u.items }))}
                items={charts.items}
                onRowClick={view.units.unit === 'class' ? toClass : undefined}
              />
            </ChartCard>
            <div className="grid gap-4 xl:grid-cols-2">
              <ChartCard title={t('grade.boxplot')} description={t('grade.boxplotHint')}>
                <DashboardChart option={charts.boxplot} height={320} loading={refreshing} aria-label={t('grade.boxplot')} />
              </ChartCard>
              <ChartCard
                title={t('grade.histogram')}
                action={
                  <Select
                    className="w-44"
                    aria-label={t('grade.histogramItem')}
                    value={histItem}
                    onValueChange={(v) => setHistItem(v as ItemKey | 'total')}
                    options={view.distributions.filter((d) => d.item !== 'bmi').map((d) => ({ value: d.item, label: itemLabel(t, d.item) }))}
                  />
                }
              >
                <DashboardChart option={charts.histogram} height={320} loading={refreshing} aria-label={t('grade.histogram')} />
              </ChartCard>
            </div>
            <div className="grid gap-4 xl:grid-cols-2">
              <ChartCard title={t('school.gender')}>
                <DashboardChart option={charts.gender} height={300} loading={refreshing} aria-label={t('school.gender')} />
              </ChartCard>
              <ChartCard title={t('school.trend')} description={t('school.trendHint')}>
                <DashboardChart option={charts.trend} height={300} loading={refreshing} aria-label={t('school.trend')} />
              </ChartCard>
            </div>
            <ChartCard title={t('ranking.title')} data-testid="ranking-table">
              <RankingTable rows={view.units.rows} unit={view.units.unit} loading={refreshing} onRowClick={onUnitRow} height={360} />
            </ChartCard>
          </div>
        )}
      </ViewBody>
    </div>
  );
}
