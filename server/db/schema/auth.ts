import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { Locale } from '../../../src/domain/constants';
import { orgs } from './orgs';

/** A person who can sign in (docs/product-rules.md#users): one login account (6–20 letters/digits) and an optional mobile. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountNum: text('account_num').notNull(),
    mobile: text('mobile'),
    name: text('name').notNull(),
    gender: text('gender', { enum: ['male', 'female', 'unknown'] }).notNull().default('unknown'),
    /** scrypt of the SHA-256 hex the browser sends: `scrypt$N$r$p$salt$hash` (server/lib/password.ts). */
    passwordHash: text('password_hash').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /**
     * Set when an administrator chose the password (reset or a new account): the next sign-in must change it before
     * anything else (docs/product-rules.md#users).
     */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** Consecutive failed sign-ins and the lock they caused (5 failures → 15 minutes, per account). */
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow().$onUpdate(() => new Date()),
  },
  (t) => [uniqueIndex('users_account_num_uq').on(t.accountNum), uniqueIndex('users_mobile_uq').on(t.mobile)],
);

/**
 * An account: the user's membership of one organisation (the "accounts" of getUInfo: docs/product-rules.md#accounts-in-use, #calls).
 * `orgId` is the organisation (or department) the account sits in, `tenantOrgId` the school /
 * bureau whose data it works on. `present` marks the account in use (presentFlag).
 */
export const memberships = pgTable(
  'memberships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    tenantOrgId: uuid('tenant_org_id').notNull().references(() => orgs.id),
    present: boolean('present').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    /** Optimistic concurrency of the users screen (docs/product-rules.md#concurrent-edits). */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('memberships_user_org_uq').on(t.userId, t.orgId),
    index('memberships_tenant_idx').on(t.tenantOrgId),
    // At most one present account per user: clear the old flag before setting the new one.
    uniqueIndex('memberships_user_present_uq').on(t.userId).where(sql`${t.present}`),
  ],
);

/** Roles belong to a tenant organisation (docs/product-rules.md#roles). */
export const roles = pgTable(
  'roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    name: text('name').notNull(),
    remark: text('remark'),
    identity: text('identity', { enum: ['administrator', 'teacher', 'student', 'parent'] }).notNull(),
    /** Built-in roles (the organisation's administrator) cannot be deleted. */
    builtin: boolean('builtin').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    /** Mobile app functions the role opens (src/domain/roles/roles.ts MOBILE_FUNCTIONS). */
    mobileFunctions: text('mobile_functions').array().notNull().default(sql`'{}'::text[]`),
    /** Whose data the role's holders see (src/domain/roles/roles.ts DATA_SCOPES): the organisation, their grades or their classes. */
    dataScope: text('data_scope', { enum: ['org', 'grades', 'classes'] }).notNull().default('org'),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_org_name_uq').on(t.orgId, t.name)],
);

/** Roles held by an account; `present` marks the role in use. */
export const membershipRoles = pgTable(
  'membership_roles',
  {
    membershipId: uuid('membership_id').notNull().references(() => memberships.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
    present: boolean('present').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.membershipId, t.roleId] }),
    index('membership_roles_role_idx').on(t.roleId),
    // At most one present role per account.
    uniqueIndex('membership_roles_present_uq').on(t.membershipId).where(sql`${t.present}`),
  ],
);

/** Menu entries (docs/product-rules.md#menus-and-permissions), seeded from src/domain/menus/catalog.ts. menuId is the catalog key. */
export const menus = pgTable(
  'menus',
  {
    menuId: text('menu_id').primaryKey(),
    pid: text('pid').notNull(),
    /** Catalogue family (src/domain/menus/catalog.ts). */
    family: text('family', { enum: ['admin', 'k12', 'gx', 'single', 'personal'] }).notNull(),
    /** 'web' or 'mobile' function permissions (docs/product-rules.md#menus-and-permissions). */
    platform: text('platform', { enum: ['web', 'mobile'] }).notNull().default('web'),
    code: text('code'),
    menuName: text('menu_name').notNull(),
    i18nKey: text('i18n_key').notNull(),
    menuPath: text('menu_path').notNull(),
    menuType: text('menu_type', { enum: ['0', '1'] }).notNull(),
    sortNum: integer('sort_num').notNull(),
    permission: text('permission').notNull(),
    icon: text('icon'),
    /**
     * Platform operators' changes over the catalogue (docs/product-rules.md#menu-management): names by language, order,
     * icon and visibility. The catalogue sync never writes them; clearing them resets the entry to the catalogue.
     */
    customNames: jsonb('custom_names').$type<Partial<Record<Locale, string>>>(),
    customSort: integer('custom_sort'),
    customIcon: text('custom_icon'),
    hidden: boolean('hidden').notNull().default(false),
    version: integer('version').notNull().default(1),
  },
  // Not unique: a hidden route carries the permission of the button (or page) that opens it.
  (t) => [index('menus_family_idx').on(t.family), index('menus_permission_idx').on(t.permission, t.platform)],
);

export const roleMenus = pgTable(
  'role_menus',
  {
    roleId: uuid('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
    menuId: text('menu_id').notNull().references(() => menus.menuId, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] }), index('role_menus_menu_idx').on(t.menuId)],
);

/** Sign-in sessions: only SHA-256 hashes of the tokens are stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    accessHash: text('access_hash').notNull(),
    refreshHash: text('refresh_hash').notNull(),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }).notNull(),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Wrong current passwords given to change-password in this session (docs/product-rules.md#sign-in): the session ends at the limit. */
    passwordFailures: integer('password_failures').notNull().default(0),
  },
  (t) => [uniqueIndex('sessions_access_uq').on(t.accessHash), uniqueIndex('sessions_refresh_uq').on(t.refreshHash), index('sessions_user_idx').on(t.userId)],
);

/**
 * Refresh tokens a session has rotated away from (SHA-256 only). Presenting one again means the token leaked: the
 * whole session (every token descended from its sign-in) is revoked.
 */
export const retiredRefreshTokens = pgTable(
  'retired_refresh_tokens',
  {
    refreshHash: text('refresh_hash').primaryKey(),
    sessionId: uuid('session_id').notNull().references(() => sessions.id, { onDelete: 'cascade' }),
    retiredAt: timestamp('retired_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('retired_refresh_tokens_session_idx').on(t.sessionId)],
);

/** Captcha answers, kept server-side so any instance can check them; single use, short-lived. */
export const captchas = pgTable('captchas', {
  randomStr: text('random_str').primaryKey(),
  /** SHA-256 of the lower-cased answer. */
  answerHash: text('answer_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  attempts: smallint('attempts').notNull().default(0),
});

/**
 * One row whose `value` rises with every committed change to what a session or a permission check reads (sessions,
 * users' enabled flag, organisations, memberships, roles, role menus, menus): triggers bump it (migration
 * 0014_load, after `-- custom:`), and each instance's in-process cache of sessions and scopes is valid while the value
 * it read is unchanged (server/lib/auth-cache.ts).
 */
export const authEpoch = pgTable('auth_epoch', {
  id: smallint('id').primaryKey(),
  value: bigint('value', { mode: 'number' }).notNull().default(0),
});
