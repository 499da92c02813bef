import { useQuery } from '@tanstack/react-query';
import type { LoadOptions, LoadReport, LoadRow } from '@/domain/lesson-load/report';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import { download, get, saveFile } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

/** The families whose schools have lesson load reports (K12 and universities). */
export type LoadFamily = ServedBy<'class.load.lesson'>;
export const loadKey = (family: LoadFamily) => `${family}.class.load`;

const cache = new Map<LoadFamily, Resource<LoadRow, never>>();
/** class/load (docs/product-rules.md#lesson-load, "Reports"): the lessons (`/page`, `/export`) and each lesson's report. */
export function loadResource(family: LoadFamily): Resource<LoadRow, never> {
  let r = cache.get(family);
  if (!r) cache.set(family, (r = createResource<LoadRow, never>({ base: pageApi(loadKey(family)) })));
  return r;
}

export function useLoadOptions(family: LoadFamily) {
  const api = loadResource(family);
  return useQuery({ queryKey: [...api.key, 'options'], queryFn: () => get<LoadOptions>(`${api.base}/options`) });
}

/** A lesson's report; a lesson in progress is read again every 30 s (its figures run to now). */
export function useLoadReport(family: LoadFamily, lessonId: string | undefined) {
  const api = loadResource(family);
  return useQuery({
    queryKey: [...api.key, 'report', lessonId],
    queryFn: () => get<LoadReport>(`${api.base}/${encodeURIComponent(lessonId!)}`),
    enabled: Boolean(lessonId),
    refetchInterval: (q) => (q.state.data?.lesson.inProgress ? 30_000 : false),
  });
}

/** The lesson's printable A4 report (PDF, named by the server). */
export async function printLoadReport(family: LoadFamily, lessonId: string): Promise<void> {
  saveFile(await download(`${loadResource(family).base}/${encodeURIComponent(lessonId)}/print`), 'lesson-load.pdf');
}

/** The lesson's figures as a workbook (students, class curve per minute). */
export async function exportLoadReport(family: LoadFamily, lessonId: string): Promise<void> {
  saveFile(await download(`${loadResource(family).base}/${encodeURIComponent(lessonId)}/export`), 'lesson-load.xlsx');
}
