/**
 * ECharts option builders of the data centre: pure functions from a view's figures to a chart option, shared
 * by the dashboards and the wall scenes. Types only from '@/lib/echarts', so this module pulls no chart code.
 * Data items carry an `id` where a click drills down (read it with `clickedId`).
 */
import type { TFunction } from 'i18next';
import { levelOf, SCORE_LEVELS, type ScoreLevel } from '@/domain/physique/level';
import type { BmiBand, ItemKey } from '@/domain/physique/standard';
import type {
  BmiCounts,
  Distribution,
  GenderBreakdown,
  Indicators,
  LevelCounts,
  RankRow,
  TrendPoint,
  UnitRow,
  WeakItem,
} from '@/domain/data-center/types';
import type { StudentHistoryRow } from '@/domain/data-center/types';
import type { ChartOption } from '@/lib/echarts';
import { escapeHtml } from '@/lib/html';
import { formatRate, formatScore, gradeLabel, itemLabel, itemShortLabel, levelRatesOf, NO_FIGURE, percent, scoredItemsIn } from '../format';
import type { SemanticColors } from '../hooks/use-level-colors';

/** How a chart is shown: in a console card, or on a wall display read from across a gym (bigger type). */
export interface ChartLook {
  wall?: boolean;
}

const BMI_BANDS: readonly BmiBand[] = ['normal', 'lowWeight', 'overweight', 'obese'];

const size = (look: ChartLook | undefined, normal?: number, wall = 22) => (look?.wall ? wall : normal);
const axisLabel = (look?: ChartLook, extra: Record<string, unknown> = {}) => ({ ...extra, fontSize: size(look, undefined, 22) });
const legend = (look?: ChartLook, extra: Record<string, unknown> = {}) => ({
  top: 0,
  ...extra,
  itemWidth: look?.wall ? 28 : 18,
  itemHeight: look?.wall ? 16 : 10,
  textStyle: { fontSize: size(look, undefined, 24) },
});
const grid = (look?: ChartLook, extra: Record<string, unknown> = {}) => ({
  left: look?.wall ? 16 : 8,
  right: look?.wall ? 24 : 16,
  top: look?.wall ? 64 : 40,
  bottom: look?.wall ? 16 : 8,
  containLabel: true,
  ...extra,
});
/** A label outside the bars: plain text in the theme colour (ECharts would otherwise outline it). */
const outside = (colors: SemanticColors, extra: Record<string, unknown>) => ({ color: colors.foreground, textBorderWidth: 0, ...extra });
// Walls are not touched: no tooltips to open, and everything worth reading is labelled.
const tooltip = (look: ChartLook | undefined, extra: Record<string, unknown>) => (look?.wall ? { show: false } : { confine: true, ...extra });

/** Tooltip values of a rate series read as percentages, like its axis. */
const rateTooltip = { valueFormatter: (v: unknown) => (typeof v === 'number' ? `${v}%` : NO_FIGURE) };
/** Tooltip values of a score series, as the cards write scores. */
const scoreTooltip = { valueFormatter: (v: unknown) => (typeof v === 'number' ? formatScore(v) : NO_FIGURE) };

/** The id a clicked data item carries (drill-down), if any. */
export function clickedId(params: unknown): string | undefined {
  const data = (params as { data?: unknown } | null)?.data;
  if (data && typeof data === 'object' && 'id' in data) {
    const id = (data as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  }
  return undefined;
}

interface AxisParam {
  seriesName?: string;
  marker?: string;
  name?: string;
  axisValueLabel?: string;
  data?: unknown;
  value?: unknown;
}
const asList = (params: unknown): AxisParam[] => (Array.isArray(params) ? (params as AxisParam[]) : [params as AxisParam]);
const dataField = (p: AxisParam, field: string): unknown =>
  p.data && typeof p.data === 'object' && field in p.data ? (p.data as Record<string, unknown>)[field] : undefined;

/** A category with a label and, for drill-down, an id. */
export interface Category {
  id?: string;
  label: string;
}

/** Level shares per category as 100 % stacked bars (level distribution by grade, by class). */
export function levelStackOption(
  t: TFunction,
  colors: SemanticColors,
  categories: readonly Category[],
  levels: readonly { levels: LevelCounts; rates: Record<ScoreLevel, number | null> }[],
  look?: ChartLook,
  opts: { horizontal?: boolean } = {},
): ChartOption {
  const categoryAxis = { type: 'category' as const, data: categories.map((c) => c.label), axisLabel: axisLabel(look, { interval: 0 }) };
  const valueAxis = { type: 'value' as const, max: 100, axisLabel: axisLabel(look, { formatter: '{value}%' }) };
  return {
    legend: legend(look),
    grid: grid(look),
    tooltip: tooltip(look, {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (params: unknown) => {
        const list = asList(params);
        const head = escapeHtml(list[0]?.name);
        const lines = list.map((p) => `${p.marker ?? ''}${escapeHtml(p.seriesName)}: ${escapeHtml(p.value ?? NO_FIGURE)}% (${escapeHtml(dataField(p, 'count') ?? 0)})`);
        return [head, ...lines].join('<br/>');
      },
    }),
    xAxis: opts.horizontal ? valueAxis : categoryAxis,
    yAxis: opts.horizontal ? { ...categoryAxis, inverse: true } : valueAxis,
    series: SCORE_LEVELS.map((level) => ({
      type: 'bar' as const,
      name: t(`physique:level.${level}`),
      stack: 'level',
      barMaxWidth: look?.wall ? 72 : 40,
      itemStyle: { color: colors.level[level] },
      emphasis: { focus: 'series' as const },
      label: {
        show: true,
        fontSize: size(look, 11, 20),
        color: '#fff',
        formatter: (p: unknown) => {
          const v = (p as { value?: number | null }).value;
          return typeof v === 'number' && v >= (look?.wall ? 10 : 8) ? `${v}%` : '';
        },
      },
      data: categories.map((c, i) => ({ value: percent(levels[i]?.rates[level]), count: levels[i]?.levels[level] ?? 0, id: c.id })),
    })),
  };
}

/** Year-on-year trend: mean total (bars, left axis) and excellent / good / pass rates (lines, right axis). */
export function trendOption(t: TFunction, colors: SemanticColors, points: readonly TrendPoint[], look?: ChartLook): ChartOption {
  const years = points.map((p) => p.academicYear);
  const rateLine = (name: string, color: string, pick: (i: Indicators) => number | null) => ({
    type: 'line' as const,
    name,
    yAxisIndex: 1,
    smooth: false,
    symbolSize: look?.wall ? 14 : 8,
    lineStyle: { width: look?.wall ? 5 : 2.5 },
    itemStyle: { color },
    label: outside(colors, { show: points.length <= 6, fontSize: size(look, 11, 20), formatter: '{c}%' }),
    tooltip: rateTooltip,
    data: points.map((p) => percent(pick(p.indicators))),
  });
  return {
    legend: legend(look),
    grid: grid(look),
    tooltip: tooltip(look, { trigger: 'axis' }),
    xAxis: { type: 'category', data: years, axisLabel: axisLabel(look) },
    yAxis: [
      { type: 'value', name: t('dashboard:figure.meanTotal'), min: 0, max: 120, axisLabel: axisLabel(look), nameTextStyle: { fontSize: size(look, undefined, 20) } },
      { type: 'value', min: 0, max: 100, axisLabel: axisLabel(look, { formatter: '{value}%' }), splitLine: { show: false } },
    ],
    series: [
      {
        type: 'bar',
        name: t('dashboard:figure.meanTotal'),
        barMaxWidth: look?.wall ? 80 : 36,
        itemStyle: { color: colors.series[7], opacity: 0.55 },
        label: outside(colors, { show: true, position: 'top', fontSize: size(look, 11, 22), formatter: (p: unknown) => formatScore((p as { value?: number }).value) }),
        tooltip: scoreTooltip,
        data: points.map((p) => p.indicators.meanTotal),
      },
      rateLine(t('dashboard:figure.excellentRate'), colors.level.excellent, (i) => i.excellentRate),
      rateLine(t('dashboard:figure.goodRate'), colors.level.good, (i) => i.goodRate),
      rateLine(t('dashboard:figure.passRate'), colors.level.pass, (i) => i.passRate),
    ],
  };
}

/** Boys and girls side by side: mean total and the mean score of each item. */
export function genderOption(t: TFunction, colors: SemanticColors, byGender: readonly GenderBreakdown[], items: readonly ItemKey[], look?: ChartLook): ChartOption {
  const categories: (ItemKey | 'total')[] = ['total', ...items];
  return {
    legend: legend(look),
    grid: grid(look),
    tooltip: tooltip(look, { trigger: 'axis', axisPointer: { type: 'shadow' } }),
    xAxis: { type: 'category', data: categories.map((c) => itemShortLabel(t, c)), axisLabel: axisLabel(look, { interval: 0, rotate: !look?.wall && categories.length > 7 ? 30 : 0 }) },
    yAxis: { type: 'value', min: 0, axisLabel: axisLabel(look) },
    series: byGender.map((g) => ({
      type: 'bar' as const,
      name: t(`physique:gender.${g.gender}`),
      barMaxWidth: look?.wall ? 48 : 24,
      itemStyle: { color: g.gender === 'male' ? colors.series[0] : colors.series[4] },
      data: categories.map((c) => (c === 'total' ? g.indicators.meanTotal : (g.items[c]?.meanScore ?? null))),
    })),
  };
}

/** The weakest items: mean item score, lowest first, coloured by level, with the failing share. */
export function weakestOption(t: TFunction, colors: SemanticColors, weak: readonly WeakItem[], look?: ChartLook): ChartOption {
  return {
    grid: grid(look, { top: 8, right: look?.wall ? 220 : 120 }),
    tooltip: tooltip(look, { trigger: 'item' }),
    xAxis: { type: 'value', min: 0, max: 100, axisLabel: axisLabel(look) },
    yAxis: { type: 'category', inverse: true, data: weak.map((w) => itemShortLabel(t, w.item)), axisLabel: axisLabel(look, { fontSize: size(look, undefined, 24) }) },
    series: [
      {
        type: 'bar',
        barMaxWidth: look?.wall ? 56 : 22,
        label: outside(colors, {
          show: true,
          position: 'right',
          fontSize: size(look, 12, 24),
          formatter: (p: unknown) => {
            const fail = dataField(p as AxisParam, 'failRate') as number | null;
            const mean = formatScore((p as { value?: number }).value);
            return fail === null || fail === undefined ? mean : t('dashboard:chart.meanWithFail', { mean, fail: formatRate(fail) });
          },
        }),
        data: weak.map((w) => ({ value: w.meanScore, failRate: w.failRate, itemStyle: { color: colors.level[levelOf(w.meanScore)] } })),
      },
    ],
  };
}

/** Classes (or schools) by mean total, best first; clicking a bar opens that class. */
export function rankingOption(t: TFunction, colors: SemanticColors, rows: readonly RankRow[], look?: ChartLook, limit = 15): ChartOption {
  const shown = rows.filter((r) => r.meanTotal !== null).slice(0, limit);
  return {
    grid: grid(look, { top: 8, right: look?.wall ? 110 : 56 }),
    tooltip: tooltip(look, {
      trigger: 'item',
      formatter: (p: unknown) => {
        const d = (p as { data?: { row?: RankRow } }).data?.row;
        if (!d) return '';
        return [
          `${d.rank ?? ''}. ${d.name}`,
          `${t('dashboard:figure.meanTotal')}: ${formatScore(d.meanTotal)}`,
          `${t('dashboard:figure.excellentRate')}: ${formatRate(d.excellentRate)}`,
          `${t('dashboard:figure.passRate')}: ${formatRate(d.passRate)}`,
          `${t('dashboard:figure.tested')}: ${d.tested}`,
        ]
          .map(escapeHtml)
          .join('<br/>');
      },
    }),
    xAxis: { type: 'value', min: 0, max: (v: { max: number }) => Math.max(100, Math.ceil(v.max / 10) * 10), axisLabel: axisLabel(look) },
    yAxis: {
      type: 'category',
      inverse: true,
      data: shown.map((r) => `${r.rank ?? ''}  ${r.name}`),
      axisLabel: axisLabel(look, { fontSize: size(look, undefined, 24) }),
    },
    series: [
      {
        type: 'bar',
        barMaxWidth: look?.wall ? 40 : 20,
        cursor: 'pointer',
        label: outside(colors, { show: true, position: 'right', fontSize: size(look, 12, 24), formatter: (p: unknown) => formatScore((p as { value?: number }).value) }),
        data: shown.map((r) => ({ value: r.meanTotal, id: r.id, row: r, itemStyle: { color: colors.level[levelOf(r.meanTotal ?? 0)] } })),
      },
    ],
  };
}

/** Classes shown at once in the class comparison; more scroll (slider and wheel) so every class keeps its label. */
export const UNITS_IN_VIEW = 16;

/** Classes of a grade side by side: mean total (bars) with excellent and pass rates (lines). */
export function unitsOption(t: TFunction, colors: SemanticColors, rows: readonly UnitRow[], look?: ChartLook): ChartOption {
  const scroll = rows.length > UNITS_IN_VIEW;
  return {
    legend: legend(look),
    grid: grid(look, scroll ? { bottom: 40 } : {}),
    tooltip: tooltip(look, { trigger: 'axis', axisPointer: { type: 'shadow' } }),
    // Every class is labelled: slanted when many, scrolled when more than fit.
    xAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: axisLabel(look, { interval: 0, rotate: rows.length > 6 ? 40 : 0 }) },
    ...(scroll
      ? {
          dataZoom: [
            { type: 'slider', xAxisIndex: 0, startValue: 0, endValue: UNITS_IN_VIEW - 1, height: 16, bottom: 4, zoomLock: true, brushSelect: false },
            { type: 'inside', xAxisIndex: 0, zoomOnMouseWheel: false, moveOnMouseWheel: true, moveOnMouseMove: false },
          ],
        }
      : {}),
    yAxis: [
      { type: 'value', min: 0, max: 120, axisLabel: axisLabel(look) },
      { type: 'value', min: 0, max: 100, axisLabel: axisLabel(look, { formatter: '{value}%' }), splitLine: { show: false } },
    ],
    series: [
      {
        type: 'bar',
        name: t('dashboard:figure.meanTotal'),
        barMaxWidth: 36,
        cursor: 'pointer',
        itemStyle: { color: colors.series[0] },
        label: outside(colors, { show: rows.length <= 12, position: 'top', formatter: (p: unknown) => formatScore((p as { value?: number }).value) }),
        tooltip: scoreTooltip,
        data: rows.map((r) => ({ value: r.meanTotal, id: r.id })),
      },
      {
        type: 'line',
        name: t('dashboard:figure.excellentRate'),
        yAxisIndex: 1,
        itemStyle: { color: colors.level.excellent },
        tooltip: rateTooltip,
        data: rows.map((r) => ({ value: percent(r.excellentRate), id: r.id })),
      },
      {
        type: 'line',
        name: t('dashboard:figure.passRate'),
        yAxisIndex: 1,
        itemStyle: { color: colors.level.pass },
        tooltip: rateTooltip,
        data: rows.map((r) => ({ value: percent(r.passRate), id: r.id })),
      },
    ],
  };
}

/** Box plots of the item scores (and totals) of a grade: spread at a glance. */
export function boxplotOption(t: TFunction, colors: SemanticColors, distributions: readonly Distribution[], look?: ChartLook): ChartOption {
  const shown = distributions.filter((d) => d.score && d.item !== 'bmi');
  return {
    grid: grid(look, { top: 16 }),
    tooltip: tooltip(look, {
      trigger: 'item',
      formatter: (p: unknown) => {
        const d = (p as { data?: { dist?: Distribution } }).data?.dist;
        if (!d?.score) return '';
        const s = d.score;
        return [
          itemLabel(t, d.item),
          `${t('dashboard:distribution.max')}: ${formatScore(s.max)}`,
          `${t('dashboard:distribution.q3')}: ${formatScore(s.q3)}`,
          `${t('dashboard:distribution.median')}: ${formatScore(s.median)}`,
          `${t('dashboard:distribution.q1')}: ${formatScore(s.q1)}`,
          `${t('dashboard:distribution.min')}: ${formatScore(s.min)}`,
          `n = ${d.n}`,
        ]
          .map(escapeHtml)
          .join('<br/>');
      },
    }),
    xAxis: { type: 'category', data: shown.map((d) => itemShortLabel(t, d.item)), axisLabel: axisLabel(look, { interval: 0, rotate: shown.length > 6 ? 30 : 0 }) },
    yAxis: { type: 'value', min: 0, axisLabel: axisLabel(look) },
    series: [
      {
        type: 'boxplot',
        itemStyle: { color: `${colors.series[0]}33`, borderColor: colors.series[0], borderWidth: 1.5 },
        data: shown.map((d) => ({ value: [d.score!.min, d.score!.q1, d.score!.median, d.score!.q3, d.score!.max], dist: d })),
      },
    ],
  };
}

/** Histogram of one item's scores (10-point buckets), each bucket coloured by the level it falls in. */
export function histogramOption(t: TFunction, colors: SemanticColors, dist: Distribution | undefined, look?: ChartLook): ChartOption {
  const buckets = dist?.histogram ?? [];
  return {
    grid: grid(look, { top: 24 }),
    tooltip: tooltip(look, { trigger: 'axis', axisPointer: { type: 'shadow' } }),
    xAxis: { type: 'category', data: buckets.map((b) => `${b.from}–${b.to}`), axisLabel: axisLabel(look, { interval: 0, rotate: look?.wall ? 0 : 30 }) },
    yAxis: { type: 'value', name: t('dashboard:distribution.students'), minInterval: 1, axisLabel: axisLabel(look) },
    series: [
      {
        type: 'bar',
        name: t('dashboard:distribution.students'),
        barCategoryGap: '8%',
        label: outside(colors, { show: true, position: 'top', fontSize: size(look, 11, 20) }),
        data: buckets.map((b) => ({ value: b.count, itemStyle: { color: colors.level[levelOf(b.from)] } })),
      },
    ],
  };
}

/** Radar of item scores: e.g. a class against its grade, a student against the class. */
export function radarOption(
  t: TFunction,
  colors: SemanticColors,
  items: readonly ItemKey[],
  series: readonly { name: string; values: Partial<Record<ItemKey, number | null>> }[],
  look?: ChartLook,
): ChartOption {
  return {
    legend: legend(look, { top: 'bottom' }),
    tooltip: tooltip(look, { trigger: 'item' }),
    radar: {
      radius: '62%',
      center: ['50%', '48%'],
      indicator: items.map((item) => ({ name: itemShortLabel(t, item), max: 100 })),
      axisName: { fontSize: size(look, 12, 22) },
    },
    series: [
      {
        type: 'radar',
        symbolSize: 5,
        data: series.map((s, i) => ({
          name: s.name,
          value: items.map((item) => s.values[item] ?? 0),
          itemStyle: { color: colors.series[i === 0 ? 0 : 2] },
          lineStyle: { width: 2, type: i === 0 ? ('solid' as const) : ('dashed' as const) },
          areaStyle: i === 0 ? { opacity: 0.18 } : undefined,
        })),
      },
    ],
  };
}

/** 'side': ring left, legend right (short, wide boxes); 'stacked': ring above, legend below (tall boxes). */
export type DonutLayout = 'side' | 'stacked';

/** A ring of shares with the total in its middle and a legend of percentages beside it (levels, BMI bands). */
export function donutOption(
  entries: readonly { name: string; value: number; color: string }[],
  center: { value: string; label: string },
  look?: ChartLook,
  layout: DonutLayout = 'side',
): ChartOption {
  const total = entries.reduce((sum, e) => sum + e.value, 0);
  const valueOf = new Map(entries.map((e) => [e.name, e.value]));
  const share = (name: string) => {
    const v = valueOf.get(name) ?? 0;
    return total ? `${((v / total) * 100).toFixed(1)}%` : NO_FIGURE;
  };
  const side = layout === 'side';
  const cx = side ? '28%' : '50%';
  return {
    tooltip: tooltip(look, { trigger: 'item', formatter: '{b}: {c} ({d}%)' }),
    legend: {
      orient: side ? 'vertical' : 'horizontal',
      ...(side ? { left: '58%', top: 'middle' } : { left: 'center', bottom: 0 }),
      itemGap: look?.wall ? 28 : 8,
      itemWidth: look?.wall ? 24 : 12,
      itemHeight: look?.wall ? 24 : 12,
      formatter: (name: string) => `${name}  ${share(name)}`,
      textStyle: { fontSize: size(look, 12, 26) },
    },
    title: {
      text: center.value,
      subtext: center.label,
      left: cx,
      top: side ? 'middle' : '38%',
      textAlign: 'center',
      itemGap: look?.wall ? 8 : 2,
      textStyle: { fontSize: size(look, 18, 44) },
      subtextStyle: { fontSize: size(look, 11, 22) },
    },
    series: [
      {
        type: 'pie',
        radius: side ? ['62%', '88%'] : ['42%', '62%'],
        center: side ? [cx, '50%'] : [cx, '45%'],
        label: { show: false },
        labelLine: { show: false },
        data: entries.filter((e) => e.value > 0).map((e) => ({ name: e.name, value: e.value, itemStyle: { color: e.color } })),
      },
    ],
  };
}

/** The level ring of a population. */
export function levelDonutOption(t: TFunction, colors: SemanticColors, indicators: Indicators, look?: ChartLook, layout?: DonutLayout): ChartOption {
  return donutOption(
    SCORE_LEVELS.map((level) => ({ name: t(`physique:level.${level}`), value: indicators.levels[level], color: colors.level[level] })),
    { value: String(indicators.assessed), label: t('dashboard:figure.assessed') },
    look,
    layout,
  );
}

/** The BMI band ring of a population. */
export function bmiDonutOption(t: TFunction, colors: SemanticColors, bmi: BmiCounts, look?: ChartLook, layout?: DonutLayout): ChartOption {
  const total = BMI_BANDS.reduce((sum, b) => sum + bmi[b], 0);
  return donutOption(
    BMI_BANDS.map((band) => ({ name: t(`physique:bmiLevel.${band}`), value: bmi[band], color: colors.bmi[band] })),
    { value: String(total), label: t('dashboard:figure.bmiMeasured') },
    look,
    layout,
  );
}

/** A student's totals across years and plans, with the level bands marked. */
export function historyOption(t: TFunction, colors: SemanticColors, history: readonly StudentHistoryRow[], look?: ChartLook): ChartOption {
  const labels = history.map((h) => `${h.academicYear}\n${t(`dashboard:semester.${h.semesterCode}`)}`);
  return {
    legend: legend(look),
    grid: grid(look, { right: 56 }),
    tooltip: tooltip(look, {
      trigger: 'axis',
      formatter: (params: unknown) => {
        const list = asList(params);
        const h = history[(list[0] as { dataIndex?: number }).dataIndex ?? 0];
        if (!h) return '';
        return [
          escapeHtml(`${h.planName} (${h.academicYear})`),
          escapeHtml(`${gradeLabel(t, h.gradeNo)} ${h.className}`),
          ...list.map((p) => `${p.marker ?? ''}${escapeHtml(`${p.seriesName ?? ''}: ${formatScore(p.value as number | null)}`)}`),
        ].join('<br/>');
      },
    }),
    xAxis: { type: 'category', data: labels, axisLabel: axisLabel(look, { interval: 0 }) },
    yAxis: { type: 'value', min: 0, max: 120, axisLabel: axisLabel(look) },
    series: [
      {
        type: 'line',
        name: t('physique:score.total'),
        symbolSize: 9,
        lineStyle: { width: 3 },
        itemStyle: { color: colors.series[0] },
        label: outside(colors, { show: true, formatter: (p: unknown) => formatScore((p as { value?: number }).value) }),
        data: history.map((h) => h.total),
        markLine: {
          silent: true,
          symbol: 'none',
          label: { position: 'end', formatter: '{b}' },
          data: [
            { name: t('physique:level.excellent'), yAxis: 90, lineStyle: { color: colors.level.excellent, type: 'dashed' } },
            { name: t('physique:level.good'), yAxis: 80, lineStyle: { color: colors.level.good, type: 'dashed' } },
            { name: t('physique:level.pass'), yAxis: 60, lineStyle: { color: colors.level.pass, type: 'dashed' } },
          ],
        },
      },
      {
        type: 'line',
        name: t('physique:score.standardScore'),
        symbolSize: 6,
        itemStyle: { color: colors.series[1] },
        lineStyle: { type: 'dashed' },
        data: history.map((h) => h.standardScore),
      },
    ],
  };
}

/** The charts of a list of units side by side (classes of a grade, colleges of a university): items, units, levels. */
export function unitListCharts(t: TFunction, colors: SemanticColors, rows: readonly UnitRow[]) {
  return {
    items: scoredItemsIn(...rows.map((r) => r.items)),
    units: unitsOption(t, colors, rows),
    levels: levelStackOption(
      t,
      colors,
      rows.map((r) => ({ id: r.id, label: r.name })),
      rows.map((r) => ({ levels: r.levels, rates: levelRatesOf(r.levels) })),
      undefined,
      { horizontal: true },
    ),
  };
}


/** A school of a district chart: its id (the drill-down target) and name. */
export interface SchoolRef {
  orgId: string;
  name: string;
}

/**
 * Each school's mean total per school year (one line per school, the district's mean dashed); a point's id is
 * `orgId@schoolYear`, so a click opens that school's data centre for that year (splitSchoolYearId).
 */
export function schoolTrendOption(
  t: TFunction,
  colors: SemanticColors,
  trend: readonly { schoolYear: number; academicYear: string; indicators: Indicators; schools: readonly { orgId: string; meanTotal: number | null; passRate: number | null }[] }[],
  schools: readonly SchoolRef[],
  look?: ChartLook,
): ChartOption {
  const years = trend.map((p) => p.academicYear);
  return {
    legend: legend(look, { type: 'scroll' }),
    grid: grid(look),
    tooltip: tooltip(look, {
      trigger: 'axis',
      formatter: (params: unknown) => {
        const list = asList(params).filter((p) => typeof p.value === 'number');
        const head = escapeHtml(list[0]?.axisValueLabel ?? list[0]?.name ?? '');
        const lines = [...list]
          .sort((a, b) => (b.value as number) - (a.value as number))
          .map((p) => `${p.marker ?? ''}${escapeHtml(p.seriesName ?? '')}: ${formatScore(p.value as number)}`);
        return [head, ...lines].join('<br/>');
      },
    }),
    xAxis: { type: 'category', data: years, axisLabel: axisLabel(look) },
    // No axis name: the card's title says what the values are (a long name would be cut at the edge).
    yAxis: { type: 'value', min: (v: { min: number }) => Math.max(0, Math.floor(v.min / 10) * 10 - 10), max: 120, axisLabel: axisLabel(look) },
    series: [
      {
        type: 'line' as const,
        name: t('dataCenter:district.chart.districtMean'),
        symbolSize: look?.wall ? 12 : 7,
        lineStyle: { width: look?.wall ? 5 : 3, type: 'dashed' as const },
        itemStyle: { color: colors.foreground },
        data: trend.map((p) => p.indicators.meanTotal),
      },
      ...schools.map((s, i) => ({
        type: 'line' as const,
        name: s.name,
        cursor: 'pointer',
        connectNulls: true,
        symbolSize: look?.wall ? 10 : 6,
        itemStyle: { color: colors.series[i % colors.series.length] },
        data: trend.map((p) => ({ value: p.schools.find((x) => x.orgId === s.orgId)?.meanTotal ?? null, id: `${s.orgId}@${p.schoolYear}` })),
      })),
    ],
  };
}

/** `orgId@schoolYear` of a school-trend point, split. */
export function splitSchoolYearId(id: string): { orgId: string; schoolYear: number | undefined } {
  const [orgId, year] = id.split('@');
  return { orgId: orgId!, schoolYear: year ? Number(year) : undefined };
}

/** Schools side by side: the share of students tested, handing in homework and taking part in contests. */
export function participationOption(
  t: TFunction,
  colors: SemanticColors,
  rows: readonly (SchoolRef & { students: number; tested: number; homeworkRate: number | null; contestRate: number | null })[],
  look?: ChartLook,
): ChartOption {
  const bar = (name: string, color: string, pick: (r: (typeof rows)[number]) => number | null) => ({
    type: 'bar' as const,
    name,
    cursor: 'pointer',
    barMaxWidth: look?.wall ? 32 : 14,
    itemStyle: { color },
    tooltip: rateTooltip,
    data: rows.map((r) => ({ value: percent(pick(r)), id: r.orgId })),
  });
  return {
    legend: legend(look),
    grid: grid(look),
    tooltip: tooltip(look, { trigger: 'axis', axisPointer: { type: 'shadow' } }),
    xAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: axisLabel(look, { interval: 0, rotate: rows.length > 6 ? 30 : 0 }) },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: axisLabel(look, { formatter: '{value}%' }) },
    series: [
      bar(t('dataCenter:district.chart.testedRate'), colors.series[0], (r) => (r.students > 0 ? Math.min(1, Math.round((r.tested / r.students) * 10_000) / 10_000) : null)),
      bar(t('dataCenter:district.homeworkRate'), colors.series[2], (r) => r.homeworkRate),
      bar(t('dataCenter:district.contestRate'), colors.series[4], (r) => r.contestRate),
    ],
  };
}
