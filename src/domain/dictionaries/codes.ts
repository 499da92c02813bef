import { z } from 'zod';
import '../fields';

/**
 * The field of a record that holds a dictionary code (docs/product-rules.md#dictionaries). Its shape only: whether
 * the code is in the organisation's effective dictionary is `dictionaryCodeIssue` (./dictionaries.ts), checked by the
 * form (with the entries it shows) and by the server (with the entries it reads), so an organisation's own entry is
 * accepted wherever the platform's are. Kept apart from ./dictionaries.ts, which imports the areas' code lists.
 */
export const DICTIONARY_ENTRY_CODE_MAX = 32;
/** A letter, then letters, digits, '_' or '-': a code that stays stable in URLs, exports and filters. */
export const DICTIONARY_ENTRY_CODE_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;

export function dictionaryCode(required: string) {
  return z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(DICTIONARY_ENTRY_CODE_MAX, 'dictionaries:errors.codeFormat')
    .regex(DICTIONARY_ENTRY_CODE_PATTERN, 'dictionaries:errors.codeFormat');
}

/** A list filter on a dictionary code: blank is no filter. */
export const dictionaryCodeFilter = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.string({ error: 'validation:list.badText' }).trim().max(DICTIONARY_ENTRY_CODE_MAX, 'validation:list.badText').regex(DICTIONARY_ENTRY_CODE_PATTERN, 'validation:list.badText').optional(),
);
