import type { MenuEntry, MenuNode } from '../auth/types';

/**
 * Builds the menu tree of one role from its flat entries (spec §2, §6): pages nest under their
 * pid, sorted by sortNum; buttons are folded into their page's `buttons`; each entry's
 * defaultPath is its first page descendant's path (a leaf's own path).
 */
export function buildMenuTree(entries: readonly MenuEntry[]): MenuNode[] {
  const nodes = new Map<string, MenuNode>();
  for (const e of entries) {
    if (e.menuType === '0') nodes.set(e.menuId, { ...e, defaultPath: e.menuPath, children: [], buttons: [] });
  }
  const roots: MenuNode[] = [];
  for (const e of entries) {
    if (e.menuType === '1') {
      nodes.get(e.pid)?.buttons.push(e.permission);
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

/** The landing page: the first top entry's default path (spec §6). */
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
