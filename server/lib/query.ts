import { z } from 'zod';
import { UUID } from './ids';

const blankAsUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** An optional id filter of a list query; '' means no filter. */
export const optionalIdFilter = z.preprocess(blankAsUndefined, z.string().regex(UUID, 'validation:common.id').optional());

/** An optional text filter of a list query (contains, case-insensitive); '' means no filter. */
export const optionalTextFilter = z.preprocess(blankAsUndefined, z.string().trim().max(64).optional());

/** `%text%` for ILIKE with the pattern characters of `text` escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}
