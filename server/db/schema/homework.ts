import { date, doublePrecision, index, integer, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { INTENSITIES, TASK_CYCLES } from '../../../src/domain/homework/homework';
import { users } from './auth';
import { orgs } from './orgs';
import { classes, students } from './school';
import { testPlans } from './test-plans';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Sports homework (docs/product-rules.md#homework): published to classes, with items (target, intensity), a cycle over a
 * period of calendar days; `ended_at` is an early end. Submissions are activity_records of kind 'homework' whose
 * `ref_id` is the homework.
 */
export const homeworks = pgTable(
  'homeworks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    name: text('name').notNull(),
    note: text('note').notNull().default(''),
    cycle: text('cycle', { enum: TASK_CYCLES }).notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    endedAt: at('ended_at'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: at('created_at').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('homeworks_org_idx').on(t.orgId, t.startDate)],
);

export const homeworkClasses = pgTable(
  'homework_classes',
  {
    homeworkId: uuid('homework_id')
      .notNull()
      .references(() => homeworks.id, { onDelete: 'cascade' }),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.homeworkId, t.classId] }), index('homework_classes_class_idx').on(t.classId)],
);

export const homeworkItems = pgTable(
  'homework_items',
  {
    homeworkId: uuid('homework_id')
      .notNull()
      .references(() => homeworks.id, { onDelete: 'cascade' }),
    item: text('item').notNull(),
    target: doublePrecision('target').notNull(),
    intensity: text('intensity', { enum: INTENSITIES }).notNull(),
    sort: smallint('sort').notNull(),
  },
  (t) => [primaryKey({ columns: [t.homeworkId, t.item] })],
);

/**
 * A teacher's verdict on a submission's video, and when the video expired (deleted one month after upload; the review
 * right ends with it). A row exists only once a record was reviewed or its video expired; a record with a video and no
 * verdict is waiting for review.
 */
export const homeworkReviews = pgTable(
  'homework_reviews',
  {
    // The reference to the record, (record_id, school_year) → activity_records (id, school_year) ON DELETE CASCADE, is
    // declared by the custom SQL `activity_records_school_year_partitions` after the primary key it points at.
    recordId: uuid('record_id').primaryKey(),
    /** The record's school year (activity_records.school_year): the reference names the record's whole key. The default only serves the migration. */
    schoolYear: smallint('school_year').notNull().default(0),
    homeworkId: uuid('homework_id')
      .notNull()
      .references(() => homeworks.id, { onDelete: 'cascade' }),
    verdict: text('verdict', { enum: ['valid', 'invalid'] }),
    reason: text('reason'),
    reviewedBy: uuid('reviewed_by').references(() => users.id),
    reviewedAt: at('reviewed_at'),
    videoExpiredAt: at('video_expired_at'),
  },
  (t) => [index('homework_reviews_homework_idx').on(t.homeworkId)],
);

/**
 * Special-training plans (docs/product-rules.md#special-training): chosen students (e.g. those failing an item in a
 * physique test plan) train items toward targets over a cycle and period. Sessions are activity_records of kind
 * 'training'. `source_*` remember how the students were picked.
 */
export const trainingPlans = pgTable(
  'training_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    name: text('name').notNull(),
    cycle: text('cycle', { enum: TASK_CYCLES }).notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    endedAt: at('ended_at'),
    sourcePlanId: uuid('source_plan_id').references(() => testPlans.id, { onDelete: 'set null' }),
    sourceItem: text('source_item'),
    sourceLevel: text('source_level'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: at('created_at').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('training_plans_org_idx').on(t.orgId, t.startDate)],
);

export const trainingPlanItems = pgTable(
  'training_plan_items',
  {
    planId: uuid('plan_id')
      .notNull()
      .references(() => trainingPlans.id, { onDelete: 'cascade' }),
    item: text('item').notNull(),
    target: doublePrecision('target').notNull(),
    intensity: text('intensity', { enum: INTENSITIES }).notNull(),
    sort: smallint('sort').notNull(),
  },
  (t) => [primaryKey({ columns: [t.planId, t.item] })],
);

export const trainingPlanStudents = pgTable(
  'training_plan_students',
  {
    planId: uuid('plan_id')
      .notNull()
      .references(() => trainingPlans.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    /** The student's class when picked (the data scope of a teacher reads by it). */
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.planId, t.studentId] }), index('training_plan_students_student_idx').on(t.studentId)],
);
