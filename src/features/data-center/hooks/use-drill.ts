import { useCallback, useMemo } from 'react';
import { useAtomValue } from 'jotai';
import { useNavigate } from 'react-router-dom';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import { dataCenterFamilyAtom } from '../atoms';
import { dataCenterPaths } from '../family';
import { filtersToParams, periodFilters } from '../filters';

/** A path with the filters as its query string. */
export function withQuery(path: string, filters: DataCenterFilter): string {
  const query = new URLSearchParams(filtersToParams(filters)).toString();
  return query ? `${path}?${query}` : path;
}

/**
 * Drill-down targets of the data centre (school → grade → class → student; universities school → college → class →
 * student): each keeps the period (school year, semester, plan) and the school, and sets what the click chose. Where
 * a family has a college page, a year of study opens the colleges of that year instead of a grade page.
 */
export function useDrill(filters: DataCenterFilter, schoolId?: string) {
  const family = useAtomValue(dataCenterFamilyAtom);
  const navigate = useNavigate();
  const period = useMemo(() => periodFilters(filters), [filters]);
  // A class or student view names its school in its answer, not in the query: `schoolId` fills the school's path then.
  const orgId = period.orgId ?? schoolId;
  const paths = useMemo(() => dataCenterPaths(family, orgId), [family, orgId]);
  const links = useMemo(
    () => ({
      // The overview's school page needs the school's id: no link until the view has named the school.
      school: paths.school === null ? undefined : withQuery(paths.school, period),
      grade: (gradeNo: number | null | undefined) => withQuery(paths.college ?? paths.grade, { ...period, gradeNo: gradeNo ?? undefined }),
      /** The college page: every college side by side without an id, one college's figures with it. */
      college: (collegeId?: string | null, gradeNo?: number | null) =>
        withQuery(paths.college ?? paths.grade, { ...period, collegeId: collegeId ?? undefined, gradeNo: gradeNo ?? undefined }),
      classList: (gradeNo?: number | null) => withQuery(paths.class, { ...period, gradeNo: gradeNo ?? undefined }),
      classDetail: (id: string) => withQuery(paths.classDetail(id), period),
      student: withQuery(paths.student, period),
      studentDetail: (id: string) => withQuery(paths.studentDetail(id), period),
    }),
    [paths, period],
  );
  const go = useCallback((to: string) => void navigate(to), [navigate]);
  return { links, go, family, paths };
}
