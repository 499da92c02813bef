import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { memberships, users } from './auth';
import { orgs } from './orgs';

/**
 * Long work a user started (server/lib/jobs, docs/decisions/026-job-queue.md): what the user sees of it. pg-boss owns the
 * queue itself (its own `pgboss` schema: who runs what, retries, expiry); this row carries the same id and says whose
 * job it is, how far it got and what came of it, so a user can leave the page and come back.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** 'certificates' … (src/domain/jobs.ts JOB_KINDS). */
    kind: text('kind').notNull(),
    /** The tenant organisation the job works for. */
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    accountId: uuid('account_id').references(() => memberships.id),
    /** queued → running → done | failed. */
    state: text('state').notNull().default('queued'),
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    /** i18n key of the step in progress (jobs:stage.…). */
    stage: text('stage'),
    /** What the job was asked (validated when it was started) and the language its files are written in. */
    input: jsonb('input').notNull(),
    locale: text('locale').notNull(),
    /** { fileId?, fileName?, counts?, message? } once done. */
    result: jsonb('result'),
    /** { key, params } of the message a failed job shows (translated when read). */
    error: jsonb('error'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('jobs_org_created_idx').on(t.orgId, t.createdAt), index('jobs_user_created_idx').on(t.userId, t.createdAt)],
);
