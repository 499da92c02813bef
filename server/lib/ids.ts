import { UUID_PATTERN } from '@/domain/list-query';

/** A PostgreSQL uuid in text form (any version: seeds may use fixed ids). */
export const UUID = UUID_PATTERN;

export function isUuid(value: string | null | undefined): value is string {
  return typeof value === 'string' && UUID.test(value);
}
