import { idFilter, textFilter } from '@/domain/list-query';

/** An optional id filter of a list query; '' means no filter (src/domain/list-query.ts). */
export const optionalIdFilter = idFilter;

/** An optional text filter of a list query (contains, case-insensitive); '' means no filter. */
export const optionalTextFilter = textFilter();

/** `%text%` for ILIKE with the pattern characters of `text` escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}
