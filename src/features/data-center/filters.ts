import { DATA_CENTER_FILTER_KEYS, dataCenterFilterSchema, type DataCenterFilter } from '@/domain/data-center/filters';

/** One filter's name (also its URL query name and API parameter). */
export type FilterKey = keyof DataCenterFilter;

/** Filters of the school view (docs/product-rules.md#data-centre: filters): the period, the school (bureau) and gender. */
export const SCHOOL_FILTERS: readonly FilterKey[] = ['orgId', 'schoolYear', 'semesterCode', 'planId', 'collegeId', 'majorId', 'gender'];

/** The data-centre filters the district view offers (in the URL, as on a school's dashboard). */
export const DISTRICT_FILTERS: readonly FilterKey[] = ['schoolYear', 'semesterCode', 'gender'];

/**
 * The filters of a URL's query string. Each parameter is checked on its own with the domain schema, so
 * a hand-edited bad value drops only that filter instead of the whole view.
 */
export function filtersFromSearch(search: URLSearchParams): DataCenterFilter {
  const out: DataCenterFilter = {};
  for (const key of DATA_CENTER_FILTER_KEYS) {
    const raw = search.get(key);
    if (raw === null || raw === '') continue;
    const parsed = dataCenterFilterSchema.shape[key].safeParse(raw);
    if (parsed.success && parsed.data !== undefined) Object.assign(out, { [key]: parsed.data });
  }
  return out;
}

/** The filters without empty entries, in the schema's key order: a stable query key and URL. */
export function normalizeFilters(filters: DataCenterFilter): DataCenterFilter {
  const out: DataCenterFilter = {};
  for (const key of DATA_CENTER_FILTER_KEYS) {
    const value = filters[key];
    if (value !== undefined && value !== null && value !== '') Object.assign(out, { [key]: value });
  }
  return out;
}

/** A comparable text of the filters (equal filters ⇔ equal text). */
export function filtersKey(filters: DataCenterFilter): string {
  return new URLSearchParams(filtersToParams(filters)).toString();
}

/** The filters as query parameters (strings), without empty ones. */
export function filtersToParams(filters: DataCenterFilter): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(normalizeFilters(filters))) out[key] = String(value);
  return out;
}

/** `search` with its filter parameters replaced by `filters`; other parameters (keyword, page …) are kept. */
export function withFilters(search: URLSearchParams, filters: DataCenterFilter): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const key of DATA_CENTER_FILTER_KEYS) next.delete(key);
  for (const [key, value] of Object.entries(filtersToParams(filters))) next.set(key, value);
  return next;
}

/** The filters that name the period (school year, semester, plan) and the school: what a drill-down keeps. */
export function periodFilters(filters: DataCenterFilter): DataCenterFilter {
  return normalizeFilters({ orgId: filters.orgId, schoolYear: filters.schoolYear, semesterCode: filters.semesterCode, planId: filters.planId });
}

/**
 * Applies a change to the filters with the dependencies between them: a plan fixes the school year and
 * semester, so changing either drops the plan; a class belongs to one grade (and a school, college and
 * major), so changing those drops the class; another school drops the plan too.
 */
export function changeFilters(current: DataCenterFilter, patch: DataCenterFilter): DataCenterFilter {
  const next: DataCenterFilter = { ...current, ...patch };
  const changed = (key: FilterKey) => key in patch && patch[key] !== current[key];
  if ((changed('schoolYear') || changed('semesterCode') || changed('orgId')) && !('planId' in patch)) next.planId = undefined;
  if ((changed('gradeNo') || changed('orgId') || changed('collegeId') || changed('majorId')) && !('classId' in patch)) next.classId = undefined;
  if (changed('collegeId') && !('majorId' in patch)) next.majorId = undefined;
  return normalizeFilters(next);
}
