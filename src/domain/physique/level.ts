import { LEVEL_BANDS } from '../constants';

/** Evaluation level of an item score or an annual total (docs/product-rules.md#physique-scoring). */
export type ScoreLevel = 'excellent' | 'good' | 'pass' | 'fail';
export const SCORE_LEVELS: readonly ScoreLevel[] = ['excellent', 'good', 'pass', 'fail'];

/** Level of a score (0–120): ≥ 90 excellent, ≥ 80 good, ≥ 60 pass, else fail (docs/product-rules.md#physique-scoring, LEVEL_BANDS). */
export function levelOf(score: number): ScoreLevel {
  if (score >= LEVEL_BANDS.excellent) return 'excellent';
  if (score >= LEVEL_BANDS.good) return 'good';
  if (score >= LEVEL_BANDS.pass) return 'pass';
  return 'fail';
}

/**
 * Rounds half up to one decimal. The nudge absorbs binary error (18.15 is stored as 18.149999…);
 * values the product computes from 0.1-resolution inputs never lie that close to a half below it.
 */
export function roundTenth(value: number): number {
  return Math.floor(value * 10 + 0.5 + 1e-7) / 10;
}
