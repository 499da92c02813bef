import { z } from 'zod';

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
