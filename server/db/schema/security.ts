import { integer, jsonb, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { orgs } from './orgs';

/**
 * An organisation's security settings (src/domain/security/settings.ts): one row per organisation that changed them,
 * the value checked by the domain schema on write and read leniently over the defaults.
 */
export const orgSecuritySettings = pgTable('org_security_settings', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  value: jsonb('value').$type<Record<string, unknown>>().notNull(),
  version: integer('version').notNull().default(1),
  updatedBy: uuid('updated_by').references(() => users.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
