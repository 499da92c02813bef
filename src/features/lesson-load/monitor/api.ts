import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MONITOR_POLL_MS, type AlertAcknowledge, type LiveView, type MonitorBands, type MonitorBandsView, type MonitorRow } from '@/domain/lesson-load/monitor';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import { get, put } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

export type MonitorFamily = ServedBy<'class.monitor'>;

const cache = new Map<string, Resource<MonitorRow, never>>();
/** class/monitor: the lessons in progress (`useList`) and one lesson's row (`useGet`). */
export function monitorResource(family: MonitorFamily): Resource<MonitorRow, never> {
  const key = `${family}.class.monitor`;
  let r = cache.get(key);
  if (!r) cache.set(key, (r = createResource<MonitorRow, never>({ base: pageApi(key) })));
  return r;
}

/** The live view, read again every MONITOR_POLL_MS (docs/decisions/053-live-monitor-updates.md) while the page is shown; the last answer stays on screen meanwhile. */
export function useLiveView(family: MonitorFamily, lessonId: string) {
  const api = monitorResource(family);
  return useQuery({
    queryKey: [...api.key, 'live', lessonId],
    queryFn: () => get<LiveView>(`${api.base}/${lessonId}/live`),
    // A failed poll shows as "not updated since" on the page, not a toast every few seconds.
    meta: { silent: true },
    refetchInterval: (q) => (q.state.data?.lesson.endedAt ? false : MONITOR_POLL_MS),
    refetchIntervalInBackground: false,
    placeholderData: keepPreviousData,
  });
}

export function useMonitorBands(family: MonitorFamily, lessonId: string, enabled: boolean) {
  const api = monitorResource(family);
  return useQuery({ queryKey: [...api.key, 'bands', lessonId], queryFn: () => get<MonitorBandsView>(`${api.base}/${lessonId}/bands`), enabled, staleTime: 0 });
}

export function useMonitorWrites(family: MonitorFamily) {
  const client = useQueryClient();
  const api = monitorResource(family);
  const settle = () => void client.invalidateQueries({ queryKey: api.key });
  return {
    lend: useMutation({
      mutationFn: ({ lessonId, ...body }: MonitorBands & { lessonId: string }) => put<MonitorBandsView>(`${api.base}/${lessonId}/bands`, body),
      meta: { silent: true },
      onSuccess: settle,
    }),
    acknowledge: useMutation({
      mutationFn: ({ lessonId, alertId, ...body }: AlertAcknowledge & { lessonId: string; alertId: string }) => put<null>(`${api.base}/${lessonId}/alerts/${alertId}/acknowledge`, body),
      meta: { silent: true },
      onSuccess: settle,
    }),
  };
}
