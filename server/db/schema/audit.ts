import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One row per write (docs/product-rules.md#audit): who (user and account), when, for which organisation, what action
 * on which entity, and the entity before and after. Secrets never land here (server/lib/audit.ts strips them).
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: uuid('user_id'),
    accountId: uuid('account_id'),
    /** The organisation the changed entity belongs to. */
    orgId: uuid('org_id'),
    /** 'create', 'update', 'delete', or a screen's own verb ('enable', 'resetPassword' …). */
    action: text('action').notNull(),
    /** Entity name, e.g. 'class', 'schoolYear'. */
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    /** The record's name or title when it was written, so the log names it after the record is gone or renamed. */
    entityName: text('entity_name'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('audit_logs_org_at_idx').on(t.orgId, t.at), index('audit_logs_entity_idx').on(t.entity, t.entityId)],
);
