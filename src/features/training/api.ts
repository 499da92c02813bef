import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TrainingCandidate, TrainingDetail, TrainingProgress, TrainingRow, TrainingSave, TrainingSession } from '@/domain/training/training';
import type { Page } from '@/domain/api';
import { pageApi } from '@/domain/menus/access';
import { get, post, type Params } from '@/lib/api-client';
import { createResource } from '@/lib/resource';

export const TRAINING_KEY = 'k12.training.specialTraining';

/** specialTraining/specialTrainingList (docs/product-rules.md#special-training). */
export const training = createResource<TrainingRow, TrainingSave, TrainingDetail>({ base: pageApi(TRAINING_KEY) });

export function useTrainingOptions() {
  return useQuery({ queryKey: [...training.key, 'options'], queryFn: () => get<{ plans: { id: string; name: string }[] }>(`${training.base}/options`) });
}

/** Students of a test plan at a level of an item; off until all three are chosen. */
export function useCandidates(q: { planId: string; item: string; level: string }) {
  return useQuery({
    queryKey: [...training.key, 'candidates', q],
    // No plan (全部) asks for each student's latest result of the item.
    queryFn: () => get<TrainingCandidate[]>(`${training.base}/candidates`, q.planId ? q : { item: q.item, level: q.level }),
    enabled: Boolean(q.item && q.level),
  });
}

/** `enabled`: once the plan itself has loaded, so an unknown id answers one "not found", not three. */
export function useProgress(id: string, query: Params, enabled = true) {
  return useQuery({ queryKey: [...training.key, 'progress', id, query], queryFn: () => get<Page<TrainingProgress>>(`${training.base}/${id}/progress`, query), placeholderData: keepPreviousData, enabled });
}

export function useSessions(id: string, query: Params, enabled = true) {
  return useQuery({ queryKey: [...training.key, 'sessions', id, query], queryFn: () => get<Page<TrainingSession>>(`${training.base}/${id}/sessions`, query), placeholderData: keepPreviousData, enabled });
}

export function useEndTraining() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (id: string) => post<TrainingDetail>(`${training.base}/${id}/end`), onSuccess: () => client.invalidateQueries({ queryKey: training.key }) });
}
