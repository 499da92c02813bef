// Notices (通知公告): docs/product-rules.md#notices.
import { boolean, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { NOTICE_AUDIENCES } from '@/domain/notices/notices';
import { users } from './auth';
import { orgs } from './orgs';

/** A notice of its publisher's organisation (`org_id`). */
export const notices = pgTable(
  'notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    title: text('title').notNull(),
    /** Sanitised HTML (the wiki's allow-list). */
    content: text('content').notNull(),
    audience: text('audience', { enum: NOTICE_AUDIENCES }).notNull(),
    /** File-store ids (purpose `attachment`), in the publisher's order. */
    attachmentIds: jsonb('attachment_ids').$type<string[]>().notNull().default([]),
    /** A school's `staff` notice also reaches the parents of its students (through the app API). */
    toParents: boolean('to_parents').notNull().default(false),
    pinned: boolean('pinned').notNull().default(false),
    published: boolean('published').notNull().default(false),
    /** Days in Asia/Shanghai, both included; no end = shown until taken back. */
    showFrom: date('show_from', { mode: 'string' }).notNull(),
    showUntil: date('show_until', { mode: 'string' }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('notices_org_idx').on(t.orgId, t.updatedAt)],
);

/**
 * The organisations a notice reaches, written with the notice: the school itself for `staff`, the chosen schools, or
 * the schools below the publisher when it was saved for `allSchools`. Readers are found by this table alone.
 */
export const noticeOrgs = pgTable(
  'notice_orgs',
  {
    noticeId: uuid('notice_id')
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
  },
  (t) => [primaryKey({ columns: [t.noticeId, t.orgId] }), index('notice_orgs_org_idx').on(t.orgId)],
);

/** One row per reader and notice: the first time the reader opened it. */
export const noticeReads = pgTable(
  'notice_reads',
  {
    noticeId: uuid('notice_id')
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The organisation the reader read it as (a parent: the school of its child the notice reached). */
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.noticeId, t.userId] }), index('notice_reads_user_idx').on(t.userId)],
);
