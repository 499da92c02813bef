import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlanDetail } from '@/domain/test-plans/types';
import { post } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { plansKey } from './plans';

/** POST …/testManage/restore/:id: takes a plan out of the recycle bin (plan administrators). */
export function restorePlan(family: Family, id: string): Promise<PlanDetail> {
  return post<PlanDetail>(`${planApi(family)}/restore/${encodeURIComponent(id)}`);
}

export function useRestorePlanMutation(family: Family) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => restorePlan(family, id),
    onSuccess: () => client.invalidateQueries({ queryKey: plansKey(family) }),
  });
}
