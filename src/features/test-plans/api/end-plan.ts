import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlanDetail } from '@/domain/test-plans/types';
import { post } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { plansKey } from './plans';

/** POST …/testManage/end/:id: ends the plan at once, stopping participation (docs/product-rules.md#plan-states). */
export function endPlan(family: Family, id: string): Promise<PlanDetail> {
  return post<PlanDetail>(`${planApi(family)}/end/${encodeURIComponent(id)}`);
}

export function useEndPlanMutation(family: Family) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => endPlan(family, id),
    onSuccess: () => client.invalidateQueries({ queryKey: plansKey(family) }),
  });
}
