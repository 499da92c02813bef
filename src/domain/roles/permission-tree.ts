import { z } from 'zod';
import type { Family } from '../menus/access';
import { CATALOG_FAMILIES, type CatalogButton, type CatalogEntry } from '../menus/catalog';
import { buttonId, roleCatalog } from './roles';
import type { Locale } from '../constants';

/** A node of a role's web permission tree: a group, page or button (`key#action`). */
export interface PermissionNode {
  id: string;
  label: string;
  /** Hidden by a platform operator (docs/product-rules.md#menu-management): still grantable, not shown in menus. */
  hidden?: boolean;
  children?: PermissionNode[];
}
/**
 * A node's schema down to `depth` levels of children, written out rather than recursive: the API document's
 * generator turns a recursive schema into a reference it does not define. Groups → pages → buttons is three levels;
 * two more leave room for nested groups.
 */
const permissionNodeAt = (depth: number): z.ZodType<PermissionNode> =>
  z.object({
    id: z.string().describe('Catalogue key of a group or page, or `key#action` of a button'),
    label: z.string().describe("The name in the request's language (an operator's name when set)"),
    hidden: z.boolean().optional().describe('Hidden by a platform operator: still grantable, not shown in menus'),
    children: z.array(depth > 0 ? permissionNodeAt(depth - 1) : z.never()).optional(),
  });
const PERMISSION_TREE_DEPTH = 5;
/** GET …/role/menu-tree: the family's permission tree. */
export const permissionTreeSchema = z.array(permissionNodeAt(PERMISSION_TREE_DEPTH));

/** A platform operator's change of one entry that the permission tree shows (docs/product-rules.md#menu-management). */
export interface MenuCustom {
  names: Partial<Record<Locale, string>> | null;
  sortNum: number | null;
  hidden: boolean;
}

/**
 * The web permission tree of a family's roles: groups → pages → buttons, plus the standalone screens, in the menu's
 * order with the names in effect. Hidden sub-routes are not shown: the server grants them with the page or button
 * that opens them. Hidden entries stay, marked, so saving a role never drops their grant.
 */
export function permissionTree(
  family: Family,
  label: { entry(e: CatalogEntry, custom: MenuCustom | undefined): string; button(b: CatalogButton): string },
  custom: ReadonlyMap<string, MenuCustom> = new Map(),
): PermissionNode[] {
  const catalog = roleCatalog(family);
  const order = (e: CatalogEntry) => custom.get(e.key)?.sortNum ?? e.sortNum;
  // Top entries keep the catalogue's family order (the role's family, shared screens, personal centre).
  const familyAt = (e: CatalogEntry) => CATALOG_FAMILIES.indexOf(e.family);
  const childrenOf = (parent: string | null) =>
    catalog
      .filter((c) => c.parent === parent && (parent === null || c.kind !== 'route'))
      .sort((a, b) => familyAt(a) - familyAt(b) || order(a) - order(b));
  const nodeOf = (e: CatalogEntry): PermissionNode => {
    const c = custom.get(e.key);
    const kids = childrenOf(e.key).map(nodeOf);
    const buttons = e.buttons.map((b) => ({ id: buttonId(e.key, b.action), label: label.button(b) }));
    const children = [...kids, ...buttons];
    const node: PermissionNode = { id: e.key, label: label.entry(e, c) };
    if (c?.hidden) node.hidden = true;
    if (children.length) node.children = children;
    return node;
  };
  return childrenOf(null).map(nodeOf);
}
