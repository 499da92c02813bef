import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangedCount } from '@/domain/physique-results/types';
import { post } from '@/lib/api-client';
import { RESULT_LIST_PATH, scoresApi, type ResultList } from '../family';
import type { Family } from '@/domain/menus/access';
import { resultsKey } from './search-results';

/** POST …/invalid or …/valid {ids}: sets results invalid (kept, excluded from every aggregate) or restores them (docs/product-rules.md#score-validity). */
export function setResultsInvalid(family: Family, list: ResultList, ids: string[], invalid: boolean): Promise<ChangedCount> {
  return post<ChangedCount>(`${scoresApi(family)}${RESULT_LIST_PATH[list]}/${invalid ? 'invalid' : 'valid'}`, { ids });
}

export function useSetResultsInvalidMutation(family: Family, list: ResultList) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, invalid }: { ids: string[]; invalid: boolean }) => setResultsInvalid(family, list, ids, invalid),
    onSuccess: () => client.invalidateQueries({ queryKey: resultsKey(family) }),
  });
}
