import { z } from 'zod';
import { pageSchema } from '../api';
import { LEVEL_BANDS, PLAN_NAME_MAX } from '../constants';
import { isIsoDate } from '../dates';
import { blankAsNull, requiredId } from '../fields';
import { listQuery, textFilter } from '../list-query';
import { answerGenderSchema, scoreLevelSchema } from '../physique/answer-fields';
import { retestEligible, type YearResult } from '../physique-year/year-result';
import { enumTable } from '../presentation';
import { PLAN_STATUSES } from '../test-plans/status';

/**
 * 补测 (docs/product-rules.md#physique-year, "Re-test"): a re-test plan is a test plan naming the plan it re-tests
 * (test_plans.retest_of_plan_id); it admits only the original plan's students whose year may be re-tested.
 */

/** Why a student may not be written into a re-test plan (an import row's reason, a sync that skips them, an edit refused). */
export const RETEST_REFUSALS = ['notTested', 'passed', 'exempt', 'retested'] as const;
export type RetestRefusal = (typeof RETEST_REFUSALS)[number];
export const retestRefusalKey = (r: RetestRefusal) => `retest:refused.${r}` as const;

/**
 * Whether the student may be re-tested in a plan's re-test, and if not why: `tested` says whether they have a valid,
 * complete result in the original plan; `year` is their school year's result WITHOUT the re-test plan's own results
 * (so re-importing a re-test's values is not refused as "already re-tested"). The rule itself is `retestEligible`.
 */
export function retestRefusal(tested: boolean, year: YearResult): RetestRefusal | null {
  if (!tested) return 'notTested';
  if (retestEligible(year)) return null;
  if (year.source === 'exempt') return 'exempt';
  if (year.retestTotal != null) return 'retested';
  if (year.total != null && year.total >= LEVEL_BANDS.pass) return 'passed';
  return 'notTested';
}

/** The default name of a re-test plan: the original's name + 补测, cut to the plan name's limit (docs/product-rules.md#limits). */
export function defaultRetestName(planName: string): string {
  const suffix = '补测';
  const room = PLAN_NAME_MAX - suffix.length;
  return `${[...planName].slice(0, room).join('')}${suffix}`;
}

const day = (required: string) => z.string({ error: required }).min(1, required).refine(isIsoDate, 'validation:date.format');

/** 发起补测: the plan to re-test, the re-test's days and optionally its name (blank: `defaultRetestName`). */
export const retestCreateSchema = z
  .object({
    planId: requiredId('retest:validation.planRequired'),
    name: z.preprocess(
      blankAsNull,
      z
        .string({ error: 'testPlans:validation.nameLength' })
        .trim()
        .refine((s) => [...s].length <= PLAN_NAME_MAX, 'testPlans:validation.nameLength')
        .nullable()
        .optional(),
    ),
    startDate: day('testPlans:validation.startDateRequired'),
    endDate: day('testPlans:validation.endDateRequired'),
  })
  .superRefine((v, ctx) => {
    if (v.endDate < v.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'testPlans:validation.endBeforeStart' });
  });
export type RetestCreate = z.output<typeof retestCreateSchema>;
export type RetestCreateForm = z.input<typeof retestCreateSchema>;

/** The page's list: the eligible students of one re-test plan (`planId`; the latest re-test plan when none is named). */
export const retestStudentQuery = listQuery({ planId: z.preprocess((v) => blankAsNull(v) ?? undefined, requiredId('validation:common.id').optional()), keyword: textFilter() });
export type RetestStudentQuery = z.output<typeof retestStudentQuery>;
export const retestExportQuery = retestStudentQuery.omit({ current: true, size: true });

/** Where the year's result comes from (YearResult['source']). */
export const YEAR_SOURCES = ['plan', 'retest', 'exempt', 'deferred', 'none'] as const;
export const YEAR_SOURCE_TABLE = enumTable(YEAR_SOURCES, (s) => `retest:source.${s}`, { plan: 'plain', retest: 'success', exempt: 'neutral', deferred: 'warning', none: 'plain' });

/** A re-test plan with its original and counts (the page's plan picker and summary). */
export const retestPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  originalPlanId: z.string(),
  originalPlanName: z.string(),
  schoolYearId: z.string(),
  academicYear: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  status: z.enum(PLAN_STATUSES),
  /** Students the re-test admits (docs/product-rules.md#physique-year, "Re-test"). */
  eligible: z.number(),
  /** Of those, with a complete re-test result. */
  tested: z.number(),
  /** Of those tested, whose year now passes (the year's total ≥ 60). */
  passed: z.number(),
});
export type RetestPlan = z.output<typeof retestPlanSchema>;

/** One eligible student of a re-test plan: the original total, the re-test total and the year's result (yearResult). */
export const retestStudentSchema = z.object({
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  gender: answerGenderSchema,
  className: z.string(),
  gradeNo: z.number(),
  planTotal: z.number().nullable(),
  retestTotal: z.number().nullable(),
  yearSource: z.enum(YEAR_SOURCES),
  yearTotal: z.number().nullable(),
  yearLevel: scoreLevelSchema.nullable(),
});
export type RetestStudent = z.output<typeof retestStudentSchema>;
export const retestStudentPageSchema = pageSchema(retestStudentSchema).extend({ plan: retestPlanSchema.nullable() });
export type RetestStudentPage = z.output<typeof retestStudentPageSchema>;

/** A plan that may be re-tested (the 发起补测 dialog): regular, of this school, with failing years, no re-test yet. */
export const retestCandidateSchema = z.object({
  id: z.string(),
  name: z.string(),
  schoolYearId: z.string(),
  academicYear: z.string(),
  startDate: z.string(),
  /** The school year's last day (the re-test must end by then). */
  yearEnd: z.string(),
  /** Students the re-test would admit now. */
  eligible: z.number(),
});
export type RetestCandidate = z.output<typeof retestCandidateSchema>;
