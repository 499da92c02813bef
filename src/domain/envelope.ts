/** The response envelope of every call (docs/product-rules.md#calls): success is code '200'. Apart from domain/api.ts, so the browser's
 * API client does not pull zod into the first screen. */
export interface Envelope<T> {
  code: string;
  data: T;
  msg: string;
}

export const SUCCESS_CODE = '200';
