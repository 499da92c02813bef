import { useQuery } from '@tanstack/react-query';
import { pageApi, type Family } from '@/domain/menus/access';
import type { PermissionNode } from '@/domain/roles/permission-tree';
import { roleManagementKey, type RoleDetail, type RoleRow, type RoleSave } from '@/domain/roles/roles';
import { get } from '@/lib/api-client';
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

/** The role editor's permission tree as the server builds it: the platform operators' names, order and hidden marks, in the current language. */
export function useRoleMenuTree(family: Family) {
  const r = roles(family);
  const locale = currentLocale();
  return useQuery({ queryKey: [...r.key, 'menu-tree', locale], queryFn: () => get<PermissionNode[]>(`${r.base}/menu-tree`), staleTime: 60_000 });
}
