import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { orgs } from './orgs';

// Views of unmasked personal data and export approvals: docs/product-rules.md#personal-data-access.

/** The people one reveal showed: their row id and name when shown. */
export interface ShownPerson {
  id: string;
  name: string;
}

/**
 * One reveal of unmasked mobiles or ID numbers (a list page, an export, a form) by a role holding the page's
 * `sensitive` button: who, whose, when, on which screen. Written by server/lib/sensitive.ts only; never edited.
 */
export const sensitiveViews = pgTable(
  'sensitive_views',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    /** The viewer's name and account when they looked, so the log names them after a rename. */
    userName: text('user_name').notNull(),
    accountNum: text('account_num').notNull(),
    /** Catalogue page key (`k12.user.student`). */
    screen: text('screen').notNull(),
    /** 'list' | 'export' | 'form'. */
    via: text('via').notNull(),
    people: jsonb('people').$type<ShownPerson[]>().notNull(),
    /** The names joined, for the log's person filter. */
    peopleText: text('people_text').notNull(),
    peopleCount: integer('people_count').notNull(),
  },
  (t) => [index('sensitive_views_org_at_idx').on(t.orgId, t.at)],
);

/**
 * A request to export more personal-data rows than the organisation's threshold (server/lib/export-approval.ts): the
 * export's page and its kept query (filters and columns), the reason, the administrator's decision and the link's
 * expiry.
 */
export const exportRequests = pgTable(
  'export_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id').notNull(),
    userName: text('user_name').notNull(),
    /** Catalogue page key of the export (`k12.user.student`). */
    screen: text('screen').notNull(),
    /**
     * The export's own path (params filled: `/api/busi/web/k12/…/<id>/entries/export`), naming which of the page's
     * exports and for which row; null: the page's one export without params (a list's).
     */
    path: text('path'),
    query: jsonb('query').$type<Record<string, string>>().notNull(),
    rows: integer('rows').notNull(),
    reason: text('reason').notNull(),
    /** 'pending' | 'approved' | 'refused'. */
    status: text('status').notNull().default('pending'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedByName: text('decided_by_name'),
    note: text('note'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('export_requests_org_idx').on(t.orgId, t.createdAt)],
);

/** Every download of an approved export. */
export const exportDownloads = pgTable('export_downloads', {
  id: uuid('id').primaryKey().defaultRandom(),
  requestId: uuid('request_id')
    .notNull()
    .references(() => exportRequests.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull(),
});
