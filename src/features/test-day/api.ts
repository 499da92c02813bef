import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import type { EntryAppeal, EntryResolve, EntrySave, StationStudent, StationView, TestDayProgress } from '@/domain/test-day/entries';
import type { StationOptions, StationRow, StationSave, TestDayPlan } from '@/domain/test-day/stations';
import { get, post, put } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

export type TestDayFamily = ServedBy<'test.testDay'>;

const cache = new Map<string, Resource<StationRow, StationSave>>();
/** Stations of a plan's test day (physiqueManage/testDay). */
export function stations(family: TestDayFamily): Resource<StationRow, StationSave> {
  const key = `${family}.test.testDay`;
  let r = cache.get(key);
  if (!r) cache.set(key, (r = createResource<StationRow, StationSave>({ base: pageApi(key) })));
  return r;
}

/** How often the day's progress and a station's queue refresh themselves (ms): cheap reads of the plan's rows. */
export const PROGRESS_POLL_MS = 8000;

export function useTestDayPlans(family: TestDayFamily) {
  const api = stations(family);
  return useQuery({ queryKey: [...api.key, 'plans'], queryFn: () => get<TestDayPlan[]>(`${api.base}/plans`) });
}

export function useStationOptions(family: TestDayFamily, planId: string | undefined) {
  const api = stations(family);
  return useQuery({ queryKey: [...api.key, 'options', planId], queryFn: () => get<StationOptions>(`${api.base}/options`, { planId }), enabled: Boolean(planId) });
}

export function useProgress(family: TestDayFamily, planId: string | undefined) {
  const api = stations(family);
  return useQuery({
    queryKey: [...api.key, 'progress', planId],
    queryFn: () => get<TestDayProgress>(`${api.base}/progress`, { planId }),
    enabled: Boolean(planId),
    refetchInterval: PROGRESS_POLL_MS,
  });
}

export function useStationView(family: TestDayFamily, stationId: string) {
  const api = stations(family);
  return useQuery({ queryKey: [...api.key, 'station', stationId], queryFn: () => get<StationView>(`${api.base}/${stationId}/station`), refetchInterval: PROGRESS_POLL_MS });
}

/** A checked-in student; refreshed so a device's new record shows up while the student waits. */
export function useStationStudent(family: TestDayFamily, stationId: string, studentId: string | undefined) {
  const api = stations(family);
  return useQuery({
    queryKey: [...api.key, 'station', stationId, 'student', studentId],
    queryFn: () => get<StationStudent>(`${api.base}/${stationId}/student/${studentId}`),
    enabled: Boolean(studentId),
    refetchInterval: PROGRESS_POLL_MS,
  });
}

/** The station's writes; each refreshes the station's queue and the student shown. */
export function useStationWrites(family: TestDayFamily, stationId: string) {
  const client = useQueryClient();
  const api = stations(family);
  const base = `${api.base}/${stationId}`;
  const settle = (s?: StationStudent) => {
    if (s) client.setQueryData([...api.key, 'station', stationId, 'student', s.student.id], s);
    void client.invalidateQueries({ queryKey: [...api.key, 'station', stationId] });
  };
  return {
    checkIn: useMutation({ mutationFn: (code: string) => post<StationStudent>(`${base}/checkIn`, { code }), meta: { silent: true }, onSuccess: settle }),
    enter: useMutation({ mutationFn: (body: EntrySave) => put<StationStudent>(`${base}/entry`, body), meta: { silent: true }, onSuccess: settle }),
    confirm: useMutation({
      mutationFn: ({ studentId, entries }: { studentId: string; entries: { id: string; version: number }[] }) => post<StationStudent>(`${base}/student/${studentId}/confirm`, { entries }),
      meta: { silent: true },
      onSuccess: settle,
    }),
    appeal: useMutation({ mutationFn: ({ id, ...body }: EntryAppeal & { id: string }) => post(`${api.base}/entry/${id}/appeal`, body), meta: { silent: true }, onSuccess: () => settle() }),
    resolve: useMutation({ mutationFn: ({ id, ...body }: EntryResolve & { id: string }) => post(`${api.base}/entry/${id}/resolve`, body), meta: { silent: true }, onSuccess: () => settle() }),
  };
}
