import { eq, getTableColumns } from 'drizzle-orm';
import type { Db } from '../../../server/db/client';
import { physiqueResults } from '../../../server/db/schema/physique';
import { classes, grades, schoolYears, students } from '../../../server/db/schema/school';
import { testPlans } from '../../../server/db/schema/test-plans';

/**
 * An independent reference for the data-centre tests: loads the raw rows with plain selects and computes the figures
 * in JavaScript, the simple way (no shared code with the service's SQL).
 */

export type ResultRow = typeof physiqueResults.$inferSelect & { schoolYear: number; semesterCode: number; planStart: string; storedInvalid: boolean };

export async function loadResults(db: Db): Promise<ResultRow[]> {
  const rows = await db
    .select({ ...getTableColumns(physiqueResults), schoolYear: schoolYears.startYear, semesterCode: testPlans.semesterCode, planStart: testPlans.startDate })
    .from(physiqueResults)
    .innerJoin(testPlans, eq(testPlans.id, physiqueResults.planId))
    .innerJoin(schoolYears, eq(schoolYears.id, testPlans.schoolYearId));
  // An approved-exempt student's result is left out of every figure like an invalid one (docs/product-rules.md#physique-year,
  // "Exemptions"): `invalid` here is "does not count"; `storedInvalid` is the column itself.
  return rows.map((r) => ({ ...r, storedInvalid: r.invalid, invalid: r.invalid || r.exempt }));
}

export interface StudentRef {
  id: string;
  orgId: string;
  classId: string;
  gender: string;
  enabled: boolean;
  stage: string;
  enrolYear: number;
  graduated: boolean;
}

export async function loadStudents(db: Db): Promise<StudentRef[]> {
  return db
    .select({
      id: students.id,
      orgId: students.orgId,
      classId: students.classId,
      gender: students.gender,
      enabled: students.enabled,
      stage: grades.stage,
      enrolYear: grades.enrolYear,
      graduated: grades.graduated,
    })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId));
}

const FIRST: Record<string, [number, number]> = { primary: [1, 6], junior: [7, 9], senior: [10, 12], university: [13, 16] };

/** Students of `orgIds` whose cohort was in the school in `year` (optionally in one grade / gender / class). */
export function roster(list: StudentRef[], orgIds: string[], year: number, f: { gradeNo?: number; gender?: string; classId?: string } = {}): number {
  return list.filter((s) => {
    if (!orgIds.includes(s.orgId) || !(s.enabled || s.graduated)) return false;
    const [first, last] = FIRST[s.stage];
    const g = first + year - s.enrolYear;
    if (g < first || g > last) return false;
    if (f.gradeNo !== undefined && g !== f.gradeNo) return false;
    if (f.gender && s.gender !== f.gender) return false;
    if (f.classId && s.classId !== f.classId) return false;
    return true;
  }).length;
}

export interface Pick {
  orgIds: string[];
  year?: number;
  semesterCode?: number;
  planId?: string;
  gradeNo?: number;
  classId?: string;
  gender?: string;
}

/** Valid results matching the filters, one per student: their latest (plan start date, then plan id). */
export function latestPerStudent(all: ResultRow[], p: Pick): ResultRow[] {
  const best = new Map<string, ResultRow>();
  for (const r of all) {
    if (r.invalid || !p.orgIds.includes(r.orgId)) continue;
    if (p.planId && r.planId !== p.planId) continue;
    if (p.year !== undefined && r.schoolYear !== p.year) continue;
    if (p.semesterCode !== undefined && r.semesterCode !== p.semesterCode) continue;
    if (p.gradeNo !== undefined && r.gradeNo !== p.gradeNo) continue;
    if (p.classId && r.classId !== p.classId) continue;
    if (p.gender && r.gender !== p.gender) continue;
    const key = p.year === undefined ? `${r.studentId}:${r.schoolYear}` : r.studentId;
    const prev = best.get(key);
    if (!prev || r.planStart > prev.planStart || (r.planStart === prev.planStart && r.planId > prev.planId)) best.set(key, r);
  }
  return [...best.values()];
}

const r4 = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

export interface RefIndicators {
  tested: number;
  assessed: number;
  levels: Record<string, number>;
  excellentRate: number | null;
  goodRate: number | null;
  passRate: number | null;
  meanTotal: number | null;
  bmi: Record<string, number>;
  participationRate: number | null;
}

export function indicators(rows: ResultRow[], students: number | null): RefIndicators {
  const assessed = rows.filter((r) => r.total != null);
  const levels = { excellent: 0, good: 0, pass: 0, fail: 0 } as Record<string, number>;
  for (const r of assessed) levels[r.level!]++;
  const bmi = { normal: 0, lowWeight: 0, overweight: 0, obese: 0 } as Record<string, number>;
  for (const r of rows) if (r.bmiLevel) bmi[r.bmiLevel]++;
  return {
    tested: rows.length,
    assessed: assessed.length,
    levels,
    excellentRate: r4(levels.excellent, assessed.length),
    goodRate: r4(levels.excellent + levels.good, assessed.length),
    passRate: r4(assessed.length - levels.fail, assessed.length),
    meanTotal: mean(assessed.map((r) => r.total!)),
    bmi,
    participationRate: students == null ? null : r4(rows.length, students),
  };
}

type ScoreKey = 'bmiScore' | 'vitalCapacityScore' | 'run50mScore' | 'sitAndReachScore' | 'rope1minScore' | 'sitUp1minScore' | 'shuttle50x8Score' | 'standingLongJumpScore' | 'pullUpScore' | 'run1000mScore' | 'run800mScore';
export const ITEMS = ['bmi', 'vitalCapacity', 'run50m', 'sitAndReach', 'rope1min', 'sitUp1min', 'shuttle50x8', 'standingLongJump', 'pullUp', 'run1000m', 'run800m'] as const;

/** Mean score and fail share of every item with scores. */
export function itemMeans(rows: ResultRow[]): Record<string, { n: number; mean: number; failRate: number | null }> {
  const out: Record<string, { n: number; mean: number; failRate: number | null }> = {};
  for (const item of ITEMS) {
    const scored = rows.filter((r) => r[`${item}Score` as ScoreKey] != null);
    if (!scored.length) continue;
    const fails = scored.filter((r) => (r as Record<string, unknown>)[`${item}Level`] === 'fail').length;
    out[item] = { n: scored.length, mean: mean(scored.map((r) => r[`${item}Score` as ScoreKey]!))!, failRate: item === 'bmi' ? null : r4(fails, scored.length) };
  }
  return out;
}

/** percentile_cont: linear interpolation between the closest ranks. */
export function percentileCont(sorted: number[], p: number): number {
  const pos = p * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** |a − b| within half a unit of the last decimal the service rounds to (means: one decimal). */
export function near(actual: number | null, expected: number | null, decimals = 1): boolean {
  if (actual == null || expected == null) return actual === expected;
  return Math.abs(actual - expected) <= 0.5 * 10 ** -decimals + 1e-9;
}
