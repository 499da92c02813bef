import { and, eq, inArray, isNull } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { CATALOG, getCatalogEntry, type CatalogEntry } from '@/domain/menus/catalog';
import { cleanNames, isMenuEditable, type MenuCustomRow, type MenuCustomSave, type MenuFamily } from '@/domain/menus/customize';
import type { DbOrTx, Tx } from '../../db/client';
import { menus } from '../../db/schema/auth';
import { orgs } from '../../db/schema/orgs';
import { AppError, fieldError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { notFound } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';

/**
 * Menu management (docs/product-rules.md#menu-management). Menus are the installation's, not an organisation's, so only
 * platform operators edit them: holders of the menu-management permission in a top management organisation (a
 * management organisation without a parent, the root every district and school hangs from).
 */
export async function assertPlatformOperator(db: DbOrTx, actor: Actor): Promise<void> {
  if (!(await isTopManagementOrg(db, actor.tenantOrgId))) throw new AppError(403, ERR.forbidden);
}

/** Whether the organisation is a top management organisation (whose holders of the permission are platform operators). */
export async function isTopManagementOrg(db: DbOrTx, orgId: string): Promise<boolean> {
  const [org] = await db
    .select({ id: orgs.id })
    .from(orgs)
    .where(and(eq(orgs.id, orgId), eq(orgs.type, ORG_TYPE.management), isNull(orgs.parentId)))
    .limit(1);
  return Boolean(org);
}

const customColumns = {
  menuId: menus.menuId,
  sortNum: menus.sortNum,
  customNames: menus.customNames,
  customSort: menus.customSort,
  customIcon: menus.customIcon,
  hidden: menus.hidden,
  version: menus.version,
};
type CustomDbRow = { menuId: string; sortNum: number; customNames: MenuCustomRow['names'] | null; customSort: number | null; customIcon: string | null; hidden: boolean; version: number };

function toRow(e: CatalogEntry, r: CustomDbRow | undefined): MenuCustomRow {
  const names = r?.customNames ?? {};
  const customSort = r?.customSort ?? null;
  const customIcon = r?.customIcon ?? null;
  const hidden = r?.hidden ?? false;
  return {
    key: e.key,
    parent: e.parent,
    kind: e.kind as 'group' | 'page',
    path: e.path,
    i18nKey: e.i18nKey,
    name: e.name,
    icon: e.icon ?? null,
    sortNum: customSort ?? e.sortNum,
    names,
    customIcon,
    hidden,
    customised: Object.keys(names).length > 0 || customSort !== null || customIcon !== null || hidden,
    version: r?.version ?? 1,
  };
}

const editableOf = (family: MenuFamily) => CATALOG.filter((e) => e.family === family && isMenuEditable(e));

/** A family's groups and pages in menu order (siblings by their order in effect), with the changes over the catalogue. */
export async function menuCustomTree(db: DbOrTx, family: MenuFamily): Promise<MenuCustomRow[]> {
  const entries = editableOf(family);
  const rows = await db.select(customColumns).from(menus).where(inArray(menus.menuId, entries.map((e) => e.key)));
  const byId = new Map(rows.map((r) => [r.menuId, r]));
  const all = entries.map((e) => toRow(e, byId.get(e.key)));
  const out: MenuCustomRow[] = [];
  const walk = (parent: string | null) => {
    const kids = all.filter((r) => r.parent === parent).sort((a, b) => a.sortNum - b.sortNum || a.key.localeCompare(b.key));
    for (const k of kids) {
      out.push(k);
      walk(k.key);
    }
  };
  walk(null);
  return out;
}

/** One group or page with its changes (404 for anything else). */
export async function menuCustomRow(db: DbOrTx, key: string): Promise<MenuCustomRow> {
  const entry = editableOr404(key);
  const [row] = await db.select(customColumns).from(menus).where(eq(menus.menuId, key));
  return toRow(entry, row);
}

function editableOr404(key: string): CatalogEntry {
  const entry = getCatalogEntry(key);
  if (!isMenuEditable(entry)) throw notFound();
  return entry;
}

async function lockMenu(tx: Tx, key: string): Promise<CustomDbRow> {
  const [row] = await tx.select(customColumns).from(menus).where(eq(menus.menuId, key)).for('update');
  if (!row) throw notFound();
  return row;
}

/** Saves an entry's names, icon and visibility (409 when someone saved it since it was read). */
export async function saveMenuCustom(tx: Tx, actor: Actor, key: string, body: MenuCustomSave): Promise<MenuCustomRow> {
  const entry = editableOr404(key);
  const before = await lockMenu(tx, key);
  if (body.version !== undefined && body.version !== before.version) throw new AppError(409, ERR.staleWrite);
  const [after] = await tx
    .update(menus)
    .set({ customNames: cleanNames(body.names), customIcon: body.icon ?? null, hidden: !body.visible, version: before.version + 1 })
    .where(eq(menus.menuId, key))
    .returning(customColumns);
  await audit(tx, actor, { action: 'update', entity: 'menu', entityId: key, before, after });
  return toRow(entry, after);
}

/** Moves an entry one place up or down among its siblings (never past the first or last). */
export async function moveMenu(tx: Tx, actor: Actor, key: string, direction: 'up' | 'down'): Promise<void> {
  const entry = editableOr404(key);
  const family = entry.family as MenuFamily;
  const siblings = (await menuCustomTree(tx, family)).filter((r) => r.parent === entry.parent);
  const at = siblings.findIndex((r) => r.key === key);
  const to = direction === 'up' ? at - 1 : at + 1;
  if (to < 0 || to >= siblings.length) throw fieldError('direction', direction === 'up' ? 'validation:menu.alreadyFirst' : 'validation:menu.alreadyLast');
  const a = siblings[at];
  const b = siblings[to];
  // Swap the two orders in effect; equal orders (not in the catalogue, but possible after edits) get one step apart.
  let aSort = b.sortNum;
  const bSort = a.sortNum;
  if (aSort === bSort) aSort += direction === 'up' ? -1 : 1;
  for (const [row, sort] of [
    [a, aSort],
    [b, bSort],
  ] as const) {
    const catalogueSort = getCatalogEntry(row.key)!.sortNum;
    const locked = await lockMenu(tx, row.key);
    await tx
      .update(menus)
      .set({ customSort: sort === catalogueSort ? null : sort, version: locked.version + 1 })
      .where(eq(menus.menuId, row.key));
  }
  await audit(tx, actor, { action: 'move', entity: 'menu', entityId: key, before: { [a.key]: a.sortNum, [b.key]: b.sortNum }, after: { [a.key]: aSort, [b.key]: bSort } });
}

const CLEARED = { customNames: null, customSort: null, customIcon: null, hidden: false } as const;

/** Drops every change of one entry: it is the catalogue's again. */
export async function resetMenu(tx: Tx, actor: Actor, key: string): Promise<MenuCustomRow> {
  const entry = editableOr404(key);
  const before = await lockMenu(tx, key);
  const [after] = await tx
    .update(menus)
    .set({ ...CLEARED, version: before.version + 1 })
    .where(eq(menus.menuId, key))
    .returning(customColumns);
  await audit(tx, actor, { action: 'reset', entity: 'menu', entityId: key, before, after });
  return toRow(entry, after);
}

/** Drops every change in a family's menu tree. */
export async function resetMenuFamily(tx: Tx, actor: Actor, family: MenuFamily): Promise<number> {
  const keys = editableOf(family).map((e) => e.key);
  const before = (await tx.select(customColumns).from(menus).where(inArray(menus.menuId, keys))).filter((r) => toRow(getCatalogEntry(r.menuId)!, r).customised);
  if (before.length === 0) return 0;
  const ids = before.map((r) => r.menuId);
  for (const r of before) await tx.update(menus).set({ ...CLEARED, version: r.version + 1 }).where(eq(menus.menuId, r.menuId));
  await audit(tx, actor, { action: 'reset', entity: 'menu', entityId: family, before, after: { reset: ids } });
  return ids.length;
}
