import { useQuery } from '@tanstack/react-query';
import type { ResultDetail } from '@/domain/physique-results/types';
import { get } from '@/lib/api-client';
import { RESULT_LIST_PATH, scoresApi, type ScoreFamily } from '../family';
import { resultsKey } from './search-results';

/** GET …/physiqueManage/testResult/:id: one result with its plan items, missing items and who changed it when. */
export function getResult(family: ScoreFamily, id: string): Promise<ResultDetail> {
  return get<ResultDetail>(`${scoresApi(family)}${RESULT_LIST_PATH.testResult}/${encodeURIComponent(id)}`);
}

export const resultKey = (family: ScoreFamily, id: string) => [...resultsKey(family), 'result', id] as const;

export function useResultQuery(family: ScoreFamily, id: string | undefined) {
  return useQuery({ queryKey: resultKey(family, id ?? ''), queryFn: () => getResult(family, id!), enabled: Boolean(id) });
}
