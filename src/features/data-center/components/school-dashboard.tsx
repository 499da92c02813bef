import { useCallback, useMemo, type ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { RankRow } from '@/domain/data-center/types';
import { Link } from 'react-router-dom';
import { PageHeader } from '@/components/page-header/page-header';
import { Button } from '@/components/ui/button';
import { useSchoolViewQuery } from '../api/get-school-view';
import {
  bmiDonutOption,
  genderOption,
  levelDonutOption,
  levelStackOption,
  rankingOption,
  trendOption,
  weakestOption,
} from '../charts/options';
import { dataCenterFamilyAtom } from '../atoms';
import { SCHOOL_FILTERS } from '../filters';
import { gradeLabel, scoredItemsIn } from '../format';
import { useDrill } from '../hooks/use-drill';
import { useFilterUrlSync } from '../hooks/use-filter-url-sync';
import { useSemanticColors } from '../hooks/use-level-colors';
import { ChartCard } from './chart-card';
import { DashboardChart } from './dashboard-chart';
import { FilterBar } from './filter-bar';
import { ItemHeatTable } from './item-heat-table';
import { KpiCards } from './kpi-cards';
import { RankingTable } from './ranking-table';
import { ViewBody } from './view-states';
import { ViewMeta } from './view-meta';

/**
 * The school dashboard (/k12/dataCenter/school): headline figures, level distribution and item means by grade,
 * gender comparison, year-on-year trend, weakest items and the class ranking. Clicking a grade opens the grade
 * view, a class the class view. `actions` go to the header (the wall-link manager).
 */
export function SchoolDashboard({ actions, extra }: { actions?: ReactNode; /** Cards of other areas the app composes in under the headline figures (the warnings card). */ extra?: ReactNode }) {
  const { t } = useTranslation(['dashboard', 'physique']);
  const filters = useFilterUrlSync(SCHOOL_FILTERS);
  const family = useAtomValue(dataCenterFamilyAtom);
  const query = useSchoolViewQuery(family, filters);
  const view = query.data;
  // Drill-downs carry the period the figures are for, defaults included.
  const { links, go, paths } = useDrill(useMemo(() => ({ ...view?.filters, ...filters }), [view?.filters, filters]));
  const colors = useSemanticColors();
  const refreshing = query.isFetching && query.isPlaceholderData;
  // Universities: a year of study opens its colleges side by side (links.grade goes to the college page).
  const gradeHint = paths.college ? t('drill.hintGradeColleges') : t('drill.hintGrade');

  const toGrade = useCallback((id: string) => go(links.grade(Number(id))), [go, links]);
  const toClass = useCallback((id: string) => go(links.classDetail(id)), [go, links]);
  const onRankRow = useCallback((row: RankRow) => (view?.ranking.unit === 'class' ? toClass(row.id) : undefined), [toClass, view?.ranking.unit]);

  const charts = useMemo(() => {
    if (!view) return null;
    const grades = view.byGrade.map((g) => ({ id: String(g.gradeNo), label: gradeLabel(t, g.gradeNo) }));
    const items = scoredItemsIn(view.items);
    return {
      levels: levelStackOption(
        t,
        colors,
        grades,
        view.byGrade.map((g) => ({ levels: g.indicators.levels, rates: g.indicators.levelRates })),
      ),
      levelDonut: levelDonutOption(t, colors, view.overview),
      bmi: bmiDonutOption(t, colors, view.overview.bmi),
      gender: genderOption(t, colors, view.byGender, items),
      trend: trendOption(t, colors, view.trend),
      weakest: weakestOption(t, colors, view.weakestItems),
      ranking: rankingOption(t, colors, view.ranking.rows),
      items,
    };
  }, [view, t, colors]);

  const applied: DataCenterFilter | undefined = view?.filters;

  return (
    <div data-testid="dc-school">
      <PageHeader title={t('school.title')} description={<ViewMeta scope={view?.scope} period={view?.period} asOf={view?.asOf} />} actions={actions} />
      <FilterBar show={SCHOOL_FILTERS} value={filters} applied={applied} />
      <ViewBody query={query} data={view && charts && { view, charts }} empty={view?.overview.tested === 0}>
        {({ view, charts }) => (
          <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
            <KpiCards indicators={view.overview} />
            {extra}
            <div className="grid gap-4 xl:grid-cols-3">
              <ChartCard
                className="xl:col-span-2"
                title={t('school.levelsByGrade')}
                description={gradeHint}
                data-testid="chart-levels-by-grade"
                action={
                  paths.college ? (
                    <Button asChild variant="outline" size="sm">
                      <Link to={links.college()} data-testid="to-colleges">
                        {t('college.compare')}
                      </Link>
                    </Button>
                  ) : null
                }
              >
                <DashboardChart option={charts.levels} height={356} loading={refreshing} onSelect={toGrade} aria-label={t('school.levelsByGrade')} />
              </ChartCard>
              <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-1">
                <ChartCard title={t('school.levelShare')}>
                  <DashboardChart option={charts.levelDonut} height={140} loading={refreshing} aria-label={t('school.levelShare')} />
                </ChartCard>
                <ChartCard title={t('school.bmi')}>
                  <DashboardChart option={charts.bmi} height={140} loading={refreshing} aria-label={t('school.bmi')} />
                </ChartCard>
              </div>
            </div>
            <ChartCard title={t('school.itemsByGrade')} description={gradeHint} data-testid="items-by-grade">
              <ItemHeatTable
                rowHeader={t('ranking.grade')}
                rows={view.byGrade.map((g) => ({ id: String(g.gradeNo), label: gradeLabel(t, g.gradeNo), items: g.items }))}
                items={charts.items}
                onRowClick={toGrade}
              />
            </ChartCard>
            <div className="grid gap-4 xl:grid-cols-2">
              <ChartCard title={t('school.gender')}>
                <DashboardChart option={charts.gender} height={300} loading={refreshing} aria-label={t('school.gender')} />
              </ChartCard>
              <ChartCard title={t('school.trend')} description={t('school.trendHint')}>
                <DashboardChart option={charts.trend} height={300} loading={refreshing} aria-label={t('school.trend')} />
              </ChartCard>
            </div>
            <div className="grid gap-4 xl:grid-cols-2">
              <ChartCard title={t('school.weakest')} description={t('school.weakestHint')}>
                <DashboardChart option={charts.weakest} height={Math.max(220, view.weakestItems.length * 40)} loading={refreshing} aria-label={t('school.weakest')} />
              </ChartCard>
              <ChartCard title={view.ranking.unit === 'class' ? t('school.classRanking') : t('school.schoolRanking')} description={t('drill.hintClass')} data-testid="class-ranking">
                <DashboardChart
                  option={charts.ranking}
                  height={Math.max(220, Math.min(15, view.ranking.rows.length) * 28 + 24)}
                  loading={refreshing}
                  onSelect={view.ranking.unit === 'class' ? toClass : undefined}
                  aria-label={t('school.classRanking')}
                />
              </ChartCard>
            </div>
            <ChartCard title={t('ranking.title')} data-testid="ranking-table">
              <RankingTable rows={view.ranking.rows} unit={view.ranking.unit} loading={refreshing} onRowClick={view.ranking.unit === 'class' ? onRankRow : undefined} />
            </ChartCard>
          </div>
        )}
      </ViewBody>
    </div>
  );
}
