import { z } from 'zod';
import { SEMESTER } from './constants';
import { isIsoDate } from './dates';

/**
 * Shared zod primitives of the domain's schemas, and the project's zod error map. Every message a schema answers is
 * an i18n key (`ns:path`) the form and the API error translate; a field names its own message (`requiredNumber(key)`,
 * `z.string({ error: key })`), and whatever a schema leaves unnamed (a request of the wrong shape, a field the form
 * never shows) falls back to the generic keys of `validation:common` below instead of zod's English text.
 * Every domain module that builds a schema imports this one, directly or through api.ts / list-query.ts (a bare
 * `import './fields'` where it needs nothing else), so the error map is installed before any schema parses, in the
 * browser and on the server; tests/domain/schemas/messages.test.ts walks every exported schema against the locale
 * files.
 */

/** A form's blank ('' or only spaces) and null read as "not given". */
export const blankAsUndefined = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

/** A form's blank ('' or only spaces) and null read as "cleared" (null); a field not sent (undefined) stays so. */
export const blankAsNull = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? null : v);

/** Like blankAsNull, and a field not sent is null too: for a form saved whole, where a missing field means "none". */
export const missingAsNull = (v: unknown) => (v === undefined ? null : blankAsNull(v));

/** Text typed as a number ('8' → 8, 'x' → NaN, refused by the number schema); anything else as it came. */
export const numberish = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v);

/** A PostgreSQL uuid in text form (any version: seeds may use fixed ids). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id (uuid) in a body or a query: a malformed one answers `message`; a missing one the generic "required". */
export function uuid(message = 'validation:common.id') {
  return z.string().regex(UUID_PATTERN, message);
}

/** An id the user must choose (a class, a grade, a role…): missing or malformed, it answers the same `message`. */
export function requiredId(message: string) {
  return z.string({ error: message }).regex(UUID_PATTERN, message);
}

/** An optional id (a filter, a link): blank or missing is undefined, anything else must be an id. */
export function optionalId(message = 'validation:common.id') {
  return z.preprocess(blankAsUndefined, uuid(message).optional());
}

/** An id a form may clear (a teacher, a cover file…): blank is null ("none"), missing is undefined ("not sent"). */
export function nullableId(message = 'validation:common.id') {
  return z.preprocess(blankAsNull, uuid(message).nullable().optional());
}

/** A text a form must fill: trimmed, not blank (`required`, also when missing), at most `max` characters (`tooLong`). */
export function requiredText(max: number, required: string, tooLong = 'validation:common.tooLong') {
  return z.string({ error: required }).trim().min(1, required).max(max, tooLong);
}

/** A free text a form may clear: trimmed, at most `max` characters (`tooLong`), blank is null, missing is undefined. */
export function optionalText(max: number, tooLong: string) {
  return z.preprocess(blankAsNull, z.string().trim().max(max, tooLong).nullable().optional());
}

/** A list filter on one value of an enum: blank or missing is no filter; anything else must be one of `values`. */
export function enumFilter<const T extends readonly [string, ...string[]]>(values: T, message?: string) {
  return z.preprocess(blankAsUndefined, z.enum(values, message === undefined ? undefined : { error: message }).optional());
}

/** An optional day (YYYY-MM-DD, a real calendar day): blank or missing is undefined; anything else must be a day (`invalid`). */
export function optionalDay(invalid = 'validation:date.format') {
  return z.preprocess(blankAsUndefined, z.string().refine(isIsoDate, invalid).optional());
}

/** A semester filter (11 spring, 13 autumn, typed or sent): blank or missing is both; anything else answers `invalid`. */
export function semesterFilter(invalid: string) {
  return z.preprocess((v) => numberish(blankAsUndefined(v)), z.union([z.literal(SEMESTER.spring), z.literal(SEMESTER.autumn)], { error: invalid }).optional());
}

/** A yes/no list filter ('true'/'1', 'false'/'0', or a boolean): blank or missing is no filter; anything else answers `invalid`. */
export function flagFilter(invalid: string) {
  return z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : blankAsUndefined(v)), z.boolean({ error: invalid }).optional());
}

/** A yes/no of a radio group or select ('true' / 'false'), or a boolean sent as JSON. */
export const formBoolean = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/** A number typed in a form arrives as text: '8.5' → 8.5, 'abc' → NaN (refused below); blank → undefined. */
const toNumber = (v: unknown) => {
  const given = blankAsUndefined(v);
  return typeof given === 'string' ? Number(given.trim()) : given;
};

/**
 * A number the user must give, typed (text) or sent (number): blank or missing answers `required`, anything not a
 * finite number (text, NaN, Infinity, an array) answers `invalid` (by default the same key). Unlike `z.coerce.number()`
 * a blank is never read as 0.
 */
export function requiredNumber(required: string, invalid = required) {
  return z.preprocess(toNumber, z.number({ error: (issue) => (issue.input === undefined ? required : invalid) }));
}

/** An optional number: blank or missing is undefined; anything given must be a finite number (`invalid`). */
export function optionalNumber(invalid: string) {
  return z.preprocess(toNumber, z.number({ error: invalid }).optional());
}

/** The fallback keys below: they say what is wrong, not which field (the API names the field instead, plugins/errors.ts). */
export const GENERIC_MESSAGES: ReadonlySet<string> = new Set([
  'validation:common.required',
  'validation:common.invalid',
  'validation:common.tooLong',
  'validation:common.tooSmall',
  'validation:common.tooBig',
]);

/**
 * zod's fallback for issues a schema does not name (z.config customError: a field's own `error`/message wins over it).
 * A missing value reads "required", a too long text "too long", any other shape or type "not valid".
 */
export function genericMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === '' ? 'validation:common.required' : 'validation:common.invalid';
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array' ? 'validation:common.required' : 'validation:common.tooSmall';
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array' ? 'validation:common.tooLong' : 'validation:common.tooBig';
    default:
      return 'validation:common.invalid';
  }
}

z.config({ customError: genericMessage });
