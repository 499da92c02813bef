import type { Family } from '@/domain/menus/access';

/**
 * Whether the family may write scores (import, sync, edit, invalid/restore; docs/product-rules.md#physique-results): a management
 * organisation (admin family) reads its schools' plans and results but never changes them.
 */
export function canWriteScores(family: Family): boolean {
  return family !== 'admin';
}
