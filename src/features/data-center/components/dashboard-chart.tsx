import { useMemo, useState } from 'react';
import isEqual from 'fast-deep-equal';
import type { EChartsCoreOption } from '@/lib/echarts';
import { Chart, type ChartEventHandler } from '@/components/chart/chart';
import { cn } from '@/lib/cn';
import { clickedId } from '../charts/options';

export interface DashboardChartProps {
  option: EChartsCoreOption;
  height?: number | string;
  loading?: boolean;
  /** Drill-down: called with the `id` of the clicked data item. Keep it stable (useCallback). */
  onSelect?(id: string): void;
  'aria-label': string;
  className?: string;
  'data-testid'?: string;
}

/**
 * A dashboard chart: the shared Chart plus drill-down by data-item id and a `data-finished` flag that turns
 * true once ECharts has drawn this option (screenshots and tests wait for it). An option equal to the one drawn counts
 * as drawn: echarts-for-react skips it by the same deep equality (fast-deep-equal), so no second 'finished' comes, e.g.
 * for a dashboard shown again with the same answer.
 */
export function DashboardChart({ option, height = 300, loading, onSelect, className, 'aria-label': label, 'data-testid': testId }: DashboardChartProps) {
  const [drawn, setDrawn] = useState<EChartsCoreOption | null>(null);
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
      <Chart option={option} height={height} loading={loading} onEvents={onEvents} onFinished={() => setDrawn(option)} aria-label={label} />
    </div>
  );
}
