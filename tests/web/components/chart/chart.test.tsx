import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EChartsReactProps } from 'echarts-for-react/esm/types';
import { Chart } from '@/components/chart/chart';
import { ChartPixelRatio } from '@/components/chart/chart-pixel-ratio';
import { buildChartTheme, echartsLocale, readChartTokens } from '@/lib/echarts';
import { i18next } from '@/lib/i18n';

// ECharts needs a real canvas; here only the props handed to echarts-for-react are checked.
const seen: EChartsReactProps[] = [];
vi.mock('@/components/chart/echarts-react', () => ({
  default: (props: EChartsReactProps) => {
    seen.push(props);
    return <div data-testid="echarts" />;
  },
}));
const last = () => seen[seen.length - 1];

describe('chart theme and locale', () => {
  afterEach(() => {
    document.documentElement.removeAttribute('style');
    document.documentElement.className = '';
  });

  it('reads the palette and text tokens from the CSS variables', () => {
    const root = document.documentElement;
    root.style.setProperty('--chart-1', '#111111');
    root.style.setProperty('--chart-8', '#888888');
    root.style.setProperty('--foreground', '#222222');
    root.style.setProperty('--muted-foreground', '#333333');
    root.style.setProperty('--border', '#444444');
    const tokens = readChartTokens();
    expect(tokens.colors).toHaveLength(8);
    expect(tokens.colors[0]).toBe('#111111');
    expect(tokens.colors[7]).toBe('#888888');
    const theme = buildChartTheme(tokens) as { color: string[]; textStyle: { color: string }; valueAxis: { axisLabel: { color: string } } };
    expect(theme.color[0]).toBe('#111111');
    expect(theme.textStyle.color).toBe('#222222');
    expect(theme.valueAxis.axisLabel.color).toBe('#333333');
  });

  it('maps product locales to the ECharts built-ins', () => {
    expect(echartsLocale('zh_cn')).toBe('ZH');
    expect(echartsLocale('zh_tw')).toBe('ZH');
    expect(echartsLocale('en_us')).toBe('EN');
  });
});

describe('Chart', () => {
  afterEach(async () => {
    await act(() => i18next.changeLanguage('zh_cn'));
    document.documentElement.removeAttribute('style');
  });

  it('draws once the ECharts parts its option uses are loaded, and draws at once when they are', async () => {
    const option = { series: [{ type: 'gauge', data: [{ value: 72 }] }] };
    const { unmount } = render(<Chart option={option} aria-label="达标率" />);
    // A spinner until the gauge's code is there: setOption with an unregistered series type would draw nothing.
    expect(screen.queryByTestId('echarts')).toBeNull();
    expect(screen.getByRole('img', { name: '达标率' })).toHaveAttribute('aria-busy', 'true');
    await screen.findByTestId('echarts');
    expect(last().option).toBe(option);
    unmount();
    render(<Chart option={{ ...option }} aria-label="达标率" />);
    expect(screen.getByTestId('echarts')).toBeInTheDocument();
  });

  it('passes notMerge, lazyUpdate, canvas and the locale that follows i18next', async () => {
    render(<Chart option={{ series: [] }} aria-label="成绩分布" />);
    expect(screen.getByRole('img', { name: '成绩分布' })).toBeInTheDocument();
    expect(last()).toMatchObject({ notMerge: true, lazyUpdate: true, autoResize: true, opts: { renderer: 'canvas', locale: 'ZH' } });
    await act(() => i18next.changeLanguage('en_us'));
    expect(last().opts).toMatchObject({ locale: 'EN' });
  });

  it('rebuilds the theme when the theme class on <html> changes', async () => {
    render(<Chart option={{ series: [] }} />);
    const before = last().theme;
    await act(async () => {
      document.documentElement.style.setProperty('--chart-1', '#abcdef');
      document.documentElement.classList.add('dark');
      await new Promise((r) => setTimeout(r, 0));
    });
    const after = last().theme as { color: string[] };
    expect(after).not.toBe(before);
    expect(after.color[0]).toBe('#abcdef');
  });

  it('draws without animation when the person asked the system for less motion', () => {
    const matchMedia = vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) => ({ matches: query === '(prefers-reduced-motion: reduce)', media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList,
    );
    try {
      render(<Chart option={{ animationDuration: 400, series: [] }} />);
      expect(last().option).toEqual({ animationDuration: 400, animation: false, series: [] });
    } finally {
      matchMedia.mockRestore();
    }
    render(<Chart option={{ series: [] }} />);
    expect(last().option).toEqual({ series: [] });
  });

  it("wires onFinished to ECharts' finished event next to the other events", () => {
    const onFinished = vi.fn();
    const click = vi.fn();
    render(<Chart option={{ series: [] }} onFinished={onFinished} onEvents={{ click }} />);
    const events = last().onEvents as Record<string, (p: unknown, chart: unknown) => void>;
    events.finished(undefined, 'chart');
    expect(onFinished).toHaveBeenCalledWith('chart');
    expect(events.click).toBe(click);
  });

  it('shows a spinner while loading', () => {
    render(<Chart option={{ series: [] }} loading />);
    expect(screen.getByRole('status', { name: i18next.t('components:chart.loading') })).toBeInTheDocument();
  });

  it('leaves the pixel ratio to ECharts unless a prop or the ChartPixelRatio context gives one', () => {
    const { rerender } = render(<Chart option={{ series: [] }} />);
    expect(last().opts).not.toHaveProperty('devicePixelRatio');
    rerender(<Chart option={{ series: [] }} devicePixelRatio={2} />);
    expect(last().opts).toMatchObject({ renderer: 'canvas', devicePixelRatio: 2 });
    rerender(
      <ChartPixelRatio value={1.5}>
        <Chart option={{ series: [] }} />
      </ChartPixelRatio>,
    );
    expect(last().opts).toMatchObject({ devicePixelRatio: 1.5 });
    // The chart's own prop wins over the context.
    rerender(
      <ChartPixelRatio value={1.5}>
        <Chart option={{ series: [] }} devicePixelRatio={3} />
      </ChartPixelRatio>,
    );
    expect(last().opts).toMatchObject({ devicePixelRatio: 3 });
  });
});
