import type { Locale, OrgType, TypePath } from '../constants';
import type { DataScope } from '../roles/roles';

/** Token answer of the login call (docs/product-rules.md#calls). */
export interface TokenData {
  access_token: string;
  expires_in: number;
  refresh_token: string;
  token_type: 'bearer';
  /**
   * True when an administrator chose the password (a reset or a new account): every call but the password change
   * answers 428 until it is changed (docs/product-rules.md#users).
   */
  must_change_password?: boolean;
}

/** A menu entry as the server stores and sends it (docs/product-rules.md#menus-and-permissions). */
export interface MenuEntry {
  menuId: string;
  /** '0' for a root entry. */
  pid: string;
  /** zh_cn name; the browser shows t(i18nKey) and falls back to this. */
  menuName: string;
  /** i18n key of the name, namespace `menus`. */
  i18nKey: string;
  /** Full path including the family prefix, e.g. '/k12/org/class'. Empty for buttons. */
  menuPath: string;
  /** '0' page, '1' button. */
  menuType: '0' | '1';
  sortNum: number;
  /** Permission code: on pages the view permission, on buttons the action. */
  permission: string;
  icon?: string;
  /** Names a platform operator gave the entry, by language (docs/product-rules.md#menu-management); shown before t(i18nKey). */
  names?: Partial<Record<Locale, string>>;
}

/** A node of the built menu tree: pages only, buttons folded into `buttons`. */
export interface MenuNode extends MenuEntry {
  /** Path of the first page descendant (the entry's own path for a leaf) (docs/product-rules.md#accounts-in-use). */
  defaultPath: string;
  children: MenuNode[];
  /** Permission codes of the buttons directly under this page. */
  buttons: string[];
}

export type Identity = 'administrator' | 'teacher' | 'student' | 'parent';

export interface RoleInfo {
  roleId: string;
  roleName: string;
  identity: Identity;
  /** The role currently in use for this account. */
  presentFlag: boolean;
  /** Whose data the role's holders see (docs/product-rules.md#data-scopes). */
  dataScope: DataScope;
  menus: MenuEntry[];
}

export interface AccountInfo {
  accountId: string;
  accountNum: string;
  orgId: string;
  orgName: string;
  orgType: OrgType;
  tenantOrgId: string;
  tenantOrgName: string;
  /** The account currently in use (docs/product-rules.md#accounts-in-use). */
  presentFlag: boolean;
  roles: RoleInfo[];
}

/** The user-info answer of getUInfo, switchRole and switchOrg (docs/product-rules.md#accounts-in-use, #calls). */
export interface UInfo {
  userId: string;
  userName: string;
  mobile: string;
  gender: 'male' | 'female' | 'unknown';
  platformName: string;
  icon: string;
  orgType: OrgType | null;
  /** '/admin' | '/k12' | '/gx', from the present account's organisation type; null when none. */
  currentTypePath: TypePath | null;
  accounts: AccountInfo[];
  /** Menu tree of the present account and role. */
  menuTree: MenuNode[];
  /** Every permission code the present role holds (pages and buttons). */
  permissions: string[];
  /**
   * The present account may manage the installation's menus (docs/product-rules.md#menu-management): it holds the
   * permission in a top management organisation. The header's account menu then links to menu management.
   */
  platformOperator?: boolean;
}

/** Public branding of the organisation serving this address (docs/product-rules.md#branding, #calls). */
export interface SimpleOrgInfo {
  platformName: string;
  icon: string;
  loginImg: string;
  filingNumber: string;
}
