import type { ExportDecision, ExportRequestRow, SensitiveLogRow } from '@/domain/data-access/data-access';
import { pageApi, type Family } from '@/domain/menus/access';
import { download, post, saveFile } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

const cache = new Map<string, Resource<never, never>>();
function resource<Row>(key: string): Resource<Row, never> {
  let r = cache.get(key);
  if (!r) cache.set(key, (r = createResource<never, never>({ base: pageApi(key) })));
  return r as unknown as Resource<Row, never>;
}

/** system/sensitiveLog: views of unmasked mobiles and ID numbers. */
export const sensitiveLog = (family: Family) => resource<SensitiveLogRow>(`${family}.system.sensitiveLog`);

/** system/exportApproval: export requests (the organisation's with `audit`, else the caller's own). */
export const exportRequests = (family: Family) => resource<ExportRequestRow>(`${family}.system.exportApproval`);

export const decideExport = (family: Family, id: string, decision: ExportDecision) => post(`${pageApi(`${family}.system.exportApproval`)}/${id}/decide`, decision);

/** personal.myInfo.exports (我的导出): the caller's own requests, whatever their role (server: /myInfo/exports). */
const MY_EXPORTS = '/api/busi/web/myInfo/exports';
export const myExports = createResource<never, never>({ base: MY_EXPORTS }) as unknown as Resource<ExportRequestRow, never>;

/** The approved file, built by the server from the request's kept filters (the family's approvals page, or 我的导出 without a family). */
export async function downloadApproved(family: Family | null, id: string): Promise<void> {
  saveFile(await download(`${family ? pageApi(`${family}.system.exportApproval`) : MY_EXPORTS}/${id}/download`));
}
