import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RankRow, WallSceneData } from '@/domain/data-center/types';
import { cn } from '@/lib/cn';
import {
  bmiDonutOption,
  levelDonutOption,
  levelStackOption,
  rankingOption,
  trendOption,
  weakestOption,
  type ChartLook,
} from '../charts/options';
import { formatCount, formatRate, formatScore, gradeLabel, levelRatesOf, scoredItemsIn } from '../format';
import { useSemanticColors } from '../hooks/use-level-colors';
import { DashboardChart } from './dashboard-chart';
import { ItemHeatTable } from './item-heat-table';
import { KpiCards } from './kpi-cards';

const WALL: ChartLook = { wall: true };
/** Charts fill their panel. */
const FILL = '100%';

function Panel({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section className={cn('flex min-h-0 flex-col gap-3 rounded-2xl border bg-card p-6', className)}>
      <h2 className="text-[30px] font-semibold">{title}</h2>
      <div className="relative min-h-0 flex-1">{children}</div>
    </section>
  );
}

/**
 * One wall scene drawn from the public scene answer (docs/product-rules.md#wall-display), laid out in design px for the 1920 × 1080
 * canvas with large type: school overview, grade comparison, class ranking, weakest items.
 */
export function WallScene({ data }: { data: WallSceneData }) {
  switch (data.scene) {
    case 'schoolOverview':
      return <SchoolOverview data={data} />;
    case 'gradeComparison':
      return <GradeComparison data={data} />;
    case 'classRanking':
      return <ClassRanking data={data} />;
    case 'weakestItems':
      return <WeakestItems data={data} />;
    case 'districtSchools':
      return <DistrictSchools data={data} />;
  }
}

type SceneOf<S extends WallSceneData['scene']> = Extract<WallSceneData, { scene: S }>;

function SchoolOverview({ data }: { data: SceneOf<'schoolOverview'> }) {
  const { t } = useTranslation(['dashboard', 'physique']);
  const colors = useSemanticColors();
  const options = useMemo(
    () => ({
      trend: trendOption(t, colors, data.trend, WALL),
      levels: levelDonutOption(t, colors, data.overview, WALL, 'stacked'),
      bmi: bmiDonutOption(t, colors, data.overview.bmi, WALL, 'stacked'),
    }),
    [t, colors, data],
  );
  return (
    <div className="grid h-full grid-rows-[auto_minmax(0,1fr)] gap-6" data-testid="wall-school-overview">
      <KpiCards indicators={data.overview} wall />
      <div className="grid min-h-0 grid-cols-[minmax(0,1.5fr)_minmax(0,1fr)_minmax(0,1fr)] gap-6">
        <Panel title={t('school.trend')}>
          <DashboardChart entryMs={null} option={options.trend} height={FILL} aria-label={t('school.trend')} />
        </Panel>
        <Panel title={t('school.levelShare')}>
          <DashboardChart entryMs={null} option={options.levels} height={FILL} aria-label={t('school.levelShare')} />
        </Panel>
        <Panel title={t('school.bmi')}>
          <DashboardChart entryMs={null} option={options.bmi} height={FILL} aria-label={t('school.bmi')} />
        </Panel>
      </div>
    </div>
  );
}

function GradeComparison({ data }: { data: SceneOf<'gradeComparison'> }) {
  const { t } = useTranslation(['dashboard', 'physique']);
  const colors = useSemanticColors();
  const option = useMemo(
    () =>
      levelStackOption(
        t,
        colors,
        data.byGrade.map((g) => ({ id: String(g.gradeNo), label: gradeLabel(t, g.gradeNo) })),
        data.byGrade.map((g) => ({ levels: g.indicators.levels, rates: g.indicators.levelRates })),
        WALL,
        { horizontal: true },
      ),
    [t, colors, data],
  );
  const items = scoredItemsIn(...data.byGrade.map((g) => g.items));
  return (
    <div className="grid h-full grid-cols-[minmax(0,0.8fr)_minmax(0,1.2fr)] gap-6" data-testid="wall-grade-comparison">
      <Panel title={t('school.levelsByGrade')}>
        <DashboardChart entryMs={null} option={option} height={FILL} aria-label={t('school.levelsByGrade')} />
      </Panel>
      <Panel title={t('school.itemsByGrade')}>
        <ItemHeatTable wall rowHeader={t('ranking.grade')} rows={data.byGrade.map((g) => ({ id: String(g.gradeNo), label: gradeLabel(t, g.gradeNo), items: g.items }))} items={items} />
      </Panel>
    </div>
  );
}

function ClassRanking({ data }: { data: SceneOf<'classRanking'> }) {
  const { t } = useTranslation(['dashboard', 'physique']);
  const colors = useSemanticColors();
  const rows = data.ranking.rows;
  const option = useMemo(() => rankingOption(t, colors, rows, WALL, 12), [t, colors, rows]);
  const top: RankRow[] = rows.filter((r) => r.rank !== null).slice(0, 10);
  return (
    <div className="grid h-full grid-cols-[minmax(0,1.15fr)_minmax(0,1fr)] gap-6" data-testid="wall-class-ranking">
      <Panel title={data.ranking.unit === 'class' ? t('school.classRanking') : t('school.schoolRanking')}>
        <DashboardChart entryMs={null} option={option} height={FILL} aria-label={t('school.classRanking')} />
      </Panel>
      <Panel title={t('wallScene.topTen')}>
        {/* Ten rows share the panel's height (never overflow it), whatever the wall's scale. */}
        <table className="absolute inset-0 h-full w-full text-[28px]">
          <thead className="text-[22px] text-muted-foreground">
            <tr>
              <th className="py-2 text-left font-medium">{t('ranking.rank')}</th>
              <th className="py-2 text-left font-medium">{data.ranking.unit === 'class' ? t('ranking.class') : t('ranking.school')}</th>
              <th className="py-2 text-right font-medium">{t('figure.meanTotal')}</th>
              <th className="py-2 text-right font-medium">{t('figure.excellentRate')}</th>
              <th className="py-2 text-right font-medium">{t('figure.passRate')}</th>
            </tr>
          </thead>
          <tbody>
            {top.map((r) => (
              <tr key={r.id} className="border-t border-border">
                <td className="py-0.5">
                  <span
                    className={cn(
                      'inline-flex size-9 items-center justify-center rounded-full font-bold tabular-nums',
                      r.rank === 1 ? 'bg-warning text-warning-foreground' : r.rank === 2 ? 'bg-secondary text-secondary-foreground' : r.rank === 3 ? 'bg-chart-3 text-black' : 'text-muted-foreground',
                    )}
                  >
                    {r.rank}
                  </span>
                </td>
                <td className="max-w-[360px] truncate py-0.5 font-medium">{r.name}</td>
                <td className="py-0.5 text-right font-semibold tabular-nums">{formatScore(r.meanTotal)}</td>
                <td className="py-0.5 text-right tabular-nums text-success">{formatRate(r.excellentRate)}</td>
                <td className="py-0.5 text-right tabular-nums">{formatRate(r.passRate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Panel>
    </div>
  );
}

function WeakestItems({ data }: { data: SceneOf<'weakestItems'> }) {
  const { t } = useTranslation(['dashboard', 'physique']);
  const colors = useSemanticColors();
  const option = useMemo(() => weakestOption(t, colors, data.weakestItems, WALL), [t, colors, data]);
  // The heat table shows the weakest few: all items by all grades would not fit a wall panel legibly.
  const items = data.weakestItems.slice(0, 6).map((w) => w.item);
  return (
    <div className="grid h-full grid-cols-[minmax(0,1fr)_minmax(0,1fr)] gap-6" data-testid="wall-weakest-items">
      <Panel title={t('school.weakest')}>
        <DashboardChart entryMs={null} option={option} height={FILL} aria-label={t('school.weakest')} />
      </Panel>
      <Panel title={t('wallScene.weakestByGrade')}>
        <ItemHeatTable wall rowHeader={t('ranking.grade')} rows={data.byGrade.map((g) => ({ id: String(g.gradeNo), label: gradeLabel(t, g.gradeNo), items: g.items }))} items={items} />
      </Panel>
    </div>
  );
}

/** Schools on the district's wall at once: the best by mean score (a district's wall is read from across a hall). */
const WALL_SCHOOLS = 10;

/**
 * The district's scene: its counts and each school's figures (levels per school, and a table of the schools by mean
 * score with their participation); school names and numbers only, never a student.
 */
function DistrictSchools({ data }: { data: SceneOf<'districtSchools'> }) {
  const { t } = useTranslation(['dashboard', 'physique', 'dataCenter']);
  const colors = useSemanticColors();
  // The table lists the schools by mean score (a school without results last, with dashes); the chart those with results.
  const listed = useMemo(() => data.schools.slice(0, WALL_SCHOOLS), [data.schools]);
  const option = useMemo(() => {
    const shown = listed.filter((s) => s.tested > 0);
    return levelStackOption(
      t,
      colors,
      shown.map((s) => ({ id: s.orgId, label: s.name })),
      shown.map((s) => ({ levels: s.levels, rates: levelRatesOf(s.levels) })),
      WALL,
      { horizontal: true },
    );
  }, [t, colors, listed]);
  const tiles = [
    ['schools', formatCount(data.schools.length)],
    ['students', formatCount(data.total.students)],
    ['tested', formatCount(data.total.tested)],
    ['meanTotal', formatScore(data.total.meanTotal)],
    ['passRate', formatRate(data.total.passRate)],
    ['homeworkRate', formatRate(data.total.homeworkRate)],
  ] as const;
  return (
    <div className="grid h-full grid-rows-[auto_minmax(0,1fr)] gap-6" data-testid="wall-district-schools">
      <div className="grid grid-cols-6 gap-6">
        {tiles.map(([key, value]) => (
          <div key={key} className="rounded-2xl border bg-card px-6 py-4" data-testid={`wall-district-tile-${key}`}>
            <div className="text-[24px] text-muted-foreground">{t(`dataCenter:district.${key}`)}</div>
            <div className="text-[52px] leading-tight font-bold tabular-nums">{value}</div>
          </div>
        ))}
      </div>
      <div className="grid min-h-0 grid-cols-[minmax(0,1fr)_minmax(0,1.25fr)] gap-6">
        <Panel title={t('dataCenter:district.chart.levels')}>
          <DashboardChart entryMs={null} option={option} height={FILL} aria-label={t('dataCenter:district.chart.levels')} />
        </Panel>
        <Panel title={t('school.schoolRanking')}>
          <table className="absolute inset-x-0 top-0 w-full text-[26px]">
            <thead className="text-[20px] text-muted-foreground">
              <tr>
                <th className="py-2 text-left font-medium">{t('ranking.school')}</th>
                <th className="py-2 text-right font-medium">{t('dataCenter:district.tested')}</th>
                <th className="py-2 text-right font-medium">{t('figure.meanTotal')}</th>
                <th className="py-2 text-right font-medium">{t('figure.excellentRate')}</th>
                <th className="py-2 text-right font-medium">{t('figure.passRate')}</th>
                <th className="py-2 text-right font-medium">{t('dataCenter:district.homeworkRate')}</th>
              </tr>
            </thead>
            <tbody>
              {listed.map((s) => (
                <tr key={s.orgId} className="border-t border-border">
                  <td className="max-w-[320px] truncate py-2 font-medium">{s.name}</td>
                  <td className="py-2 text-right tabular-nums">{formatCount(s.tested)}</td>
                  <td className="py-2 text-right font-semibold tabular-nums">{formatScore(s.meanTotal)}</td>
                  <td className="py-2 text-right tabular-nums text-success">{formatRate(s.excellentRate)}</td>
                  <td className="py-2 text-right tabular-nums">{formatRate(s.passRate)}</td>
                  <td className="py-2 text-right tabular-nums">{formatRate(s.homeworkRate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Panel>
      </div>
    </div>
  );
}
