import { and, asc, eq, inArray, ne, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { PASSWORD_SAME_AS_OLD, type ProfileForm } from '@/domain/auth/schemas';
import type { AccountInfo, MenuEntry, MenuNode, RoleInfo, UInfo } from '@/domain/auth/types';
import { DEFAULT_LOCALE, LOGIN_MAX_FAILURES, TYPE_PATH, type Locale, type OrgType } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { customName } from '@/domain/menus/custom-name';
import { isHiddenBy, MENU_MANAGEMENT_KEY } from '@/domain/menus/customize';
import { buildMenuTree } from '@/domain/menus/tree';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { membershipRoles, memberships, menus, roleMenus, roles, sessions, users } from '../../db/schema/auth';
import { orgs } from '../../db/schema/orgs';
import { assertPasswordPolicy, policyOrgOf } from '../security/two-factor.service';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { hiddenMenuIds } from '../../lib/menu-custom';
import { hashPassword, sha256Hex, verifyPassword } from '../../lib/password';
import { isTopManagementOrg } from '../menus/menus.service';
import { assertNotLocked, revokeSession } from '../auth/sso.service';
import { brandingOf } from '../org-manage/tenant-org.service';

const tenantOrgs = alias(orgs, 'tenant_org');
const notFound = () => new AppError(404, ERR.notFound);

/** The user's enabled memberships with their organisation names and types, oldest first. */
async function membershipsOf(db: DbOrTx, userId: string) {
  return db
    .select({
      id: memberships.id,
      orgId: memberships.orgId,
      tenantOrgId: memberships.tenantOrgId,
      present: memberships.present,
      orgName: orgs.name,
      orgType: orgs.type,
      tenantOrgName: tenantOrgs.name,
    })
    .from(memberships)
    .innerJoin(orgs, eq(orgs.id, memberships.orgId))
    .innerJoin(tenantOrgs, eq(tenantOrgs.id, memberships.tenantOrgId))
    .where(and(eq(memberships.userId, userId), eq(memberships.enabled, true)))
    .orderBy(asc(memberships.createdAt), asc(memberships.id));
}

/** Enabled roles of the given memberships. */
async function rolesOf(db: DbOrTx, membershipIds: string[]) {
  if (membershipIds.length === 0) return [];
  return db
    .select({
      membershipId: membershipRoles.membershipId,
      roleId: roles.id,
      roleName: roles.name,
      identity: roles.identity,
      dataScope: roles.dataScope,
      present: membershipRoles.present,
    })
    .from(membershipRoles)
    .innerJoin(roles, eq(roles.id, membershipRoles.roleId))
    .where(and(inArray(membershipRoles.membershipId, membershipIds), eq(roles.enabled, true)))
    .orderBy(asc(roles.createdAt), asc(roles.id));
}

/** Menu entries of the given roles, every platform (permissions) with the platform kept for filtering. */
async function menusOf(db: DbOrTx, roleIds: string[], locale: Locale) {
  if (roleIds.length === 0) return new Map<string, { entry: MenuEntry; platform: string }[]>();
  const rows = await db
    .select({
      roleId: roleMenus.roleId,
      menuId: menus.menuId,
      pid: menus.pid,
      menuName: menus.menuName,
      i18nKey: menus.i18nKey,
      menuPath: menus.menuPath,
      menuType: menus.menuType,
      sortNum: menus.sortNum,
      permission: menus.permission,
      icon: sql<string | null>`coalesce(${menus.customIcon}, ${menus.icon})`,
      platform: menus.platform,
      customNames: menus.customNames,
      customSort: menus.customSort,
    })
    .from(roleMenus)
    .innerJoin(menus, eq(menus.menuId, roleMenus.menuId))
    .where(inArray(roleMenus.roleId, roleIds))
    .orderBy(asc(menus.sortNum), asc(menus.menuId));
  // Platform operators' changes over the catalogue (docs/product-rules.md#menu-management): hidden entries leave the
  // menu with everything under them; a custom name is answered in the request's language, all of them in `names`.
  const hidden = await hiddenMenuIds(db);
  const byRole = new Map<string, { entry: MenuEntry; platform: string }[]>();
  for (const { roleId, platform, icon, customNames, customSort, ...rest } of rows) {
    if (isHiddenBy(hidden, rest.menuId)) continue;
    const base: MenuEntry = { ...rest, menuName: customName(customNames, locale) ?? rest.menuName, sortNum: customSort ?? rest.sortNum };
    if (icon) base.icon = icon;
    if (customNames) base.names = customNames;
    const entry = base;
    let list = byRole.get(roleId);
    if (!list) byRole.set(roleId, (list = []));
    list.push({ entry, platform });
  }
  return byRole;
}

const webEntries = (list: { entry: MenuEntry; platform: string }[] | undefined) =>
  (list ?? []).filter((m) => m.platform === 'web').map((m) => m.entry);

/**
 * Makes sure one membership is present and that it has a present role (docs/product-rules.md#accounts-in-use):
 * a user who never switched starts on the first membership and its first role.
 */
async function ensurePresent(db: DbOrTx, userId: string): Promise<void> {
  const list = await membershipsOf(db, userId);
  if (list.length === 0) return;
  const present = list.find((m) => m.present) ?? list[0];
  const roleRows = await rolesOf(db, [present.id]);
  const needAccount = !list.some((m) => m.present);
  const needRole = roleRows.length > 0 && !roleRows.some((r) => r.present);
  if (!needAccount && !needRole) return;
  try {
    await db.transaction(async (tx) => {
      if (needAccount) await setPresentAccount(tx, userId, present.id);
      if (needRole) await setPresentRole(tx, present.id, roleRows[0].roleId);
    });
  } catch (err) {
    // A parallel request of the same user may have set the flags first (unique partial index): fine.
    const again = await membershipsOf(db, userId);
    if (!again.some((m) => m.present)) throw err;
  }
}

// At most one present flag per user and per account (unique partial indexes): clear, then set.
async function setPresentAccount(tx: DbOrTx, userId: string, membershipId: string) {
  await tx
    .update(memberships)
    .set({ present: false })
    .where(and(eq(memberships.userId, userId), eq(memberships.present, true), ne(memberships.id, membershipId)));
  await tx.update(memberships).set({ present: true }).where(and(eq(memberships.id, membershipId), eq(memberships.userId, userId)));
}

async function setPresentRole(tx: DbOrTx, membershipId: string, roleId: string) {
  await tx
    .update(membershipRoles)
    .set({ present: false })
    .where(and(eq(membershipRoles.membershipId, membershipId), eq(membershipRoles.present, true), ne(membershipRoles.roleId, roleId)));
  await tx
    .update(membershipRoles)
    .set({ present: true })
    .where(and(eq(membershipRoles.membershipId, membershipId), eq(membershipRoles.roleId, roleId)));
}

/**
 * The user-info answer of getUInfo, switchRole and switchOrg (docs/product-rules.md#accounts-in-use, #menus-and-permissions, #calls): every membership
 * with its roles and their web menus; the menu tree and permissions of the present account and role.
 */
export async function getUInfo(db: DbOrTx, userId: string, defaultTitle: string, locale: Locale = DEFAULT_LOCALE): Promise<UInfo> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError(401, ERR.sessionExpired);
  await ensurePresent(db, userId);

  const list = await membershipsOf(db, userId);
  const roleRows = await rolesOf(db, list.map((m) => m.id));
  const menuMap = await menusOf(db, [...new Set(roleRows.map((r) => r.roleId))], locale);

  const accounts: AccountInfo[] = list.map((m) => ({
    accountId: m.id,
    accountNum: user.accountNum,
    orgId: m.orgId,
    orgName: m.orgName,
    orgType: m.orgType as OrgType,
    tenantOrgId: m.tenantOrgId,
    tenantOrgName: m.tenantOrgName,
    presentFlag: m.present,
    roles: roleRows
      .filter((r) => r.membershipId === m.id)
      .map(
        (r): RoleInfo => ({
          roleId: r.roleId,
          roleName: r.roleName,
          identity: r.identity,
          presentFlag: r.present,
          dataScope: r.dataScope,
          menus: webEntries(menuMap.get(r.roleId)),
        }),
      ),
  }));

  const account = accounts.find((a) => a.presentFlag) ?? null;
  const role = account?.roles.find((r) => r.presentFlag) ?? null;
  const permissions = role ? [...new Set((menuMap.get(role.roleId) ?? []).map((m) => m.entry.permission))].sort() : [];
  const branding = account ? await brandingOf(db, account.tenantOrgId) : null;
  const orgType = account?.orgType ?? null;
  const platformOperator = account !== null && permissions.includes(getCatalogEntry(MENU_MANAGEMENT_KEY)!.permission) && (await isTopManagementOrg(db, account.tenantOrgId));

  return {
    userId: user.id,
    userName: user.name,
    mobile: user.mobile ?? '',
    gender: user.gender,
    platformName: branding?.platformName ?? defaultTitle,
    icon: branding?.icon ?? '',
    orgType,
    currentTypePath: orgType === null ? null : TYPE_PATH[orgType],
    accounts,
    menuTree: role ? buildMenuTree(role.menus) : [],
    permissions,
    platformOperator,
  };
}

export interface AccountRoleRef {
  accountId: string;
  roleId: string;
  tenantOrgId: string;
}

/** Checks that the membership and role are the user's own; 404 otherwise (never reveal another's). */
async function ownAccountRole(db: DbOrTx, userId: string, ref: AccountRoleRef): Promise<void> {
  if (!isUuid(ref.accountId) || !isUuid(ref.roleId) || !isUuid(ref.tenantOrgId)) throw notFound();
  const [row] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .innerJoin(membershipRoles, eq(membershipRoles.membershipId, memberships.id))
    .innerJoin(roles, eq(roles.id, membershipRoles.roleId))
    .where(
      and(
        eq(memberships.id, ref.accountId),
        eq(memberships.userId, userId),
        eq(memberships.tenantOrgId, ref.tenantOrgId),
        eq(memberships.enabled, true),
        eq(roles.id, ref.roleId),
        eq(roles.enabled, true),
      ),
    )
    .limit(1);
  if (!row) throw notFound();
}

/** Makes the given membership and role the present ones (docs/product-rules.md#accounts-in-use), in the caller's transaction. */
export async function switchRole(tx: Tx, userId: string, ref: AccountRoleRef): Promise<void> {
  await ownAccountRole(tx, userId, ref);
  await setPresentAccount(tx, userId, ref.accountId);
  await setPresentRole(tx, ref.accountId, ref.roleId);
}

/** Makes the user's membership in `orgId` (of tenant `tenantOrgId`) the present one (docs/product-rules.md#accounts-in-use), in the caller's transaction. */
export async function switchOrg(tx: Tx, userId: string, ref: { orgId: string; tenantOrgId: string }): Promise<void> {
  if (!isUuid(ref.orgId) || !isUuid(ref.tenantOrgId)) throw notFound();
  const [row] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.orgId, ref.orgId),
        eq(memberships.tenantOrgId, ref.tenantOrgId),
        eq(memberships.enabled, true),
      ),
    )
    .limit(1);
  if (!row) throw notFound();
  await setPresentAccount(tx, userId, row.id);
}

/** The menu build of one of the user's own account + role (docs/product-rules.md#menus-and-permissions, #calls). */
export async function menuTreeOf(db: Db, userId: string, ref: AccountRoleRef, locale: Locale = DEFAULT_LOCALE): Promise<MenuNode[]> {
  await ownAccountRole(db, userId, ref);
  const byRole = await menusOf(db, [ref.roleId], locale);
  return buildMenuTree(webEntries(byRole.get(ref.roleId)));
}

/** Personal centre "edit profile": name, mobile (unique across users), gender, in the caller's transaction. */
export async function editUser(tx: Tx, userId: string, now: Date, form: ProfileForm): Promise<void> {
  const mobile = form.mobile === '' ? null : form.mobile;
  if (mobile) {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(ne(users.id, userId), sql`(${users.mobile} = ${mobile} or ${users.accountNum} = ${mobile})`))
      .limit(1);
    if (taken) throw new AppError(400, ERR.mobileTaken);
  }
  await tx.update(users).set({ name: form.userName, mobile, gender: form.gender, updatedAt: now }).where(eq(users.id, userId));
}

/**
 * Personal centre "change password": the current password must verify; the new one must differ from it, is stored
 * as the scrypt of its SHA-256 hex (as the browser will send it) and every other session ends. Wrong current
 * passwords count against the session, not the account (docs/product-rules.md#sign-in): at LOGIN_MAX_FAILURES the
 * session that guessed ends, while the owner's sign-in stays open (a stolen session cannot lock the owner out).
 */
export async function editAccount(
  db: Db,
  session: { userId: string; sessionId: string },
  now: Date,
  input: { oldPassword: string; newPassword: string },
): Promise<void> {
  const [user] = await db.select().from(users).where(eq(users.id, session.userId)).limit(1);
  if (!user) throw new AppError(401, ERR.sessionExpired);
  assertNotLocked(user, now);
  if (!(await verifyPassword(input.oldPassword, user.passwordHash))) {
    // Counted in SQL so parallel guesses cannot lose an increment.
    const [after] = await db
      .update(sessions)
      .set({ passwordFailures: sql`${sessions.passwordFailures} + 1` })
      .where(eq(sessions.id, session.sessionId))
      .returning({ passwordFailures: sessions.passwordFailures });
    if ((after?.passwordFailures ?? LOGIN_MAX_FAILURES) >= LOGIN_MAX_FAILURES) {
      await revokeSession(db, now, session.sessionId);
      throw new AppError(400, ERR.oldPasswordSessionEnded);
    }
    throw new AppError(400, ERR.oldPasswordWrong);
  }
  // The organisation's password policy (docs/product-rules.md#sign-in-security): the new password arrives as typed.
  await assertPasswordPolicy(db, await policyOrgOf(db, session.userId), input.newPassword);
  const newHex = sha256Hex(input.newPassword);
  if (newHex === input.oldPassword) throw new AppError(400, PASSWORD_SAME_AS_OLD);
  const passwordHash = await hashPassword(newHex);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, mustChangePassword: false, updatedAt: now }).where(eq(users.id, session.userId));
    await tx.update(sessions).set({ passwordFailures: 0 }).where(eq(sessions.id, session.sessionId));
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, session.userId), ne(sessions.id, session.sessionId), isNull(sessions.revokedAt)));
  });
}
