import { randomUUID } from 'node:crypto';
import { UUID_PATTERN } from '@/domain/fields';

/** A PostgreSQL uuid in text form (any version: seeds may use fixed ids). */
export const UUID = UUID_PATTERN;

export function isUuid(value: string | null | undefined): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * A new time-ordered uuid (version 7: 48 bits of Unix milliseconds, then random bits). Rows written together get ids
 * next to each other, so a bulk write adds its keys to one end of the primary key's B-tree instead of touching its
 * pages at random (docs/decisions/028-score-import-at-copy-speed.md).
 */
let lastMs = -1;
let lastPrefix = '';
export function timeOrderedUuid(now = Date.now()): string {
  // The random bits of a version 4 uuid (Node draws them from a buffered pool: one randomBytes call per id cost an
  // import of 50,000 rows ≈ 0.2 s); its variant bits (position 19) are version 7's too. The time part is formatted
  // once per millisecond (a bulk write draws thousands of ids in one).
  const r = randomUUID();
  if (now !== lastMs) {
    const t = now.toString(16).padStart(12, '0');
    lastPrefix = `${t.slice(0, 8)}-${t.slice(8, 12)}-7`;
    lastMs = now;
  }
  return `${lastPrefix}${r.slice(15, 18)}-${r.slice(19)}`;
}
