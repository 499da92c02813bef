/** A node of an organisation, department or permission tree. */
export interface TreeNode {
  id: string;
  label: string;
  children?: readonly TreeNode[];
  disabled?: boolean;
}

/** Every node, depth first, with its depth. */
export function flattenTree(nodes: readonly TreeNode[], depth = 0, out: { node: TreeNode; depth: number }[] = []) {
  for (const node of nodes) {
    out.push({ node, depth });
    if (node.children) flattenTree(node.children, depth + 1, out);
  }
  return out;
}

/** Ids of a node and all nodes below it. */
export function subtreeIds(node: TreeNode): string[] {
  return [node.id, ...(node.children ?? []).flatMap(subtreeIds)];
}

export type CheckState = 'checked' | 'unchecked' | 'indeterminate';

/**
 * The state of a node in a permission tree: a parent is checked when all its leaves are, half-checked when some are.
 * Only leaves are stored (a page with buttons counts its own view permission as a leaf of its own).
 */
export function checkState(node: TreeNode, checked: ReadonlySet<string>): CheckState {
  const kids = node.children ?? [];
  if (kids.length === 0) return checked.has(node.id) ? 'checked' : 'unchecked';
  const states = kids.map((k) => checkState(k, checked));
  const own = checked.has(node.id);
  if (own && states.every((s) => s === 'checked')) return 'checked';
  if (!own && states.every((s) => s === 'unchecked')) return 'unchecked';
  return 'indeterminate';
}

/** Checking a node checks it and everything below; unchecking unchecks them all. */
export function toggleNode(node: TreeNode, checked: ReadonlySet<string>, on: boolean): Set<string> {
  const next = new Set(checked);
  for (const id of subtreeIds(node)) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}

/** Ids to send for a checked set: the checked nodes plus every ancestor of one (a button needs its page and group). */
export function withAncestors(nodes: readonly TreeNode[], checked: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  const walk = (node: TreeNode, path: string[]): boolean => {
    let any = checked.has(node.id);
    for (const k of node.children ?? []) if (walk(k, [...path, node.id])) any = true;
    if (any) {
      out.add(node.id);
      for (const p of path) out.add(p);
    }
    return any;
  };
  for (const n of nodes) walk(n, []);
  return out;
}

/**
 * Nests a flat list by `parentId` (organisations, departments): each row gets its `children`; a row whose parent is
 * not in the list is a root. Order among siblings is the list's order.
 */
export function treeFromFlat<T extends { id: string; parentId: string | null }>(rows: readonly T[]): (T & { children: readonly (T & { children: unknown })[] })[] {
  type Node = T & { children: Node[] };
  const ids = new Set(rows.map((r) => r.id));
  const byParent = new Map<string | null, T[]>();
  for (const r of rows) {
    const p = r.parentId && ids.has(r.parentId) ? r.parentId : null;
    byParent.set(p, [...(byParent.get(p) ?? []), r]);
  }
  const build = (p: string | null): Node[] => (byParent.get(p) ?? []).map((r) => ({ ...r, children: build(r.id) }));
  return build(null);
}
