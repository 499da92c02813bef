import { z } from 'zod';
import { listQuery, versionField } from '../list-query';

/**
 * Grades (docs/product-rules.md#grades): an enrolment cohort of a stage. A school offers grades 1–12 by stage
 * (primary 1–6, junior 7–9, senior 10–12); a university's enrolment years run through years one to four (13–16).
 * One cohort per stage and enrolment year.
 */

export const GRADE_STAGES = ['primary', 'junior', 'senior', 'university'] as const;
export type GradeStage = (typeof GRADE_STAGES)[number];
export const K12_STAGES = ['primary', 'junior', 'senior'] as const;

/** The grade numbers of each stage. */
export const STAGE_GRADES: Readonly<Record<GradeStage, readonly [number, number]>> = {
  primary: [1, 6],
  junior: [7, 9],
  senior: [10, 12],
  university: [13, 16],
};

export const ENROL_YEAR_MIN = 2000;
export const ENROL_YEAR_MAX = 2100;

export const gradeSaveSchema = z
  .object({
    stage: z.enum(GRADE_STAGES, { error: 'validation:grade.stageRequired' }),
    gradeNo: z.coerce.number({ error: 'validation:grade.gradeRequired' }).int('validation:grade.gradeRequired'),
    enrolYear: z.coerce
      .number({ error: 'validation:grade.enrolYearRequired' })
      .int('validation:grade.enrolYearRange')
      .min(ENROL_YEAR_MIN, 'validation:grade.enrolYearRange')
      .max(ENROL_YEAR_MAX, 'validation:grade.enrolYearRange'),
    /** 'true' / 'false' from the form's radio group. */
    graduated: z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean()).default(false),
    version: versionField.optional(),
  })
  .superRefine((v, ctx) => {
    const [lo, hi] = STAGE_GRADES[v.stage];
    if (v.gradeNo < lo || v.gradeNo > hi) ctx.addIssue({ code: 'custom', path: ['gradeNo'], message: 'validation:grade.gradeOfStage' });
  });
export type GradeSave = z.output<typeof gradeSaveSchema>;
export type GradeForm = z.input<typeof gradeSaveSchema>;

export const gradeListQuery = listQuery({
  stage: z.preprocess((v) => (v === '' ? undefined : v), z.enum(GRADE_STAGES, { error: 'validation:grade.stageRequired' }).optional()),
  graduated: z.preprocess((v) => (v === '' || v === undefined ? undefined : v === 'true' || v === true), z.boolean().optional()),
});

/** A grade as its management screen reads it. */
export interface GradeDetail {
  id: string;
  stage: GradeStage;
  gradeNo: number;
  enrolYear: number;
  graduated: boolean;
  classCount: number;
  version: number;
}
