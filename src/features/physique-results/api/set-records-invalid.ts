import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangedCount } from '@/domain/physique-results/types';
import { post } from '@/lib/api-client';
import { RECORD_PATH, scoresApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { recordsKey } from './list-records';

/** POST …/selfTest/testRecord/invalid or …/valid {ids} (docs/product-rules.md#score-validity). */
export function setRecordsInvalid(family: Family, ids: string[], invalid: boolean): Promise<ChangedCount> {
  return post<ChangedCount>(`${scoresApi(family)}${RECORD_PATH}/${invalid ? 'invalid' : 'valid'}`, { ids });
}

export function useSetRecordsInvalidMutation(family: Family) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, invalid }: { ids: string[]; invalid: boolean }) => setRecordsInvalid(family, ids, invalid),
    onSuccess: () => client.invalidateQueries({ queryKey: recordsKey(family) }),
  });
}
