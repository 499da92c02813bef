import { LEVEL_BANDS } from '../constants';
import { graduationScore, type GraduationScore } from '../physique/score';
import { levelOf, type ScoreLevel } from '../physique/level';

/**
 * The school year's physique result of one student (docs/product-rules.md#physique-year): the plans' results, a
 * re-test (补测) and an approved exemption (免测/缓测) decide it together. Every screen, report, export and the
 * graduation score reads the year through this function, so the rule lives once.
 */

/** An approved request: 免予执行 (exempt, the year has no result and is left out) or 暂缓执行 (deferred, tested later). */
export type ExemptionKind = 'exempt' | 'deferred';
export const EXEMPTION_KINDS: readonly ExemptionKind[] = ['exempt', 'deferred'];

/** One valid plan result of the year, as the year's rule needs it. */
export interface YearPlanResult {
  planId: string;
  /** The plan this one re-tests (test_plans.retest_of_plan_id), null for a regular plan. */
  retestOfPlanId: string | null;
  /** The plan's start date (ISO), which orders the year's regular plans. */
  startDate: string;
  complete: boolean;
  total: number | null;
}

export type YearResultSource = 'plan' | 'retest' | 'exempt' | 'deferred' | 'none';

export interface YearResult {
  source: YearResultSource;
  /** The total the year counts (null: exempt, deferred without a result, or no complete result). */
  total: number | null;
  level: ScoreLevel | null;
  /** The regular plan's total (shown beside the re-test's on reports), null without one. */
  planTotal: number | null;
  /** The re-test's own total, null without one. */
  retestTotal: number | null;
}

/**
 * The year's result:
 * - exempt (approved 免予执行): no total, the year is left out of rates, averages and the graduation mean;
 * - otherwise the latest complete regular plan result (by start date) is the year's;
 * - a failing year with a complete re-test takes the re-test: a passing re-test counts as exactly the pass mark (60),
 *   a failing one keeps the year failing with the better of the two totals (the standard: 补测仍不及格，则学年成绩评定为不及格;
 *   the pass mark as the ceiling is our choice where it is silent, see the rules);
 * - deferred (approved 暂缓执行) without any complete result yet: no total, left out like exempt until tested.
 */
export function yearResult(results: readonly YearPlanResult[], exemption: ExemptionKind | null): YearResult {
  if (exemption === 'exempt') return { source: 'exempt', total: null, level: null, planTotal: null, retestTotal: null };
  const complete = results.filter((r) => r.complete && r.total != null);
  const regular = complete.filter((r) => r.retestOfPlanId == null).sort((a, b) => a.startDate.localeCompare(b.startDate));
  const retests = complete.filter((r) => r.retestOfPlanId != null).sort((a, b) => a.startDate.localeCompare(b.startDate));
  const plan = regular.at(-1) ?? null;
  const retest = retests.at(-1) ?? null;
  const planTotal = plan?.total ?? null;
  const retestTotal = retest?.total ?? null;
  if (planTotal == null && retestTotal == null) {
    return { source: exemption === 'deferred' ? 'deferred' : 'none', total: null, level: null, planTotal, retestTotal };
  }
  if (planTotal != null && (planTotal >= LEVEL_BANDS.pass || retestTotal == null)) {
    return { source: 'plan', total: planTotal, level: levelOf(planTotal), planTotal, retestTotal };
  }
  // A re-test decides: the year failed (or was never tested regularly, as a deferred student is).
  const retestValue = retestTotal!;
  if (planTotal == null) return { source: 'retest', total: retestValue, level: levelOf(retestValue), planTotal, retestTotal };
  const total = retestValue >= LEVEL_BANDS.pass ? LEVEL_BANDS.pass : Math.max(planTotal, retestValue);
  return { source: 'retest', total, level: levelOf(total), planTotal, retestTotal };
}

/** Whether a year result below pass may still be re-tested: failing, not exempt, and no re-test taken yet this year. */
export function retestEligible(year: YearResult): boolean {
  return year.source === 'plan' && year.total != null && year.total < LEVEL_BANDS.pass && year.retestTotal == null;
}

/** A school year's result as the graduation score reads it, in year order (oldest first). */
export interface GraduationYear {
  academicYear: string;
  year: YearResult;
}

export type GraduationOutcome =
  | { kind: 'scored'; score: GraduationScore; yearsCounted: number; belowFifty: boolean }
  /** The graduation year is exempt: the record says 免测 (the standard: 毕业时《标准》成绩需注明免测). */
  | { kind: 'exempt' }
  /** The graduation year has no result yet. */
  | { kind: 'missing' };

/** Below this graduation score a senior-school or university student completes without graduating (结业或肄业). */
export const GRADUATION_MIN_SCORE = 50;

/**
 * 毕业成绩: the graduation year's total × 50 % + the mean of the other years × 50 % (graduationScore), leaving out
 * exempt years and years without a result; an exempt graduation year makes the record 免测.
 */
export function graduationOutcome(years: readonly GraduationYear[]): GraduationOutcome {
  const last = years.at(-1);
  if (!last || last.year.source === 'exempt') return last ? { kind: 'exempt' } : { kind: 'missing' };
  if (last.year.total == null) return { kind: 'missing' };
  const others = years.slice(0, -1).flatMap((y) => (y.year.total == null ? [] : [y.year.total]));
  const score = graduationScore([...others, last.year.total]);
  return { kind: 'scored', score, yearsCounted: others.length + 1, belowFifty: score.score < GRADUATION_MIN_SCORE };
}
