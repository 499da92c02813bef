
/**
 * An expected failure with its HTTP status and the i18n key of its message (docs/product-rules.md#error-messages).
 * The error handler translates the key into the request's language. Keys are 'namespace:key'
 * (errors:… for the catalogue of docs/product-rules.md#error-messages, or a module's own namespace such as testPlans:…).
 */
export type MessageKey = `${string}:${string}`;

export interface AppErrorOptions {
  /** The request field at fault: answered as `data.field` so a form shows the message on that field. */
  field?: string;
  /** More of the answer's `data` beside `field` (e.g. the path of an export that needs approval). */
  data?: Record<string, string>;
}

export class AppError extends Error {
  readonly field?: string;
  readonly data?: Record<string, string>;
  /**
   * `params` values that are themselves i18n keys ('school:entity.students') are translated before they are
   * interpolated, so a message can name another entity in the request's language.
   */
  constructor(
    readonly status: number,
    readonly i18nKey: MessageKey,
    readonly params: Record<string, string | number> = {},
    options: AppErrorOptions = {},
  ) {
    super(i18nKey);
    this.name = 'AppError';
    this.field = options.field;
    this.data = options.data;
  }
}

/** 400 with the message on one field of the request (a rule the schema alone cannot check, e.g. uniqueness). */
export function fieldError(field: string, i18nKey: MessageKey, params: Record<string, string | number> = {}, status = 400): AppError {
  return new AppError(status, i18nKey, params, { field });
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/**
 * A PostgreSQL unique violation (23505), however deep drivers and drizzle wrap it: a write that raced another one
 * past the service's own uniqueness check. The error handler answers it 409 (docs/product-rules.md#concurrent-edits).
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
