import type { BmiBand, BmiTable, GradeTable, ItemKey, ScoreTable } from './standard';

/**
 * A standard's tables compiled into typed arrays, one slot per (grade, gender, item). Threshold tables become a score
 * per step of the item's resolution between the best and the worst threshold (≈ 65k bytes for the 2014 standard), so
 * an item score is one multiplication and one array read instead of a scan of up to 20 rows (tests/bench/scoring.ts
 * measures it beside a bare scan of the threshold rows).
 */
export interface ScoreLookup {
  /** Per slot: NOT_TESTED, LOWER_IS_BETTER, HIGHER_IS_BETTER or BMI_BANDS. */
  readonly kind: Uint8Array;
  /** Per slot: weight in the standard score, in whole percent. */
  readonly weightPct: Uint8Array;
  /** Per slot: first row in `thresholds`/`physiqueResults`, and the number of rows. */
  readonly rowStart: Uint16Array;
  readonly rowCount: Uint8Array;
  /** Per slot: steps per unit (10 for a 0.1 resolution), the step of the first cell, and the cells. */
  readonly perUnit: Float64Array;
  readonly cellBase: Int32Array;
  readonly cellStart: Uint32Array;
  readonly cellCount: Uint32Array;
  /** Score of every step of every table, from the lowest threshold to the highest, back to back. */
  readonly cells: Uint8Array;
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
export function compileLookup(tables: readonly GradeTable[], itemKeys: readonly ItemKey[], resolution: (item: ItemKey) => number): ScoreLookup {
  const slots = tables.length * itemKeys.length;
  const kind = new Uint8Array(slots);
  const weightPct = new Uint8Array(slots);
  const rowStart = new Uint16Array(slots);
  const rowCount = new Uint8Array(slots);
  const bonusStart = new Uint16Array(slots);
  const bonusCount = new Uint8Array(slots);
  const bmiBounds = new Float64Array(slots * 3);
  const perUnit = new Float64Array(slots);
  const cellBase = new Int32Array(slots);
  const cellStart = new Uint32Array(slots);
  const cellCount = new Uint32Array(slots);
  const cells: number[] = [];
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
      // Steps as integers (8.5 s → 85 at 0.1 s): every threshold must lie on a step, or the cells would be wrong.
      const res = resolution(item);
      const per = res < 1 ? Math.round(1 / res) : 1 / res;
      const steps = Array.from(t.thresholds, (th) => Math.round(th * per));
      steps.forEach((st, j) => {
        if (Math.abs(st - t.thresholds[j] * per) > 1e-6) throw new Error(`physique standard: ${item} threshold ${t.thresholds[j]} is not a multiple of ${res}`);
      });
      const lo = Math.min(...steps);
      const hi = Math.max(...steps);
      perUnit[slot] = per;
      cellBase[slot] = lo;
      cellStart[slot] = cells.length;
      cellCount[slot] = hi - lo + 1;
      for (let k = lo; k <= hi; k++) {
        const j = t.lowerIsBetter ? steps.findIndex((st) => k <= st) : steps.findIndex((st) => k >= st);
        cells.push(j < 0 ? 0 : t.scores[j]);
      }
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
    perUnit,
    cellBase,
    cellStart,
    cellCount,
    cells: Uint8Array.from(cells),
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
  // A value finer than the table's resolution never helps (8.54 s is not 8.5 s): round it to the worse step. The
  // 1e-9 of a step absorbs binary error (8.5 × 10 is 85.00000000000001 in floating point).
  const x = raw * l.perUnit[slot];
  const lower = l.kind[slot] === LOWER_IS_BETTER;
  const i = (lower ? Math.ceil(x - 1e-9) : Math.floor(x + 1e-9)) - l.cellBase[slot];
  const n = l.cellCount[slot];
  if (i < 0) return lower ? l.scores[l.rowStart[slot]] : 0;
  if (i >= n) return lower ? 0 : l.scores[l.rowStart[slot]];
  return l.cells[l.cellStart[slot] + i];
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
