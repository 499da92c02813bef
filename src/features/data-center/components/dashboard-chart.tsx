import { useMemo, useState } from 'react';
import isEqual from 'fast-deep-equal';
import type { EChartsCoreOption } from '@/lib/echarts';
import { Chart, type ChartEventHandler } from '@/components/chart/chart';
import { cn } from '@/lib/cn';
import { clickedId } from '../charts/options';

/**
 * The dashboards' entry animation: ECharts' default is 1 s, and the figures cannot be read until it ends (a bar still
 * growing shows no value). A person opening the data centre comes to read them, many times a day, so the figures a
 * chart opens with are drawn at once, and new figures (another filter) grow in 0.4 s
 * (docs/decisions/012-lean-first-screen.md). The wall display keeps ECharts' default (`entryMs={null}`): its scenes
 * take turns in front of an audience, where the growing is part of the show. An option may set its own.
 */
export const DASHBOARD_ENTRY_MS = 400;

/**
 * `option` growing in `ms`, unless it sets its own. On the root and on each series: a pie series has its own default
 * (1 s), which the root's does not override (so the figures a chart opens with are drawn with `animation: false`).
 */
function withEntryMs(option: EChartsCoreOption, ms: number): EChartsCoreOption {
  const animationDuration = option.animationDuration ?? ms;
  const series: unknown = option.series;
  const each = Array.isArray(series) ? { series: series.map((s: object) => ({ animationDuration, ...s })) } : {};
  return { ...option, animationDuration, ...each };
}

export interface DashboardChartProps {
  option: EChartsCoreOption;
  height?: number | string;
  loading?: boolean;
  /** Drill-down: called with the `id` of the clicked data item. Keep it stable (useCallback). */
  onSelect?(id: string): void;
  'aria-label': string;
  /** The entry animation in ms of figures after the first (those are drawn at once); null: ECharts' default (1 s) always. */
  entryMs?: number | null;
  className?: string;
  'data-testid'?: string;
}

/**
 * A dashboard chart: the shared Chart plus drill-down by data-item id and a `data-finished` flag that turns
 * true once ECharts has drawn this option (screenshots and tests wait for it). An option equal to the one drawn counts
 * as drawn: echarts-for-react skips it by the same deep equality (fast-deep-equal), so no second 'finished' comes, e.g.
 * for a dashboard shown again with the same answer.
 */
export function DashboardChart({ option, height = 300, loading, onSelect, entryMs = DASHBOARD_ENTRY_MS, className, 'aria-label': label, 'data-testid': testId }: DashboardChartProps) {
  const [drawn, setDrawn] = useState<EChartsCoreOption | null>(null);
  // The figures the chart opened with, until it is given others: they are drawn without the entry growth, so the first
  // load ends when they are drawn (each frame of a growth redraws every chart of the page), not 0.4 s later.
  const [opened, setOpened] = useState<EChartsCoreOption | null>(option);
  const first = opened !== null && (opened === option || isEqual(opened, option));
  if (opened !== null && !first) setOpened(null);
  const shown = useMemo(() => (entryMs === null ? option : first ? { animation: false, ...option } : withEntryMs(option, entryMs)), [option, entryMs, first]);
  const onEvents = useMemo<Record<string, ChartEventHandler> | undefined>(
    () =>
      onSelect
        ? {
            click: (params) => {
              const id = clickedId(params);
              if (id) onSelect(id);
            },
          }
        : undefined,
    [onSelect],
  );
  return (
    <div
      data-slot="dc-chart"
      data-testid={testId}
      data-finished={(drawn === option || (drawn !== null && isEqual(drawn, option))) && !loading}
      className={cn(onSelect && 'cursor-pointer', height === '100%' && 'h-full', className)}
    >
      <Chart option={shown} height={height} loading={loading} onEvents={onEvents} onFinished={() => setDrawn(option)} aria-label={label} />
    </div>
  );
}
