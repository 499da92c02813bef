import { formatRaw } from '@/domain/physique-results/export-layout';
import type { ResultKey } from '@/domain/physique/national-template';
import type { ItemKey } from '@/domain/physique/standard';

/** A raw value as people read it: long runs as 3'40", the rest as the number; '—' when absent. */
export function showRaw(field: ResultKey | ItemKey, value: number | null | undefined): string {
  const shown = formatRaw(field, value, 'display');
  return shown === null ? '—' : String(shown);
}

/** A score or total with at most one decimal; '—' when absent. */
export function showScore(value: number | null | undefined): string {
  return value == null ? '—' : String(Math.round(value * 10) / 10);
}
