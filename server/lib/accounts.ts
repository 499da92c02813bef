import { randomInt } from 'node:crypto';
import type { AuditEntity } from '@/domain/platform/audit';
import { and, eq, ne, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { ERR } from '@/domain/errors';
import { idParamsSchema } from '@/domain/list-query';
import { scopeWithin } from '@/domain/roles/roles';
import { ONE_TIME_PASSWORD_LENGTH, resetPasswordResultSchema, resetPasswordSchema, userStatusSchema, type ResetPassword, type ResetPasswordResult } from '@/domain/users/users';
import type { Tx } from '../db/client';
import { membershipRoles, memberships, menus, roleMenus, roles, users } from '../db/schema/auth';
import { endSessions } from '../modules/auth/sso.service';
import { assertPasswordPolicy, policyOrgOf } from '../modules/security/two-factor.service';
import type { Actor } from '../plugins/tenant';
import { resourceAction } from './action';
import { AppError, fieldError } from './app-error';
import { hashPassword, sha256Hex } from './password';
import { nextVersion, type Change } from './resource';

/**
 * Sign-in accounts as the management screens keep them (docs/product-rules.md#users): a person (`users`: login
 * account, name, mobile, password) with an account (`memberships`) in an organisation holding one role. The admin
 * users screen and the staff screens both create, enable/disable, reset and delete accounts through these functions,
 * so the rules (unique login account and mobile, the role escalation rule, ending sessions, forced password change)
 * are written once.
 */

/**
 * The role must be an enabled role of the tenant, and handing it out must not grant what the actor lacks
 * (the escalation rule of docs/product-rules.md#roles).
 */
export async function checkRole(tx: Tx, actor: Actor, id: string): Promise<void> {
  const [role] = await tx
    .select({ id: roles.id, dataScope: roles.dataScope })
    .from(roles)
    .where(and(eq(roles.id, id), eq(roles.orgId, actor.tenantOrgId), eq(roles.enabled, true)));
  if (!role) throw fieldError('roleId', 'validation:user.roleRequired');
  // A wider data scope than the actor's own is more than they hold, too (docs/product-rules.md#data-scopes).
  if (!scopeWithin(role.dataScope, actor.dataScope)) throw fieldError('roleId', 'validation:user.roleNotHeld', {}, 403);
  const codes = await tx.selectDistinct({ permission: menus.permission }).from(roleMenus).innerJoin(menus, eq(menus.menuId, roleMenus.menuId)).where(eq(roleMenus.roleId, id));
  if (codes.some((c) => !actor.permissions.has(c.permission))) throw fieldError('roleId', 'validation:user.roleNotHeld', {}, 403);
}

/** Login account unused by anyone (sign-in looks accounts up system-wide); mobile unused as a mobile or an account. */
export async function checkAccountUnique(tx: Tx, body: { accountNum: string; mobile: string }, exceptUserId?: string | null): Promise<void> {
  const other = exceptUserId ? ne(users.id, exceptUserId) : undefined;
  const [taken] = await tx.select({ id: users.id }).from(users).where(and(eq(users.accountNum, body.accountNum), other));
  if (taken) throw fieldError('accountNum', 'validation:user.accountTaken');
  if (body.mobile) {
    const [phone] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(or(eq(users.mobile, body.mobile), eq(users.accountNum, body.mobile)), other));
    if (phone) throw fieldError('mobile', ERR.mobileTaken);
  }
}

/** Makes `roleId` the account's one role, in use. */
export async function setAccountRole(tx: Tx, accountId: string, roleId: string): Promise<void> {
  await tx.delete(membershipRoles).where(and(eq(membershipRoles.membershipId, accountId), ne(membershipRoles.roleId, roleId)));
  await tx.insert(membershipRoles).values({ membershipId: accountId, roleId, present: true }).onConflictDoUpdate({
    target: [membershipRoles.membershipId, membershipRoles.roleId],
    set: { present: true },
  });
}

export interface NewAccount {
  accountNum: string;
  name: string;
  mobile: string;
  gender?: 'male' | 'female';
  roleId: string;
  /** The first password the administrator chose: changed at the first sign-in. */
  password: string;
  enabled?: boolean;
}

/**
 * Creates a person and their account in the tenant with one role (checked: unique login account and mobile, the
 * role rule). Answers the ids.
 */
export async function createAccount(tx: Tx, actor: Actor, body: NewAccount): Promise<{ userId: string; accountId: string }> {
  await checkAccountUnique(tx, body);
  await checkRole(tx, actor, body.roleId);
  await assertPasswordPolicy(tx, actor.tenantOrgId, body.password);
  const [user] = await tx
    .insert(users)
    .values({
      accountNum: body.accountNum,
      name: body.name,
      mobile: body.mobile || null,
      gender: body.gender ?? 'unknown',
      passwordHash: await hashPassword(sha256Hex(body.password)),
      mustChangePassword: true,
    })
    .returning({ id: users.id });
  const [account] = await tx
    .insert(memberships)
    .values({ userId: user.id, orgId: actor.tenantOrgId, tenantOrgId: actor.tenantOrgId, present: true, enabled: body.enabled ?? true })
    .returning({ id: memberships.id });
  await setAccountRole(tx, account.id, body.roleId);
  return { userId: user.id, accountId: account.id };
}

/** Refuses an administrator acting on their own account where it would lock them out (status, delete, role). */
export function notSelf(actor: Actor, accountId: string | null): void {
  if (accountId && actor.accountId === accountId) throw new AppError(409, 'users:self');
}

/** Enables or disables an account; a disabled account cannot sign in and the person's sessions end. */
export async function setAccountEnabled(tx: Tx, account: { accountId: string; userId: string }, enabled: boolean, now: Date): Promise<void> {
  await tx
    .update(memberships)
    .set({ enabled, version: nextVersion(memberships.version) })
    .where(eq(memberships.id, account.accountId));
  if (!enabled) await endSessions(tx, now, account.userId);
}

/** Letters and digits a person cannot confuse when reading them off the screen (no 0/O, 1/l/I). */
const READABLE = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A one-time password of letters and digits, at least one of each (within the 6–20 password rule). */
export function oneTimePassword(): string {
  for (;;) {
    let out = '';
    for (let i = 0; i < ONE_TIME_PASSWORD_LENGTH; i++) out += READABLE[randomInt(READABLE.length)];
    if (/\d/.test(out) && /[A-Za-z]/.test(out)) return out;
  }
}

/**
 * Resets a person's password: generated (answered once, never stored in clear) or the administrator's. Either way
 * the person must change it at the next sign-in; their sessions end and a sign-in lock is lifted.
 */
export async function resetAccountPassword(tx: Tx, userId: string, body: ResetPassword, now: Date): Promise<ResetPasswordResult> {
  const password = body.mode === 'generate' ? oneTimePassword() : body.password;
  // A password the administrator typed follows the policy of the organisation whose account it is.
  if (body.mode !== 'generate') await assertPasswordPolicy(tx, await policyOrgOf(tx, userId), password);
  await tx
    .update(users)
    .set({ passwordHash: await hashPassword(sha256Hex(password)), mustChangePassword: true, failedLogins: 0, lockedUntil: null, updatedAt: now })
    .where(eq(users.id, userId));
  await endSessions(tx, now, userId);
  return { password: body.mode === 'generate' ? password : null };
}

/**
 * Deletes an account and ends the person's sessions. A person left without any account is disabled rather than
 * deleted: records they wrote keep naming them, and their login account is not handed on.
 */
export async function deleteAccount(tx: Tx, account: { accountId: string; userId: string }, now: Date): Promise<void> {
  await tx.delete(memberships).where(eq(memberships.id, account.accountId));
  await endSessions(tx, now, account.userId);
  if ((await tx.$count(memberships, eq(memberships.userId, account.userId))) === 0) {
    await tx.update(users).set({ enabled: false, updatedAt: now }).where(eq(users.id, account.userId));
  }
}

/** What a screen's account routes call: its own lookup (tenancy, scope) around the operations above. */
export interface AccountRouteSpec<Row> {
  /** Catalogue page key: the `status` and `resetPassword` buttons guard the routes. */
  key: string;
  /** Audit entity ('user', 'staff'). */
  entity: AuditEntity;
  setStatus(tx: Tx, actor: Actor, id: string, enabled: boolean): Promise<Change<Row>>;
  resetPassword(tx: Tx, actor: Actor, id: string, body: ResetPassword): Promise<ResetPasswordResult>;
  /** The status change's answer (the row as `setStatus` answers it), for the API document. */
  row?: z.ZodType;
}

/**
 * `PUT /:id/status` ({ enabled }) and `PUT /:id/password` ({ mode: 'generate' } | { mode: 'set', password }) of a
 * screen that manages accounts, inside its resource (registerResource's `extra`); each in one transaction with its
 * audit row, which records the reset's mode, never a password.
 */
export function accountRoutes<Row>(scope: FastifyInstance, spec: AccountRouteSpec<Row>): void {
  resourceAction(scope, {
    method: 'PUT',
    path: '/:id/status',
    access: [spec.key, 'status'],
    params: idParamsSchema,
    body: userStatusSchema,
    entity: spec.entity,
    audit: 'status',
    answer: spec.row,
    write: (tx, actor, { params, body }) => spec.setStatus(tx, actor, params.id, body.enabled),
  });
  resourceAction(scope, {
    method: 'PUT',
    path: '/:id/password',
    access: [spec.key, 'resetPassword'],
    params: idParamsSchema,
    body: resetPasswordSchema,
    entity: spec.entity,
    audit: 'resetPassword',
    answer: resetPasswordResultSchema,
    // The audit row records the reset's mode, never a password; the generated one is answered once.
    write: async (tx, actor, { params, body }) => ({
      after: { mode: body.mode, mustChangePassword: true },
      answer: await spec.resetPassword(tx, actor, params.id, body),
    }),
  });
}
