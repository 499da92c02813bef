import { use, useEffect, useMemo, useState, useSyncExternalStore, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { useReducedMotion } from '@/lib/use-reduced-motion';
import {
  echarts,
  echartsLocale,
  getChartTheme,
  loadChartParts,
  subscribeChartTheme,
  type EChartsCoreOption,
  type EChartsType,
} from '@/lib/echarts';
import { ChartPixelRatio } from './chart-pixel-ratio';
import EChartsReact from './echarts-react';

/** An ECharts event handler: the event params and the chart instance. */
export type ChartEventHandler = (params: unknown, chart: EChartsType) => void;

export interface ChartProps {
  /**
   * The ECharts option (type it as `ChartOption` from `@/lib/echarts` for checking). It replaces the
   * previous one (`notMerge`). Big series (above ≈ 2k points) must set `large: true` (bar/scatter;
   * 100k points draw in ≈ 0.5 s instead of ≈ 18 s progressively) and long lines `sampling: 'lttb'`.
   */
  option: EChartsCoreOption;
  /** Height in px or any CSS length; default 300. */
  height?: number | string;
  loading?: boolean;
  /** ECharts events by name, e.g. `{ click: (params, chart) => … }`. Keep the object stable (useMemo). */
  onEvents?: Record<string, ChartEventHandler>;
  /** ECharts' 'finished' event: rendering and animation are done, e.g. for screenshots. */
  onFinished?(chart: EChartsType): void;
  /** Called once the instance exists. */
  onChartReady?(chart: EChartsType): void;
  className?: string;
  style?: CSSProperties;
  /**
   * Canvas pixels per CSS pixel (ECharts' init `devicePixelRatio`). Default: the nearest `ChartPixelRatio` context,
   * else the screen's own ratio. Give it when the chart is scaled by a CSS transform (the wall display), so the canvas
   * is drawn at the size it is shown rather than stretched. A change re-creates the instance.
   */
  devicePixelRatio?: number;
  /** Accessible name of the chart image. */
  'aria-label'?: string;
}

/**
 * The one chart component: ECharts' core, each chart type and component loaded when an option first needs it
 * (`loadChartParts` in `@/lib/echarts`; until then the previous option stays drawn, or a spinner), themed from the CSS
 * tokens (re-read when <html>'s theme class changes), zh/en locale following i18next, canvas renderer,
 * lazy updates, resize with its container, no animation under `prefers-reduced-motion: reduce`.
 */
export function Chart({
  option,
  height = 300,
  loading = false,
  onEvents,
  onFinished,
  onChartReady,
  className,
  style,
  devicePixelRatio,
  'aria-label': ariaLabel,
}: ChartProps) {
  const { t, i18n } = useTranslation('components');
  const theme = useSyncExternalStore(subscribeChartTheme, getChartTheme);
  const contextRatio = use(ChartPixelRatio);
  const pixelRatio = devicePixelRatio ?? contextRatio;
  // A new locale, theme or pixel ratio makes echarts-for-react dispose and re-create the instance, as ECharts requires.
  const opts = useMemo(
    () => ({
      renderer: 'canvas' as const,
      locale: echartsLocale(i18n.language),
      // Only when asked: otherwise ECharts follows window.devicePixelRatio as before.
      ...(pixelRatio !== undefined && pixelRatio > 0 ? { devicePixelRatio: pixelRatio } : {}),
    }),
    [i18n.language, pixelRatio],
  );
  // No animation for a person who asked the system for less motion (an accessibility expectation).
  const reducedMotion = useReducedMotion();
  const shown = useMemo(() => (reducedMotion ? { ...option, animation: false } : option), [option, reducedMotion]);
  // ECharts must have an option's parts registered before setOption; an option whose parts are loaded draws at once.
  const parts = useMemo(() => loadChartParts(shown), [shown]);
  const [ready, setReady] = useState<{ option: EChartsCoreOption } | { error: unknown } | null>(null);
  useEffect(() => {
    if (!parts) return;
    let live = true;
    parts.then(
      () => live && setReady({ option: shown }),
      (error: unknown) => live && setReady({ error }),
    );
    return () => {
      live = false;
    };
  }, [parts, shown]);
  const events = useMemo(
    () => (onFinished ? { ...onEvents, finished: (_: unknown, chart: EChartsType) => onFinished(chart) } : (onEvents ?? {})),
    [onEvents, onFinished],
  );
  // A part that failed to load (the network) goes to the screen's error boundary, like a screen chunk that failed.
  if (ready && 'error' in ready) throw ready.error;
  const drawn = parts ? ready?.option : shown;

  return (
    <div
      data-slot="chart"
      role="img"
      aria-label={ariaLabel}
      aria-busy={loading || !drawn || undefined}
      className={cn('relative w-full', className)}
      style={{ height, ...style }}
    >
      {drawn ? (
        <EChartsReact
          echarts={echarts}
          option={drawn}
          theme={theme}
          opts={opts}
          notMerge
          lazyUpdate
          autoResize
          onEvents={events}
          onChartReady={onChartReady}
          style={{ height: '100%', width: '100%' }}
        />
      ) : null}
      {loading || !drawn ? (
        <div className="absolute inset-0 flex items-center justify-center bg-background/50">
          <Spinner label={t('chart.loading')} />
        </div>
      ) : null}
    </div>
  );
}
