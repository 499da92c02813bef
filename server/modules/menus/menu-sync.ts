import { and, eq, inArray, sql } from 'drizzle-orm';
import { ORG_TYPES, type OrgType } from '@/domain/constants';
import { CATALOG, familyOfOrgType, getCatalogEntry } from '@/domain/menus/catalog';
import { menuEntriesForGrant, toMenuEntries } from '@/domain/menus/menu-entries';
import { ROLE_TEMPLATES } from '@/domain/menus/role-templates';
import type { DbOrTx } from '../../db/client';
import { menus, roleMenus, roles } from '../../db/schema/auth';
import { orgs } from '../../db/schema/orgs';

// What every start does to an existing database (server/main.ts), and the demo and scale seeds do first: the menus
// table follows the catalogue, and built-in administrator roles hold every screen of their family.

type Insert<T extends { $inferInsert: unknown }> = T['$inferInsert'];
const CHUNK = 1000;

/** The catalogue's columns of a menu entry, as syncMenus compares and writes them. */
const SYNCED_KEYS = ['pid', 'family', 'platform', 'code', 'menuName', 'i18nKey', 'menuPath', 'menuType', 'sortNum', 'permission', 'icon'] as const;
const SYNCED_COLUMNS = {
  menuId: menus.menuId,
  pid: menus.pid,
  family: menus.family,
  platform: menus.platform,
  code: menus.code,
  menuName: menus.menuName,
  i18nKey: menus.i18nKey,
  menuPath: menus.menuPath,
  menuType: menus.menuType,
  sortNum: menus.sortNum,
  permission: menus.permission,
  icon: menus.icon,
};

/**
 * Writes the menus table from the catalogue (docs/product-rules.md#menus-and-permissions): inserts new entries and updates changed
 * ones, so a catalogue change reaches an existing database. Entries no longer in the catalogue are
 * left alone (role grants may still point at them); remove them with a migration.
 */
export async function syncMenus(db: DbOrTx): Promise<number> {
  const rows = catalogueRows();
  const grants = administratorGrants();
  // Almost every start finds both in step: one query answers it, with no rows to read back (docs/decisions/065-built-server.md).
  if (await inStep(db, rows, grants)) return rows.length;
  await writeMenus(db, rows);
  await grantBuiltinAdministrators(db, grants);
  return rows.length;
}

/** The menus table's rows as the catalogue has them. */
function catalogueRows(): Insert<typeof menus>[] {
  return toMenuEntries(CATALOG).map((m) => {
    const entry = getCatalogEntry(m.menuId.split('#')[0]);
    if (!entry) throw new Error(`syncMenus: ${m.menuId} has no catalogue entry`);
    return {
      menuId: m.menuId,
      pid: m.pid,
      family: entry.family,
      platform: 'web',
      // Buttons have no numeric code of their own.
      code: m.menuType === '0' ? entry.code : null,
      menuName: m.menuName,
      i18nKey: m.i18nKey,
      menuPath: m.menuPath,
      menuType: m.menuType,
      sortNum: m.sortNum,
      permission: m.permission,
      icon: m.icon ?? null,
    };
  });
}

/** Menu ids a built-in administrator role holds, by the organisation type of its family (admin, k12, gx). */
function administratorGrants(): Map<OrgType, string[]> {
  const grants = new Map<OrgType, string[]>();
  for (const type of ORG_TYPES) {
    const family = familyOfOrgType(type);
    if (family !== 'admin' && family !== 'k12' && family !== 'gx') continue;
    grants.set(type, menuEntriesForGrant(ROLE_TEMPLATES[family].administrator).map((m) => m.menuId));
  }
  return grants;
}

/**
 * Whether the menus table has every catalogue row as it is (the columns syncMenus writes) and every built-in
 * administrator role holds its family's menus: the comparisons writeMenus and grantBuiltinAdministrators make, done
 * by the database over the catalogue sent as JSON.
 */
async function inStep(db: DbOrTx, rows: Insert<typeof menus>[], grants: Map<OrgType, string[]>): Promise<boolean> {
  const { rows: found } = await db.execute<{ stale: boolean }>(sql`
    select exists (
      select 1 from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as c("menuId" text, pid text, family text, platform text, code text,
        "menuName" text, "i18nKey" text, "menuPath" text, "menuType" text, "sortNum" integer, permission text, icon text)
      left join menus m on m.menu_id = c."menuId"
      where m.menu_id is null
         or (m.pid, m.family, m.platform, m.code, m.menu_name, m.i18n_key, m.menu_path, m.menu_type, m.sort_num, m.permission, m.icon)
            is distinct from (c.pid, c.family, c.platform, c.code, c."menuName", c."i18nKey", c."menuPath", c."menuType", c."sortNum", c.permission, c.icon)
    ) or exists (
      select 1 from roles r
      join orgs o on o.id = r.org_id
      cross join lateral jsonb_array_elements_text(${JSON.stringify(Object.fromEntries(grants))}::jsonb -> o.type::text) as g(menu_id)
      where r.builtin and r.identity = 'administrator'
        and not exists (select 1 from role_menus rm where rm.role_id = r.id and rm.menu_id = g.menu_id)
    ) as stale`);
  return !found[0].stale;
}

/** Inserts the catalogue's new entries and updates the changed ones. */
async function writeMenus(db: DbOrTx, rows: Insert<typeof menus>[]): Promise<void> {
  // Only entries that differ are written: a start on an unchanged catalogue reads the table once and writes nothing
  // (no write, so no cache retired by the change feed; tests/bench/startup.ts).
  const stored = new Map((await db.select(SYNCED_COLUMNS).from(menus)).map((m) => [m.menuId, m]));
  const changed = rows.filter((r) => {
    const old = stored.get(r.menuId);
    return !old || SYNCED_KEYS.some((k) => (old[k] ?? null) !== (r[k] ?? null));
  });
  for (let i = 0; i < changed.length; i += CHUNK) {
    await db
      .insert(menus)
      .values(changed.slice(i, i + CHUNK))
      .onConflictDoUpdate({
        target: menus.menuId,
        set: {
          pid: sql`excluded.pid`,
          family: sql`excluded.family`,
          platform: sql`excluded.platform`,
          code: sql`excluded.code`,
          menuName: sql`excluded.menu_name`,
          i18nKey: sql`excluded.i18n_key`,
          menuPath: sql`excluded.menu_path`,
          menuType: sql`excluded.menu_type`,
          sortNum: sql`excluded.sort_num`,
          permission: sql`excluded.permission`,
          icon: sql`excluded.icon`,
        },
      });
  }
}

/**
 * A built-in administrator role holds everything of its family (docs/product-rules.md#roles): when the catalogue gains
 * screens, existing administrator roles get them too. Other roles are the school's own to edit.
 */
async function grantBuiltinAdministrators(db: DbOrTx, grants: Map<OrgType, string[]>): Promise<void> {
  const builtins = await db
    .select({ id: roles.id, orgType: orgs.type })
    .from(roles)
    .innerJoin(orgs, eq(orgs.id, roles.orgId))
    .where(and(eq(roles.builtin, true), eq(roles.identity, 'administrator')));
  const links: Insert<typeof roleMenus>[] = [];
  for (const role of builtins) {
    for (const menuId of grants.get(role.orgType as OrgType) ?? []) links.push({ roleId: role.id, menuId });
  }
  if (links.length === 0) return;
  const held = new Set(
    (await db.select({ roleId: roleMenus.roleId, menuId: roleMenus.menuId }).from(roleMenus).where(inArray(roleMenus.roleId, builtins.map((r) => r.id)))).map(
      (l) => `${l.roleId} ${l.menuId}`,
    ),
  );
  const missing = links.filter((l) => !held.has(`${l.roleId} ${l.menuId}`));
  for (let i = 0; i < missing.length; i += CHUNK) await db.insert(roleMenus).values(missing.slice(i, i + CHUNK)).onConflictDoNothing();
}
