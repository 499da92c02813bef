import type { RouteFamily, TypePath } from '@/domain/constants';
import { ROUTE_FAMILIES } from '@/domain/menus/families';

/**
 * The rt query parameter (docs/product-rules.md#sign-in) as a safe in-app path: only same-origin relative paths
 * ('/k12/org/class?x=1'); absolute URLs, protocol-relative '//host' and backslash tricks are refused.
 */
export function safeRedirect(rt: string | null | undefined): string | null {
  if (!rt) return null;
  const value = rt.trim();
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if ([...value].some((c) => c.charCodeAt(0) < 0x20)) return null;
  // The login screen itself is no destination.
  if (value === '/' || value.startsWith('/?') || value.startsWith('/#')) return null;
  return value;
}

/** Route family of a path: '/k12/org/class' → 'k12'; null for paths outside the families. */
export function familyOfPath(path: string): RouteFamily | null {
  const first = path.split(/[/?#]/)[1] ?? '';
  return (ROUTE_FAMILIES as readonly string[]).includes(first) ? (first as RouteFamily) : null;
}

/** A role-dependent family path ('/admin', '/k12', '/gx') that differs from the current type path (docs/product-rules.md#families). */
export function isForeignFamily(path: string, currentTypePath: TypePath | null): boolean {
  const family = familyOfPath(path);
  if (!family || family === 'single') return false;
  return `/${family}` !== currentTypePath;
}
