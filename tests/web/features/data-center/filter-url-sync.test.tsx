import { act, render } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import { changeFiltersAtom, filtersAtom } from '@/features/data-center/atoms';
import { changeFilters, filtersFromSearch, filtersKey, withFilters } from '@/features/data-center/filters';
import { useFilterUrlSync } from '@/features/data-center/hooks/use-filter-url-sync';
import type { FilterKey } from '@/features/data-center/filters';

const PLAN = '11111111-2222-4333-8444-555555555555';
const CLASS = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

let seen: DataCenterFilter = {};
function Probe({ keep }: { keep?: readonly FilterKey[] }) {
  seen = useFilterUrlSync(keep);
  return null;
}

/** A view that syncs the filters, at `path`, with a fresh jotai store (optionally pre-filled). */
function setup(path: string, initial: DataCenterFilter = {}, keep?: readonly FilterKey[]) {
  const store = createStore();
  store.set(filtersAtom, initial);
  const router = createMemoryRouter(
    [
      { path: '/k12/dataCenter/school', element: <Probe keep={keep} /> },
      { path: '/k12/dataCenter/grade', element: <Probe keep={keep} /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  const search = () => new URLSearchParams(router.state.location.search);
  return { store, router, search };
}

describe('filter URL codec', () => {
  it('reads each filter on its own and drops bad values', () => {
    const f = filtersFromSearch(new URLSearchParams(`schoolYear=2025&semesterCode=13&planId=${PLAN}&gradeNo=7&gender=female&classId=nope&other=1`));
    expect(f).toEqual({ schoolYear: 2025, semesterCode: 13, planId: PLAN, gradeNo: 7, gender: 'female' });
    expect(filtersFromSearch(new URLSearchParams('schoolYear=1800&semesterCode=12&gradeNo=30&gender=x'))).toEqual({});
  });

  it('writes filters into a query string, keeping other parameters', () => {
    const next = withFilters(new URLSearchParams('keyword=li&schoolYear=2024&gender=male'), { schoolYear: 2025, gradeNo: 3 });
    expect(next.get('keyword')).toBe('li');
    expect(next.get('schoolYear')).toBe('2025');
    expect(next.get('gradeNo')).toBe('3');
    expect(next.has('gender')).toBe(false);
    expect(filtersKey({ gradeNo: 3, schoolYear: 2025 })).toBe(filtersKey({ schoolYear: 2025, gradeNo: 3, gender: undefined }));
  });

  it('drops the filters a change makes meaningless', () => {
    const base: DataCenterFilter = { schoolYear: 2025, semesterCode: 13, planId: PLAN, gradeNo: 7, classId: CLASS };
    expect(changeFilters(base, { schoolYear: 2024 })).toEqual({ schoolYear: 2024, semesterCode: 13, gradeNo: 7, classId: CLASS });
    expect(changeFilters(base, { gradeNo: 8 })).toEqual({ schoolYear: 2025, semesterCode: 13, planId: PLAN, gradeNo: 8 });
    // Choosing a plan sets its year and semester without losing it.
    expect(changeFilters({}, { planId: PLAN, schoolYear: 2025, semesterCode: 11 })).toEqual({ schoolYear: 2025, semesterCode: 11, planId: PLAN });
    // The same value again changes nothing.
    expect(changeFilters(base, { schoolYear: 2025 })).toEqual(base);
  });
});

describe('filter atoms ↔ URL', () => {
  it('URL → atoms: a link opens the view with its filters', () => {
    const { store } = setup(`/k12/dataCenter/school?schoolYear=2024&semesterCode=11&gender=male`);
    expect(store.get(filtersAtom)).toEqual({ schoolYear: 2024, semesterCode: 11, gender: 'male' });
    expect(seen).toEqual({ schoolYear: 2024, semesterCode: 11, gender: 'male' });
  });

  it('atom → URL: changing a filter pushes a history entry, and back restores the previous filters', async () => {
    const { store, router, search } = setup('/k12/dataCenter/school?schoolYear=2024');
    act(() => store.set(changeFiltersAtom, { gradeNo: 5 }));
    expect(search().get('gradeNo')).toBe('5');
    expect(search().get('schoolYear')).toBe('2024');
    expect(seen).toEqual({ schoolYear: 2024, gradeNo: 5 });

    act(() => store.set(changeFiltersAtom, { schoolYear: 2025 }));
    expect(search().get('schoolYear')).toBe('2025');

    await act(() => router.navigate(-1));
    expect(search().get('schoolYear')).toBe('2024');
    expect(store.get(filtersAtom)).toEqual({ schoolYear: 2024, gradeNo: 5 });

    await act(() => router.navigate(-1));
    expect(search().has('gradeNo')).toBe(false);
    expect(store.get(filtersAtom)).toEqual({ schoolYear: 2024 });
    expect(seen).toEqual({ schoolYear: 2024 });

    await act(() => router.navigate(1));
    expect(store.get(filtersAtom)).toEqual({ schoolYear: 2024, gradeNo: 5 });
  });

  it('a URL without filters (the side menu) keeps the current filters and writes them in place', () => {
    const { router, search } = setup('/k12/dataCenter/grade', { schoolYear: 2025, gradeNo: 3 });
    expect(search().get('schoolYear')).toBe('2025');
    expect(search().get('gradeNo')).toBe('3');
    // Replaced, not pushed: back leaves the view instead of stepping to the bare URL.
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('a URL with filters wins over the current ones', () => {
    const { store } = setup('/k12/dataCenter/grade?gradeNo=9', { schoolYear: 2025, gradeNo: 3 });
    expect(store.get(filtersAtom)).toEqual({ gradeNo: 9 });
  });

  it('a view keeps only its own filters in the URL, leaving the others in the atom', () => {
    const { store, search } = setup('/k12/dataCenter/school', { schoolYear: 2025, classId: CLASS }, ['schoolYear', 'semesterCode', 'planId']);
    expect(search().get('schoolYear')).toBe('2025');
    expect(search().has('classId')).toBe(false);
    expect(seen).toEqual({ schoolYear: 2025 });
    act(() => store.set(changeFiltersAtom, { semesterCode: 13 }));
    expect(search().get('semesterCode')).toBe('13');
    expect(store.get(filtersAtom)).toEqual({ schoolYear: 2025, semesterCode: 13, classId: CLASS });
  });
});
