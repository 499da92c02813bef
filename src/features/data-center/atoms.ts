import { atom } from 'jotai';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import { familyOfTypePath } from '@/domain/menus/access';
import { uinfoAtom } from '@/lib/store';
import { changeFilters, normalizeFilters } from './filters';

/**
 * The data-centre filters (docs/product-rules.md#data-centre: filters): school year, semester, test plan, grade, class, gender (plus a
 * bureau's school and a university's college and major). One atom for all views, so the period chosen on
 * the school view carries to the grade, class and student views; `useFilterUrlSync` mirrors it in the URL.
 */
export const filtersAtom = atom<DataCenterFilter>({});

/** Changes some filters, dropping the ones a change invalidates (see `changeFilters`). */
export const changeFiltersAtom = atom(null, (get, set, patch: DataCenterFilter) => {
  set(filtersAtom, changeFilters(get(filtersAtom), patch));
});

/** Replaces every filter at once (from the URL). */
export const replaceFiltersAtom = atom(null, (_get, set, filters: DataCenterFilter) => {
  set(filtersAtom, normalizeFilters(filters));
});

/** The data-centre family of the signed-in account ('k12', 'gx' or 'admin'). */
export const dataCenterFamilyAtom = atom((get) => familyOfTypePath(get(uinfoAtom)?.currentTypePath));
