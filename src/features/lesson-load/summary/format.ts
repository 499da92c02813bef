import type { TFunction } from 'i18next';
import { CURRICULUM_TARGETS } from '@/domain/lesson-load/zones';
import type { LoadWeek } from '@/domain/lesson-load/reports';
import type { ChartOption } from '@/lib/echarts';

const pct = (v: number | null) => (v == null ? null : Math.round(v * 1000) / 10);

/**
 * The weekly trend: share of lessons meeting the targets and the two densities (%, left axis, the curriculum's
 * density targets drawn across) and the main part's mean bpm (right axis).
 */
export function weeklyTrendOption(t: TFunction, weeks: readonly LoadWeek[], compact = false): ChartOption {
  const s = (k: string) => t(`lessonLoad:summary.${k}`);
  const line = (name: string, data: (number | null)[], target?: number) => ({
    name,
    type: 'line' as const,
    data,
    connectNulls: true,
    symbolSize: 6,
    ...(target !== undefined && !compact
      ? { markLine: { silent: true, symbol: 'none', lineStyle: { type: 'dotted' as const, opacity: 0.7 }, label: { formatter: `${s('targetLine')} {c}%`, position: 'insideEndTop' as const }, data: [{ yAxis: target * 100 }] } }
      : {}),
  });
  return {
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: { top: 0, type: 'scroll' },
    grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: weeks.map((w) => w.week.slice(5)) },
    yAxis: [
      { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
      { type: 'value', name: s('bpm'), min: 60, max: 200, splitLine: { show: false } },
    ],
    series: [
      line(s('meetsShare'), weeks.map((w) => pct(w.meetsShare))),
      line(s('groupDensity'), weeks.map((w) => pct(w.groupDensity)), CURRICULUM_TARGETS.groupDensity),
      line(s('individualDensity'), weeks.map((w) => pct(w.individualDensity)), CURRICULUM_TARGETS.individualDensity),
      { name: s('mainMeanBpm'), type: 'bar', yAxisIndex: 1, data: weeks.map((w) => w.mainMeanBpm), barMaxWidth: 18, itemStyle: { opacity: 0.35 } },
    ],
  };
}
