import { z } from 'zod';
import { conversionOptionSchema } from '../conversion/conversion';
import { answerGenderSchema, itemKeySchema } from '../physique/answer-fields';
import { FEE_ROUNDINGS } from './fee';
import { PLAN_SCOPE_TYPES } from './schemas';
import { PLAN_STATUSES, SIGN_UP_STATUSES } from './status';

/**
 * Answers of the test-plan routes (docs/product-rules.md#test-plans, organizeTest/testManage) as zod for the API
 * document (/api/docs): they describe, never filter. The types are exported from ./types.
 */

/** A row of the test-plan list. */
export const planRowSchema = z.object({
  id: z.string(),
  /** The school the plan belongs to (the admin family lists several schools). */
  orgId: z.string(),
  orgName: z.string(),
  name: z.string(),
  schoolYearId: z.string(),
  academicYear: z.string(),
  semesterCode: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  /** ISO instant of an early end, or null. */
  endedAt: z.string().nullable(),
  status: z.enum(PLAN_STATUSES),
  scopeType: z.enum(PLAN_SCOPE_TYPES),
  standardVersion: z.string(),
  feeAmount: z.number().nullable(),
  feePrecision: z.number(),
  feeRounding: z.enum(FEE_ROUNDINGS),
  createdAt: z.string(),
  /** In the recycle bin since (ISO instant), and purged for good at; null for live plans. */
  deletedAt: z.string().nullable(),
  purgeAt: z.string().nullable(),
});
export type PlanRow = z.output<typeof planRowSchema>;

/** A grade's tested items in a plan. */
export const planGradeItemsSchema = z.object({ gradeNo: z.number(), items: z.array(itemKeySchema) });
export type PlanGradeItems = z.output<typeof planGradeItemsSchema>;

/** One scope entry with its display name (grade number for grades, class or college name otherwise). */
export const planScopeEntrySchema = z.object({ id: z.string(), name: z.string(), gradeNo: z.number().nullable() });
export type PlanScopeEntry = z.output<typeof planScopeEntrySchema>;

/** Counts of a plan: students in scope, with any result, with a complete result. */
export const planCountsSchema = z.object({ students: z.number(), tested: z.number(), complete: z.number() });
export type PlanCounts = z.output<typeof planCountsSchema>;

export const planJobKindSchema = z.enum(['import', 'sync']);
export type PlanJobKind = z.output<typeof planJobKindSchema>;

/** The plan detail (check/{id}): the row, its scope with names, items per grade, counts and any running job. */
export const planDetailSchema = planRowSchema.extend({
  scope: z.array(planScopeEntrySchema),
  items: z.array(planGradeItemsSchema),
  counts: planCountsSchema,
  /** Import or sync running on the plan now (docs/product-rules.md#plan-states), or null. */
  runningJob: z.object({ kind: planJobKindSchema, startedAt: z.string() }).nullable(),
  /** Whether the plan may be edited now (not ended). */
  editable: z.boolean(),
  /** The 中考体育 conversion table version the plan applies (docs/product-rules.md#physique-year), or null. */
  conversion: conversionOptionSchema.nullable(),
});
export type PlanDetail = z.output<typeof planDetailSchema>;

/** A plan deleted: moved to the recycle bin (true) or removed for good. */
export const planDeletedSchema = z.object({ binned: z.boolean() });

/** A row of the sign-up list: a student in the plan's scope and their result status. */
export const signUpRowSchema = z.object({
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  studentNo: z.string().nullable(),
  gender: answerGenderSchema,
  classId: z.string(),
  className: z.string(),
  gradeNo: z.number(),
  status: z.enum(SIGN_UP_STATUSES),
  /** Total score (null until complete), level and whether the result was set invalid. */
  total: z.number().nullable(),
  level: z.string().nullable(),
  invalid: z.boolean(),
});
export type SignUpRow = z.output<typeof signUpRowSchema>;

/** Completion of one class in a plan. */
export const classCompletionRowSchema = z.object({
  classId: z.string(),
  className: z.string(),
  gradeNo: z.number(),
  students: z.number(),
  tested: z.number(),
  complete: z.number(),
  /** complete ÷ students, 0–1 rounded to 4 decimals; 0 for an empty class. */
  rate: z.number(),
});
export type ClassCompletionRow = z.output<typeof classCompletionRowSchema>;

/** A school an admin (management organisation) may plan for. */
export const planSchoolOptionSchema = z.object({ id: z.string(), name: z.string(), type: z.number() });
export type PlanSchoolOption = z.output<typeof planSchoolOptionSchema>;

/** What the plan form offers for one school: school years, grades, classes, colleges and default items. */
export const planFormOptionsSchema = z.object({
  orgId: z.string(),
  orgType: z.number(),
  scopeTypes: z.array(z.enum(PLAN_SCOPE_TYPES)),
  schoolYears: z.array(
    z.object({
      id: z.string(),
      academicYear: z.string(),
      current: z.boolean(),
      semesters: z.array(z.object({ code: z.number(), startDate: z.string(), endDate: z.string(), current: z.boolean() })),
    }),
  ),
  grades: z.array(z.object({ id: z.string(), gradeNo: z.number(), stage: z.string(), enrolYear: z.number() })),
  classes: z.array(z.object({ id: z.string(), name: z.string(), gradeId: z.string(), gradeNo: z.number(), collegeId: z.string().nullable() })),
  colleges: z.array(z.object({ id: z.string(), name: z.string(), code: z.string() })),
  standardVersions: z.array(z.string()),
  defaultStandardVersion: z.string(),
  /** Items each grade may test under each standard version (the default selection is all of them). */
  itemsByVersion: z.record(z.string(), z.array(planGradeItemsSchema)),
  /** 中考体育 conversion table versions published above the school, which the plan may apply. */
  conversionTables: z.array(conversionOptionSchema),
});
export type PlanFormOptions = z.output<typeof planFormOptionsSchema>;
