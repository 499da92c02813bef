
/**
 * An expected failure with its HTTP status and the i18n key of its message (spec §8).
 * The error handler translates the key into the request's language. Keys are 'namespace:key'
 * (errors:… for the catalogue of spec §8, or a module's own namespace such as testPlan:…).
 */
export type MessageKey = `${string}:${string}`;

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly i18nKey: MessageKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(i18nKey);
    this.name = 'AppError';
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
