import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pageApi } from '@/domain/menus/access';
import type { RolloverCommit, RolloverPreview, RolloverSummary } from '@/domain/school/rollover';
import type { SchoolFamily } from '@/domain/menus/access';
import { get, post } from '@/lib/api-client';
import { classes, grades, schoolYears } from '../api';

/** Year rollover of a school or university: under the school-year page's API (docs/product-rules.md#year-rollover). */
const base = (family: SchoolFamily) => `${pageApi(`${family}.org.acayear`)}/rollover`;
const key = (family: SchoolFamily) => [`${family}.org.acayear`, 'rollover'] as const;

export const useRolloverPreview = (family: SchoolFamily) =>
  useQuery({ queryKey: [...key(family), 'preview'], queryFn: () => get<RolloverPreview>(`${base(family)}/preview`), retry: false });
export const useLastRollover = (family: SchoolFamily) => useQuery({ queryKey: [...key(family), 'last'], queryFn: () => get<RolloverSummary | null>(`${base(family)}/last`) });

/** Commit and undo change school years, grades and classes: every list of them reloads. */
export function useRolloverRefresh(family: SchoolFamily) {
  const client = useQueryClient();
  return () => Promise.all([key(family), schoolYears(family).key, grades(family).key, classes(family).key].map((k) => client.invalidateQueries({ queryKey: k })));
}

/** The commit is a job (docs/product-rules.md#jobs): refusals answer at once, else its `{ id }`; the screen reloads when it is done. */
export const useCommitRollover = (family: SchoolFamily) =>
  useMutation({ mutationFn: (body: RolloverCommit) => post<{ id: string }>(base(family), body), meta: { silent: true } });
export function useUndoRollover(family: SchoolFamily) {
  const refresh = useRolloverRefresh(family);
  return useMutation({ mutationFn: () => post<RolloverSummary>(`${base(family)}/undo`), meta: { silent: true }, onSuccess: refresh });
}
