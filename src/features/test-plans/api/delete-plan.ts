import { useMutation, useQueryClient } from '@tanstack/react-query';
import { post } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { plansKey } from './list-plans';

/**
 * POST …/testManage/delete/:id: refused while in progress or while an import or sync runs (spec §4). A plan with
 * results goes to the recycle bin (`binned`), one without is deleted at once.
 */
export function deletePlan(family: Family, id: string): Promise<{ binned: boolean }> {
  return post<{ binned: boolean }>(`${planApi(family)}/delete/${encodeURIComponent(id)}`);
}

export function useDeletePlanMutation(family: Family) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deletePlan(family, id),
    onSuccess: () => client.invalidateQueries({ queryKey: plansKey(family) }),
  });
}
