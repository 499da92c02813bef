import type { ScoreLevel } from '@/domain/physique/level';

/** A score or total as the screens show it: one decimal at most, '—' when there is none. */
export const scoreText = (v: number | null | undefined) => (v == null ? '—' : String(Math.round(v * 10) / 10));

/** The badge of a level. */
export const LEVEL_VARIANT: Record<ScoreLevel, 'success' | 'default' | 'secondary' | 'destructive'> = {
  excellent: 'success',
  good: 'default',
  pass: 'secondary',
  fail: 'destructive',
};
