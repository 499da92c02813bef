import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sessions, users } from './auth';
import { orgs } from './orgs';

/**
 * Every sign-in attempt (docs/product-rules.md#platform-logs): when, the account as typed, from which address, the
 * result and, for a refusal, why (an error-catalogue key). `orgId` is the organisation of the account the person
 * used (their present membership's tenant) so an organisation's administrators read their own people's attempts;
 * an attempt on an account that does not exist belongs to nobody.
 */
export const signInLogs = pgTable(
  'sign_in_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** What was typed (login account or mobile), at most 64 characters. */
    account: text('account').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    orgId: uuid('org_id').references(() => orgs.id, { onDelete: 'set null' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    result: text('result', { enum: ['success', 'failure'] }).notNull(),
    /** Error key of a refusal ('errors:badCredentials' …); null on success. */
    reason: text('reason'),
    sessionId: uuid('session_id').references(() => sessions.id, { onDelete: 'set null' }),
  },
  (t) => [index('sign_in_logs_org_at_idx').on(t.orgId, t.at), index('sign_in_logs_at_idx').on(t.at)],
);

/**
 * Who took part in homework and contests, per organisation and school year (docs/product-rules.md#district-overview):
 * one row per student and kind with the number of their valid records, kept by statement-level triggers on
 * activity_records (migration `-- custom:` part, like dc_rollups), so the district overview never reads the records
 * themselves. A school year runs from August 1st in China (`extract(year from local time − 7 months)`); rows that reach
 * 0 are deleted.
 */
export const activityParticipation = pgTable(
  'activity_participation',
  {
    orgId: uuid('org_id').notNull(),
    schoolYear: integer('school_year').notNull(),
    kind: text('kind').notNull(),
    studentId: uuid('student_id').notNull(),
    records: integer('records').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.schoolYear, t.kind, t.studentId] })],
);

/** Students taking part per organisation, school year and kind: the rows of activity_participation counted, kept by the same triggers. */
export const activityParticipationCounts = pgTable(
  'activity_participation_counts',
  {
    orgId: uuid('org_id').notNull(),
    schoolYear: integer('school_year').notNull(),
    kind: text('kind').notNull(),
    students: integer('students').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.schoolYear, t.kind] })],
);
