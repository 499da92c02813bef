import type { TFunction } from 'i18next';
import type { Family } from '@/domain/menus/access';
import { permissionTree } from '@/domain/roles/permission-tree';
import { buttonId, roleCatalog } from '@/domain/roles/roles';
import type { TreeNode } from '@/components/tree/tree';

/**
 * The web permission tree of a family's roles from the catalogue alone (docs/product-rules.md#menus-and-permissions):
 * what the role editor shows until the server's tree (`useRoleMenuTree`, with the platform operators' names, order
 * and hidden marks) has arrived. The ids are the same in both.
 */
export function permissionNodes(family: Family, t: TFunction): TreeNode[] {
  return permissionTree(family, {
    entry: (e) => t(e.i18nKey, { ns: 'menus', defaultValue: e.name }),
    button: (b) => t(b.i18nKey, { ns: 'menus', defaultValue: b.name }),
  });
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
