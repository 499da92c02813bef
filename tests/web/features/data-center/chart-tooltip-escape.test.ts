import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import type { Distribution, RankRow, StudentHistoryRow } from '@/domain/data-center/types';
import { boxplotOption, historyOption, levelStackOption, rankingOption } from '@/features/data-center/charts/options';
import type { SemanticColors } from '@/features/data-center/hooks/use-level-colors';
import type { ChartOption } from '@/lib/echarts';
import { escapeHtml } from '@/lib/html';

/** A name a user can type (a class, a school, a plan): HTML if a tooltip inserted it raw. */
const HOSTILE = '<img src=x onerror=alert(1)>';
// Translations are ours, but a hostile t proves every text in a tooltip goes through the one escape helper.
const t = ((key: string) => `${key}${HOSTILE}`) as unknown as TFunction;
const colors: SemanticColors = {
  level: { excellent: '#1', good: '#2', pass: '#3', fail: '#4' },
  bmi: { normal: '#1', lowWeight: '#2', overweight: '#3', obese: '#4' },
  series: ['#1', '#2', '#3', '#4', '#5', '#6', '#7', '#8'],
  muted: '#9',
  foreground: '#0',
};
/** ECharts' own colour dot: HTML the formatter keeps. */
const MARKER = '<span class="marker"></span>';

type Formatter = (params: unknown) => string;
/** The tooltip formatter functions of an option (the chart's and its series'). */
function tooltipFormatters(option: ChartOption): Formatter[] {
  const tooltips = [option.tooltip, ...((option.series as { tooltip?: unknown }[] | undefined) ?? []).map((s) => s.tooltip)];
  return tooltips.flatMap((tip) => {
    const f = (tip as { formatter?: unknown } | undefined)?.formatter;
    return typeof f === 'function' ? [f as Formatter] : [];
  });
}

/** The HTML a tooltip formatter answers, with ECharts' markers taken out: what is left must hold no tag. */
const textOf = (html: string) => html.replaceAll(MARKER, '').replaceAll('<br/>', '\n');

function expectNoRawTag(option: ChartOption, params: unknown) {
  const formatters = tooltipFormatters(option);
  expect(formatters.length).toBeGreaterThan(0);
  for (const f of formatters) {
    const html = f(params);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(textOf(html)).not.toMatch(/<[a-z/!]/i);
  }
}

describe('chart tooltips escape every name they show (issue: a class named <img …> became a real <img>)', () => {
  it('escapes the five HTML characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(escapeHtml(null)).toBe('');
  });

  it('level distribution by class: the class name and level names', () => {
    const option = levelStackOption(t, colors, [{ id: 'c1', label: HOSTILE }], [
      { levels: { excellent: 1, good: 1, pass: 1, fail: 1 }, rates: { excellent: 0.25, good: 0.25, pass: 0.25, fail: 0.25 } },
    ]);
    expectNoRawTag(option, [{ name: HOSTILE, seriesName: HOSTILE, marker: MARKER, value: 25, data: { count: 1 } }]);
  });

  it('class ranking: the class (or school) name', () => {
    const row = { id: 'c1', name: HOSTILE, rank: 1, meanTotal: 80, excellentRate: 0.2, passRate: 0.9, tested: 40 } as unknown as RankRow;
    const option = rankingOption(t, colors, [row]);
    expectNoRawTag(option, { data: { row } });
  });

  it('score spread: the item label', () => {
    const dist = { item: 'run50m', n: 40, score: { min: 10, q1: 60, median: 70, q3: 80, max: 100 }, histogram: [] } as unknown as Distribution;
    const option = boxplotOption(t, colors, [dist]);
    expectNoRawTag(option, { data: { dist } });
  });

  it("a student's history: the plan and class names", () => {
    const history = [
      { planName: HOSTILE, academicYear: '2026-2027', semesterCode: 13, className: HOSTILE, gradeNo: 8, total: 70, standardScore: 68 },
    ] as unknown as StudentHistoryRow[];
    const option = historyOption(t, colors, history);
    expectNoRawTag(option, [{ dataIndex: 0, seriesName: HOSTILE, marker: MARKER, value: 70 }]);
  });
});
