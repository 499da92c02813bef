/** A failed call. `message` is ready to show: the server translates its own, the client uses locales. */
export class ApiError extends Error {
  /** Envelope code ('500', '401' …) or 'network'. */
  readonly code: string;
  /** HTTP status when the server answered. */
  readonly status?: number;
  /** The request field the server refused ('code', 'autumn.startDate'), when it named one (400). */
  readonly field?: string;
  /** The path of an export the server refused as needing an approval (`data.path`), which names it for the request. */
  readonly path?: string;
  /** The catalogue page of an export the server refused as needing an approval (`data.screen`). */
  readonly screen?: string;
  /**
   * The shell already shows this failure (an export needing an approval opened the request dialog with its message):
   * a caller does not raise it again.
   */
  shown = false;
  constructor(message: string, code: string, status?: number, field?: string, path?: string, screen?: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.field = field;
    this.path = path;
    this.screen = screen;
  }
}

/** Whether the shell has already shown this failure (see `ApiError.shown`), so a caller's own toast would repeat it. */
export function alreadyShown(error: unknown): boolean {
  return error instanceof ApiError && error.shown;
}
