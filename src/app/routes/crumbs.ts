import type { TFunction } from 'i18next';
import type { MenuNode } from '@/domain/auth/types';
import { findCatalogEntry, getCatalogEntry, type CatalogEntry } from '@/domain/menus/catalog';
import { findTrail } from '@/domain/menus/tree';
import type { BreadcrumbItem } from '@/components/layout/breadcrumbs';
import { menuLabel } from '@/components/layout/menu-label';

function catalogChain(entry: CatalogEntry | undefined): CatalogEntry[] {
  const chain: CatalogEntry[] = [];
  for (let e = entry; e; e = e.parent ? getCatalogEntry(e.parent) : undefined) chain.unshift(e);
  return chain;
}

/**
 * Breadcrumbs of a path: the menu trail of the present role (findTrail), plus the hidden sub-route
 * (add, edit/:id …) the path opens; the catalogue chain for pages outside the role's menu.
 */
export function buildCrumbs(t: TFunction, tree: readonly MenuNode[], pathname: string): BreadcrumbItem[] {
  const entry = findCatalogEntry(pathname);
  const trail = findTrail(tree, pathname);
  if (!trail.length) {
    return catalogChain(entry).map((e) => ({ label: menuLabel(t, e), to: e.kind === 'page' ? e.path : undefined }));
  }
  const items: BreadcrumbItem[] = trail.map((n) => ({ label: menuLabel(t, n), to: n.menuPath || undefined }));
  if (entry?.kind === 'route' && entry.path !== trail.at(-1)?.menuPath) items.push({ label: menuLabel(t, entry) });
  return items;
}
