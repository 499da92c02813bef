import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ACTIVITY_KINDS, ACTIVITY_SOURCES } from '../../../src/domain/activities/items';
import { users } from './auth';
import { files } from './files';
import { orgs } from './orgs';
import { classes, students } from './school';
import { devices } from './venue';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Every value a device, the app or the console records for a student outside the physique tests
 * (docs/product-rules.md#activities): exercise sessions, contest entries, homework submissions, special-training
 * sessions and values taken in a PE lesson. One table so that the ingestion API has one idempotent write path and every
 * ranking reads one shape; `kind` + `ref_id` say what a record belongs to (`ref_id` is polymorphic, so it carries no
 * foreign key: the owner of a contest, homework, plan or lesson deletes its records with it).
 *
 * Idempotency: a device or app user sends its own record id (`client_id`); the pair (sender, client_id) is unique, so a
 * resent batch creates nothing new. The sender is the device for device records and the submitting user otherwise.
 * Partitioned by school year (docs/decisions/064-partitions-by-school-year.md): the unique index holds the partition
 * key, (sender, client_id, school_year); a resend carries the same `measured_at`, so the same year, and the ingest
 * looks for a resend whose time moved to another year (server/modules/ingest/ingest.service.ts).
 */
export const activityRecords = pgTable(
  'activity_records',
  {
    id: uuid('id').defaultRandom().notNull(),
    /**
     * The start year of the school year `measured_at` falls in (China days, 1 August to 1 August: schoolYearOf in
     * server/db/school-year-partitions.ts): the partition key. Every writer sets it; a CHECK constraint refuses a row
     * whose year is not its time's (custom SQL `activity_records_school_year_partitions`, which drops this default:
     * it only serves the generated ADD COLUMN on a filled table).
     */
    schoolYear: smallint('school_year').notNull().default(0),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    /** The student's class when the value was measured (students move on; records stay where they were). */
    classId: uuid('class_id').notNull().references(() => classes.id),
    kind: text('kind', { enum: ACTIVITY_KINDS }).notNull(),
    refId: uuid('ref_id'),
    /** An item key of src/domain/activities/items.ts; the value is in that item's unit. */
    item: text('item').notNull(),
    value: doublePrecision('value').notNull(),
    /** Length of the session in seconds, when the sender knows it (exercise sessions, training). */
    durationS: integer('duration_s'),
    measuredAt: at('measured_at').notNull(),
    receivedAt: at('received_at').notNull().defaultNow(),
    source: text('source', { enum: ACTIVITY_SOURCES }).notNull(),
    deviceId: uuid('device_id').references(() => devices.id),
    submittedBy: uuid('submitted_by').references(() => users.id),
    /** The sender's own id of the record; unique per sender (`sender_key`). */
    clientId: text('client_id').notNull(),
    /** The device id for device records, the submitting user's id otherwise (generated, so the unique index is simple). */
    senderKey: uuid('sender_key')
      .notNull()
      .generatedAlwaysAs(sql`coalesce(device_id, submitted_by)`),
    videoFileId: uuid('video_file_id').references(() => files.id),
    invalid: boolean('invalid').notNull().default(false),
    invalidReason: text('invalid_reason'),
    invalidAt: at('invalid_at'),
    invalidBy: uuid('invalid_by').references(() => users.id),
  },
  (t) => [
    // A partitioned table's keys hold the partition key: the primary key is (id, school_year), declared by the custom
    // SQL (drizzle-kit cannot change a primary key without a hand edit, as for physique_results).
    uniqueIndex('activity_records_sender_client_uq').on(t.senderKey, t.clientId, t.schoolYear),
    index('activity_records_org_time_idx').on(t.orgId, t.measuredAt),
    index('activity_records_ref_idx').on(t.kind, t.refId, t.studentId),
    index('activity_records_student_item_idx').on(t.studentId, t.item, t.measuredAt),
  ],
);
