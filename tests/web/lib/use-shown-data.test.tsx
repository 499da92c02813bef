import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { useShownData } from '@/lib/use-shown-data';

describe('useShownData: what a list screen shows while its query changes', () => {
  it('keeps the last rows and cards when a refused filter fails the next request, and names the field', () => {
    const first = { records: ['a', 'b'], summary: { count: 2 } };
    type Query = { data: typeof first | undefined; error: unknown };
    const initialProps: Query = { data: first, error: null };
    const { result, rerender } = renderHook((q: Query) => useShownData(q), { initialProps });
    expect(result.current.data).toBe(first);
    // The keyword was refused (400 naming it): the screen keeps the rows it had.
    rerender({ data: undefined, error: new ApiError('关键字过长', '400', 400, 'keyword') });
    expect(result.current.data).toBe(first);
    expect(result.current.refusedField).toBe('keyword');
    // A later answer replaces them; a network failure names no field.
    const next = { records: ['c'], summary: { count: 1 } };
    rerender({ data: next, error: null });
    expect(result.current.data).toBe(next);
    rerender({ data: undefined, error: new ApiError('数据请求出现异常', 'network') });
    expect(result.current).toEqual({ data: next, refusedField: undefined });
  });
});
