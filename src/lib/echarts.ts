/**
 * The one ECharts wrapper (docs/architecture.md rule 3): ECharts' core with the canvas renderer, each chart type and
 * component loaded and registered only when a chart that uses it is drawn or a screen's data preload names it
 * (`loadChartParts`, `loadParts` in ./chart-parts.ts, decision 012), and the
 * chart theme built from the CSS tokens. Import charts through `@/components/chart/chart`, not 'echarts'.
 */
import { dispose, getInstanceByDom, init, use, type ComposeOption } from 'echarts/core';
import type {
  BarSeriesOption,
  BoxplotSeriesOption,
  GaugeSeriesOption,
  LineSeriesOption,
  PieSeriesOption,
  RadarSeriesOption,
  ScatterSeriesOption,
} from 'echarts/charts';
import type {
  DatasetComponentOption,
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  MarkAreaComponentOption,
  MarkLineComponentOption,
  PolarComponentOption,
  RadarComponentOption,
  TitleComponentOption,
  TooltipComponentOption,
  VisualMapComponentOption,
} from 'echarts/components';
import { LabelLayout } from 'echarts/features';
import { CanvasRenderer } from 'echarts/renderers';
import type { Locale } from '@/domain/constants';

// Module evaluation happens once, so registration does too. Every chart needs these; the rest loads per chart.
use([CanvasRenderer, LabelLayout]);

/**
 * What echarts-for-react calls. Not `import * as echarts`: a namespace handed on keeps every export of ECharts' core
 * API (its helpers, geo maps, time and number formatting…) in the chunk, used or not.
 */
export const echarts = { init, getInstanceByDom, dispose };
export type { EChartsCoreOption, EChartsType } from 'echarts/core';
export { chartParts, loadChartParts, type ChartPart } from './chart-parts';

/** Option type limited to the parts `loadChartParts` (./chart-parts.ts) knows: `const option: ChartOption = { … }` catches typos. */
export type ChartOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | PieSeriesOption
  | RadarSeriesOption
  | ScatterSeriesOption
  | BoxplotSeriesOption
  | GaugeSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | TitleComponentOption
  | DatasetComponentOption
  | DataZoomComponentOption
  | MarkLineComponentOption
  | MarkAreaComponentOption
  | VisualMapComponentOption
  | PolarComponentOption
  | RadarComponentOption
>;

/** ECharts' built-in locale for a product locale (ECharts ships ZH and EN; zh_tw uses ZH). */
export function echartsLocale(locale: Locale | string): 'ZH' | 'EN' {
  return locale.startsWith('en') ? 'EN' : 'ZH';
}

export const CHART_COLOR_COUNT = 8;

/** Token values the chart theme is built from. */
export interface ChartTokens {
  colors: string[];
  foreground: string;
  muted: string;
  border: string;
  popover: string;
  popoverForeground: string;
  fontFamily: string;
  /** Base label size in px; grows with the root font size (the wall theme sets 125 %). */
  fontSize: number;
}

// Fallbacks match the light tokens, for tests and for a page without the stylesheet.
const FALLBACK: ChartTokens = {
  colors: ['#0a6cc4', '#14b8a6', '#f97316', '#22c55e', '#8b5cf6', '#ef4444', '#eab308', '#64748b'],
  foreground: '#0f1b2d',
  muted: '#5b6b80',
  border: '#dde3ec',
  popover: '#ffffff',
  popoverForeground: '#0f1b2d',
  fontFamily: 'sans-serif',
  fontSize: 12,
};

/** Reads the chart tokens (--chart-1..8, --foreground, --muted-foreground, --border, --popover…) from the document. */
export function readChartTokens(root: Element = document.documentElement): ChartTokens {
  const style = getComputedStyle(root);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const rootPx = Number.parseFloat(style.fontSize);
  return {
    colors: FALLBACK.colors.map((c, i) => v(`--chart-${i + 1}`, c)),
    foreground: v('--foreground', FALLBACK.foreground),
    muted: v('--muted-foreground', FALLBACK.muted),
    border: v('--border', FALLBACK.border),
    popover: v('--popover', FALLBACK.popover),
    popoverForeground: v('--popover-foreground', FALLBACK.popoverForeground),
    fontFamily: v('--app-font-sans', FALLBACK.fontFamily),
    fontSize: Number.isFinite(rootPx) && rootPx > 0 ? Math.round((FALLBACK.fontSize * rootPx) / 16) : FALLBACK.fontSize,
  };
}

/** An ECharts theme object built from the tokens: palette, text, axes, legend, tooltip. */
export function buildChartTheme(k: ChartTokens): Record<string, unknown> {
  const axis = {
    axisLine: { lineStyle: { color: k.border } },
    axisTick: { lineStyle: { color: k.border } },
    axisLabel: { color: k.muted, fontSize: k.fontSize },
    splitLine: { lineStyle: { color: k.border, type: 'dashed' } },
    splitArea: { show: false },
    nameTextStyle: { color: k.muted, fontSize: k.fontSize },
  };
  return {
    color: k.colors,
    backgroundColor: 'transparent',
    textStyle: { color: k.foreground, fontFamily: k.fontFamily, fontSize: k.fontSize },
    title: {
      textStyle: { color: k.foreground, fontSize: k.fontSize + 4, fontWeight: 600 },
      subtextStyle: { color: k.muted, fontSize: k.fontSize },
    },
    legend: { textStyle: { color: k.muted, fontSize: k.fontSize }, inactiveColor: k.border },
    tooltip: {
      backgroundColor: k.popover,
      borderColor: k.border,
      textStyle: { color: k.popoverForeground, fontSize: k.fontSize },
      axisPointer: { lineStyle: { color: k.muted }, crossStyle: { color: k.muted } },
    },
    categoryAxis: axis,
    valueAxis: axis,
    logAxis: axis,
    timeAxis: axis,
    radar: {
      axisName: { color: k.muted, fontSize: k.fontSize },
      axisLine: { lineStyle: { color: k.border } },
      splitLine: { lineStyle: { color: k.border } },
      splitArea: { show: false },
    },
    polar: {},
    angleAxis: axis,
    radiusAxis: axis,
    gauge: {
      axisLine: { lineStyle: { color: [[1, k.border]] } },
      axisLabel: { color: k.muted },
      title: { color: k.muted },
      detail: { color: k.foreground },
    },
    dataZoom: {
      borderColor: k.border,
      textStyle: { color: k.muted },
      handleStyle: { color: k.colors[0], borderColor: k.colors[0] },
      fillerColor: 'rgba(128,128,128,0.15)',
    },
    visualMap: { textStyle: { color: k.muted } },
    line: { symbolSize: 6, smooth: false },
    bar: { barMaxWidth: 40 },
    pie: { itemStyle: { borderColor: k.popover, borderWidth: 1 } },
  };
}

/*
 * The theme follows the classes on <html> (light, .dark, .wall). A tiny external store lets every chart
 * re-read the tokens when the class changes; the snapshot is cached so useSyncExternalStore stays stable.
 */
let cached: { key: string; theme: Record<string, unknown> } | null = null;

/** The current chart theme, rebuilt only when the tokens changed. */
export function getChartTheme(): Record<string, unknown> {
  const tokens = readChartTokens();
  const key = JSON.stringify(tokens);
  if (cached?.key !== key) cached = { key, theme: buildChartTheme(tokens) };
  return cached.theme;
}

/** Calls back when the document's theme may have changed (class, style or data-theme on <html>). */
export function subscribeChartTheme(onChange: () => void): () => void {
  if (typeof MutationObserver === 'undefined') return () => {};
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'style', 'data-theme', 'lang'] });
  return () => observer.disconnect();
}
