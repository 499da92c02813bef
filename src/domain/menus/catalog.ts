import type { RouteFamily } from '../constants';

/**
 * The product's screen catalogue (spec §2): every menu group, page, hidden sub-route and button
 * of each route family. The server seeds the menus table from it; the browser builds its routes
 * from it (a page no feature implements yet shows an honest "not available yet" screen).
 */
export interface CatalogButton {
  /** Permission code, e.g. 'k12:org:class:add'. */
  permission: string;
  /** i18n key in namespace `menu`, e.g. 'button.add'. */
  i18nKey: string;
  /** zh_cn name. */
  name: string;
}

export interface CatalogEntry {
  /** Stable id, also the menuId: e.g. 'k12.org.class'. */
  key: string;
  family: RouteFamily;
  /** Parent entry key; null for a top entry. */
  parent: string | null;
  /** 'group' has children only; 'page' shows in the menu; 'route' is a hidden sub-route (add, edit/:id …). */
  kind: 'group' | 'page' | 'route';
  /** Full path with the family prefix and react-router params, e.g. '/k12/org/class/edit/:id'. Empty for groups. */
  path: string;
  /** i18n key in namespace `menu`. */
  i18nKey: string;
  /** zh_cn name, stored as menuName. */
  name: string;
  /** View permission code of a page or route, e.g. 'k12:org:class:view'; groups use their key. */
  permission: string;
  buttons: CatalogButton[];
  sortNum: number;
  /** lucide icon name for top entries. */
  icon?: string;
}

export const CATALOG: readonly CatalogEntry[] = [];
