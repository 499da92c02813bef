import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '@/domain/api';
import type { AccessLogArchiveRow, DataRequestHandle, DataRequestRow, RetentionRunRow, RetentionSave, RetentionSchedule } from '@/domain/retention/retention';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import { download, get, put, saveFile } from '@/lib/api-client';
import { createResource } from '@/lib/resource';

/** system/retention and system/dataRequest (docs/product-rules.md#retention). */
export type RetentionFamily = ServedBy<'system.retention'>;
export type DataRequestFamily = ServedBy<'system.dataRequest'>;
export const retentionKey = (family: RetentionFamily) => `${family}.system.retention`;
export const dataRequestKey = (family: DataRequestFamily) => `${family}.system.dataRequest`;

export function useRetentionSchedule(family: RetentionFamily) {
  const base = pageApi(retentionKey(family));
  return useQuery({ queryKey: [retentionKey(family), 'schedule'], queryFn: () => get<RetentionSchedule>(`${base}/schedule`) });
}

export function useSaveRetention(family: RetentionFamily) {
  const client = useQueryClient();
  const base = pageApi(retentionKey(family));
  return useMutation({
    mutationFn: (body: RetentionSave) => put<RetentionSchedule>(`${base}/schedule`, body),
    meta: { silent: true }, // the form shows a refusal (a stale save's 409, a bound) itself
    onSuccess: (saved) => client.setQueryData([retentionKey(family), 'schedule'], saved),
  });
}

export function useRetentionRuns(family: RetentionFamily) {
  const base = pageApi(retentionKey(family));
  return useQuery({ queryKey: [retentionKey(family), 'runs'], queryFn: () => get<Page<RetentionRunRow>>(`${base}/runs`) });
}

/** An operation-log archive (JSON Lines with the chain hashes). */
export async function downloadArchive(family: RetentionFamily, id: string, fileName: string): Promise<void> {
  saveFile(await download(`${pageApi(retentionKey(family))}/archives/${id}`), fileName);
}

/** The access log's archives (platform operators who read the access log; empty for everyone else). */
export function useAccessLogArchives(family: RetentionFamily, enabled: boolean) {
  const base = pageApi(retentionKey(family));
  return useQuery({ queryKey: [retentionKey(family), 'accessLogArchives'], queryFn: () => get<Page<AccessLogArchiveRow>>(`${base}/access-log-archives`), enabled });
}

/** The path of an access-log archive's download (named in an export approval request when it needs one). */
export const accessLogArchivePath = (family: RetentionFamily, id: string) => `${pageApi(retentionKey(family))}/access-log-archives/${id}`;

/** An access-log archive (JSON Lines; a day's gzip-compressed): above the export threshold the server asks for an approval. */
export async function downloadAccessLogArchive(family: RetentionFamily, id: string): Promise<void> {
  saveFile(await download(accessLogArchivePath(family, id)), 'access-log.jsonl.gz');
}

export const dataRequestResource = (family: DataRequestFamily) => createResource<DataRequestRow, never>({ base: pageApi(dataRequestKey(family)) });

export function useHandleDataRequest(family: DataRequestFamily) {
  const client = useQueryClient();
  const api = dataRequestResource(family);
  return useMutation({
    mutationFn: ({ id, ...body }: DataRequestHandle & { id: string }) => put<DataRequestRow>(`${api.base}/${id}/handle`, body),
    meta: { silent: true },
    onSuccess: () => client.invalidateQueries({ queryKey: api.key }),
  });
}

/** The child's data of a request, as the JSON file the parent can also download. */
export async function downloadChildData(family: DataRequestFamily, row: DataRequestRow): Promise<void> {
  saveFile(await download(`${dataRequestResource(family).base}/${row.id}/download`), `${row.studentName}.json`);
}
