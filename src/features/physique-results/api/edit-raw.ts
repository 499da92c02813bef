import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditRawBody } from '@/domain/physique-results/schemas';
import type { ResultDetail } from '@/domain/physique-results/types';
import { post } from '@/lib/api-client';
import { RESULT_LIST_PATH, scoresApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { resultKey } from './get-result';
import { resultsKey } from './search-results';

/** POST …/testResult/editUpReport/:id {field, value}: the server parses, rescores the whole result and logs who/when. */
export function editRaw(family: Family, id: string, body: EditRawBody): Promise<ResultDetail> {
  return post<ResultDetail>(`${scoresApi(family)}${RESULT_LIST_PATH.testResult}/editUpReport/${encodeURIComponent(id)}`, body);
}

export function useEditRawMutation(family: Family, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EditRawBody) => editRaw(family, id, body),
    onSuccess: (detail) => {
      client.setQueryData(resultKey(family, id), detail);
      void client.invalidateQueries({ queryKey: resultsKey(family), predicate: (q) => q.queryKey[2] !== 'result' });
    },
  });
}
