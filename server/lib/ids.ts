import { randomBytes } from 'node:crypto';
import { UUID_PATTERN } from '@/domain/list-query';

/** A PostgreSQL uuid in text form (any version: seeds may use fixed ids). */
export const UUID = UUID_PATTERN;

export function isUuid(value: string | null | undefined): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * A new time-ordered uuid (version 7: 48 bits of Unix milliseconds, then random bits). Rows written together get ids
 * next to each other, so a bulk write adds its keys to one end of the primary key's B-tree instead of touching its
 * pages at random (docs/architecture.md, Performance: "Where physique_results' write cost goes").
 */
export function timeOrderedUuid(now = Date.now()): string {
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
