import { useQuery } from '@tanstack/react-query';
import { pageApi } from '@/domain/menus/access';
import type { UserCreate, UserRow } from '@/domain/users/users';
import { get } from '@/lib/api-client';
import { createResource } from '@/lib/resource';

/** The management organisation's accounts (admin user list). */
export const users = createResource<UserRow, UserCreate>({ base: pageApi('admin.user.user') });

export function useUserOptions() {
  return useQuery({ queryKey: [...users.key, 'options'], queryFn: () => get<{ roles: { id: string; name: string }[] }>(`${users.base}/options`) });
}
