import { useSyncExternalStore } from 'react';
import type { ScoreLevel } from '@/domain/physique/level';
import type { BmiBand } from '@/domain/physique/standard';
import { subscribeChartTheme } from '@/lib/echarts';

/** Colours with a meaning in every chart: levels and BMI bands, read from the theme tokens (light, dark, wall). */
export interface SemanticColors {
  level: Record<ScoreLevel, string>;
  bmi: Record<BmiBand, string>;
  /** Neutral series colours (--chart-1..8). */
  series: string[];
  muted: string;
  foreground: string;
}

const FALLBACK: SemanticColors = {
  level: { excellent: '#15803d', good: '#0a6cc4', pass: '#b45309', fail: '#d92d20' },
  bmi: { normal: '#15803d', lowWeight: '#0e7490', overweight: '#b45309', obese: '#d92d20' },
  series: ['#0a6cc4', '#14b8a6', '#f97316', '#22c55e', '#8b5cf6', '#ef4444', '#eab308', '#64748b'],
  muted: '#5b6b80',
  foreground: '#0f1b2d',
};

let cached: { key: string; colors: SemanticColors } | null = null;

function read(): SemanticColors {
  if (typeof document === 'undefined') return FALLBACK;
  const style = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const colors: SemanticColors = {
    level: {
      excellent: v('--success', FALLBACK.level.excellent),
      good: v('--chart-1', FALLBACK.level.good),
      pass: v('--warning', FALLBACK.level.pass),
      fail: v('--destructive', FALLBACK.level.fail),
    },
    bmi: {
      normal: v('--success', FALLBACK.bmi.normal),
      lowWeight: v('--info', FALLBACK.bmi.lowWeight),
      overweight: v('--warning', FALLBACK.bmi.overweight),
      obese: v('--destructive', FALLBACK.bmi.obese),
    },
    series: FALLBACK.series.map((c, i) => v(`--chart-${i + 1}`, c)),
    muted: v('--muted-foreground', FALLBACK.muted),
    foreground: v('--foreground', FALLBACK.foreground),
  };
  const key = JSON.stringify(colors);
  if (cached?.key !== key) cached = { key, colors };
  return cached.colors;
}

/** The semantic chart colours of the current theme; re-read when <html>'s theme class changes. */
export function useSemanticColors(): SemanticColors {
  return useSyncExternalStore(subscribeChartTheme, read, () => FALLBACK);
}
