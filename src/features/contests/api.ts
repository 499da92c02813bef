import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  contestPageKey,
  type ContestEntryRow,
  type ContestRow,
  type ContestSave,
  type Leaderboard,
  type LeaderboardClassRow,
  type LeaderboardStudentRow,
  type ParticipationDay,
} from '@/domain/contests/contests';
import type { ActivityOptions } from '@/domain/activities/exercise-records';
import { pageApi, type Family } from '@/domain/menus/access';
import { download, get, post, put, saveFile } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

const cache = new Map<Family, Resource<ContestRow, ContestSave>>();

/** A family's contests (onlineManagement/competitionRank, or competition at a university) through the resource kit. */
export function contestResource(family: Family): Resource<ContestRow, ContestSave> {
  let r = cache.get(family);
  if (!r) cache.set(family, (r = createResource<ContestRow, ContestSave>({ base: pageApi(contestPageKey(family)) })));
  return r;
}

/** Grades, classes and colleges a contest's scope chooses from. */
export function useContestOptions(family: Family) {
  const api = contestResource(family);
  return useQuery({ queryKey: [...api.key, 'options'], queryFn: () => get<ActivityOptions>(`${api.base}/options`), staleTime: 5 * 60_000 });
}

/** Ends a contest now. */
export function useEndContest(family: Family) {
  const api = contestResource(family);
  const client = useQueryClient();
  return useMutation({ mutationFn: (id: string) => put<ContestRow>(`${api.base}/${encodeURIComponent(id)}/end`), onSuccess: () => client.invalidateQueries({ queryKey: api.key }) });
}

/** A leaderboard view; polls while the contest runs so the board fills as entries arrive. */
export function useLeaderboard<T extends LeaderboardStudentRow | LeaderboardClassRow>(family: Family, id: string, by: 'student' | 'class', item: string | undefined, live: boolean) {
  const api = contestResource(family);
  return useQuery({
    queryKey: [...api.key, 'board', id, by, item ?? ''],
    queryFn: () => get<Leaderboard<T>>(`${api.base}/${encodeURIComponent(id)}/leaderboard`, { by, item }),
    refetchInterval: live ? 15_000 : false,
  });
}

export function useParticipation(family: Family, id: string, live: boolean) {
  const api = contestResource(family);
  return useQuery({
    queryKey: [...api.key, 'participation', id],
    queryFn: () => get<ParticipationDay[]>(`${api.base}/${encodeURIComponent(id)}/participation`),
    refetchInterval: live ? 15_000 : false,
  });
}

export async function exportLeaderboard(family: Family, id: string, item: string | undefined) {
  saveFile(await download(`${contestResource(family).base}/${encodeURIComponent(id)}/export`, { item }), 'leaderboard.xlsx');
}

const entryCache = new Map<string, Resource<ContestEntryRow, never>>();

/** The entries of one contest (its data screen): list and export through the resource kit. */
export function contestEntries(family: Family, id: string): Resource<ContestEntryRow, never> {
  const base = `${contestResource(family).base}/${encodeURIComponent(id)}/entries`;
  let r = entryCache.get(base);
  if (!r) entryCache.set(base, (r = createResource<ContestEntryRow, never>({ base })));
  return r;
}

/** Sets entries invalid (with the required reason) or valid again; the entries and the contest's boards reload. */
export function useSetEntryValidity(family: Family, id: string) {
  const entries = contestEntries(family, id);
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ invalid, ...body }: { ids: string[]; reason?: string; invalid: boolean }) => post<{ changed: number }>(`${entries.base}/${invalid ? 'invalid' : 'valid'}`, body),
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: entries.key }), client.invalidateQueries({ queryKey: contestResource(family).key })]),
  });
}
