import { z } from 'zod';
import { LOCALES, ORG_TYPES, type OrgType, type TypePath } from '../constants';
import { FAMILIES } from '../menus/families';
import { DATA_SCOPES } from '../roles/roles';

/**
 * Answers of the personal centre (myInfo: getUInfo, menu, switchRole, switchOrg; docs/product-rules.md#accounts-in-use,
 * #calls) as zod for the API document (/api/docs): they describe, never filter. The types are exported from ./types.
 */

const orgTypeSchema = z.literal(ORG_TYPES as [OrgType, ...OrgType[]]);
const typePathSchema = z.enum(FAMILIES.map((f): TypePath => `/${f}`) as [TypePath, ...TypePath[]]);

/** A menu entry as the server stores and sends it (docs/product-rules.md#menus-and-permissions). */
export const menuEntrySchema = z.object({
  menuId: z.string(),
  /** '0' for a root entry. */
  pid: z.string(),
  /** zh_cn name; the browser shows t(i18nKey) and falls back to this. */
  menuName: z.string(),
  /** i18n key of the name, namespace `menus`. */
  i18nKey: z.string(),
  /** Full path including the family prefix, e.g. '/k12/org/class'. Empty for buttons. */
  menuPath: z.string(),
  /** '0' page, '1' button. */
  menuType: z.enum(['0', '1']),
  sortNum: z.number(),
  /** Permission code: on pages the view permission, on buttons the action. */
  permission: z.string(),
  icon: z.string().optional(),
  /** Names a platform operator gave the entry, by language (docs/product-rules.md#menu-management); shown before t(i18nKey). */
  names: z.partialRecord(z.enum(LOCALES), z.string()).optional(),
});
export type MenuEntry = z.output<typeof menuEntrySchema>;

/** A node of the built menu tree: pages only, buttons folded into `buttons`. */
export interface MenuNode extends MenuEntry {
  /** Path of the first page descendant (the entry's own path for a leaf) (docs/product-rules.md#accounts-in-use). */
  defaultPath: string;
  children: MenuNode[];
  /** Permission codes of the buttons directly under this page. */
  buttons: string[];
}
/**
 * A node's schema down to `depth` levels of children, written out rather than recursive (as permission-tree.ts does:
 * the API document's generator turns a recursive schema into a reference it does not define).
 */
const menuNodeAt = (depth: number): z.ZodType<MenuNode> =>
  menuEntrySchema.extend({
    defaultPath: z.string(),
    children: z.array(depth > 0 ? menuNodeAt(depth - 1) : z.never()),
    buttons: z.array(z.string()),
  });
const MENU_TREE_DEPTH = 5;
export const menuTreeSchema = z.array(menuNodeAt(MENU_TREE_DEPTH));

export const identitySchema = z.enum(['administrator', 'teacher', 'student', 'parent']);
export type Identity = z.output<typeof identitySchema>;

export const roleInfoSchema = z.object({
  roleId: z.string(),
  roleName: z.string(),
  identity: identitySchema,
  /** The role currently in use for this account. */
  presentFlag: z.boolean(),
  /** Whose data the role's holders see (docs/product-rules.md#data-scopes). */
  dataScope: z.enum(DATA_SCOPES),
  menus: z.array(menuEntrySchema),
});
export type RoleInfo = z.output<typeof roleInfoSchema>;

export const accountInfoSchema = z.object({
  accountId: z.string(),
  accountNum: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  orgType: orgTypeSchema,
  tenantOrgId: z.string(),
  tenantOrgName: z.string(),
  /** The account currently in use (docs/product-rules.md#accounts-in-use). */
  presentFlag: z.boolean(),
  roles: z.array(roleInfoSchema),
});
export type AccountInfo = z.output<typeof accountInfoSchema>;

/** The user-info answer of getUInfo, switchRole and switchOrg (docs/product-rules.md#accounts-in-use, #calls). */
export const uInfoSchema = z.object({
  userId: z.string(),
  userName: z.string(),
  mobile: z.string(),
  gender: z.enum(['male', 'female', 'unknown']),
  platformName: z.string(),
  icon: z.string(),
  orgType: orgTypeSchema.nullable(),
  /** '/admin' | '/k12' | '/gx', from the present account's organisation type; null when none. */
  currentTypePath: typePathSchema.nullable(),
  accounts: z.array(accountInfoSchema),
  /** Menu tree of the present account and role. */
  menuTree: menuTreeSchema,
  /** Every permission code the present role holds (pages and buttons). */
  permissions: z.array(z.string()),
  /**
   * The present account may manage the installation's menus (docs/product-rules.md#menu-management): it holds the
   * permission in a top management organisation. The header's account menu then links to menu management.
   */
  platformOperator: z.boolean().optional(),
});
export type UInfo = z.output<typeof uInfoSchema>;
