import { z } from 'zod';
import { classSaveSchema } from './classes';
import { GRADE_STAGES, K12_STAGES, STAGE_GRADES, type GradeStage } from './grades';
import { schoolYearSaveSchema } from './school-years';

/**
 * Year rollover of a school (docs/product-rules.md#year-rollover): every cohort in school moves up one grade, the
 * cohorts in the last grade of their stage graduate, and each stage gets an entering cohort with its classes. Grades
 * are enrolment cohorts, so a class keeps its id, students and results: only the cohort's grade number moves.
 */

/** Grade names schools put at the front of class names ('一年级1班'); the junior grades have a short form too ('初一1班'). */
export const GRADE_NAME_FORMS: readonly (readonly string[])[] = [
  ['一年级'],
  ['二年级'],
  ['三年级'],
  ['四年级'],
  ['五年级'],
  ['六年级'],
  ['七年级', '初一'],
  ['八年级', '初二'],
  ['九年级', '初三'],
  ['高一'],
  ['高二'],
  ['高三'],
];

/** The name of a class that moves from one grade to the next: a leading grade name follows the grade, anything else stays. */
export function classNameInGrade(name: string, fromGrade: number, toGrade: number): string {
  const from = GRADE_NAME_FORMS[fromGrade - 1] ?? [];
  const to = GRADE_NAME_FORMS[toGrade - 1];
  if (!to) return name;
  // The longest form first, so '七年级' wins over a shorter form that it starts with.
  const forms = [...from].map((f, i) => ({ f, i })).sort((a, b) => b.f.length - a.f.length);
  const hit = forms.find(({ f }) => name.startsWith(f));
  return hit ? to[Math.min(hit.i, to.length - 1)] + name.slice(hit.f.length) : name;
}

/** The school year (its start year) a cohort's grade number describes: the stage's first grade in the enrolment year. */
export function cohortYear(stage: GradeStage, enrolYear: number, gradeNo: number): number {
  return enrolYear + gradeNo - STAGE_GRADES[stage][0];
}

/** Whether a cohort in this grade leaves the school at the next rollover (the last grade of its stage). */
export const graduatesNext = (stage: GradeStage, gradeNo: number): boolean => gradeNo >= STAGE_GRADES[stage][1];

/** Years of study of a university class without a major (a major's default length, server/db/schema/school.ts). */
export const UNIVERSITY_DEFAULT_LENGTH = 4;

/**
 * Whether a university class leaves at the rollover that ends the school year starting in `fromStartYear`: its cohort
 * enrolled in `enrolYear` has studied the major's length by then (a 3-year major graduates before a 5-year one of the
 * same enrolment year).
 */
export const universityClassGraduates = (fromStartYear: number, enrolYear: number, schoolLength: number): boolean =>
  fromStartYear - enrolYear + 1 >= schoolLength;

/** One class of an entering cohort: the class form's code and name rules. */
export const enteringClassSchema = z.object({ code: classSaveSchema.shape.code, name: classSaveSchema.shape.name });

export const ROLLOVER_ENTERING_MAX = 99;

/**
 * Commit a rollover: the new school year (its semesters when it does not exist yet), whether class names carrying
 * the grade follow it, and the classes of each stage's entering cohort (codes unique within the cohort).
 */
export const rolloverCommitSchema = z
  .object({
    academicYear: schoolYearSaveSchema.shape.academicYear,
    /** The new year's semesters and breaks, when the year is created by the rollover. */
    year: schoolYearSaveSchema.optional(),
    renameClasses: z.boolean().default(true),
    entering: z
      .array(z.object({ stage: z.enum(K12_STAGES, { error: 'validation:grade.stageRequired' }), classes: z.array(enteringClassSchema).max(ROLLOVER_ENTERING_MAX) }))
      .max(K12_STAGES.length),
  })
  .superRefine((v, ctx) => {
    if (v.year && v.year.academicYear !== v.academicYear) ctx.addIssue({ code: 'custom', path: ['year', 'academicYear'], message: 'people:rollover.errors.yearMismatch' });
    const stages = new Set<string>();
    v.entering.forEach((e, i) => {
      if (stages.has(e.stage)) ctx.addIssue({ code: 'custom', path: ['entering', i, 'stage'], message: 'people:rollover.errors.stageTwice' });
      stages.add(e.stage);
      const codes = new Set<number>();
      e.classes.forEach((c, j) => {
        if (codes.has(c.code)) ctx.addIssue({ code: 'custom', path: ['entering', i, 'classes', j, 'code'], message: 'validation:class.codeTaken' });
        codes.add(c.code);
      });
    });
  });
export type RolloverCommit = z.output<typeof rolloverCommitSchema>;
export type RolloverCommitForm = z.input<typeof rolloverCommitSchema>;

/** A class moving up one grade. */
export const rolloverMoveSchema = z.object({
  classId: z.string(),
  gradeId: z.string(),
  stage: z.enum(GRADE_STAGES),
  name: z.string(),
  newName: z.string().describe('The name it gets when names follow the grade (the same when it carries no grade name)'),
  fromGrade: z.number().int(),
  toGrade: z.number().int(),
  students: z.number().int(),
});
export type RolloverMove = z.output<typeof rolloverMoveSchema>;

/**
 * Classes leaving the school: their students become graduated, the classes stay for history and reports. In a school the
 * whole cohort leaves; in a university only the classes whose major's length is over (`wholeCohort` false while other
 * classes of the enrolment year stay and move on).
 */
export const rolloverGraduationSchema = z.object({
  gradeId: z.string(),
  wholeCohort: z.boolean(),
  stage: z.enum(GRADE_STAGES),
  gradeNo: z.number().int(),
  enrolYear: z.number().int(),
  classes: z.array(z.object({ id: z.string(), name: z.string() })),
  students: z.number().int(),
});
export type RolloverGraduation = z.output<typeof rolloverGraduationSchema>;

/** The entering cohort of a stage and its default classes (the current first grade's codes and names). */
export const rolloverEnteringSchema = z.object({
  stage: z.enum(K12_STAGES),
  gradeNo: z.number().int(),
  enrolYear: z.number().int(),
  classes: z.array(z.object({ code: z.number().int(), name: z.string() })),
});
export type RolloverEntering = z.output<typeof rolloverEnteringSchema>;

/** What a rollover would do (GET …/rollover/preview): nothing is written. */
export const rolloverPreviewSchema = z.object({
  /** The school year the cohorts are in now, and the one the rollover moves them to. */
  from: z.object({ startYear: z.number().int(), academicYear: z.string() }),
  to: z.object({
    startYear: z.number().int(),
    academicYear: z.string(),
    exists: z.boolean().describe('The year exists already (its semesters are used); otherwise the commit must send them'),
    semesters: z.array(z.object({ code: z.number().int(), startDate: z.string(), endDate: z.string(), breakStart: z.string().nullable(), breakEnd: z.string().nullable() })),
  }),
  moves: z.array(rolloverMoveSchema),
  graduating: z.array(rolloverGraduationSchema),
  entering: z.array(rolloverEnteringSchema),
});
export type RolloverPreview = z.output<typeof rolloverPreviewSchema>;

/** The last rollover of the organisation (GET …/rollover/last), and whether it can still be undone. */
export const rolloverSummarySchema = z.object({
  id: z.string(),
  fromYear: z.string(),
  toYear: z.string(),
  createdAt: z.string().describe('ISO instant'),
  undoneAt: z.string().nullable(),
  moved: z.number().int().describe('Cohorts moved up one grade'),
  graduated: z.number().int().describe('Cohorts graduated'),
  graduatedStudents: z.number().int(),
  enteringClasses: z.number().int(),
});
export type RolloverSummary = z.output<typeof rolloverSummarySchema>;
