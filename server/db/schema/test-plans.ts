import { sql } from 'drizzle-orm';
import { type AnyPgColumn, date, index, integer, jsonb, numeric, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { orgs } from './orgs';
import { classes, colleges, grades, schoolYears } from './school';

const orgRef = () => uuid('org_id').notNull().references(() => orgs.id);
const at = (name: string) => timestamp(name, { withTimezone: true });

/** Physique test plans (docs/product-rules.md#plan-states): dates decide the status; `endedAt` is an early end. */
export const testPlans = pgTable(
  'test_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    name: text('name').notNull(),
    schoolYearId: uuid('school_year_id').notNull().references(() => schoolYears.id),
    /** Semester code: 11 spring, 13 autumn (docs/product-rules.md#limits). */
    semesterCode: smallint('semester_code').notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    endedAt: at('ended_at'),
    /** 'grade' | 'class' | 'college': what test_plan_scopes rows name. */
    scopeType: text('scope_type', { enum: ['grade', 'class', 'college'] }).notNull(),
    /** Version of the national standard the plan scores by (src/domain/physique STANDARDS). */
    standardVersion: text('standard_version').notNull().default('2014'),
    /**
     * A re-test (补测) plan names the plan it re-tests; it scopes itself to that plan's students whose year failed
     * (docs/product-rules.md#physique-year). Null for a regular plan.
     */
    retestOfPlanId: uuid('retest_of_plan_id').references((): AnyPgColumn => testPlans.id),
    /** Test report fee in CNY (≥ 0.01), its precision (0–3 decimals) and rounding (docs/product-rules.md#limits). */
    feeAmount: numeric('fee_amount', { precision: 12, scale: 3 }),
    feePrecision: smallint('fee_precision').notNull().default(2),
    feeRounding: text('fee_rounding', { enum: ['round', 'up', 'down'] }).notNull().default('round'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    /** In the recycle bin since (a deleted plan with results); its results are hidden everywhere until restored or purged. */
    deletedAt: at('deleted_at'),
    deletedBy: uuid('deleted_by').references(() => users.id),
  },
  (t) => [index('test_plans_org_idx').on(t.orgId, t.startDate), index('test_plans_deleted_idx').on(t.deletedAt).where(sql`${t.deletedAt} is not null`)],
);

/** The plan's scope: grades, classes or (university) colleges. */
export const testPlanScopes = pgTable(
  'test_plan_scopes',
  {
    planId: uuid('plan_id').notNull().references(() => testPlans.id, { onDelete: 'cascade' }),
    gradeId: uuid('grade_id').references(() => grades.id),
    classId: uuid('class_id').references(() => classes.id),
    collegeId: uuid('college_id').references(() => colleges.id),
  },
  (t) => [index('test_plan_scopes_plan_idx').on(t.planId)],
);

/** Items tested per grade number (1–16); defaults to the standard's items of each grade. */
export const testPlanItems = pgTable(
  'test_plan_items',
  {
    planId: uuid('plan_id').notNull().references(() => testPlans.id, { onDelete: 'cascade' }),
    gradeNo: smallint('grade_no').notNull(),
    item: text('item').notNull(),
  },
  (t) => [primaryKey({ columns: [t.planId, t.gradeNo, t.item] })],
);

/**
 * Imports and syncs of a plan. At most one job per plan runs at a time (partial unique index), so
 * import and sync exclude each other across requests and server instances; deleting a plan checks it.
 * A 'running' row whose holder process is gone counts as dead (server/modules/test-plans/plan-job-holder.ts).
 */
export const planJobs = pgTable(
  'plan_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    planId: uuid('plan_id').notNull().references(() => testPlans.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['import', 'sync'] }).notNull(),
    status: text('status', { enum: ['running', 'done', 'failed'] }).notNull().default('running'),
    fileName: text('file_name'),
    successCount: integer('success_count'),
    failureCount: integer('failure_count'),
    error: text('error'),
    startedBy: uuid('started_by').references(() => users.id),
    /** The server process holding the job (docs/decisions/010-plan-jobs-and-bin.md): the job is live while it is. */
    holderId: uuid('holder_id'),
    startedAt: at('started_at').notNull().defaultNow(),
    finishedAt: at('finished_at'),
  },
  (t) => [uniqueIndex('plan_jobs_one_running_uq').on(t.planId).where(sql`${t.status} = 'running'`), index('plan_jobs_plan_idx').on(t.planId, t.startedAt)],
);

/**
 * What happened to a plan beyond ordinary edits: date corrections, reopening, moving to and from the
 * recycle bin, purging. No foreign key to the plan, so the history outlives a purge. Kept until a
 * shared audit log takes these over.
 */
export const testPlanEvents = pgTable(
  'test_plan_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull(),
    planId: uuid('plan_id').notNull(),
    planName: text('plan_name').notNull(),
    /** 'reopened' | 'datesCorrected' | 'binned' | 'restored' | 'purged' (src/domain/test-plans/access.ts). */
    kind: text('kind').notNull(),
    /** Before and after of what changed (dates, early end). */
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    actorId: uuid('actor_id').references(() => users.id),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [index('test_plan_events_plan_idx').on(t.planId, t.at)],
);
