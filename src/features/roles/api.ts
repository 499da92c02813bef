import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '@/domain/api';
import { pageApi, type Family } from '@/domain/menus/access';
import type { PermissionNode } from '@/domain/roles/permission-tree';
import { roleManagementKey, type RoleDetail, type RoleMember, type RoleRow, type RoleSave } from '@/domain/roles/roles';
import { del, get, post } from '@/lib/api-client';
import { currentLocale } from '@/lib/i18n';
import { createResource, type Resource } from '@/lib/resource';

const cache = new Map<Family, Resource<RoleRow, RoleSave>>();

/** Roles (…/role) of a family; `useGet` answers the role with its permissions. */
export function roles(family: Family): Resource<RoleRow, RoleSave> {
  let r = cache.get(family);
  if (!r) cache.set(family, (r = createResource<RoleRow, RoleSave>({ base: pageApi(roleManagementKey(family)) })));
  return r;
}
export const useRole = (family: Family, id: string | undefined) => (roles(family) as unknown as Resource<RoleDetail, RoleSave>).useGet(id);

/** The members of a role, a page at a time. */
export function useRoleMembers(family: Family, roleId: string, query: { current: number; size: number; keyword?: string }) {
  const r = roles(family);
  return useQuery({ queryKey: [...r.key, 'members', roleId, query], queryFn: () => get<Page<RoleMember>>(`${r.base}/${roleId}/members`, query) });
}

/** Accounts of the organisation that could join the role. */
export function useRoleCandidates(family: Family, roleId: string, keyword: string, enabled: boolean) {
  const r = roles(family);
  return useQuery({ queryKey: [...r.key, 'candidates', roleId, keyword], queryFn: () => get<RoleMember[]>(`${r.base}/${roleId}/candidates`, { keyword }), enabled });
}

/** Adding and removing members refreshes the role's lists and counts. */
export function useRoleMemberWrites(family: Family, roleId: string) {
  const r = roles(family);
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: r.key });
  return {
    add: useMutation({ mutationFn: (accountIds: string[]) => post<RoleMember[]>(`${r.base}/${roleId}/members`, { accountIds }), onSuccess }),
    remove: useMutation({ mutationFn: (accountId: string) => del<null>(`${r.base}/${roleId}/members/${accountId}`), onSuccess }),
  };
}

/** The role editor's permission tree as the server builds it: the platform operators' names, order and hidden marks, in the current language. */
export function useRoleMenuTree(family: Family) {
  const r = roles(family);
  const locale = currentLocale();
  return useQuery({ queryKey: [...r.key, 'menu-tree', locale], queryFn: () => get<PermissionNode[]>(`${r.base}/menu-tree`), staleTime: 60_000 });
}
