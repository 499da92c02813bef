import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangedCount } from '@/domain/physique-results/types';
import { post } from '@/lib/api-client';
import { RECORD_PATH, scoresApi, type ScoreFamily } from '../family';
import { recordsKey } from './list-records';

/** POST …/selfTest/testRecord/invalid or …/valid {ids} (spec §4). */
export function setRecordsInvalid(family: ScoreFamily, ids: string[], invalid: boolean): Promise<ChangedCount> {
  return post<ChangedCount>(`${scoresApi(family)}${RECORD_PATH}/${invalid ? 'invalid' : 'valid'}`, { ids });
}

export function useSetRecordsInvalidMutation(family: ScoreFamily) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, invalid }: { ids: string[]; invalid: boolean }) => setRecordsInvalid(family, ids, invalid),
    onSuccess: () => client.invalidateQueries({ queryKey: recordsKey(family) }),
  });
}
