import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlanRequest } from '@/domain/test-plans/schemas';
import type { PlanDetail } from '@/domain/test-plans/types';
import { post } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { plansKey } from './list-plans';

/** POST …/testManage/add, or …/edit/:id with an id: the validated plan form (planRequestSchema). */
export function savePlan(family: Family, body: PlanRequest, id?: string): Promise<PlanDetail> {
  const url = id ? `${planApi(family)}/edit/${encodeURIComponent(id)}` : `${planApi(family)}/add`;
  return post<PlanDetail>(url, body);
}

export function useSavePlanMutation(family: Family, id?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PlanRequest) => savePlan(family, body, id),
    onSuccess: () => client.invalidateQueries({ queryKey: plansKey(family) }),
  });
}
