import { PHYSIQUE_BONUS_MAX, PHYSIQUE_TOTAL_MAX } from '../constants';
import { bmiFromHeightWeight } from './bmi';
import { levelOf, roundTenth, type ScoreLevel } from './level';
import { BMI_BAND_ORDER, BMI_BANDS, bmiBandIndex, NOT_TESTED, tableBonus, tableScore, type ScoreLookup } from './lookup';
import {
  getStandard,
  gradeTable,
  isGender,
  isGrade,
  ITEM_INDEX,
  lookupSlot,
  type BmiBand,
  type Gender,
  type Grade,
  type ItemKey,
  type StandardVersion,
} from './standard';

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

/** Scores `raw` at a slot that is tested (kind ≠ NOT_TESTED) of `l`. */
function scoreAtSlot(l: ScoreLookup, slot: number, raw: number): ItemScore {
  if (l.kind[slot] === BMI_BANDS) {
    const value = roundTenth(raw);
    const band = bmiBandIndex(l, slot, value);
    return { value, score: l.bmiScores[band], bonus: 0, level: BMI_BAND_ORDER[band] };
  }
  const score = tableScore(l, slot, raw);
  return { value: raw, score, bonus: score === 100 ? tableBonus(l, slot, raw) : 0, level: levelOf(score) };
}

function checkGradeGender(grade: Grade, gender: Gender): void {
  if (!isGrade(grade)) throw new RangeError(`grade must be an integer 1-16, got ${String(grade)}`);
  if (!isGender(gender)) throw new RangeError(`gender must be male or female, got ${String(gender)}`);
}

/** Scores one raw result of a grade (1–16) and gender: item score 0–100, bonus, level (docs/product-rules.md#physique-scoring, docs/product-rules.md#physique-scoring). Throws RangeError when the item is not tested there or raw is not finite. */
export function scoreItem({ grade, gender, item, raw, standard }: ScoreItemInput): ItemScore {
  const l = getStandard(standard).lookup;
  checkGradeGender(grade, gender);
  const slot = ITEM_INDEX.has(item) ? lookupSlot(grade, gender, item) : -1;
  if (slot < 0 || l.kind[slot] === NOT_TESTED) throw new RangeError(`${item} is not tested in grade ${grade} (${gender})`);
  if (!Number.isFinite(raw)) throw new RangeError(`${item}: raw value must be a finite number`);
  return scoreAtSlot(l, slot, raw);
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

/** Annual total of one student (学年总分 = standard score + bonus ≤ 120) with per-item scores and the missing items (docs/product-rules.md#physique-scoring, docs/product-rules.md#physique-scoring). */
export function scoreStudent({ grade, gender, results, standard }: ScoreStudentInput): StudentScore {
  const table = gradeTable(grade, gender, standard);
  const l = getStandard(standard).lookup;
  const items: Partial<Record<ItemKey, ItemScore>> = {};
  const missing: ItemKey[] = [];
  // Weights are whole percents, so the weighted sum stays an exact integer until the final division.
  let weighted = 0;
  let bonusSum = 0;
  for (const spec of table.specs) {
    let raw: number | null | undefined = results[spec.item];
    if (spec.item === 'bmi' && (raw == null || Number.isNaN(raw))) raw = bmiFromHeightWeight(results.heightCm, results.weightKg);
    if (raw == null || !Number.isFinite(raw)) {
      missing.push(spec.item);
      continue;
    }
    const slot = lookupSlot(grade, gender, spec.item);
    const s = scoreAtSlot(l, slot, raw);
    items[spec.item] = s;
    weighted += s.score * l.weightPct[slot];
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

/** University graduation score (毕业成绩) from annual totals in year order, the last being the graduation year (docs/product-rules.md#physique-scoring; data file scoring.graduation). With one year only, that year's total. */
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
