import { z } from 'zod';
// The domain's zod error map (unnamed issues answer i18n keys), installed wherever a schema is built.
import './fields';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './constants';
import { SUCCESS_CODE, type Envelope } from './envelope';

export { SUCCESS_CODE, type Envelope } from './envelope';

/** A page of rows, for the server-paged tables (docs/product-rules.md#lists). */
export interface Page<T> {
  records: T[];
  total: number;
  current: number;
  size: number;
}

export interface PageQuery {
  current: number;
  size: number;
}

/** Paging query of every server-paged list: page number from 1, size one of PAGE_SIZES (docs/product-rules.md#lists). */
export const pageQuerySchema = z.object({
  current: z.coerce.number().int('validation:page.current').min(1, 'validation:page.current').default(1),
  size: z.coerce
    .number()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), 'validation:page.size')
    .default(DEFAULT_PAGE_SIZE),
});

// One envelope and one page schema per inner schema: the kits ask for them once per route and family (≈ 900 routes),
// and building a zod object is a large share of building the app at start (docs/performance.md, "Server start").
// zod schemas are immutable, so one instance serves every route that answers the same data.
const envelopes = new WeakMap<z.ZodType, z.ZodType>();
const pages = new WeakMap<z.ZodType, z.ZodType>();

/** The envelope's schema around `data`, for the response schemas of the OpenAPI document. */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  const made = () => z.object({ code: z.string(), data, msg: z.string() });
  let schema = envelopes.get(data) as ReturnType<typeof made> | undefined;
  if (!schema) envelopes.set(data, (schema = made()));
  return schema;
}

/** An answer without data (`data: null`). */
export const emptySchema = z.null();

/** A page's schema (Page<T>) around its row schema. */
export function pageSchema<T extends z.ZodType>(row: T) {
  const made = () => z.object({ records: z.array(row), total: z.number().int(), current: z.number().int(), size: z.number().int() });
  let schema = pages.get(row) as ReturnType<typeof made> | undefined;
  if (!schema) pages.set(row, (schema = made()));
  return schema;
}

export function ok<T>(data: T, msg = ''): Envelope<T> {
  return { code: SUCCESS_CODE, data, msg };
}

/** The failure envelope: `code` is the HTTP status as a string, `msg` the translated message. */
export function fail(status: number, msg: string): Envelope<null> {
  return { code: String(status), data: null, msg };
}
