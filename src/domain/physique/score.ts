import { PHYSIQUE_BONUS_MAX, PHYSIQUE_TOTAL_MAX } from '../constants';
import { bmiBand, bmiFromHeightWeight } from './bmi';
import { levelOf, roundTenth, type ScoreLevel } from './level';
import { gradeTable, type BmiBand, type BmiTable, type Gender, type Grade, type ItemKey, type ScoreTable, type StandardVersion } from './standard';

export interface ScoreItemInput {
  grade: Grade;
  gender: Gender;
  item: ItemKey;
  /** Raw result in the item's unit: seconds, cm, ml, count, or BMI in kg/m². */
  raw: number;
  standard?: StandardVersion;
}

export interface ItemScore {
  /** The value compared with the table: the raw value, or the BMI rounded to one decimal. */
  value: number;
  /** Item score 0–100 (0 when worse than the last row). */
  score: number;
  /** Bonus points (附加分) earned beyond the 100-point threshold; 0 for items without bonus. */
  bonus: number;
  /** Item level; for BMI the band instead. */
  level: ScoreLevel | BmiBand;
}

function lookupTable(t: ScoreTable, raw: number): ItemScore {
  const th = t.thresholds;
  let score = 0;
  // Thresholds are inclusive; a value finer than the table's resolution never helps (8.54 s is not 8.5 s).
  if (t.lowerIsBetter) {
    for (let i = 0; i < th.length; i++) if (raw <= th[i]) { score = t.scores[i]; break; }
  } else {
    for (let i = 0; i < th.length; i++) if (raw >= th[i]) { score = t.scores[i]; break; }
  }
  let bonus = 0;
  if (score === 100) {
    const bt = t.bonusThresholds;
    for (let i = 0; i < bt.length; i++) {
      if (t.lowerIsBetter ? raw <= bt[i] : raw >= bt[i]) { bonus = t.bonusValues[i]; break; }
    }
  }
  return { value: raw, score, bonus, level: levelOf(score) };
}

function lookupBmi(t: BmiTable, raw: number): ItemScore {
  const value = roundTenth(raw);
  const band = bmiBand(t, value);
  return { value, score: t.bandScores[band], bonus: 0, level: band };
}

/** Scores one raw result of a grade (1–16) and gender: item score 0–100, bonus, level (issue 3 §1, spec §9). Throws RangeError when the item is not tested there or raw is not finite. */
export function scoreItem({ grade, gender, item, raw, standard }: ScoreItemInput): ItemScore {
  const table = gradeTable(grade, gender, standard).byItem[item];
  if (!table) throw new RangeError(`${item} is not tested in grade ${grade} (${gender})`);
  if (!Number.isFinite(raw)) throw new RangeError(`${item}: raw value must be a finite number`);
  return table.kind === 'bmi' ? lookupBmi(table, raw) : lookupTable(table, raw);
}

/** Raw results of one student keyed by item; BMI may be given directly or as heightCm + weightKg. Null/undefined/NaN = not tested. */
export type StudentResults = { [K in ItemKey]?: number | null } & { heightCm?: number | null; weightKg?: number | null };

export interface ScoreStudentInput {
  grade: Grade;
  gender: Gender;
  results: StudentResults;
  standard?: StandardVersion;
}

export interface StudentScore {
  /** Scores of the items of the grade that have a result. */
  items: Partial<Record<ItemKey, ItemScore>>;
  /** True when every item of the grade has a result; otherwise the aggregates below are null. */
  complete: boolean;
  /** Items of the grade without a result (never scored as 0). */
  missing: ItemKey[];
  /** Σ item score × weight, rounded half up to one decimal (max 100); null when incomplete. */
  standardScore: number | null;
  /** Σ item bonus, capped at 20; null when incomplete. */
  bonus: number | null;
  /** standardScore + bonus, at most 120; null when incomplete. */
  total: number | null;
  /** Level of the total; null when incomplete. */
  level: ScoreLevel | null;
}

/** Annual total of one student (学年总分 = standard score + bonus ≤ 120) with per-item scores and the missing items (issue 3 §1, spec §9). */
export function scoreStudent({ grade, gender, results, standard }: ScoreStudentInput): StudentScore {
  const table = gradeTable(grade, gender, standard);
  const items: Partial<Record<ItemKey, ItemScore>> = {};
  const missing: ItemKey[] = [];
  // Weights are whole percents, so the weighted sum stays an exact integer until the final division.
  let weighted = 0;
  let bonusSum = 0;
  for (const spec of table.specs) {
    const t = table.byItem[spec.item];
    if (!t) continue;
    let raw: number | null | undefined = results[spec.item];
    if (spec.item === 'bmi' && (raw == null || Number.isNaN(raw))) raw = bmiFromHeightWeight(results.heightCm, results.weightKg);
    if (raw == null || !Number.isFinite(raw)) {
      missing.push(spec.item);
      continue;
    }
    const s = t.kind === 'bmi' ? lookupBmi(t, raw) : lookupTable(t, raw);
    items[spec.item] = s;
    weighted += s.score * t.weightPct;
    bonusSum += s.bonus;
  }
  if (missing.length > 0) return { items, complete: false, missing, standardScore: null, bonus: null, total: null, level: null };
  // weighted / 10 is exact at halves (e.g. 852.5), so Math.round rounds half up without drift.
  const standardScore = Math.round(weighted / 10) / 10;
  const bonus = Math.min(bonusSum, PHYSIQUE_BONUS_MAX);
  const total = Math.min(roundTenth(standardScore + bonus), PHYSIQUE_TOTAL_MAX);
  return { items, complete: true, missing, standardScore, bonus, total, level: levelOf(total) };
}

export interface GraduationScore {
  /** 0.5 × graduation-year total + 0.5 × mean of the other years, rounded half up to one decimal. */
  score: number;
  level: ScoreLevel;
}

/** University graduation score (毕业成绩) from annual totals in year order, the last being the graduation year (issue 3 §1; data file scoring.graduation). With one year only, that year's total. */
export function graduationScore(annualTotals: readonly number[]): GraduationScore {
  if (annualTotals.length === 0) throw new RangeError('graduationScore needs at least one annual total');
  for (const t of annualTotals) if (!Number.isFinite(t)) throw new RangeError('annual totals must be finite numbers');
  const final = annualTotals[annualTotals.length - 1];
  let score = final;
  if (annualTotals.length > 1) {
    let sum = 0;
    for (let i = 0; i < annualTotals.length - 1; i++) sum += annualTotals[i];
    score = 0.5 * final + (0.5 * sum) / (annualTotals.length - 1);
  }
  const rounded = roundTenth(score);
  return { score: rounded, level: levelOf(rounded) };
}
