import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { useListState } from '@/components/list/use-list-state';

function setup(initial: string, views?: string[]) {
  let result!: { state: ReturnType<typeof useListState<{ name?: string; gradeId?: string }>>; search: string };
  function Probe() {
    const state = useListState<{ name?: string; gradeId?: string }>(['name', 'gradeId'], { views });
    result = { state, search: useLocation().search };
    return null;
  }
  const router = createMemoryRouter([{ path: '/list', element: <Probe /> }], { initialEntries: [initial] });
  renderHook(() => null, { wrapper: ({ children }: { children: ReactNode }) => <>{children}<RouterProvider router={router} /></> });
  return { get: () => result, router };
}

describe('useListState', () => {
  it('reads filters, page and size from the URL; unknown sizes fall back to 10', () => {
    const { get } = setup('/list?name=三&current=3&size=50&other=x');
    expect(get().state.filters).toEqual({ name: '三' });
    expect(get().state.query).toEqual({ name: '三', current: 3, size: 50 });
    const bad = setup('/list?size=30&current=-2');
    expect(bad.get().state.query).toEqual({ current: 1, size: 10 });
  });

  it('new filters go back to page 1 and keep the size; paging writes current and size; other params stay', () => {
    const { get } = setup('/list?current=4&size=20&other=x');
    act(() => get().state.setFilters({ name: '一班', gradeId: undefined }));
    expect(get().search).toBe('?size=20&other=x&name=%E4%B8%80%E7%8F%AD');
    expect(get().state.current).toBe(1);
    act(() => get().state.pagination(200).onChange(2, 80));
    expect(get().state.query).toEqual({ name: '一班', current: 2, size: 80 });
    act(() => get().state.reset());
    expect(get().state.filters).toEqual({});
    expect(get().state.current).toBe(1);
  });

  it('the back button restores the previous filters', async () => {
    const { get, router } = setup('/list');
    act(() => get().state.setFilters({ name: 'a' }));
    act(() => get().state.setFilters({ name: 'b' }));
    await act(() => router.navigate(-1));
    expect(get().state.filters).toEqual({ name: 'a' });
  });

  it('keeps the view in the URL: another view starts at page 1 with the same filters; a view not offered shows the first', () => {
    const { get } = setup('/list?name=a&current=3', ['live', 'bin']);
    expect(get().state.view).toBe('live');
    act(() => get().state.setView('bin'));
    expect(get().search).toBe('?name=a&view=bin');
    expect(get().state.view).toBe('bin');
    act(() => get().state.pagination(100).onChange(2, 10));
    expect(get().search).toBe('?name=a&view=bin&current=2');
    act(() => get().state.setView('live'));
    expect(get().search).toBe('?name=a');
    // Someone without the bin opens a link to it.
    expect(setup('/list?view=bin', ['live']).get().state.view).toBe('live');
  });
});
