import { formatRaw } from '@/domain/physique-results/export-layout';
import type { ItemKey } from '@/domain/physique/standard';
import { NO_FIGURE } from './format';

/**
 * A raw item value for people: long runs as 3'40", others as numbers; '—' when absent. Apart from format.ts, which
 * every dashboard loads: the export layout brings the national template with it (docs/decisions/012-lean-first-screen.md).
 */
export function formatRawValue(item: ItemKey, value: number | null | undefined): string {
  const shown = formatRaw(item, value, 'display');
  return shown === null ? NO_FIGURE : String(shown);
}
