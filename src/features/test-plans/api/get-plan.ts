import { useQuery } from '@tanstack/react-query';
import type { PlanDetail } from '@/domain/test-plans/types';
import { get } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { plansKey } from './list-plans';

/** GET …/testManage/detail/:id: the plan with scope, items per grade, counts and any running import or sync. */
export function getPlan(family: Family, id: string): Promise<PlanDetail> {
  return get<PlanDetail>(`${planApi(family)}/detail/${encodeURIComponent(id)}`);
}

export const planKey = (family: Family, id: string) => [...plansKey(family), 'detail', id] as const;

/** While an import or sync runs, the detail is polled so the lock clears by itself (spec §4). */
export function usePlanQuery(family: Family, id: string | undefined) {
  return useQuery({
    queryKey: planKey(family, id ?? ''),
    queryFn: () => getPlan(family, id!),
    enabled: Boolean(id),
    refetchInterval: (query) => (query.state.data?.runningJob ? 3000 : false),
  });
}
