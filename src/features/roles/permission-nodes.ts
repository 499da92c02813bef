import type { TFunction } from 'i18next';
import type { Family } from '@/domain/menus/access';
import type { CatalogEntry } from '@/domain/menus/catalog';
import { buttonId, roleCatalog } from '@/domain/roles/roles';
import type { TreeNode } from '@/components/tree/tree';

/**
 * The web permission tree of a family's roles: groups → pages → buttons (`key#action`), plus the standalone screens.
 * Hidden sub-routes are not shown: the server grants them with the page or button that opens them.
 */
export function permissionNodes(family: Family, t: TFunction): TreeNode[] {
  const catalog = roleCatalog(family);
  const label = (e: CatalogEntry) => t(e.i18nKey, { ns: 'menu', defaultValue: e.name });
  const nodeOf = (e: CatalogEntry): TreeNode => {
    const kids = catalog.filter((c) => c.parent === e.key && c.kind !== 'route').map(nodeOf);
    const buttons = e.buttons.map((b) => ({ id: buttonId(e.key, b.action), label: t(b.i18nKey, { ns: 'menu', defaultValue: b.name }) }));
    const children = [...kids, ...buttons];
    return children.length ? { id: e.key, label: label(e), children } : { id: e.key, label: label(e) };
  };
  return catalog.filter((e) => e.parent === null).map(nodeOf);
}

/** Tree ids whose permission code the editor does not hold: shown, but it cannot check them. */
export function notHeldIds(family: Family, held: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const e of roleCatalog(family)) {
    if (!held.has(e.permission)) out.add(e.key);
    for (const b of e.buttons) if (!held.has(b.permission)) out.add(buttonId(e.key, b.action));
  }
  return out;
}

/** The ids of the tree among a role's stored menu ids (which also hold its hidden routes). */
export function treeIdsOf(nodes: readonly TreeNode[], menuIds: readonly string[]): string[] {
  const known = new Set<string>();
  const walk = (n: TreeNode) => {
    known.add(n.id);
    n.children?.forEach(walk);
  };
  nodes.forEach(walk);
  return menuIds.filter((id) => known.has(id));
}
