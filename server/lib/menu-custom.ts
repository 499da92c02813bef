import { eq, isNotNull, or } from 'drizzle-orm';
import type { MenuCustom } from '@/domain/roles/permission-tree';
import type { DbOrTx } from '../db/client';
import { menus } from '../db/schema/auth';

/**
 * Menu rows platform operators hid (docs/product-rules.md#menu-management); `isHiddenBy` (src/domain/menus/customize.ts)
 * extends them to their sub-routes, buttons and pages. Read with the scope and the menu build, both cached under the
 * auth epoch, which every write to `menus` bumps.
 */
export async function hiddenMenuIds(db: DbOrTx): Promise<Set<string>> {
  const rows = await db.select({ menuId: menus.menuId }).from(menus).where(eq(menus.hidden, true));
  return new Set(rows.map((r) => r.menuId));
}

/** Every entry a platform operator changed, by key: what role editors' permission trees show. */
export async function menuCustoms(db: DbOrTx): Promise<Map<string, MenuCustom>> {
  const rows = await db
    .select({ menuId: menus.menuId, names: menus.customNames, sortNum: menus.customSort, hidden: menus.hidden })
    .from(menus)
    .where(or(isNotNull(menus.customNames), isNotNull(menus.customSort), eq(menus.hidden, true)));
  return new Map(rows.map(({ menuId, ...c }) => [menuId, c]));
}
