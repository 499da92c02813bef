import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
