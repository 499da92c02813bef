import { z } from 'zod';
import { pageQuerySchema } from './api';
import { blankAsUndefined, optionalId } from './fields';

/**
 * The shared pieces of every list query and id parameter (docs/product-rules.md#lists). The server validates a list's
 * query with the schema built here and the search form takes its inputs' `maxLength` from the same schema, so an
 * overlong filter cannot be typed and, when sent anyway, is refused naming the field.
 */

// Re-exported for the modules that take it from here; it lives with the other primitives in fields.ts.
export { UUID_PATTERN } from './fields';

/** Longest text a list filter accepts (names, keywords, numbers). */
export const TEXT_FILTER_MAX = 64;

/** An optional id filter; '' means no filter. */
export const idFilter = optionalId();

/** An optional text filter (contains, case-insensitive); '' means no filter; longer than `max` is refused. */
export function textFilter(max = TEXT_FILTER_MAX) {
  return z.preprocess(
    blankAsUndefined,
    z
      .string()
      // A NUL cannot be stored or compared by PostgreSQL: refuse it as bad input rather than fail the query.
      .refine((s) => !s.includes('\0'), 'validation:list.badText')
      .transform((s) => s.trim())
      .pipe(z.string().max(max, { message: 'validation:list.textTooLong' }))
      .optional(),
  );
}

/** An optional whole-number filter ('' means none). */
export const intFilter = z.preprocess(blankAsUndefined, z.coerce.number().int('validation:common.int').optional());

/** `:id` of a resource route. Anything not a uuid answers 404 like a missing row (nothing to tell apart). */
export const idParamsSchema = z.object({ id: z.string().max(64) });

/** `:id` and a sub-row's `:{name}` (`/:id/heats/:heatId`); the action kit answers 404 for either when it is not a uuid. */
/** One named id in the path (`/import/:planId`); the route answers 404 when it is not a uuid. */
export const paramsOf = <K extends string>(name: K) => z.object({ [name]: z.string().max(64) } as Record<K, z.ZodString>);

export const idParamsWith = <K extends string>(name: K) => idParamsSchema.extend({ [name]: z.string().max(64) } as Record<K, z.ZodString>);
/** The query of an options picker (a search box): one keyword, '' for the first options. */
export const keywordQuery = z.object({ keyword: textFilter() });

/** A paged list query with the given filters: `listQuery({ name: textFilter(), gradeId: idFilter })`. */
export function listQuery<S extends z.ZodRawShape>(filters: S) {
  return pageQuerySchema.extend(filters);
}

/** The version a save sends back, for stale-save detection (docs/product-rules.md#concurrent-edits). */
export const versionField = z.coerce.number().int().min(0);

/**
 * The longest text a field of an object schema accepts (its `.max()` check, through optional/preprocess/pipe
 * wrappers), for an input's `maxLength`; undefined when it has none.
 */
export function maxLengthOf(schema: z.ZodObject, field: string): number | undefined {
  return maxOf(schema.shape[field] as z.ZodType | undefined);
}

function maxOf(type: z.ZodType | undefined): number | undefined {
  if (!type) return undefined;
  if (type instanceof z.ZodString) return type.maxLength ?? undefined;
  const def = (type.def ?? {}) as unknown as Record<string, unknown>;
  for (const k of ['innerType', 'out', 'in', 'schema']) {
    const inner = def[k] as z.ZodType | undefined;
    if (inner && typeof inner === 'object' && 'def' in inner) {
      const found = maxOf(inner);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
