import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ActivityOptions, ExerciseRecordRow, ExerciseValidityBody } from '@/domain/activities/exercise-records';
import { pageApi, type Family } from '@/domain/menus/access';
import { get, post } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

const cache = new Map<Family, Resource<ExerciseRecordRow, never>>();

/** Exercise records (sportData/exerciseRecord) of a family: list and export through the resource kit. */
export function exerciseRecords(family: Family): Resource<ExerciseRecordRow, never> {
  let r = cache.get(family);
  if (!r) cache.set(family, (r = createResource<ExerciseRecordRow, never>({ base: pageApi(`${family}.sportData.exerciseRecord`) })));
  return r;
}

/** Schools, years, grades, classes and colleges the reader may filter by (within their data scope). */
export function useActivityOptions(family: Family) {
  const api = exerciseRecords(family);
  return useQuery({ queryKey: [...api.key, 'options'], queryFn: () => get<ActivityOptions>(`${api.base}/options`), staleTime: 5 * 60_000 });
}

/** Sets records invalid (with a reason) or valid again; the list reloads. */
export function useSetExerciseValidity(family: Family) {
  const api = exerciseRecords(family);
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ invalid, ...body }: ExerciseValidityBody & { invalid: boolean }) => post<{ changed: number }>(`${api.base}/${invalid ? 'invalid' : 'valid'}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: api.key }),
  });
}
