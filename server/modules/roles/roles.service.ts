import { and, asc, desc, eq, ilike, inArray, ne, notExists, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import type { Family } from '@/domain/menus/access';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { withAncestors } from '@/domain/menus/menu-entries';
import { buttonId, roleCatalog, roleManagementKey, scopeWithin, type DataScope, type MobileFunction, type RoleDetail, type RoleMember, type RoleRow, type RoleSave } from '@/domain/roles/roles';
import type { DbOrTx, Tx } from '../../db/client';
import { membershipRoles, memberships, roleMenus, roles, users } from '../../db/schema/auth';
import { fieldError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { accountCandidates, accountKeyword, accountMemberColumns, accountMembersOf, assertOwnAccounts } from '../../lib/account-members';
import { containsPattern } from '../../lib/query';
import type { LinkChange } from '../../lib/linked';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';

const memberCount = sql<number>`(select count(*)::int from ${membershipRoles} where ${membershipRoles.roleId} = ${roles.id})`;

const columns = {
  id: roles.id,
  name: roles.name,
  remark: roles.remark,
  identity: roles.identity,
  builtin: roles.builtin,
  memberCount,
  dataScope: roles.dataScope,
  version: roles.version,
};

export interface RoleQuery {
  current: number;
  size: number;
  name?: string;
  identity?: RoleRow['identity'];
}

/** Roles of the tenant organisation, built-in first. */
export function rolePage(db: DbOrTx, actor: Actor, q: RoleQuery): Promise<Page<RoleRow>> {
  const where = and(
    eq(roles.orgId, actor.tenantOrgId),
    q.name ? ilike(roles.name, containsPattern(q.name)) : undefined,
    q.identity ? eq(roles.identity, q.identity) : undefined,
  );
  return paginate(db, db.select(columns).from(roles).where(where).orderBy(desc(roles.builtin), asc(roles.createdAt), asc(roles.id)).$dynamic(), q);
}

export async function roleRow(db: DbOrTx, actor: Actor, id: string): Promise<RoleRow & { mobileFunctions: string[] }> {
  const [row] = await db
    .select({ ...columns, mobileFunctions: roles.mobileFunctions })
    .from(roles)
    .where(and(eq(roles.id, id), eq(roles.orgId, actor.tenantOrgId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** One role of the tenant with its web permissions (catalogue keys and button ids) and mobile functions; another organisation's id is 404. */
export async function roleById(db: DbOrTx, actor: Actor, id: string): Promise<RoleDetail> {
  const row = await roleRow(db, actor, id);
  const links = await db.select({ menuId: roleMenus.menuId }).from(roleMenus).where(eq(roleMenus.roleId, id)).orderBy(asc(roleMenus.menuId));
  return { ...row, mobileFunctions: row.mobileFunctions as MobileFunction[], menuIds: links.map((l) => l.menuId) };
}

/** The permission code a granted menu id stands for (a button's or an entry's). */
function permissionOf(menuId: string): string | undefined {
  const [key, action] = menuId.split('#');
  const entry = getCatalogEntry(key);
  if (!entry) return undefined;
  return action === undefined ? entry.permission : entry.buttons.find((b) => b.action === action)?.permission;
}

/**
 * The menu ids a role holds for the checked keys and buttons: only entries of the family's role catalogue, with their
 * ancestors, and the hidden routes the granted pages and buttons open (docs/product-rules.md#roles).
 */
export function grantedMenuIds(family: Family, checked: readonly string[]): Set<string> {
  const catalog = roleCatalog(family);
  const allowed = new Set(catalog.flatMap((e) => [e.key, ...e.buttons.map((b) => buttonId(e.key, b.action))]));
  for (const id of checked) if (!allowed.has(id)) throw fieldError('menuIds', 'validation:role.menuUnknown');
  const buttonIds = checked.filter((id) => id.includes('#'));
  const isRoute = (id: string) => getCatalogEntry(id)?.kind === 'route';
  const keys = withAncestors([...checked.filter((id) => !id.includes('#') && !isRoute(id)), ...buttonIds.map((id) => id.split('#')[0])]);
  const out = new Set<string>();
  const codes = new Set<string>();
  for (const e of catalog) {
    if (!keys.has(e.key) || e.kind === 'route') continue;
    out.add(e.key);
    codes.add(e.permission);
  }
  for (const id of buttonIds) {
    out.add(id);
    codes.add(permissionOf(id)!);
  }
  // A hidden route comes with the page or button that opens it; a standalone one (no parent) when checked itself.
  const checkedRoutes = new Set(checked.filter(isRoute));
  for (const e of catalog) {
    if (e.kind !== 'route') continue;
    if (e.parent === null ? checkedRoutes.has(e.key) : out.has(e.parent) && codes.has(e.permission)) out.add(e.key);
  }
  return out;
}

/** Every menu id of role management: the page, its buttons and its routes. */
function roleManagementIds(family: Family): string[] {
  const page = getCatalogEntry(roleManagementKey(family))!;
  return [...grantedMenuIds(family, [page.key, ...page.buttons.map((b) => buttonId(page.key, b.action))])];
}

/** Refuses granting what the actor's own role does not hold (403 naming the permissions field). */
function assertHeld(actor: Actor, added: Iterable<string>): void {
  for (const id of added) {
    const code = permissionOf(id);
    if (!code || !actor.permissions.has(code)) throw fieldError('menuIds', 'validation:role.notHeld', {}, 403);
  }
}

/** Refuses handing out a data scope wider than the actor's own (403 naming the field; docs/product-rules.md#data-scopes). */
function assertScopeHeld(actor: Actor, scope: DataScope): void {
  if (!scopeWithin(scope, actor.dataScope)) throw fieldError('dataScope', 'validation:role.scopeNotHeld', {}, 403);
}

async function assertNameFree(tx: Tx, actor: Actor, name: string, exceptId?: string): Promise<void> {
  const [dup] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.orgId, actor.tenantOrgId), eq(roles.name, name), exceptId ? ne(roles.id, exceptId) : undefined));
  if (dup) throw fieldError('name', 'validation:role.nameTaken');
}

async function writeMenus(tx: Tx, roleId: string, before: ReadonlySet<string>, after: ReadonlySet<string>): Promise<void> {
  const removed = [...before].filter((id) => !after.has(id));
  const added = [...after].filter((id) => !before.has(id));
  if (removed.length > 0) await tx.delete(roleMenus).where(and(eq(roleMenus.roleId, roleId), inArray(roleMenus.menuId, removed)));
  if (added.length > 0) await tx.insert(roleMenus).values(added.map((menuId) => ({ roleId, menuId })));
}

export async function createRole(tx: Tx, actor: Actor, family: Family, body: RoleSave): Promise<RoleDetail> {
  await assertNameFree(tx, actor, body.name);
  const granted = grantedMenuIds(family, body.menuIds);
  assertHeld(actor, granted);
  const dataScope = body.dataScope ?? 'org';
  assertScopeHeld(actor, dataScope);
  const [row] = await tx
    .insert(roles)
    .values({
      orgId: actor.tenantOrgId,
      name: body.name,
      remark: body.remark ?? null,
      identity: body.identity,
      mobileFunctions: [...new Set(body.mobileFunctions)],
      dataScope,
    })
    .returning({ id: roles.id });
  await writeMenus(tx, row.id, new Set(), granted);
  return roleById(tx, actor, row.id);
}

/**
 * Saves a role. Only permissions it gains must be held by the actor (a role may keep what its editor lacks); a
 * built-in administrator role keeps its identity and role management. Members feel the change on their next request.
 */
export async function updateRole(tx: Tx, actor: Actor, family: Family, id: string, body: RoleSave): Promise<Change<RoleDetail>> {
  await lockVersion(tx, roles, id, eq(roles.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await roleById(tx, actor, id);
  await assertNameFree(tx, actor, body.name, id);
  const granted = grantedMenuIds(family, body.menuIds);
  const had = new Set(before.menuIds);
  assertHeld(actor, [...granted].filter((m) => !had.has(m)));
  const builtinAdmin = before.builtin && before.identity === 'administrator';
  if (builtinAdmin && roleManagementIds(family).some((m) => !granted.has(m))) throw fieldError('menuIds', 'validation:role.builtinKeepsRoles');
  // A built-in administrator role keeps its scope too, so no administrator can narrow themselves out of widening it back.
  const dataScope = builtinAdmin ? before.dataScope : (body.dataScope ?? before.dataScope);
  if (dataScope !== before.dataScope) assertScopeHeld(actor, dataScope);
  await tx
    .update(roles)
    .set({
      name: body.name,
      remark: body.remark ?? null,
      identity: before.builtin ? before.identity : body.identity,
      mobileFunctions: [...new Set(body.mobileFunctions)],
      // Members see the new scope on their very next request: writes to roles bump auth_epoch (server/lib/auth-cache.ts).
      dataScope,
      version: nextVersion(roles.version),
    })
    .where(eq(roles.id, id));
  await writeMenus(tx, id, had, granted);
  return { before, after: await roleById(tx, actor, id) };
}

/** Deletes a role nobody holds; built-in roles stay (docs/product-rules.md#roles). */
export async function deleteRole(tx: Tx, actor: Actor, id: string): Promise<RoleDetail> {
  const before = await roleById(tx, actor, id);
  if (before.builtin) throw fieldError('id', 'validation:role.builtinDelete', {}, 409);
  await assertUnused([{ what: 'roles:entity.members', count: () => tx.$count(membershipRoles, eq(membershipRoles.roleId, id)) }]);
  await tx.delete(roles).where(eq(roles.id, id));
  return before;
}


/** The accounts holding a role of the tenant (the role checked by the linked-records kit, server/lib/linked.ts). */
export function roleMemberPage(db: DbOrTx, actor: Actor, role: { id: string }, q: { current: number; size: number; keyword?: string }): Promise<Page<RoleMember>> {
  const query = db
    .select(accountMemberColumns)
    .from(membershipRoles)
    .innerJoin(memberships, eq(memberships.id, membershipRoles.membershipId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(membershipRoles.roleId, role.id), eq(memberships.tenantOrgId, actor.tenantOrgId), accountKeyword(q.keyword)))
    .orderBy(asc(users.name), asc(memberships.id))
    .$dynamic();
  return paginate(db, query, q);
}

/** Accounts of the tenant that do not hold the role yet (for the add-members picker). */
export function roleCandidates(db: DbOrTx, actor: Actor, role: { id: string }, q: { keyword?: string }): Promise<RoleMember[]> {
  return accountCandidates(
    db,
    actor,
    q.keyword,
    notExists(db.select({ one: sql`1` }).from(membershipRoles).where(and(eq(membershipRoles.membershipId, memberships.id), eq(membershipRoles.roleId, role.id)))),
  );
}

/**
 * Gives a role to accounts of the tenant (another organisation's account is 404); accounts holding it already are
 * left alone. Handing out a role that holds what the actor lacks is escalation too, so it is refused. An account
 * without a role in use starts using this one. Answers the accounts that newly hold it.
 */
export async function addRoleMembers(tx: Tx, actor: Actor, role: { id: string }, ids: readonly string[]): Promise<LinkChange> {
  const detail = await roleById(tx, actor, role.id);
  assertHeld(actor, detail.menuIds);
  assertScopeHeld(actor, detail.dataScope);
  await assertOwnAccounts(tx, actor, ids);
  const present = await tx.select({ id: membershipRoles.membershipId }).from(membershipRoles).where(and(inArray(membershipRoles.membershipId, ids), eq(membershipRoles.present, true)));
  const hasPresent = new Set(present.map((p) => p.id));
  const added = await tx
    .insert(membershipRoles)
    .values(ids.map((membershipId) => ({ membershipId, roleId: role.id, present: !hasPresent.has(membershipId) })))
    .onConflictDoNothing()
    .returning({ id: membershipRoles.membershipId });
  return { records: await accountMembersOf(tx, added.map((a) => a.id)) };
}

/** Takes a role from accounts of the tenant (one not holding it is 404); they lose its permissions on their next request. */
export async function removeRoleMembers(tx: Tx, actor: Actor, role: { id: string }, ids: readonly string[]): Promise<LinkChange> {
  const held = and(eq(membershipRoles.roleId, role.id), inArray(membershipRoles.membershipId, ids));
  const rows = await tx
    .select(accountMemberColumns)
    .from(membershipRoles)
    .innerJoin(memberships, eq(memberships.id, membershipRoles.membershipId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(held, eq(memberships.tenantOrgId, actor.tenantOrgId)));
  if (rows.length !== ids.length) throw notFound();
  await tx.delete(membershipRoles).where(held);
  return { records: rows };
}
