import type { MenuEntry } from '../auth/types';
import { CATALOG, getCatalogEntry, type CatalogEntry } from './catalog';

/** What a role holds: catalogue keys (groups, pages, hidden routes) and button permission codes. */
export interface RoleGrant {
  keys: readonly string[];
  buttons: readonly string[];
}

/**
 * The menus-table rows of catalogue entries (docs/product-rules.md#menus-and-permissions): one row per entry (menuType '0'; groups have
 * an empty path) followed by one row per button (menuType '1', menuId `${key}#${action}`, pid the page).
 */
export function toMenuEntries(entries: readonly CatalogEntry[]): MenuEntry[] {
  const rows: MenuEntry[] = [];
  for (const e of entries) {
    rows.push({
      menuId: e.key,
      pid: e.parent ?? '0',
      menuName: e.name,
      i18nKey: e.i18nKey,
      menuPath: e.kind === 'group' ? '' : e.path,
      menuType: '0',
      sortNum: e.sortNum,
      permission: e.permission,
      ...(e.icon ? { icon: e.icon } : {}),
    });
    e.buttons.forEach((b, i) =>
      rows.push({
        menuId: `${e.key}#${b.action}`,
        pid: e.key,
        menuName: b.name,
        i18nKey: b.i18nKey,
        menuPath: '',
        menuType: '1',
        sortNum: i + 1,
        permission: b.permission,
      }),
    );
  }
  return rows;
}

/** Catalogue keys of `keys` plus every ancestor, so no granted page is orphaned in the tree. */
export function withAncestors(keys: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const key of keys) {
    let e = getCatalogEntry(key);
    while (e && !out.has(e.key)) {
      out.add(e.key);
      e = e.parent ? getCatalogEntry(e.parent) : undefined;
    }
  }
  return out;
}

/** The menu rows a role with this grant holds (entries with their ancestors, granted buttons only). */
export function menuEntriesForGrant(grant: RoleGrant): MenuEntry[] {
  const keys = withAncestors(grant.keys);
  const buttons = new Set(grant.buttons);
  return toMenuEntries(
    CATALOG.filter((e) => keys.has(e.key)).map((e) => ({ ...e, buttons: e.buttons.filter((b) => buttons.has(b.permission)) })),
  );
}
