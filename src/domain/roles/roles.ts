import { z } from 'zod';
import { enumFilter, optionalText, uuid } from '../fields';
import { idFilter, listQuery, textFilter, versionField } from '../list-query';
import { CATALOG, type CatalogEntry } from '../menus/catalog';
import type { Family } from '../menus/access';

/**
 * Roles (docs/product-rules.md#roles): a name of Chinese characters, English letters and digits, a remark, an
 * identity, web function permissions (catalogue entries and buttons of the family) and mobile functions.
 */

export const ROLE_NAME_MAX = 20;
export const ROLE_REMARK_MAX = 200;
/** Chinese characters (CJK unified ideographs), English letters and digits only. */
export const ROLE_NAME_PATTERN = /^[\u4e00-\u9fa5A-Za-z0-9]+$/;

export const ROLE_IDENTITIES = ['teacher', 'student', 'parent', 'administrator'] as const;
export type RoleIdentity = (typeof ROLE_IDENTITIES)[number];

/** Functions of the mobile app a role can open; the product's own list (the app reads them from the role). */
export const MOBILE_FUNCTIONS = ['signIn', 'physiqueResults', 'homework', 'contests', 'exercise', 'meets'] as const;
export type MobileFunction = (typeof MOBILE_FUNCTIONS)[number];

/**
 * Whose people and results a role's holders see (docs/product-rules.md#data-scopes): the whole organisation, the grades
 * of the classes they teach or head, or only those classes. Applied on the server to every people list, score lookup,
 * test record and data-centre read.
 */
export const DATA_SCOPES = ['org', 'grades', 'classes'] as const;
export type DataScope = (typeof DATA_SCOPES)[number];

/** How wide a data scope is: a role can only hand out scopes no wider than its editor's own (like permissions). */
const SCOPE_WIDTH: Record<DataScope, number> = { classes: 0, grades: 1, org: 2 };
/** Whether `scope` covers no more than `held` (docs/product-rules.md#data-scopes). */
export const scopeWithin = (scope: DataScope, held: DataScope): boolean => SCOPE_WIDTH[scope] <= SCOPE_WIDTH[held];

/** The button of a page as a permission-tree id: `${pageKey}#${action}` (the menus table's menuId of the button). */
export const buttonId = (key: string, action: string) => `${key}#${action}`;

const SHARED_MEET_GROUP = 'single.sportsMeet';

/**
 * The catalogue entries a role of `family` can hold: the family's screens, the shared single screens, the personal
 * centre. The shared meet screens come only with a family that runs meets (has its own sportsMeet group: k12, gx);
 * a management organisation runs none, so its roles never see screens that would only answer 403.
 */
export function roleCatalog(family: Family): CatalogEntry[] {
  const runsMeets = CATALOG.some((e) => e.key === `${family}.sportsMeet`);
  return CATALOG.filter(
    (e) =>
      e.family === family ||
      e.family === 'personal' ||
      (e.family === 'single' && (runsMeets || (e.key !== SHARED_MEET_GROUP && !e.key.startsWith(`${SHARED_MEET_GROUP}.`)))),
  );
}

/** Role management of a family: what a built-in administrator role can never lose. */
export const roleManagementKey = (family: Family) => `${family}.user.role`;

export const roleSaveSchema = z.object({
  name: z
    .string({ error: 'validation:role.nameRequired' })
    .trim()
    .min(1, 'validation:role.nameRequired')
    .max(ROLE_NAME_MAX, 'validation:role.nameLength')
    .regex(ROLE_NAME_PATTERN, 'validation:role.nameChars'),
  remark: optionalText(ROLE_REMARK_MAX, 'validation:role.remarkLength'),
  identity: z.enum(ROLE_IDENTITIES, { error: 'validation:role.identityRequired' }),
  /** Catalogue keys and button ids (`key#action`) checked in the web permission tree. */
  menuIds: z.array(z.string().max(120)).max(2000).default([]),
  mobileFunctions: z.array(z.enum(MOBILE_FUNCTIONS, { error: 'validation:role.mobileUnknown' })).max(MOBILE_FUNCTIONS.length).default([]),
  /** Whose people and results the role's holders see; left out: a new role sees the whole organisation, an edit keeps it. */
  dataScope: z.enum(DATA_SCOPES, { error: 'validation:role.dataScopeUnknown' }).optional(),
  version: versionField.optional(),
});
export type RoleSave = z.output<typeof roleSaveSchema>;
export type RoleForm = z.input<typeof roleSaveSchema>;

export const roleListQuery = listQuery({ name: textFilter(), identity: enumFilter(ROLE_IDENTITIES) });
export const roleMemberListQuery = listQuery({ keyword: textFilter() });
export const roleMembersAddSchema = z.object({
  accountIds: z.array(uuid()).min(1, 'validation:role.membersRequired').max(200),
});
export const roleCandidateQuery = z.object({ keyword: textFilter(), exceptRoleId: idFilter });

/** A role as the list and form read it. */
export const roleRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  remark: z.string().nullable(),
  identity: z.enum(ROLE_IDENTITIES),
  builtin: z.boolean(),
  memberCount: z.number().int(),
  dataScope: z.enum(DATA_SCOPES),
  version: z.number().int(),
});
export type RoleRow = z.output<typeof roleRowSchema>;

export const roleDetailSchema = roleRowSchema.extend({
  menuIds: z.array(z.string()).describe('Granted entries and buttons of the permission tree (`key`, `key#action`)'),
  mobileFunctions: z.array(z.enum(MOBILE_FUNCTIONS)),
});
export type RoleDetail = z.output<typeof roleDetailSchema>;

/** A member of a role: an account (membership) of the organisation. */
export const roleMemberSchema = z.object({ accountId: z.string(), name: z.string(), accountNum: z.string(), mobile: z.string().nullable() });
export type RoleMember = z.output<typeof roleMemberSchema>;
