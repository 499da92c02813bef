import type { RouteFamily } from '../constants';

// Apart from access.ts so that what needs only the family names (the login screen's rt check, src/features/auth/redirect.ts)
// does not load the catalogue, which is built when its module loads (docs/decisions/012-lean-first-screen.md).

/** The role-dependent families with screens of their own (docs/product-rules.md#families). */
export type Family = 'admin' | 'k12' | 'gx';
export const FAMILIES: readonly Family[] = ['admin', 'k12', 'gx'];
/** The families with routes of their own: the role families and the shared /single screens. */
export const ROUTE_FAMILIES: readonly RouteFamily[] = [...FAMILIES, 'single'];

export function isFamily(value: unknown): value is Family {
  return FAMILIES.includes(value as Family);
}
