import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { files } from './files';
import { orgs } from './orgs';

/**
 * Banners of an organisation (docs/product-rules.md#banners): at most five per position, `sort` 1..n within the
 * position (kept contiguous by the service).
 */
export const banners = pgTable(
  'banners',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    position: text('position', { enum: ['login', 'home'] }).notNull(),
    title: text('title').notNull(),
    imageFileId: uuid('image_file_id')
      .notNull()
      .references(() => files.id),
    link: text('link'),
    enabled: boolean('enabled').notNull().default(true),
    sort: integer('sort').notNull(),
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('banners_org_position_idx').on(t.orgId, t.position, t.sort)],
);

/** School wiki entries (docs/product-rules.md#wiki): `content` is sanitised HTML. */
export const wikiEntries = pgTable(
  'wiki_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    title: text('title').notNull(),
    category: text('category', { enum: ['rules', 'skills', 'health', 'history', 'other'] }).notNull(),
    coverFileId: uuid('cover_file_id').references(() => files.id),
    content: text('content').notNull(),
    textLength: integer('text_length').notNull(),
    published: boolean('published').notNull().default(false),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    updatedBy: uuid('updated_by').references(() => users.id),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('wiki_entries_org_idx').on(t.orgId, t.updatedAt)],
);

/**
 * Lesson resources (docs/product-rules.md#lesson-resources). A school's rows are its own list; a management
 * organisation's rows are the library its schools browse and copy (`copied_from_id` on the copy).
 */
export const lessonResources = pgTable(
  'lesson_resources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    title: text('title').notNull(),
    grade: integer('grade').notNull(),
    topic: text('topic').notNull(),
    coverFileId: uuid('cover_file_id').references(() => files.id),
    videoFileId: uuid('video_file_id').references(() => files.id),
    attachmentFileIds: uuid('attachment_file_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    description: text('description'),
    copiedFromId: uuid('copied_from_id').references((): AnyPgColumn => lessonResources.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('lesson_resources_org_idx').on(t.orgId, t.updatedAt),
    // A school copies a library resource once.
    uniqueIndex('lesson_resources_copy_uq').on(t.orgId, t.copiedFromId),
  ],
);
