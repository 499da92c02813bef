import { useQuery } from '@tanstack/react-query';
import type { PlanDetail } from '@/domain/test-plans/types';
import { get } from '@/lib/api-client';
import { planApi, type PlanFamily } from '../family';
import { plansKey } from './list-plans';

/** GET …/testManage/detail/:id: the plan with scope, items per grade, counts and any running import or sync. */
export function getPlan(family: PlanFamily, id: string): Promise<PlanDetail> {
  return get<PlanDetail>(`${planApi(family)}/detail/${encodeURIComponent(id)}`);
}

export const planKey = (family: PlanFamily, id: string) => [...plansKey(family), 'detail', id] as const;

/** While an import or sync runs, the detail is polled so the lock clears by itself (spec §4). */
export function usePlanQuery(family: PlanFamily, id: string | undefined) {
  return useQuery({
    queryKey: planKey(family, id ?? ''),
    queryFn: () => getPlan(family, id!),
    enabled: Boolean(id),
    refetchInterval: (query) => (query.state.data?.runningJob ? 3000 : false),
  });
}
