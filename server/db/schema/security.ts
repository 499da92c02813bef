import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sessions, users } from './auth';
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

/**
 * A person's TOTP secret (docs/product-rules.md#sign-in-security): AES-256-GCM under the server's key
 * (server/modules/security/secret-box.ts), never answered after enrolment. `confirmedAt` null: an enrolment waiting
 * for its first code. `lastStep`: the time step of the last accepted code, so a code is never accepted twice.
 */
export const userTotp = pgTable('user_totp', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Single-use recovery codes (SHA-256 of the normalised code); `usedAt` set when one signs in. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * A sign-in between its password step and its code step: the SHA-256 of the challenge token the password step
 * answered, short-lived and single use. The client's IP and user agent travel to the session it becomes.
 */
export const signInChallenges = pgTable('sign_in_challenges', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  meta: jsonb('meta').$type<{ ip?: string; userAgent?: string }>().notNull(),
});

/**
 * What the session policy needs of a session beyond the sessions table (docs/decisions/060-two-factor-and-session-policy.md):
 * its last activity (written at most once a minute, outside the auth epoch's triggers, so activity never empties
 * every instance's session cache) and whether it may only enrol two-factor sign-in.
 */
export const sessionActivity = pgTable('session_activity', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull(),
  /** The account must enrol two-factor sign-in: every call but enrolment and sign-out answers 428. */
  enrolmentDue: boolean('enrolment_due').notNull().default(false),
});
