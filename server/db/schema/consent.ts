import { bigserial, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { CONSENT_CHANNELS, CONSENT_PURPOSES, CONSENT_STATES } from '../../../src/domain/consent/consent';
import { users } from './auth';
import { files } from './files';
import { orgs } from './orgs';
import { students } from './school';

// Guardian consent register: docs/product-rules.md#consent.
const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * The current state of a student's consent per purpose (no row: none given). Features read only this table, one
 * query per request or batch; `consent_changes` keeps how it came to be.
 */
export const studentConsents = pgTable(
  'student_consents',
  {
    studentId: uuid('student_id')
      .notNull()
      .references(() => students.id),
    purpose: text('purpose', { enum: CONSENT_PURPOSES }).notNull(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    state: text('state', { enum: CONSENT_STATES }).notNull(),
    channel: text('channel', { enum: CONSENT_CHANNELS }).notNull(),
    changedBy: uuid('changed_by').references(() => users.id),
    changedAt: at('changed_at').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.studentId, t.purpose] }), index('student_consents_org_idx').on(t.orgId, t.purpose, t.state)],
);

/** Every change of a student's consent, never updated or deleted: who, when, how (the app or a school-recorded form). */
export const consentChanges = pgTable(
  'consent_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The order changes were made in (two in the same instant keep theirs). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => students.id),
    purpose: text('purpose', { enum: CONSENT_PURPOSES }).notNull(),
    state: text('state', { enum: CONSENT_STATES }).notNull(),
    channel: text('channel', { enum: CONSENT_CHANNELS }).notNull(),
    /** The scan of the signed form the school recorded (required for channel `school`). */
    formFileId: uuid('form_file_id').references(() => files.id),
    note: text('note').notNull().default(''),
    changedBy: uuid('changed_by').references(() => users.id),
    changedAt: at('changed_at').notNull().defaultNow(),
  },
  (t) => [index('consent_changes_student_idx').on(t.studentId, t.seq)],
);
