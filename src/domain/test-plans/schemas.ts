import { z } from 'zod';
import { pageQuerySchema } from '../api';
import { isIsoDate } from '../dates';
import { enumTable } from '../presentation';
import { blankAsUndefined, enumFilter, optionalId, requiredId, semesterFilter, uuid } from '../fields';
import { textFilter } from '../list-query';
import { PLAN_NAME_MAX, PLAN_NAME_MIN, SEMESTER, TEST_REPORT_FEE_MIN } from '../constants';
import { DEFAULT_STANDARD_VERSION, ITEM_KEYS, isGrade, STANDARD_VERSIONS } from '../physique/standard';
import { DEFAULT_FEE_PRECISION, DEFAULT_FEE_ROUNDING, FEE_PRECISIONS, FEE_ROUNDINGS, decimalsOf, roundFee } from './fee';
import { planItemsForGrade } from './items';
import { PLAN_STATUSES, SIGN_UP_STATUSES } from './status';

/** What a plan's scope names (docs/product-rules.md#test-plans): grades or classes (K12), or colleges, grades or classes (university). */
export const PLAN_SCOPE_TYPES = ['grade', 'class', 'college'] as const;
export type PlanScopeType = (typeof PLAN_SCOPE_TYPES)[number];
export const PLAN_SCOPE_TYPE_TABLE = enumTable(PLAN_SCOPE_TYPES, (s) => `testPlans:scopeType.${s}`);

/** Highest test report fee the form accepts, in CNY (docs/product-rules.md#limits sets only the minimum; this keeps typos out). */
export const TEST_REPORT_FEE_MAX = 100_000;


/**
 * A number as JSON sends it or a form field holds it (a string; '' = not given). Typed input
 * (`number | string`), so a react-hook-form can hold the raw text and the schema still checks it.
 */
const formNumber = <T extends z.ZodType<unknown, number | undefined>>(error: string, then: T) =>
  z
    .union([z.number(), z.string(), z.null()], { error })
    .transform((v) => (v === null ? undefined : typeof v === 'number' ? v : v.trim() === '' ? undefined : Number(v)))
    .pipe(then);

/** Text where '' means "not given". */
const formText = <T extends z.ZodType<unknown, string | undefined>>(then: T) =>
  z
    .string()
    .transform((v) => (v.trim() === '' ? undefined : v.trim()))
    .pipe(then);

const day = (required: string, invalid: string) => z.string({ error: required }).min(1, required).refine(isIsoDate, invalid);

const semesterCode = z
  .number({ error: 'testPlans:validation.semesterRequired' })
  .refine((n) => n === SEMESTER.spring || n === SEMESTER.autumn, 'testPlans:validation.semesterRequired');

const gradeItemsSchema = z.object({
  gradeNo: formNumber('testPlans:validation.gradeInvalid', z.number({ error: 'testPlans:validation.gradeInvalid' }).refine(isGrade, 'testPlans:validation.gradeInvalid')),
  items: z
    .array(z.enum(ITEM_KEYS, { error: 'testPlans:validation.itemInvalid' }), { error: 'testPlans:validation.itemsRequired' })
    .min(1, 'testPlans:validation.itemsRequired'),
});

/**
 * The test-plan form and request body (docs/product-rules.md#test-plans; docs/product-rules.md#limits: name 1–20 characters, fee ≥ 0.01 with
 * precision 0–3 and rounding). Messages are i18n keys. Numbers may arrive as form strings ('' = not
 * given). `items` lists the tested items of grades in scope; a grade left out gets all the standard's
 * items for it. `feeAmount` empty or null = no report fee. `schoolOrgId` names the school when a
 * management organisation (admin family) plans for one of its schools; other families leave it out.
 */
export const planRequestSchema = z
  .object({
    schoolOrgId: formText(uuid('testPlans:validation.schoolRequired').optional()).optional(),
    name: z
      .string({ error: 'testPlans:validation.nameRequired' })
      .trim()
      .refine((s) => [...s].length >= PLAN_NAME_MIN, 'testPlans:validation.nameRequired')
      .refine((s) => [...s].length <= PLAN_NAME_MAX, 'testPlans:validation.nameLength'),
    schoolYearId: requiredId('testPlans:validation.schoolYearRequired'),
    semesterCode: formNumber('testPlans:validation.semesterRequired', semesterCode),
    startDate: day('testPlans:validation.startDateRequired', 'testPlans:validation.startDateInvalid'),
    endDate: day('testPlans:validation.endDateRequired', 'testPlans:validation.endDateInvalid'),
    scopeType: z.enum(PLAN_SCOPE_TYPES, { error: 'testPlans:validation.scopeTypeRequired' }),
    scopeIds: z
      .array(uuid('testPlans:validation.scopeRequired'), { error: 'testPlans:validation.scopeRequired' })
      .min(1, 'testPlans:validation.scopeRequired')
      .max(500, 'testPlans:validation.scopeTooMany')
      .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]),
    items: z.array(gradeItemsSchema, { error: 'testPlans:validation.itemsRequired' }).max(16, 'testPlans:validation.gradeInvalid').optional(),
    standardVersion: z
      .string({ error: 'testPlans:validation.standardVersion' })
      .pipe(z.enum(STANDARD_VERSIONS, { error: 'testPlans:validation.standardVersion' }))
      .default(DEFAULT_STANDARD_VERSION),
    feeAmount: formNumber(
      'testPlans:validation.feeInvalid',
      z
        .number({ error: 'testPlans:validation.feeInvalid' })
        .refine(Number.isFinite, 'testPlans:validation.feeInvalid')
        .refine((n) => n >= TEST_REPORT_FEE_MIN, 'testPlans:validation.feeMin')
        .refine((n) => n <= TEST_REPORT_FEE_MAX, 'testPlans:validation.feeMax')
        .refine((n) => decimalsOf(n) <= 3, 'testPlans:validation.feeDecimals')
        .optional()
        .transform((n) => n ?? null),
    )
      .optional()
      .transform((n) => n ?? null),
    feePrecision: formNumber('testPlans:validation.feePrecision', z.literal(FEE_PRECISIONS, { error: 'testPlans:validation.feePrecision' }).default(DEFAULT_FEE_PRECISION)).default(
      DEFAULT_FEE_PRECISION,
    ),
    feeRounding: z.enum(FEE_ROUNDINGS, { error: 'testPlans:validation.feeRounding' }).default(DEFAULT_FEE_ROUNDING),
    /**
     * The 中考体育 conversion table version the plan applies (docs/product-rules.md#physique-year): blank or null =
     * none; left out = unchanged (an edit) or none (an add).
     */
    conversionTableId: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), uuid('conversion:validation.tableNotAvailable').nullable().optional()),
  })
  .superRefine((plan, ctx) => {
    if (plan.endDate < plan.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'testPlans:validation.endBeforeStart' });
    if (plan.feeAmount !== null && roundFee(plan.feeAmount, plan.feePrecision, plan.feeRounding) < TEST_REPORT_FEE_MIN) {
      ctx.addIssue({ code: 'custom', path: ['feeAmount'], message: 'testPlans:validation.feeRoundsBelowMin' });
    }
    const seen = new Set<number>();
    for (const [i, g] of (plan.items ?? []).entries()) {
      if (seen.has(g.gradeNo)) ctx.addIssue({ code: 'custom', path: ['items', i, 'gradeNo'], message: 'testPlans:validation.gradeDuplicate' });
      seen.add(g.gradeNo);
      if (!isGrade(g.gradeNo)) continue;
      const allowed = new Set(planItemsForGrade(g.gradeNo, plan.standardVersion));
      if (g.items.some((item) => !allowed.has(item))) {
        ctx.addIssue({ code: 'custom', path: ['items', i, 'items'], message: 'testPlans:validation.itemNotInStandard' });
      }
      if (new Set(g.items).size !== g.items.length) {
        ctx.addIssue({ code: 'custom', path: ['items', i, 'items'], message: 'testPlans:validation.itemDuplicate' });
      }
    }
  });
export type PlanRequestInput = z.input<typeof planRequestSchema>;

const endAfterStart = (dates: { startDate?: string; endDate?: string }, ctx: z.RefinementCtx) => {
  if (dates.startDate && dates.endDate && dates.endDate < dates.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'testPlans:validation.endBeforeStart' });
};

/** An administrator's correction of a plan's dates (src/domain/test-plans/access.ts). */
export const planDatesSchema = z
  .object({ startDate: day('testPlans:validation.startDateRequired', 'testPlans:validation.startDateInvalid'), endDate: day('testPlans:validation.endDateRequired', 'testPlans:validation.endDateInvalid') })
  .superRefine(endAfterStart);
export type PlanDatesRequest = z.output<typeof planDatesSchema>;

/** Undoing an early end, optionally with corrected dates (both or neither). */
export const planReopenSchema = z
  .object({
    startDate: day('testPlans:validation.startDateRequired', 'testPlans:validation.startDateInvalid').optional(),
    endDate: day('testPlans:validation.endDateRequired', 'testPlans:validation.endDateInvalid').optional(),
  })
  .superRefine((dates, ctx) => {
    if (dates.startDate && !dates.endDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'testPlans:validation.endDateRequired' });
    if (dates.endDate && !dates.startDate) ctx.addIssue({ code: 'custom', path: ['startDate'], message: 'testPlans:validation.startDateRequired' });
    endAfterStart(dates, ctx);
  });
export type PlanReopenRequest = z.output<typeof planReopenSchema>;
/** A validated plan request. */
export type PlanRequest = z.output<typeof planRequestSchema>;

const optionalText = textFilter();

/** Filters of the plan list (docs/product-rules.md#plan-states): name contains, school year, semester, status; paging of docs/product-rules.md#lists. */
/** The plan list's release filter. */
export const PLAN_RELEASED_FILTERS = ['yes', 'no'] as const;
export const planPageQuerySchema = pageQuerySchema.extend({
  name: optionalText,
  schoolYearId: optionalId(),
  /** A school year written '2026-2027' (the admin family lists several schools, each with its own year ids). */
  academicYear: optionalText,
  semesterCode: semesterFilter('testPlans:validation.semesterRequired'),
  status: enumFilter(PLAN_STATUSES, 'testPlans:validation.statusInvalid'),
  /** Admin family: only this school's plans. */
  schoolOrgId: optionalId(),
  /** Reports released to the families or not yet (the to-do of docs/product-rules.md#to-dos-and-messages opens `no`). */
  released: enumFilter(PLAN_RELEASED_FILTERS, 'testPlans:validation.statusInvalid'),
  /** 1 = the recycle bin (deleted plans with results, still restorable) instead of the live plans. */
  bin: z.preprocess((v) => v === '1' || v === 'true' || v === true, z.boolean()),
});
export type PlanPageQuery = z.output<typeof planPageQuerySchema>;

/** The plan form's options (GET …/options): an admin names the school whose grades, classes and years to offer. */
export const planOptionsQuery = z.object({ schoolOrgId: z.preprocess(blankAsUndefined, z.string().max(64).optional()) });

/** Filters of the sign-up list: class, result status, name or registration number contains. */
export const signUpQuerySchema = pageQuerySchema.extend({
  classId: optionalId(),
  status: enumFilter(SIGN_UP_STATUSES, 'testPlans:validation.statusInvalid'),
  keyword: optionalText,
});
export type SignUpQuery = z.output<typeof signUpQuerySchema>;
