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
  constructor(message: string, code: string, status?: number, field?: string, path?: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.field = field;
    this.path = path;
  }
}
