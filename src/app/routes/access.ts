import type { MenuNode, UInfo } from '@/domain/auth/types';
import { findCatalogEntry, getCatalogEntry } from '@/domain/menus/catalog';
import { familyOfPath, isForeignFamily } from '@/features/auth/redirect';

export type Access = 'allow' | 'login' | 'notFound';

/** Personal-centre paths: always allowed (docs/product-rules.md#screens-and-routes). */
export function isPersonalPath(pathname: string): boolean {
  return pathname === '/myInfo' || pathname.startsWith('/myInfo/');
}

function menuIds(tree: readonly MenuNode[], into = new Set<string>()): Set<string> {
  for (const node of tree) {
    into.add(node.menuId);
    menuIds(node.children, into);
  }
  return into;
}

/**
 * True when the role reaches the path: a page of its menu tree (or whose view permission it holds), or a hidden
 * route (add, edit/:id …) of such a page (hidden routes stay out of the tree; they come with the page that opens them).
 */
export function isInMenu(pathname: string, uinfo: Pick<UInfo, 'menuTree' | 'permissions'>): boolean {
  let page = findCatalogEntry(pathname);
  while (page?.kind === 'route' && page.parent) page = getCatalogEntry(page.parent);
  if (!page) return false;
  return menuIds(uinfo.menuTree).has(page.key) || uinfo.permissions.includes(page.permission);
}

/**
 * The route guard of docs/product-rules.md#screens-and-routes: the login screen and the personal centre are always allowed; any
 * other path needs a stored account with a current type path; a path of another role family, or
 * a screen of the own family outside the role's menu, is not found.
 */
export function decideAccess(pathname: string, uinfo: UInfo | null, hasToken: boolean): Access {
  if (pathname === '/' || isPersonalPath(pathname)) return 'allow';
  const signedIn = hasToken && Boolean(uinfo?.currentTypePath) && Boolean(uinfo?.accounts.some((a) => a.presentFlag));
  if (!signedIn || !uinfo) return 'login';
  if (isForeignFamily(pathname, uinfo.currentTypePath)) return 'notFound';
  const family = familyOfPath(pathname);
  // The standalone screens are always allowed (docs/product-rules.md#screens-and-routes); the family root redirects. The
  // shared /single screens are always registered but, like any page, open only for a role that holds them.
  if (!family || pathname.replace(/\/$/, '') === `/${family}`) return 'allow';
  return isInMenu(pathname, uinfo) ? 'allow' : 'notFound';
}
