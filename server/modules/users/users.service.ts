import { randomInt } from 'node:crypto';
import { and, asc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { ERR } from '@/domain/errors';
import { ONE_TIME_PASSWORD_LENGTH, type ResetPassword, type ResetPasswordResult, type UserCreate, type UserRow, type UserUpdate } from '@/domain/users/users';
import { scopeWithin } from '@/domain/roles/roles';
import type { DbOrTx, Tx } from '../../db/client';
import { membershipRoles, memberships, menus, roleMenus, roles, users } from '../../db/schema/auth';
import { AppError, fieldError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { hashPassword, sha256Hex } from '../../lib/password';
import { containsPattern } from '../../lib/query';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { endSessions } from '../sso/sso.service';

/**
 * The management organisation's own accounts (docs/product-rules.md#users). An account is a membership of the
 * organisation; name, login account and mobile belong to the person (users), the role and status to the account.
 */

const roleName = sql<string | null>`(select ${roles.name} from ${membershipRoles} join ${roles} on ${roles.id} = ${membershipRoles.roleId}
  where ${membershipRoles.membershipId} = ${memberships.id} order by ${membershipRoles.present} desc, ${roles.createdAt} limit 1)`;
const roleId = sql<string | null>`(select ${membershipRoles.roleId} from ${membershipRoles} join ${roles} on ${roles.id} = ${membershipRoles.roleId}
  where ${membershipRoles.membershipId} = ${memberships.id} order by ${membershipRoles.present} desc, ${roles.createdAt} limit 1)`;

const columns = {
  id: memberships.id,
  userId: users.id,
  name: users.name,
  accountNum: users.accountNum,
  mobile: users.mobile,
  roleId,
  roleName,
  enabled: memberships.enabled,
  mustChangePassword: users.mustChangePassword,
  createdAt: memberships.createdAt,
  version: memberships.version,
};
type Selected = Omit<UserRow, 'createdAt'> & { createdAt: Date };
const toRow = (r: Selected): UserRow => ({ ...r, createdAt: r.createdAt.toISOString() });

export interface UserQuery {
  current: number;
  size: number;
  keyword?: string;
  roleId?: string;
  enabled?: 'true' | 'false';
}

/** Accounts of the tenant organisation, newest last, filtered by name/account/mobile, role and status. */
export async function userPage(db: DbOrTx, actor: Actor, q: UserQuery): Promise<Page<UserRow>> {
  const p = q.keyword ? containsPattern(q.keyword) : undefined;
  const where = and(
    eq(memberships.tenantOrgId, actor.tenantOrgId),
    p ? or(ilike(users.name, p), ilike(users.accountNum, p), ilike(users.mobile, p)) : undefined,
    q.roleId
      ? sql`exists (select 1 from ${membershipRoles} where ${membershipRoles.membershipId} = ${memberships.id} and ${membershipRoles.roleId} = ${q.roleId})`
      : undefined,
    q.enabled ? eq(memberships.enabled, q.enabled === 'true') : undefined,
  );
  const page = await paginate(
    db,
    db.select(columns).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(where).orderBy(asc(memberships.createdAt), asc(users.accountNum), asc(memberships.id)).$dynamic(),
    q,
  );
  return { ...page, records: page.records.map(toRow) };
}

/** One account of the tenant; another organisation's id is 404. */
export async function userById(db: DbOrTx, actor: Actor, id: string): Promise<UserRow> {
  const [row] = await db
    .select(columns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.id, id), eq(memberships.tenantOrgId, actor.tenantOrgId)));
  if (!row) throw notFound();
  return toRow(row);
}

/** The roles the form offers: the tenant's enabled roles. */
export function userRoleOptions(db: DbOrTx, actor: Actor) {
  return db
    .select({ id: roles.id, name: roles.name, identity: roles.identity })
    .from(roles)
    .where(and(eq(roles.orgId, actor.tenantOrgId), eq(roles.enabled, true)))
    .orderBy(asc(roles.createdAt), asc(roles.id));
}

/**
 * The role must be an enabled role of the tenant, and handing it out must not grant what the actor lacks
 * (the escalation rule of docs/product-rules.md#roles).
 */
async function checkRole(tx: Tx, actor: Actor, id: string): Promise<void> {
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
async function checkUnique(tx: Tx, body: { accountNum: string; mobile: string }, exceptUserId?: string): Promise<void> {
  const other = exceptUserId ? ne(users.id, exceptUserId) : undefined;
  const [taken] = await tx.select({ id: users.id }).from(users).where(and(eq(users.accountNum, body.accountNum), other));
  if (taken) throw fieldError('accountNum', 'validation:org.accountTaken');
  if (body.mobile) {
    const [phone] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(or(eq(users.mobile, body.mobile), eq(users.accountNum, body.mobile)), other));
    if (phone) throw fieldError('mobile', ERR.mobileTaken);
  }
}

async function setRole(tx: Tx, accountId: string, roleId: string): Promise<void> {
  await tx.delete(membershipRoles).where(and(eq(membershipRoles.membershipId, accountId), ne(membershipRoles.roleId, roleId)));
  await tx.insert(membershipRoles).values({ membershipId: accountId, roleId, present: true }).onConflictDoUpdate({
    target: [membershipRoles.membershipId, membershipRoles.roleId],
    set: { present: true },
  });
}

/** Creates a person and their account in the tenant; the password the administrator chose must be changed at sign-in. */
export async function createUser(tx: Tx, actor: Actor, body: UserCreate): Promise<UserRow> {
  await checkUnique(tx, body);
  await checkRole(tx, actor, body.roleId);
  const [user] = await tx
    .insert(users)
    .values({
      accountNum: body.accountNum,
      name: body.name,
      mobile: body.mobile || null,
      passwordHash: await hashPassword(sha256Hex(body.password)),
      mustChangePassword: true,
    })
    .returning({ id: users.id });
  const [account] = await tx
    .insert(memberships)
    .values({ userId: user.id, orgId: actor.tenantOrgId, tenantOrgId: actor.tenantOrgId, present: true, enabled: body.enabled })
    .returning({ id: memberships.id });
  await setRole(tx, account.id, body.roleId);
  return userById(tx, actor, account.id);
}

/** Refuses an administrator acting on their own account where it would lock them out (status, delete, role). */
function notSelf(actor: Actor, accountId: string): void {
  if (actor.accountId === accountId) throw new AppError(409, 'orgManage:user.self');
}

export async function updateUser(tx: Tx, actor: Actor, id: string, body: UserUpdate, now: Date): Promise<Change<UserRow>> {
  await lockVersion(tx, memberships, id, eq(memberships.tenantOrgId, actor.tenantOrgId), body.version ?? -1);
  const before = await userById(tx, actor, id);
  if (actor.accountId === id && (body.roleId !== before.roleId || !body.enabled)) notSelf(actor, id);
  await checkUnique(tx, body, before.userId);
  if (body.roleId !== before.roleId) await checkRole(tx, actor, body.roleId);
  await tx.update(users).set({ name: body.name, accountNum: body.accountNum, mobile: body.mobile || null, updatedAt: now }).where(eq(users.id, before.userId));
  await tx.update(memberships).set({ enabled: body.enabled, version: nextVersion(memberships.version) }).where(eq(memberships.id, id));
  if (body.roleId !== before.roleId) await setRole(tx, id, body.roleId);
  if (before.enabled && !body.enabled) await endSessions(tx, now, before.userId);
  return { before, after: await userById(tx, actor, id) };
}

/** Enables or disables an account; a disabled account cannot sign in and its sessions end. */
export async function setUserStatus(tx: Tx, actor: Actor, id: string, enabled: boolean, now: Date): Promise<Change<UserRow>> {
  const before = await userById(tx, actor, id);
  notSelf(actor, id);
  await tx.update(memberships).set({ enabled, version: nextVersion(memberships.version) }).where(eq(memberships.id, id));
  if (!enabled) await endSessions(tx, now, before.userId);
  return { before, after: await userById(tx, actor, id) };
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
 * Resets an account's password: generated (answered once, never stored in clear) or the administrator's. Either way
 * the person must change it at the next sign-in; their sessions end and a sign-in lock is lifted.
 */
export async function resetPassword(tx: Tx, actor: Actor, id: string, body: ResetPassword, now: Date): Promise<ResetPasswordResult> {
  const row = await userById(tx, actor, id);
  const password = body.mode === 'generate' ? oneTimePassword() : body.password;
  await tx
    .update(users)
    .set({ passwordHash: await hashPassword(sha256Hex(password)), mustChangePassword: true, failedLogins: 0, lockedUntil: null, updatedAt: now })
    .where(eq(users.id, row.userId));
  await endSessions(tx, now, row.userId);
  return { password: body.mode === 'generate' ? password : null };
}

/**
 * Deletes an account of the tenant (not one's own) and ends the person's sessions. A person left without any account
 * is disabled rather than deleted: records they wrote keep naming them, and their login account is not handed on.
 */
export async function deleteUser(tx: Tx, actor: Actor, id: string, now: Date): Promise<UserRow> {
  const before = await userById(tx, actor, id);
  notSelf(actor, id);
  await tx.delete(memberships).where(eq(memberships.id, id));
  await endSessions(tx, now, before.userId);
  if ((await tx.$count(memberships, eq(memberships.userId, before.userId))) === 0) {
    await tx.update(users).set({ enabled: false, updatedAt: now }).where(eq(users.id, before.userId));
  }
  return before;
}
