import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SyncPreview, SyncSummary } from '@/domain/physique-results/types';
import { post } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { plansKey } from './plans';

/** POST the sync preview of a plan: what a sync would change (who, item, old → new), nothing written. */
export function previewSync(family: Family, planId: string): Promise<SyncPreview> {
  return post<SyncPreview>(`${planApi(family)}/sync/${encodeURIComponent(planId)}/preview`);
}

export function useSyncPreviewQuery(family: Family, planId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['syncPreview', family, planId],
    queryFn: () => previewSync(family, planId),
    enabled,
    // Always read afresh when the dialog opens: records arrive all the time.
    gcTime: 0,
    staleTime: 0,
  });
}

/**
 * POST sync of a plan: the latest test records become its results (docs/product-rules.md#plan-states: refused while importing); imported and
 * hand-edited values are replaced only with `replaceManual`.
 */
export function syncPlan(family: Family, planId: string, replaceManual: boolean): Promise<SyncSummary> {
  return post<SyncSummary>(`${planApi(family)}/sync/${encodeURIComponent(planId)}`, { replaceManual });
}

export function useSyncPlanMutation(family: Family) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ planId, replaceManual }: { planId: string; replaceManual: boolean }) => syncPlan(family, planId, replaceManual),
    onSettled: () => client.invalidateQueries({ queryKey: plansKey(family) }),
  });
}
