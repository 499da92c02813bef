import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pageApi, type Family } from '@/domain/menus/access';
import type { CurrentOrg, CurrentOrgSave } from '@/domain/org-manage/current-org';
import type { DepartmentRow, DepartmentSave } from '@/domain/org-manage/departments';
import type { OrgCreate, OrgDetail, OrgRow, OrgStatus, OrgUpdate } from '@/domain/org-manage/orgs';
import { download, get, put, saveFile } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

const cache = new Map<string, Resource<never, never>>();
function resource<Row, Save>(key: string): Resource<Row, Save> {
  let r = cache.get(key);
  if (!r) cache.set(key, (r = createResource<never, never>({ base: pageApi(key) })));
  return r as unknown as Resource<Row, Save>;
}

/** The own organisation (currentOrg) of a family: read by id or as the signed-in one. */
export const currentOrgResource = (family: Family) => resource<CurrentOrg, CurrentOrgSave>(`${family}.org.currentOrg`);

/** The signed-in organisation. */
export function useCurrentOrg(family: Family) {
  const r = currentOrgResource(family);
  return useQuery({ queryKey: [...r.key, 'current'], queryFn: () => get<CurrentOrg>(r.base) });
}

/** Organisations below the management organisation (orgManage/orgInfo). */
export const orgResource = () => resource<OrgRow, OrgCreate>('admin.org.orgInfo');

/** The same resource read as a lower organisation's detail and saved by its edit form. */
export const orgDetailResource = () => resource<OrgDetail, OrgUpdate>('admin.org.orgInfo');

export function useOrgTree(name: string) {
  const r = orgResource();
  return useQuery({ queryKey: [...r.key, 'tree', name], queryFn: () => get<OrgRow[]>(`${r.base}/tree`, name ? { name } : undefined) });
}

export function useOrgStatus() {
  const client = useQueryClient();
  const r = orgResource();
  return useMutation({
    mutationFn: ({ id, ...body }: OrgStatus & { id: string }) => put<OrgRow>(`${r.base}/${id}/status`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: r.key }),
  });
}

export async function exportOrgs(name: string, fileName: string) {
  saveFile(await download(`${orgResource().base}/export`, name ? { name } : undefined), `${fileName}.xlsx`);
}

/** Departments of the management organisation (departmentManage). */
export const departmentResource = () => resource<DepartmentRow, DepartmentSave>('admin.org.department');

export function useDepartmentTree(name = '') {
  const r = departmentResource();
  return useQuery({ queryKey: [...r.key, 'tree', name], queryFn: () => get<DepartmentRow[]>(`${r.base}/tree`, name ? { name } : undefined) });
}
