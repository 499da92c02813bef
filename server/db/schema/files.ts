import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { memberships, users } from './auth';
import { orgs } from './orgs';

/**
 * Every uploaded file (server/modules/files): the bytes live in the content-addressed store
 * (server/lib/storage) under their SHA-256; this row says whose they are and what they are.
 */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The organisation (tenant) that owns the file. */
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    purpose: text('purpose').notNull(),
    /** Original file name, for downloads. */
    name: text('name').notNull(),
    /** SHA-256 hex of the stored bytes. */
    hash: text('hash').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Served content type, from the sniffed format. */
    mime: text('mime').notNull(),
    width: integer('width'),
    height: integer('height'),
    thumbnailHash: text('thumbnail_hash'),
    /** Readable without sign-in (login-screen banners and branding). */
    isPublic: boolean('is_public').notNull().default(false),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('files_org_idx').on(t.orgId), index('files_hash_idx').on(t.hash), index('files_thumbnail_hash_idx').on(t.thumbnailHash)],
);

/** Resumable (tus) uploads in progress: who started them, for what, and the file they became. */
export const fileUploads = pgTable(
  'file_uploads',
  {
    /** The tus upload id (also the key of its partial data in the tus store). */
    id: text('id').primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose').notNull(),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Moves on with every received part: an upload untouched for a day is abandoned. */
    touchedAt: timestamp('touched_at', { withTimezone: true }).notNull().defaultNow(),
    fileId: uuid('file_id').references(() => files.id),
  },
  (t) => [index('file_uploads_touched_idx').on(t.touchedAt)],
);

/**
 * Spreadsheets between an import's dry run and its commit (docs/product-rules.md#people-import): the bytes sit in the
 * file store under their hash like every upload, this row binds them to the account that uploaded them, and the row
 * outlives a server restart and is visible to every server instance. Expired rows go with the file sweep.
 */
export const pendingImports = pgTable(
  'pending_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => memberships.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    family: text('family').notNull(),
    fileName: text('file_name').notNull(),
    hash: text('hash').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** What the import needs besides the file (school year and semester of a student import). */
    context: jsonb('context').$type<Record<string, string>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('pending_imports_account_idx').on(t.accountId), index('pending_imports_expires_idx').on(t.expiresAt), index('pending_imports_hash_idx').on(t.hash)],
);
