import type { Stage } from '../physique/standard';

/** First and last grade (1–16) of each school stage (docs/product-rules.md#physique-scoring). */
export const STAGE_GRADES: Readonly<Record<Stage, readonly [first: number, last: number]>> = {
  primary: [1, 6],
  junior: [7, 9],
  senior: [10, 12],
  university: [13, 16],
};

/**
 * Grade of an enrolment cohort in a school year (docs/product-rules.md#data-centre: conventions, the roster): the stage's first grade in the enrolment year, one
 * more each year after; null before enrolment or after the stage's last grade (the cohort was not in the school).
 */
export function gradeInYear(stage: Stage, enrolYear: number, schoolYear: number): number | null {
  const [first, last] = STAGE_GRADES[stage];
  const grade = first + (schoolYear - enrolYear);
  return grade < first || grade > last ? null : grade;
}

/** Students per cohort (and gender) of a scope: the input of `rosterSize`. */
export interface RosterGroup {
  stage: Stage;
  enrolYear: number;
  gender: 'male' | 'female';
  count: number;
}

/** Students who should be tested in a school year: the cohorts in the school that year, optionally one grade / gender. */
export function rosterSize(groups: readonly RosterGroup[], schoolYear: number, opts: { gradeNo?: number; gender?: 'male' | 'female' } = {}): number {
  let n = 0;
  for (const g of groups) {
    const grade = gradeInYear(g.stage, g.enrolYear, schoolYear);
    if (grade == null) continue;
    if (opts.gradeNo !== undefined && grade !== opts.gradeNo) continue;
    if (opts.gender && g.gender !== opts.gender) continue;
    n += g.count;
  }
  return n;
}
