import type { BmiBand, BmiTable, GradeTable, ItemKey, ScoreTable } from './standard';

/**
 * A standard's tables flattened into typed arrays, one slot per (grade, gender, item): scoring is then index
 * arithmetic and a short scan over a Float64Array, with no object lookups per score (the import scores every item of
 * every row; tests/bench/scoring.ts measures it beside a bare typed-array scan).
 */
export interface ScoreLookup {
  /** Per slot: NOT_TESTED, LOWER_IS_BETTER, HIGHER_IS_BETTER or BMI_BANDS. */
  readonly kind: Uint8Array;
  /** Per slot: weight in the standard score, in whole percent. */
  readonly weightPct: Uint8Array;
  /** Per slot: first row in `thresholds`/`scores`, and the number of rows. */
  readonly rowStart: Uint16Array;
  readonly rowCount: Uint8Array;
  /** Threshold rows of every table, best first, back to back. */
  readonly thresholds: Float64Array;
  readonly scores: Uint8Array;
  /** Per slot: first bonus row and count (0 without bonus); bonus rows best first. */
  readonly bonusStart: Uint16Array;
  readonly bonusCount: Uint8Array;
  readonly bonusThresholds: Float64Array;
  readonly bonusValues: Uint8Array;
  /** Per slot × 3: lowest normal, lowest overweight and lowest obese BMI (one decimal). */
  readonly bmiBounds: Float64Array;
  /** Score of each band of BMI_BAND_ORDER. */
  readonly bmiScores: Uint8Array;
}

export const NOT_TESTED = 0;
export const LOWER_IS_BETTER = 1;
export const HIGHER_IS_BETTER = 2;
export const BMI_BANDS = 3;

/** Bands in the order of bmiBandIndex's answers. */
export const BMI_BAND_ORDER: readonly BmiBand[] = ['normal', 'lowWeight', 'overweight', 'obese'];

/** Slots per grade and gender: one per item key, in ITEM_KEYS order (passed in to avoid an import cycle). */
export function compileLookup(tables: readonly GradeTable[], itemKeys: readonly ItemKey[]): ScoreLookup {
  const slots = tables.length * itemKeys.length;
  const kind = new Uint8Array(slots);
  const weightPct = new Uint8Array(slots);
  const rowStart = new Uint16Array(slots);
  const rowCount = new Uint8Array(slots);
  const bonusStart = new Uint16Array(slots);
  const bonusCount = new Uint8Array(slots);
  const bmiBounds = new Float64Array(slots * 3);
  const thresholds: number[] = [];
  const scores: number[] = [];
  const bonusThresholds: number[] = [];
  const bonusValues: number[] = [];
  let bmiScores: number[] = [];
  tables.forEach((grade, g) => {
    itemKeys.forEach((item, i) => {
      const slot = g * itemKeys.length + i;
      const t: ScoreTable | BmiTable | undefined = grade.byItem[item];
      if (!t) return;
      weightPct[slot] = t.weightPct;
      if (t.kind === 'bmi') {
        kind[slot] = BMI_BANDS;
        bmiBounds.set([t.normalMin, t.overweightMin, t.obeseMin], slot * 3);
        bmiScores = BMI_BAND_ORDER.map((b) => t.bandScores[b]);
        return;
      }
      kind[slot] = t.lowerIsBetter ? LOWER_IS_BETTER : HIGHER_IS_BETTER;
      rowStart[slot] = thresholds.length;
      rowCount[slot] = t.thresholds.length;
      thresholds.push(...t.thresholds);
      scores.push(...t.scores);
      bonusStart[slot] = bonusThresholds.length;
      bonusCount[slot] = t.bonusThresholds.length;
      bonusThresholds.push(...t.bonusThresholds);
      bonusValues.push(...t.bonusValues);
    });
  });
  if (thresholds.length > 0xffff || bonusThresholds.length > 0xffff) throw new Error('physique standard: too many table rows for the lookup');
  return Object.freeze({
    kind,
    weightPct,
    rowStart,
    rowCount,
    thresholds: Float64Array.from(thresholds),
    scores: Uint8Array.from(scores),
    bonusStart,
    bonusCount,
    bonusThresholds: Float64Array.from(bonusThresholds),
    bonusValues: Uint8Array.from(bonusValues),
    bmiBounds,
    bmiScores: Uint8Array.from(bmiScores),
  });
}

/** Item score 0–100 of a threshold-table slot (thresholds inclusive; worse than the last row scores 0). */
export function tableScore(l: ScoreLookup, slot: number, raw: number): number {
  const th = l.thresholds;
  const start = l.rowStart[slot];
  const end = start + l.rowCount[slot];
  // A value finer than the table's resolution never helps (8.54 s is not 8.5 s): compare with the raw value as given.
  if (l.kind[slot] === LOWER_IS_BETTER) {
    for (let i = start; i < end; i++) if (raw <= th[i]) return l.scores[i];
  } else {
    for (let i = start; i < end; i++) if (raw >= th[i]) return l.scores[i];
  }
  return 0;
}

/** Bonus points of a threshold-table slot for a raw value that scored 100 (0 for items without bonus). */
export function tableBonus(l: ScoreLookup, slot: number, raw: number): number {
  const bt = l.bonusThresholds;
  const start = l.bonusStart[slot];
  const end = start + l.bonusCount[slot];
  const lower = l.kind[slot] === LOWER_IS_BETTER;
  for (let i = start; i < end; i++) if (lower ? raw <= bt[i] : raw >= bt[i]) return l.bonusValues[i];
  return 0;
}

/** Index in BMI_BAND_ORDER of a BMI already rounded to one decimal (bands are contiguous at that resolution). */
export function bmiBandIndex(l: ScoreLookup, slot: number, bmi: number): number {
  const b = slot * 3;
  if (bmi < l.bmiBounds[b]) return 1;
  if (bmi < l.bmiBounds[b + 1]) return 0;
  if (bmi < l.bmiBounds[b + 2]) return 2;
  return 3;
}
