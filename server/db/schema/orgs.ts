import { sql } from 'drizzle-orm';
import { boolean, index, integer, numeric, pgTable, smallint, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** Organisations (docs/product-rules.md#families): 10 management, 21 K12, 22 university, 30 enterprise. */
export const orgs = pgTable(
  'orgs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    parentId: uuid('parent_id').references((): AnyPgColumn => orgs.id),
    type: smallint('type').notNull(),
    /** Two-digit code, unique among siblings (docs/product-rules.md#organisations). */
    code: text('code').notNull(),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Branding (docs/product-rules.md#branding): platform title, icon URL, login image URL, filing number. */
    title: text('title'),
    icon: text('icon'),
    loginImg: text('login_img'),
    filingNumber: text('filing_number'),
    /** Years of schooling for K12 (e.g. 12) or university (e.g. 4). */
    academicSystemYears: smallint('academic_system_years'),
    latitude: numeric('latitude', { precision: 9, scale: 6 }),
    longitude: numeric('longitude', { precision: 9, scale: 6 }),
    deviceActivationCode: text('device_activation_code'),
    activatableDevices: integer('activatable_devices').notNull().default(0),
    /** General management password (server/lib/password.ts hash of its SHA-256 hex); never answered. */
    managementPasswordHash: text('management_password_hash'),
    /** Optimistic concurrency of the own-organisation form (docs/product-rules.md#concurrent-edits). */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('orgs_parent_idx').on(t.parentId),
    uniqueIndex('orgs_parent_code_uq').on(sql`coalesce(${t.parentId}, '00000000-0000-0000-0000-000000000000'::uuid)`, t.code),
  ],
);
