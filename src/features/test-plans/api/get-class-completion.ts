import { useQuery } from '@tanstack/react-query';
import type { ClassCompletionRow } from '@/domain/test-plans/types';
import { get } from '@/lib/api-client';
import { planApi, type PlanFamily } from '../family';
import { plansKey } from './list-plans';

/** GET …/testManage/classCompletion/:id: students, tested and complete per class in scope. */
export function getClassCompletion(family: PlanFamily, planId: string): Promise<ClassCompletionRow[]> {
  return get<ClassCompletionRow[]>(`${planApi(family)}/classCompletion/${encodeURIComponent(planId)}`);
}

export function useClassCompletionQuery(family: PlanFamily, planId: string) {
  return useQuery({
    queryKey: [...plansKey(family), 'classCompletion', planId],
    queryFn: () => getClassCompletion(family, planId),
  });
}
