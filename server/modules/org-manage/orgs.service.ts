import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { OrgType } from '@/domain/constants';
import { familyOfOrgType } from '@/domain/menus/catalog';
import { menuEntriesForGrant } from '@/domain/menus/menu-entries';
import { ROLE_TEMPLATES } from '@/domain/menus/role-templates';
import type { OrgCreate, OrgDetail, OrgRow, OrgStatus, OrgUpdate } from '@/domain/org-manage/orgs';
import type { DbOrTx, Tx } from '../../db/client';
import { memberships, membershipRoles, roleMenus, roles, users } from '../../db/schema/auth';
import { orgs } from '../../db/schema/orgs';
import { classes, students } from '../../db/schema/school';
import { fieldError } from '../../lib/app-error';
import { hashPassword, sha256Hex } from '../../lib/password';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import { inOrgSubtree, orgSubtree } from '../../lib/tenancy';
import type { Actor } from '../../plugins/tenant';
import { endSessions } from '../auth/sso.service';
import { activatedDeviceCount } from '../venue/device.service';

/** The built-in administrator role's name in a new organisation. */
const ADMIN_ROLE_NAME = '管理员';

const rowColumns = {
  id: orgs.id,
  parentId: orgs.parentId,
  name: orgs.name,
  code: orgs.code,
  type: orgs.type,
  enabled: orgs.enabled,
  activatableDevices: orgs.activatableDevices,
  activatedDevices: activatedDeviceCount,
  createdAt: orgs.createdAt,
};
const toRow = (r: Omit<OrgRow, 'createdAt'> & { createdAt: Date }): OrgRow => ({ ...r, createdAt: r.createdAt.toISOString() });

/** Every organisation below the signed-in one (not itself), for the tree table; `name` keeps matches only. */
export async function orgTree(db: DbOrTx, actor: Actor, q: { name?: string }): Promise<OrgRow[]> {
  const rows = await db
    .select(rowColumns)
    .from(orgs)
    .where(and(inOrgSubtree(orgs.id, actor.tenantOrgId), ne(orgs.id, actor.tenantOrgId)))
    .orderBy(asc(orgs.code), asc(orgs.id));
  const all = rows.map(toRow);
  if (!q.name) return all;
  const needle = q.name.toLowerCase();
  return all.filter((r) => r.name.toLowerCase().includes(needle));
}

/** An organisation below the signed-in one, or 404 (its own and anyone else's id alike). */
export async function orgById(db: DbOrTx, actor: Actor, id: string): Promise<OrgRow> {
  const [row] = await db
    .select(rowColumns)
    .from(orgs)
    .where(and(eq(orgs.id, id), ne(orgs.id, actor.tenantOrgId), inOrgSubtree(orgs.id, actor.tenantOrgId)));
  if (!row) throw notFound();
  return toRow(row);
}

const parent = alias(orgs, 'parent_org');

/**
 * A lower organisation with what its detail page shows: superior, its built-in administrator accounts (never a
 * password) and the counts of its students, classes, accounts and lower organisations (docs/product-rules.md#organisations).
 */
export async function orgDetail(db: DbOrTx, actor: Actor, id: string): Promise<OrgDetail> {
  const row = await orgById(db, actor, id);
  const [[meta], admins, [counts]] = await Promise.all([
    db.select({ version: orgs.version, parentName: parent.name }).from(orgs).leftJoin(parent, eq(parent.id, orgs.parentId)).where(eq(orgs.id, id)),
    db
      .selectDistinct({ name: users.name, accountNum: users.accountNum, mobile: users.mobile, enabled: memberships.enabled })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .innerJoin(membershipRoles, eq(membershipRoles.membershipId, memberships.id))
      .innerJoin(roles, eq(roles.id, membershipRoles.roleId))
      .where(and(eq(memberships.tenantOrgId, id), eq(roles.orgId, id), eq(roles.builtin, true), eq(roles.identity, 'administrator')))
      .orderBy(asc(users.accountNum)),
    db
      .select({
        students: sql<number>`(select count(*)::int from ${students} where ${students.orgId} = ${id})`,
        classes: sql<number>`(select count(*)::int from ${classes} where ${classes.orgId} = ${id})`,
        accounts: sql<number>`(select count(*)::int from ${memberships} where ${memberships.tenantOrgId} = ${id})`,
        lowerOrgs: sql<number>`(select count(*)::int from ${orgs} where ${orgs.parentId} = ${id})`,
      })
      .from(sql`(select 1) as one`),
  ]);
  return { ...row, version: meta.version, parentName: meta.parentName, admins, counts };
}

/**
 * Edits a lower organisation (the add rules without its administrator): code unique among its siblings, activatable
 * devices above the activated ones; a stale version is 409.
 */
export async function updateOrg(tx: Tx, actor: Actor, id: string, body: OrgUpdate): Promise<Change<OrgDetail>> {
  const before = await orgDetail(tx, actor, id);
  await lockVersion(tx, orgs, id, sql`true`, body.version ?? -1);
  const [dup] = await tx
    .select({ id: orgs.id })
    .from(orgs)
    .where(and(before.parentId ? eq(orgs.parentId, before.parentId) : sql`${orgs.parentId} is null`, eq(orgs.code, body.code), ne(orgs.id, id)));
  if (dup) throw fieldError('code', 'validation:org.codeTaken');
  if (body.activatableDevices <= before.activatedDevices) throw fieldError('activatableDevices', 'validation:org.activatableAboveActivated');
  await tx
    .update(orgs)
    .set({ name: body.name, code: body.code, activatableDevices: body.activatableDevices, version: nextVersion(orgs.version) })
    .where(eq(orgs.id, id));
  return { before, after: await orgDetail(tx, actor, id) };
}

/**
 * Creates an organisation directly below the signed-in one together with its administrator: the user, the account
 * and the family's built-in administrator role, all in the caller's transaction (nothing stays when a step fails).
 */
export async function createOrg(tx: Tx, actor: Actor, body: OrgCreate): Promise<OrgDetail> {
  const [dup] = await tx.select({ id: orgs.id }).from(orgs).where(and(eq(orgs.parentId, actor.tenantOrgId), eq(orgs.code, body.code)));
  if (dup) throw fieldError('code', 'validation:org.codeTaken');
  const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.accountNum, body.adminAccount));
  if (taken) throw fieldError('adminAccount', 'validation:org.accountTaken');

  const [org] = await tx.insert(orgs).values({ parentId: actor.tenantOrgId, type: body.type, code: body.code, name: body.name }).returning(rowColumns);
  const [user] = await tx
    .insert(users)
    .values({ accountNum: body.adminAccount, name: body.adminName, passwordHash: await hashPassword(sha256Hex(body.adminPassword)) })
    .returning({ id: users.id });
  const [account] = await tx.insert(memberships).values({ userId: user.id, orgId: org.id, tenantOrgId: org.id, present: true }).returning({ id: memberships.id });
  const [role] = await tx
    .insert(roles)
    .values({ orgId: org.id, name: ADMIN_ROLE_NAME, identity: 'administrator', builtin: true })
    .returning({ id: roles.id });
  await tx.insert(membershipRoles).values({ membershipId: account.id, roleId: role.id, present: true });
  const family = familyOfOrgType(body.type as OrgType);
  if (family === 'admin' || family === 'k12' || family === 'gx') {
    const links = menuEntriesForGrant(ROLE_TEMPLATES[family].administrator).map((m) => ({ roleId: role.id, menuId: m.menuId }));
    if (links.length) await tx.insert(roleMenus).values(links);
  }
  return orgDetail(tx, actor, org.id);
}

/**
 * Enables or disables an organisation below the signed-in one. Disabling covers every organisation below it and ends
 * the sessions of their accounts (they can no longer sign in); enabling covers the lower ones only with `cascade`.
 */
export async function setOrgStatus(tx: Tx, actor: Actor, id: string, body: OrgStatus, now: Date): Promise<{ before: OrgRow; after: OrgRow; changed: string[] }> {
  const before = await orgById(tx, actor, id);
  const ids = !body.enabled || body.cascade ? await orgSubtree(tx, id) : [id];
  await tx.update(orgs).set({ enabled: body.enabled }).where(inArray(orgs.id, ids));
  if (!body.enabled) {
    const people = await tx.selectDistinct({ userId: memberships.userId }).from(memberships).where(inArray(memberships.orgId, ids));
    for (const p of people) await endSessions(tx, now, p.userId);
  }
  return { before, after: { ...before, enabled: body.enabled }, changed: ids };
}
