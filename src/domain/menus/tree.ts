import type { MenuEntry, MenuNode } from '../auth/types';
import { getCatalogEntry } from './catalog';

/** True when the entry is a hidden sub-route (add, edit/:id …) of the catalogue: routed, never shown in the menu. */
export function isCatalogRoute(entry: MenuEntry): boolean {
  return getCatalogEntry(entry.menuId)?.kind === 'route';
}

/**
 * Builds the menu tree of one role from its flat entries (docs/product-rules.md#menus-and-permissions): pages nest under their
 * pid, sorted by sortNum; buttons are folded into their page's `buttons`; each entry's
 * defaultPath is its first page descendant's path (a leaf's own path). Hidden routes stay out of
 * `children`; their permission and buttons are folded into the nearest visible ancestor's `buttons`
 * so gates on a sub-route screen still find them.
 */
export function buildMenuTree(entries: readonly MenuEntry[], isRoute: (e: MenuEntry) => boolean = isCatalogRoute): MenuNode[] {
  const byId = new Map<string, MenuEntry>();
  const hidden = new Set<string>();
  const nodes = new Map<string, MenuNode>();
  for (const e of entries) {
    if (e.menuType !== '0') continue;
    byId.set(e.menuId, e);
    if (isRoute(e)) hidden.add(e.menuId);
    else nodes.set(e.menuId, { ...e, defaultPath: e.menuPath, children: [], buttons: [] });
  }
  const owner = (id: string): MenuNode | undefined => {
    const seen = new Set<string>();
    let cur: string | undefined = id;
    while (cur !== undefined && hidden.has(cur) && !seen.has(cur)) {
      seen.add(cur);
      cur = byId.get(cur)?.pid;
    }
    return cur === undefined ? undefined : nodes.get(cur);
  };
  const addButton = (node: MenuNode | undefined, code: string) => {
    if (node && code && !node.buttons.includes(code)) node.buttons.push(code);
  };
  const roots: MenuNode[] = [];
  for (const e of entries) {
    if (e.menuType === '1') {
      addButton(owner(e.pid), e.permission);
      continue;
    }
    if (hidden.has(e.menuId)) {
      addButton(owner(e.pid), e.permission);
      continue;
    }
    const node = nodes.get(e.menuId)!;
    const parent = e.pid === '0' ? undefined : nodes.get(e.pid);
    if (parent) parent.children.push(node);
    else if (e.pid === '0') roots.push(node);
    // A page whose parent the role lacks is unreachable in the tree: drop it.
  }
  const sortRec = (list: MenuNode[]): MenuNode[] => {
    list.sort((a, b) => a.sortNum - b.sortNum || a.menuId.localeCompare(b.menuId));
    for (const n of list) {
      sortRec(n.children);
      n.defaultPath = firstLeafPath(n);
    }
    return list;
  };
  return sortRec(roots);
}

function firstLeafPath(node: MenuNode): string {
  for (const child of node.children) {
    const p = firstLeafPath(child);
    if (p) return p;
  }
  return node.menuPath;
}

/** The landing page: the first top entry's default path (docs/product-rules.md#accounts-in-use). */
export function landingPath(tree: readonly MenuNode[]): string | null {
  return tree.find((n) => n.defaultPath)?.defaultPath ?? null;
}

/** Finds the page node whose path is the longest prefix of `pathname`, for breadcrumbs and button gates. */
export function findTrail(tree: readonly MenuNode[], pathname: string): MenuNode[] {
  let best: MenuNode[] = [];
  const walk = (list: readonly MenuNode[], trail: MenuNode[]) => {
    for (const n of list) {
      const t = [...trail, n];
      if (n.menuPath && (pathname === n.menuPath || pathname.startsWith(n.menuPath + '/'))) {
        if (n.menuPath.length > (best.at(-1)?.menuPath.length ?? 0)) best = t;
      }
      walk(n.children, t);
    }
  };
  walk(tree, []);
  return best;
}
