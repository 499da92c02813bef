import { useQuery } from '@tanstack/react-query';
import type { ClassCompletionRow } from '@/domain/test-plans/types';
import { get } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { plansKey } from './plans';

/** GET …/testManage/classCompletion/:id: students, tested and complete per class in scope. */
export function getClassCompletion(family: Family, planId: string): Promise<ClassCompletionRow[]> {
  return get<ClassCompletionRow[]>(`${planApi(family)}/classCompletion/${encodeURIComponent(planId)}`);
}

export function useClassCompletionQuery(family: Family, planId: string) {
  return useQuery({
    queryKey: [...plansKey(family), 'classCompletion', planId],
    queryFn: () => getClassCompletion(family, planId),
  });
}
