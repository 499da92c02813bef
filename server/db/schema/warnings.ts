import { bigserial, doublePrecision, index, integer, jsonb, pgTable, primaryKey, smallint, boolean, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { trainingPlans } from './homework';
import { orgs } from './orgs';
import { schoolYears, students, teachers } from './school';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * An organisation's warning thresholds (docs/product-rules.md#warnings). No row: the defaults of
 * src/domain/warnings/warnings.ts DEFAULT_WARNING_SETTINGS.
 */
export const warningSettings = pgTable('warning_settings', {
  orgId: uuid('org_id').primaryKey().references(() => orgs.id),
  declinePoints: smallint('decline_points').notNull(),
  /** src/domain/warnings/warnings.ts WARNING_BMI_BANDS that warn. */
  bmiBands: jsonb('bmi_bands').$type<string[]>().notNull(),
  failingItem: boolean('failing_item').notNull(),
  missing: boolean('missing').notNull(),
  version: integer('version').notNull().default(1),
  updatedBy: uuid('updated_by').references(() => users.id),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * A warning followed up (docs/product-rules.md#warnings): one student, one kind, one school year; the teacher who
 * follows it up, open → closed (reopenable). `detail` keeps what warned when it was opened.
 */
export const warningCases = pgTable(
  'warning_cases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    schoolYearId: uuid('school_year_id').notNull().references(() => schoolYears.id),
    /** src/domain/warnings/warnings.ts WARNING_KINDS. */
    kind: text('kind', { enum: ['failingItem', 'bmi', 'decline', 'missing'] }).notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    /** A numeric fact of the warning kept for sorting (the decline in points, the BMI), null otherwise. */
    measure: doublePrecision('measure'),
    status: text('status', { enum: ['open', 'closed'] }).notNull().default('open'),
    assignedTeacherId: uuid('assigned_teacher_id').references(() => teachers.id, { onDelete: 'set null' }),
    openedBy: uuid('opened_by').references(() => users.id),
    openedAt: at('opened_at').notNull().defaultNow(),
    closedAt: at('closed_at'),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('warning_cases_student_year_kind_uq').on(t.studentId, t.schoolYearId, t.kind),
    index('warning_cases_org_year_idx').on(t.orgId, t.schoolYearId, t.status),
  ],
);

/** A case's history: who did what when (opened, assigned, parent contacted, re-test, training, closed, reopened). */
export const warningCaseEvents = pgTable(
  'warning_case_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order: events of one request share their instant. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    caseId: uuid('case_id').notNull().references(() => warningCases.id, { onDelete: 'cascade' }),
    /** src/domain/warnings/warnings.ts CASE_EVENT_KINDS. */
    kind: text('kind').notNull(),
    note: text('note'),
    /** What the event names besides its note (a teacher's or a training plan's name at the time). */
    detail: text('detail'),
    trainingPlanId: uuid('training_plan_id').references(() => trainingPlans.id, { onDelete: 'set null' }),
    byUser: uuid('by_user').references(() => users.id),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [index('warning_case_events_case_idx').on(t.caseId, t.at)],
);

/** Special-training plans (the training module's) linked to a case. */
export const warningCaseTrainings = pgTable(
  'warning_case_trainings',
  {
    caseId: uuid('case_id').notNull().references(() => warningCases.id, { onDelete: 'cascade' }),
    trainingPlanId: uuid('training_plan_id').notNull().references(() => trainingPlans.id, { onDelete: 'cascade' }),
    linkedAt: at('linked_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.caseId, t.trainingPlanId] }), index('warning_case_trainings_plan_idx').on(t.trainingPlanId)],
);
