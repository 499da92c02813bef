import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { type ResetPassword, type ResetPasswordResult, type UserCreate, type UserRow, type UserUpdate } from '@/domain/users/users';
import type { DbOrTx, Tx } from '../../db/client';
import { membershipRoles, memberships, roles, users } from '../../db/schema/auth';
import { checkAccountUnique, checkRole, createAccount, deleteAccount, notSelf, resetAccountPassword, setAccountEnabled, setAccountRole } from '../../lib/accounts';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { endSessions } from '../auth/sso.service';

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
/** The accounts of the tenant matching the list's filters (the list and its export). */
export function userWhere(actor: Actor, q: Omit<UserQuery, 'current' | 'size'>): SQL | undefined {
  const p = q.keyword ? containsPattern(q.keyword) : undefined;
  return and(
    eq(memberships.tenantOrgId, actor.tenantOrgId),
    p ? or(ilike(users.name, p), ilike(users.accountNum, p), ilike(users.mobile, p)) : undefined,
    q.roleId
      ? sql`exists (select 1 from ${membershipRoles} where ${membershipRoles.membershipId} = ${memberships.id} and ${membershipRoles.roleId} = ${q.roleId})`
      : undefined,
    q.enabled ? eq(memberships.enabled, q.enabled === 'true') : undefined,
  );
}

export async function userPage(db: DbOrTx, actor: Actor, q: UserQuery): Promise<Page<UserRow>> {
  const where = userWhere(actor, q);
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

/** Creates a person and their account in the tenant; the password the administrator chose must be changed at sign-in. */
export async function createUser(tx: Tx, actor: Actor, body: UserCreate): Promise<UserRow> {
  const { accountId } = await createAccount(tx, actor, body);
  return userById(tx, actor, accountId);
}

export async function updateUser(tx: Tx, actor: Actor, id: string, body: UserUpdate, now: Date): Promise<Change<UserRow>> {
  await lockVersion(tx, memberships, id, eq(memberships.tenantOrgId, actor.tenantOrgId), body.version ?? -1);
  const before = await userById(tx, actor, id);
  if (actor.accountId === id && (body.roleId !== before.roleId || !body.enabled)) notSelf(actor, id);
  await checkAccountUnique(tx, body, before.userId);
  if (body.roleId !== before.roleId) await checkRole(tx, actor, body.roleId);
  await tx.update(users).set({ name: body.name, accountNum: body.accountNum, mobile: body.mobile || null, updatedAt: now }).where(eq(users.id, before.userId));
  await tx.update(memberships).set({ enabled: body.enabled, version: nextVersion(memberships.version) }).where(eq(memberships.id, id));
  if (body.roleId !== before.roleId) await setAccountRole(tx, id, body.roleId);
  if (before.enabled && !body.enabled) await endSessions(tx, now, before.userId);
  return { before, after: await userById(tx, actor, id) };
}

/** Enables or disables an account; a disabled account cannot sign in and its sessions end. */
export async function setUserStatus(tx: Tx, actor: Actor, id: string, enabled: boolean, now: Date): Promise<Change<UserRow>> {
  const before = await userById(tx, actor, id);
  notSelf(actor, id);
  await setAccountEnabled(tx, { accountId: id, userId: before.userId }, enabled, now);
  return { before, after: await userById(tx, actor, id) };
}

/** Resets an account's password (server/lib/accounts.ts resetAccountPassword). */
export async function resetPassword(tx: Tx, actor: Actor, id: string, body: ResetPassword, now: Date): Promise<ResetPasswordResult> {
  const row = await userById(tx, actor, id);
  return resetAccountPassword(tx, row.userId, body, now);
}

/** Deletes an account of the tenant (not one's own): server/lib/accounts.ts deleteAccount. */
export async function deleteUser(tx: Tx, actor: Actor, id: string, now: Date): Promise<UserRow> {
  const before = await userById(tx, actor, id);
  notSelf(actor, id);
  await deleteAccount(tx, { accountId: id, userId: before.userId }, now);
  return before;
}
