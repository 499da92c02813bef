import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SyncSummary } from '@/domain/physique-results/types';
import { post } from '@/lib/api-client';
import { planApi, type PlanFamily } from '../family';
import { plansKey } from './list-plans';

/** POST sync of a plan: the latest test records become its results (spec §4: refused while importing). */
export function syncPlan(family: PlanFamily, planId: string): Promise<SyncSummary> {
  return post<SyncSummary>(`${planApi(family)}/sync/${encodeURIComponent(planId)}`);
}

export function useSyncPlanMutation(family: PlanFamily) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (planId: string) => syncPlan(family, planId),
    onSettled: () => client.invalidateQueries({ queryKey: plansKey(family) }),
  });
}
