/** The response envelope of every call (spec §7): success is code '200'. */
export interface Envelope<T> {
  code: string;
  data: T;
  msg: string;
}

export const SUCCESS_CODE = '200';

/** A page of rows, for the server-paged tables (spec §9). */
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

export function ok<T>(data: T, msg = ''): Envelope<T> {
  return { code: SUCCESS_CODE, data, msg };
}
