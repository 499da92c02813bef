import { useState } from 'react';
import { ApiError } from './api-client';

/**
 * What a list screen shows for a query: the last data that arrived stays on screen while the next loads and when it
 * fails (a refused filter never blanks the rows and cards), and the field a 400 named, to show its message under it.
 */
export function useShownData<T>(query: { data: T | undefined; error: unknown }): { data: T | undefined; refusedField: string | undefined } {
  const [shown, setShown] = useState<T | undefined>(query.data);
  if (query.data !== undefined && query.data !== shown) setShown(query.data);
  const refusedField = query.error instanceof ApiError && query.error.status === 400 ? query.error.field : undefined;
  return { data: query.data ?? shown, refusedField };
}
