import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { DEVICE_KINDS } from '../../../src/domain/venue/devices';
import { orgs } from './orgs';

/** Venues of an organisation (docs/product-rules.md#venues): two-digit ID unique in the organisation. */
export const venues = pgTable(
  'venues',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    // A venueType dictionary code (platform or the organisation's own, docs/product-rules.md#dictionaries).
    type: text('type').notNull(),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('venues_org_code_uq').on(t.orgId, t.code)],
);

/**
 * Devices of an organisation (docs/product-rules.md#devices). The serial number is unique across the platform; a
 * device with `activated_at` set counts against its organisation's activatable device count (orgs has no copy of the
 * activated count: it is counted from here).
 */
export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    name: text('name').notNull(),
    serialNo: text('serial_no').notNull(),
    kind: text('kind', { enum: DEVICE_KINDS }).notNull().default('terminal'),
    mac: text('mac'),
    venueId: uuid('venue_id').references(() => venues.id),
    parentId: uuid('parent_id').references((): AnyPgColumn => devices.id),
    status: text('status', { enum: ['online', 'offline', 'disabled'] }).notNull().default('offline'),
    softwareVersion: text('software_version'),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    /**
     * SHA-256 of the device's API secret (docs/product-rules.md#ingest): issued when the device is activated, shown once,
     * replaced by a rotation, cleared by a revocation or a deactivation. Null: the device cannot call the device API.
     */
    secretHash: text('secret_hash'),
    secretIssuedAt: timestamp('secret_issued_at', { withTimezone: true }),
    /** Last accepted call of the device API. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('devices_serial_uq').on(t.serialNo),
    index('devices_org_idx').on(t.orgId),
    index('devices_venue_idx').on(t.venueId),
    index('devices_parent_idx').on(t.parentId),
    index('devices_org_activated_idx').on(t.orgId).where(sql`${t.activatedAt} is not null`),
  ],
);
