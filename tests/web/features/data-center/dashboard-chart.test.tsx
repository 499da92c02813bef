import { render, screen } from '@testing-library/react';
import isEqual from 'fast-deep-equal';
import { useEffect, useRef } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { EChartsReactProps } from 'echarts-for-react/esm/types';
import { DashboardChart } from '@/features/data-center/components/dashboard-chart';
import { loadEveryChartPart } from '../../../support/chart-parts';

// The charts' ECharts parts registered before, so a chart hands its option on in the render the test reads.
beforeAll(loadEveryChartPart);

// ECharts needs a real canvas. The stand-in does what echarts-for-react does with an option: one deep-equal to the last
// one drawn is skipped (no setOption, so no 'finished' event); another is drawn and ends with 'finished'.
const drawnOptions: unknown[] = [];
vi.mock('@/components/chart/echarts-react', () => ({
  default: function EChartsStandIn({ option, onEvents }: EChartsReactProps) {
    drawnOptions.push(option);
    const last = useRef<unknown>(undefined);
    useEffect(() => {
      if (last.current !== undefined && isEqual(last.current, option)) return;
      last.current = option;
      (onEvents?.finished as ((p: unknown, chart: unknown) => void) | undefined)?.(undefined, {});
    }, [option, onEvents]);
    return <div />;
  },
}));

const bars = () => ({ xAxis: { type: 'category', data: ['初一', '初二'] }, yAxis: { type: 'value' }, series: [{ type: 'bar', data: [78.5, 80.1] }] });

describe('DashboardChart', () => {
  it('counts an option equal to the one drawn as drawn (a dashboard shown again with the same answer)', () => {
    const { rerender } = render(<DashboardChart option={bars()} aria-label="成绩" data-testid="c" />);
    expect(screen.getByTestId('c')).toHaveAttribute('data-finished', 'true');
    // The same figures in a new object, as a refetch or a screen shown again builds them.
    rerender(<DashboardChart option={bars()} aria-label="成绩" data-testid="c" />);
    expect(screen.getByTestId('c')).toHaveAttribute('data-finished', 'true');
    // Other figures are not drawn until ECharts says so; here the stand-in draws them at once.
    rerender(<DashboardChart option={{ ...bars(), series: [{ type: 'bar', data: [60, 61] }] }} aria-label="成绩" data-testid="c" />);
    expect(screen.getByTestId('c')).toHaveAttribute('data-finished', 'true');
    rerender(<DashboardChart option={bars()} aria-label="成绩" data-testid="c" loading />);
    expect(screen.getByTestId('c')).toHaveAttribute('data-finished', 'false');
  });

  it('draws the figures it opens with at once, grows new ones in 0.4 s, not ECharts\' default 1 s (the wall keeps the default)', () => {
    const { rerender } = render(<DashboardChart option={bars()} aria-label="成绩" />);
    // Root `animation: false`: a pie series' own default duration (1 s) outranks a root `animationDuration`.
    expect(drawnOptions.at(-1)).toMatchObject({ animation: false });
    // The same figures again (a refetch): still the ones it opened with.
    rerender(<DashboardChart option={bars()} aria-label="成绩" />);
    expect(drawnOptions.at(-1)).toMatchObject({ animation: false });
    const other = { ...bars(), series: [{ type: 'bar', data: [60, 61] }] };
    rerender(<DashboardChart option={other} aria-label="成绩" />);
    expect(drawnOptions.at(-1)).toMatchObject({ animationDuration: 400, series: [{ animationDuration: 400 }] });
    expect(drawnOptions.at(-1)).not.toHaveProperty('animation');
    // Back to the first figures: they are new to the chart now, so they grow.
    rerender(<DashboardChart option={bars()} aria-label="成绩" />);
    expect(drawnOptions.at(-1)).toMatchObject({ animationDuration: 400 });
    rerender(<DashboardChart option={{ ...bars(), animationDuration: 100 }} aria-label="成绩" />);
    expect(drawnOptions.at(-1)).toMatchObject({ animationDuration: 100, series: [{ animationDuration: 100 }] });
    rerender(<DashboardChart option={bars()} entryMs={null} aria-label="成绩" />);
    expect(drawnOptions.at(-1)).not.toHaveProperty('animationDuration');
  });

  it('on a wall (entryMs null) grows the figures it opens with as ECharts does by default', () => {
    render(<DashboardChart option={bars()} entryMs={null} aria-label="成绩" />);
    expect(drawnOptions.at(-1)).not.toHaveProperty('animationDuration');
  });
});
