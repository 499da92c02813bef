import { useQuery } from '@tanstack/react-query';
import type { ResultDetail } from '@/domain/physique-results/types';
import { get } from '@/lib/api-client';
import { RESULT_LIST_PATH, scoresApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { resultsKey } from './search-results';

/** GET …/physiqueManage/testResult/:id: one result with its plan items, missing items and who changed it when. */
export function getResult(family: Family, id: string): Promise<ResultDetail> {
  return get<ResultDetail>(`${scoresApi(family)}${RESULT_LIST_PATH.testResult}/${encodeURIComponent(id)}`);
}

export const resultKey = (family: Family, id: string) => [...resultsKey(family), 'result', id] as const;

export function useResultQuery(family: Family, id: string | undefined) {
  return useQuery({ queryKey: resultKey(family, id ?? ''), queryFn: () => getResult(family, id!), enabled: Boolean(id) });
}
