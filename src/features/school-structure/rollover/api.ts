import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pageApi } from '@/domain/menus/access';
import type { RolloverCommit, RolloverPreview, RolloverSummary } from '@/domain/school/rollover';
import { get, post } from '@/lib/api-client';
import { classes, grades, schoolYears } from '../api';

/** Year rollover of a school: under the school-year page's API (docs/product-rules.md#year-rollover). */
const base = `${pageApi('k12.org.acayear')}/rollover`;
const key = ['k12.org.acayear', 'rollover'] as const;

export const useRolloverPreview = () => useQuery({ queryKey: [...key, 'preview'], queryFn: () => get<RolloverPreview>(`${base}/preview`), retry: false });
export const useLastRollover = () => useQuery({ queryKey: [...key, 'last'], queryFn: () => get<RolloverSummary | null>(`${base}/last`) });

/** Commit and undo change school years, grades and classes: every list of them reloads. */
function useRolloverMutation<V>(fn: (v: V) => Promise<RolloverSummary>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    meta: { silent: true },
    onSuccess: () => Promise.all([key, schoolYears('k12').key, grades('k12').key, classes('k12').key].map((k) => client.invalidateQueries({ queryKey: k }))),
  });
}

export const useCommitRollover = () => useRolloverMutation((body: RolloverCommit) => post<RolloverSummary>(base, body));
export const useUndoRollover = () => useRolloverMutation(() => post<RolloverSummary>(`${base}/undo`));
