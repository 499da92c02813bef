import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlanDatesRequest } from '@/domain/test-plans/schemas';
import type { PlanDetail } from '@/domain/test-plans/types';
import { post } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { plansKey } from './plans';

/** POST …/testManage/reopen/:id: undoes an early end, optionally with new dates (plan administrators). */
export function reopenPlan(family: Family, id: string, dates: Partial<PlanDatesRequest> = {}): Promise<PlanDetail> {
  return post<PlanDetail>(`${planApi(family)}/reopen/${encodeURIComponent(id)}`, dates);
}

/** POST …/testManage/dates/:id: corrects an ended plan's dates; an early end stays (plan administrators). */
export function correctPlanDates(family: Family, id: string, dates: PlanDatesRequest): Promise<PlanDetail> {
  return post<PlanDetail>(`${planApi(family)}/dates/${encodeURIComponent(id)}`, dates);
}

export interface ChangePlanDates {
  id: string;
  /** New dates; none = undo the early end as the plan's dates stand. */
  dates?: PlanDatesRequest;
  /** Also undo the early end (reopen). */
  reopen: boolean;
}

/** Reopening and date correction: both refresh the plan list and the plan's detail. */
export function useChangePlanDatesMutation(family: Family) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, dates, reopen }: ChangePlanDates) =>
      reopen || !dates ? reopenPlan(family, id, dates) : correctPlanDates(family, id, dates),
    onSuccess: () => client.invalidateQueries({ queryKey: plansKey(family) }),
  });
}
