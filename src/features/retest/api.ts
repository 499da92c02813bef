import { useQuery } from '@tanstack/react-query';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import type { RetestCandidate, RetestCreate, RetestPlan, RetestStudent } from '@/domain/retest/retest';
import { get } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

export type RetestFamily = ServedBy<'test.retest'>;
export const retestKey = (family: RetestFamily) => `${family}.test.retest`;

const cache = new Map<RetestFamily, Resource<RetestStudent, RetestCreate, RetestPlan>>();
/**
 * 补测 (physiqueManage/retest): `useList` pages one re-test plan's eligible students (the answer also carries `plan`,
 * RetestStudentPage), `useSave()` starts a re-test (POST /add), `exportList` downloads the students.
 */
export function retestResource(family: RetestFamily): Resource<RetestStudent, RetestCreate, RetestPlan> {
  let r = cache.get(family);
  if (!r) cache.set(family, (r = createResource<RetestStudent, RetestCreate, RetestPlan>({ base: pageApi(retestKey(family)), paths: { add: '/add' } })));
  return r;
}

/** The school's re-test plans (the plan filter and its summary). */
export function useRetestPlans(family: RetestFamily) {
  const api = retestResource(family);
  return useQuery({ queryKey: [...api.key, 'plans'], queryFn: () => get<RetestPlan[]>(`${api.base}/plans`) });
}

/** Plans that may be re-tested (the 发起补测 dialog), loaded while it is open. */
export function useRetestCandidates(family: RetestFamily, enabled: boolean) {
  const api = retestResource(family);
  return useQuery({ queryKey: [...api.key, 'candidates'], queryFn: () => get<RetestCandidate[]>(`${api.base}/candidates`), enabled });
}
