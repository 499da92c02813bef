import { useMutation } from '@tanstack/react-query';
import { post } from '@/lib/api-client';
import { sha256 } from '@/lib/sha256';

export interface ChangePasswordInput {
  oldPassword: string;
  newPassword: string;
}

/** POST /api/busi/web/myInfo/editAccount: the old password as SHA-256 hex (as at login), the new one as typed. */
export function editAccount({ oldPassword, newPassword }: ChangePasswordInput): Promise<null> {
  return post<null>('/api/busi/web/myInfo/editAccount', { oldPassword: sha256(oldPassword), newPassword });
}

export function useEditAccountMutation() {
  return useMutation({ mutationFn: editAccount });
}
