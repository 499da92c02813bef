/**
 * ECharts' chart types and components, each loaded and registered when a chart first draws an option that needs it
 * (`loadChartParts`) or when a screen's data preload names the parts its charts draw (`loadParts`, src/lib/screen-data.ts):
 * docs/decisions/012-lean-first-screen.md. No static import of ECharts here: the preload starts the parts from the
 * signed-in shell, and each part's chunk brings ECharts' core with it (the bundler preloads a chunk's imports beside it).
 * Chart code imports these through `@/lib/echarts`.
 */
import type { EChartsCoreOption } from 'echarts/core';

/*
 * Each part is ECharts' own per-part module (its package exports `echarts/lib/chart/<type>` and
 * `echarts/lib/component/<name>`), which registers the part on the shared core when it is evaluated. A dynamic import
 * each, so the bundler gives every part its own chunk and a page loads only what its charts draw: the data centre's
 * school view draws bars, lines and a pie, not the radar, boxplot, gauge or data zoom of other pages.
 */
const PARTS = {
  bar: () => import('echarts/lib/chart/bar'),
  line: () => import('echarts/lib/chart/line'),
  pie: () => import('echarts/lib/chart/pie'),
  radar: () => import('echarts/lib/chart/radar'),
  scatter: () => import('echarts/lib/chart/scatter'),
  boxplot: () => import('echarts/lib/chart/boxplot'),
  gauge: () => import('echarts/lib/chart/gauge'),
  grid: () => import('echarts/lib/component/grid'),
  tooltip: () => import('echarts/lib/component/tooltip'),
  legend: () => import('echarts/lib/component/legend'),
  title: () => import('echarts/lib/component/title'),
  dataset: () => import('echarts/lib/component/dataset'),
  dataZoom: () => import('echarts/lib/component/dataZoom'),
  markLine: () => import('echarts/lib/component/markLine'),
  markArea: () => import('echarts/lib/component/markArea'),
  visualMap: () => import('echarts/lib/component/visualMap'),
  polar: () => import('echarts/lib/component/polar'),
  radarComponent: () => import('echarts/lib/component/radar'),
} satisfies Record<string, () => Promise<unknown>>;

export type ChartPart = keyof typeof PARTS;

/** The option keys that need a component part (a cartesian axis needs the grid, an angle axis the polar system). */
const COMPONENT_KEYS: [key: string, part: ChartPart][] = [
  ['grid', 'grid'],
  ['xAxis', 'grid'],
  ['yAxis', 'grid'],
  ['tooltip', 'tooltip'],
  ['legend', 'legend'],
  ['title', 'title'],
  ['dataset', 'dataset'],
  ['dataZoom', 'dataZoom'],
  ['visualMap', 'visualMap'],
  ['polar', 'polar'],
  ['angleAxis', 'polar'],
  ['radiusAxis', 'polar'],
  ['radar', 'radarComponent'],
];

const isPart = (name: unknown): name is ChartPart => typeof name === 'string' && Object.hasOwn(PARTS, name);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value == null ? [] : [value]);

/** The parts an option draws with: its series' types and marks, and the components it sets. */
export function chartParts(option: EChartsCoreOption): ChartPart[] {
  const parts = new Set<ChartPart>();
  for (const [key, part] of COMPONENT_KEYS) if (list(option[key]).length > 0) parts.add(part);
  for (const series of list(option.series)) {
    if (typeof series !== 'object' || series === null) continue;
    const s = series as Record<string, unknown>;
    if (isPart(s.type)) parts.add(s.type);
    if (s.markLine) parts.add('markLine');
    if (s.markArea) parts.add('markArea');
  }
  return [...parts];
}

/** Parts registered, and parts on their way. */
const registered = new Set<ChartPart>();
const loading = new Map<ChartPart, Promise<void>>();

function loadPart(part: ChartPart): Promise<void> {
  let pending = loading.get(part);
  if (!pending) {
    pending = PARTS[part]().then(
      () => void registered.add(part),
      (error: unknown) => {
        // A failed chunk (network) may be fetched again by the next chart.
        loading.delete(part);
        throw error;
      },
    );
    loading.set(part, pending);
  }
  return pending;
}

/**
 * Loads and registers the parts an option needs. Undefined when they are all registered already, so a chart whose
 * parts another chart loaded draws in the same render.
 */
export function loadChartParts(option: EChartsCoreOption): Promise<void> | undefined {
  return loadParts(chartParts(option));
}

/** Loads and registers the parts named (a screen's data preload); undefined when they are all registered already. */
export function loadParts(parts: readonly ChartPart[]): Promise<void> | undefined {
  const missing = parts.filter((part) => !registered.has(part));
  return missing.length ? Promise.all(missing.map(loadPart)).then(() => undefined) : undefined;
}

