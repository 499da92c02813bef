import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pageApi } from '@/domain/menus/access';
import type { ResetPassword, ResetPasswordResult, UserCreate, UserRow } from '@/domain/users/users';
import { get, put } from '@/lib/api-client';
import { createResource } from '@/lib/resource';

/** The management organisation's accounts (admin user list). */
export const users = createResource<UserRow, UserCreate>({ base: pageApi('admin.user.user') });

export function useUserOptions() {
  return useQuery({ queryKey: [...users.key, 'options'], queryFn: () => get<{ roles: { id: string; name: string }[] }>(`${users.base}/options`) });
}

export function useUserWrites() {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: users.key });
  return {
    status: useMutation({ mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => put<UserRow>(`${users.base}/${id}/status`, { enabled }), onSuccess }),
    // The dialog shows the server's refusal itself.
    reset: useMutation({ mutationFn: ({ id, ...body }: ResetPassword & { id: string }) => put<ResetPasswordResult>(`${users.base}/${id}/password`, body), onSuccess, meta: { silent: true } }),
  };
}
