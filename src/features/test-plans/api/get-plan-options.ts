import { useQuery } from '@tanstack/react-query';
import type { PlanFormOptions, PlanSchoolOption } from '@/domain/test-plans/types';
import { get } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { plansKey } from './plans';

/** GET …/testManage/options: school years, grades, classes, colleges and default items of a school. */
export function getPlanOptions(family: Family, schoolOrgId?: string): Promise<PlanFormOptions> {
  return get<PlanFormOptions>(`${planApi(family)}/options`, { schoolOrgId });
}

/** The admin family needs a school first; the others read their own organisation. */
export function usePlanOptionsQuery(family: Family, schoolOrgId?: string, enabled = true) {
  return useQuery({
    queryKey: [...plansKey(family), 'options', schoolOrgId ?? ''],
    queryFn: () => getPlanOptions(family, schoolOrgId),
    enabled: enabled && (family !== 'admin' || Boolean(schoolOrgId)),
    staleTime: 5 * 60_000,
  });
}

/** GET …/testManage/schools: schools a management organisation plans for (admin family). */
export function getPlanSchools(family: Family): Promise<PlanSchoolOption[]> {
  return get<PlanSchoolOption[]>(`${planApi(family)}/schools`);
}

export function usePlanSchoolsQuery(family: Family) {
  return useQuery({
    queryKey: [...plansKey(family), 'schools'],
    queryFn: () => getPlanSchools(family),
    enabled: family === 'admin',
    staleTime: 5 * 60_000,
  });
}
