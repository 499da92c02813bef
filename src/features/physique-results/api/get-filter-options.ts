import { useQuery } from '@tanstack/react-query';
import type { Page } from '@/domain/api';
import type { PlanFormOptions, PlanRow, PlanSchoolOption } from '@/domain/test-plans/types';
import { get } from '@/lib/api-client';
import { scoresApi } from '../family';
import type { Family } from '@/domain/menus/access';

const TEST_MANAGE = '/organizeTest/testManage';

/**
 * Filter choices of the score screens come from the test-plan reads (school years, grades, classes, plans). A role
 * without them still searches, so these calls fail quietly (meta.silent) and the filters just offer less.
 */
export function useSchoolOptionsQuery(family: Family, orgId?: string) {
  return useQuery({
    queryKey: ['physiqueResults', family, 'options', orgId ?? ''],
    queryFn: () => get<PlanFormOptions>(`${scoresApi(family)}${TEST_MANAGE}/options`, { schoolOrgId: orgId }),
    enabled: family !== 'admin' || Boolean(orgId),
    staleTime: 5 * 60_000,
    retry: false,
    meta: { silent: true },
  });
}

/** Schools below a management organisation (admin family). */
export function useSchoolsQuery(family: Family) {
  return useQuery({
    queryKey: ['physiqueResults', family, 'schools'],
    queryFn: () => get<PlanSchoolOption[]>(`${scoresApi(family)}${TEST_MANAGE}/schools`),
    enabled: family === 'admin',
    staleTime: 5 * 60_000,
    retry: false,
    meta: { silent: true },
  });
}

/** Plans of a school year (the newest 80), for the plan filter. */
export function usePlanChoicesQuery(family: Family, academicYear?: string, orgId?: string) {
  return useQuery({
    queryKey: ['physiqueResults', family, 'plans', academicYear ?? '', orgId ?? ''],
    queryFn: () => get<Page<PlanRow>>(`${scoresApi(family)}${TEST_MANAGE}/page`, { current: 1, size: 80, academicYear, schoolOrgId: orgId }),
    staleTime: 60_000,
    retry: false,
    meta: { silent: true },
  });
}
