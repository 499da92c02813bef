import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { exportRequests } from './data-access';
import { jobs } from './jobs';
import { orgs } from './orgs';

/**
 * A user's messages (docs/product-rules.md#to-dos-and-messages): what a finished job left its starter (the result, the
 * file while the store keeps it). One per job (`job_id` unique), written by the job queue when the job is over, so a
 * retried finish never leaves two. Read or unread is the recipient's own state.
 */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The tenant organisation the message belongs to (the job's). */
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    /** The recipient: the user who started the job. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** 'job' | 'exportDecision' (src/domain/messages.ts MESSAGE_KINDS). */
    kind: text('kind').notNull(),
    jobId: uuid('job_id').references(() => jobs.id, { onDelete: 'cascade' }),
    /** An export request's decision told to its requester (kind 'exportDecision'); the text is read from the request. */
    exportRequestId: uuid('export_request_id').references(() => exportRequests.id, { onDelete: 'cascade' }),
    /** Rows the job refused (an import's failures), or 1 for a job that failed as a whole; 0 when all went through. */
    failures: integer('failures').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('messages_job_idx').on(t.jobId), index('messages_user_created_idx').on(t.userId, t.createdAt)],
);
