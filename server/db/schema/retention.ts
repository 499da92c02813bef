// Retention runs and parents' data requests: docs/product-rules.md#retention.
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { RetentionRunItem } from '@/domain/retention/retention';
import { users } from './auth';
import { orgs } from './orgs';
import { students } from './school';

/** One run of the retention schedule (server/modules/retention): when, and what each category removed or anonymised. */
export const retentionRuns = pgTable(
  'retention_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    items: jsonb('items').$type<RetentionRunItem[]>().notNull().default([]),
  },
  (t) => [index('retention_runs_started_idx').on(t.startedAt)],
);

/**
 * The operation-log rows a run archived and removed, per chain (organisation; the platform's rows under the zero id): a
 * JSON Lines blob in the file store (`hash`), rows `fromSeq`..`toSeq` with their chain hashes, so the archive can be
 * checked against the chain's start (audit_chains.start_hash = the last archived row's hash).
 */
export const retentionArchives = pgTable(
  'retention_archives',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runId: uuid('run_id')
      .notNull()
      .references(() => retentionRuns.id),
    /** The chain: an organisation id, or the zero id. No foreign key: the zero chain has no organisation. */
    chainId: uuid('chain_id').notNull(),
    fromSeq: bigint('from_seq', { mode: 'number' }).notNull(),
    toSeq: bigint('to_seq', { mode: 'number' }).notNull(),
    rows: integer('rows').notNull(),
    /** SHA-256 of the archive's bytes: its blob key in the file store. */
    hash: text('hash').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('retention_archives_chain_idx').on(t.chainId, t.fromSeq), index('retention_archives_run_idx').on(t.runId)],
);

/** Graduates whose personal data the schedule anonymised (so a run does not count them again). */
export const anonymisedStudents = pgTable('anonymised_students', {
  studentId: uuid('student_id')
    .primaryKey()
    .references(() => students.id, { onDelete: 'cascade' }),
  runId: uuid('run_id').references(() => retentionRuns.id),
  at: timestamp('at', { withTimezone: true }).notNull(),
});

/**
 * A parent's request about their child's data (个人信息保护法 第四十六/四十七条): a correction or a deletion with the
 * parent's text; the school marks it done (with a note) or refused (with a reason) before `dueAt`.
 */
export const dataRequests = pgTable(
  'data_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => students.id),
    requestedBy: uuid('requested_by').references(() => users.id),
    kind: text('kind', { enum: ['correction', 'deletion'] }).notNull(),
    text: text('text').notNull(),
    status: text('status', { enum: ['pending', 'done', 'refused'] }).notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    handledBy: uuid('handled_by').references(() => users.id),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    note: text('note'),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('data_requests_org_idx').on(t.orgId, t.status, t.dueAt), index('data_requests_student_idx').on(t.studentId)],
);
