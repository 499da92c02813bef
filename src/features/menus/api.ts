import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MenuCustomRow, MenuCustomSave, MenuFamily } from '@/domain/menus/customize';
import { get, post } from '@/lib/api-client';
import { createResource } from '@/lib/resource';

/** Menu management (docs/product-rules.md#menu-management): one entry's changes are a resource keyed by catalogue key. */
export const menuCustoms = createResource<MenuCustomRow, MenuCustomSave>({ base: '/api/busi/web/menuManagement' });

export function useMenuTree(family: MenuFamily) {
  return useQuery({ queryKey: [...menuCustoms.key, 'tree', family], queryFn: () => get<MenuCustomRow[]>(`${menuCustoms.base}/tree`, { family }) });
}

/** Move up/down, reset one entry, reset a family: each refreshes the trees. */
export function useMenuWrites() {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: menuCustoms.key });
  return {
    move: useMutation({ mutationFn: (v: { key: string; direction: 'up' | 'down' }) => post<null>(`${menuCustoms.base}/${v.key}/move`, { direction: v.direction }), onSuccess }),
    reset: useMutation({ mutationFn: (key: string) => post<MenuCustomRow>(`${menuCustoms.base}/${key}/reset`, {}), onSuccess }),
    resetFamily: useMutation({ mutationFn: (family: MenuFamily) => post<{ count: number }>(`${menuCustoms.base}/reset`, { family }), onSuccess }),
  };
}
