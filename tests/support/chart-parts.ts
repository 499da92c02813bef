import { loadChartParts, type ChartOption } from '@/lib/echarts';

/** An option that needs every part `@/lib/echarts` knows. */
const EVERY_PART: ChartOption = {
  grid: {},
  tooltip: {},
  legend: {},
  title: {},
  dataset: {},
  dataZoom: {},
  visualMap: {},
  polar: {},
  radar: {},
  series: ['bar', 'line', 'pie', 'radar', 'scatter', 'boxplot', 'gauge'].map((type) => ({ type, markLine: {}, markArea: {} })) as ChartOption['series'],
};

/**
 * Registers every ECharts part, as a page that drew them before would have: a chart then hands its option on in
 * the same render (src/components/chart/chart.tsx), which these tests read synchronously. For `beforeAll`.
 */
export const loadEveryChartPart = () => loadChartParts(EVERY_PART);
