import { z } from 'zod';
import { blankAsUndefined, enumFilter, formBoolean } from '../fields';
import { listQuery, versionField } from '../list-query';
import { enumTable } from '../presentation';

/**
 * Grades (docs/product-rules.md#grades): an enrolment cohort of a stage. A school offers grades 1–12 by stage
 * (primary 1–6, junior 7–9, senior 10–12); a university's enrolment years run through years one to four (13–16).
 * One cohort per stage and enrolment year.
 */

export const GRADE_STAGES = ['primary', 'junior', 'senior', 'university'] as const;
export type GradeStage = (typeof GRADE_STAGES)[number];
export const K12_STAGES = ['primary', 'junior', 'senior'] as const;
export const GRADE_STAGE_TABLE = enumTable(GRADE_STAGES, (s) => `school:grade.stages.${s}`);

/** The grade numbers of each stage. */
export const STAGE_GRADES: Readonly<Record<GradeStage, readonly [number, number]>> = {
  primary: [1, 6],
  junior: [7, 9],
  senior: [10, 12],
  university: [13, 16],
};

export const ENROL_YEAR_MIN = 2000;
export const ENROL_YEAR_MAX = 2100;

/**
 * Save a grade. A school's grade (a K12 stage) follows from its enrolment year and the school's current school year
 * (`cohortGrade`), so the form does not ask for it and the server derives it; a university's enrolment year states
 * its current year of study (classes leave by their major's length, docs/product-rules.md#year-rollover).
 */
export const gradeSaveSchema = z
  .object({
    stage: z.enum(GRADE_STAGES, { error: 'validation:grade.stageRequired' }),
    // '' (an empty select) is no answer, so it gets the required message rather than a range one.
    gradeNo: z.preprocess(blankAsUndefined, z.coerce.number({ error: 'validation:grade.gradeRequired' }).int('validation:grade.gradeRequired').optional()),
    enrolYear: z.preprocess(
      blankAsUndefined,
      z.coerce
        .number({ error: 'validation:grade.enrolYearRequired' })
        .int('validation:grade.enrolYearRange')
        .min(ENROL_YEAR_MIN, 'validation:grade.enrolYearRange')
        .max(ENROL_YEAR_MAX, 'validation:grade.enrolYearRange'),
    ),
    /** 'true' / 'false' from the form's radio group. */
    graduated: formBoolean.default(false),
    version: versionField.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.gradeNo === undefined) {
      // A K12 grade is derived; a university's year of study is chosen.
      if (v.stage === 'university') ctx.addIssue({ code: 'custom', path: ['gradeNo'], message: 'validation:grade.gradeRequired' });
      return;
    }
    const [lo, hi] = STAGE_GRADES[v.stage];
    if (v.gradeNo < lo || v.gradeNo > hi) ctx.addIssue({ code: 'custom', path: ['gradeNo'], message: 'validation:grade.gradeOfStage' });
  });
export type GradeSave = z.output<typeof gradeSaveSchema>;
export type GradeForm = z.input<typeof gradeSaveSchema>;

export const gradeListQuery = listQuery({
  stage: enumFilter(GRADE_STAGES, 'validation:grade.stageRequired'),
  graduated: z.preprocess((v) => (v === '' || v === undefined ? undefined : v === 'true' || v === true), z.boolean().optional()),
});

/** The school year (its start year) a day falls in: a school year runs from 1 August (docs/product-rules.md#school-years). */
export function schoolStartYearOf(isoDay: string): number {
  const year = Number(isoDay.slice(0, 4));
  return Number(isoDay.slice(5, 7)) >= 8 ? year : year - 1;
}

/** What a K12 cohort is in the school year starting `currentStartYear`, or why it cannot be saved as asked. */
export type CohortGrade =
  | { ok: true; gradeNo: number }
  | { ok: false; field: 'enrolYear'; message: 'validation:grade.notYetEnrolled' | 'validation:grade.cohortGraduated' };

/**
 * The grade of a K12 cohort (docs/product-rules.md#grades): the stage's first grade in its enrolment year, one up each
 * year after (2020 primary entrants are in grade 7, 初一, in 2026-2027, so no longer primary). A cohort in school must
 * be within its stage; a graduated one stays in the last grade it reached.
 */
export function cohortGrade(stage: GradeStage, enrolYear: number, graduated: boolean, currentStartYear: number): CohortGrade {
  const [lo, hi] = STAGE_GRADES[stage];
  const gradeNo = lo + currentStartYear - enrolYear;
  if (gradeNo < lo) return { ok: false, field: 'enrolYear', message: 'validation:grade.notYetEnrolled' };
  if (graduated) return { ok: true, gradeNo: Math.min(gradeNo, hi) };
  if (gradeNo > hi) return { ok: false, field: 'enrolYear', message: 'validation:grade.cohortGraduated' };
  return { ok: true, gradeNo };
}

/** What the grade form needs besides the grade: the school year the school is in. */
export const gradeFormOptionsSchema = z.object({ currentStartYear: z.number().int().describe('First calendar year of the school year the school is in') });
export type GradeFormOptions = z.output<typeof gradeFormOptionsSchema>;

/** A grade as its management screen reads it (list row, detail and saved answer alike). */
export const gradeDetailSchema = z.object({
  id: z.string(),
  stage: z.enum(GRADE_STAGES),
  gradeNo: z.number().int().describe('Grade number within its stage (1 = first year)'),
  enrolYear: z.number().int(),
  graduated: z.boolean(),
  classCount: z.number().int(),
  version: z.number().int().describe('Send it back with a save: a newer save answers 409'),
});
export type GradeDetail = z.output<typeof gradeDetailSchema>;

/** A grade of the dictionary several screens filter by (GET org/grade/list). */
export const gradeRowSchema = z.object({ id: z.string(), stage: z.string(), enrolYear: z.number().int(), gradeNo: z.number().int(), graduated: z.boolean() });
export const gradeRowsSchema = z.array(gradeRowSchema);
