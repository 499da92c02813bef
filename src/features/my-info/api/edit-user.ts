import { useMutation } from '@tanstack/react-query';
import type { ProfileForm } from '@/domain/auth/schemas';
import type { UInfo } from '@/domain/auth/types';
import { post } from '@/lib/api-client';
import { saveUInfo } from '@/lib/store';

/** POST /api/busi/web/myInfo/editUser: name, mobile, gender; answers the updated user info. */
export function editUser(body: ProfileForm): Promise<UInfo> {
  return post<UInfo>('/api/busi/web/myInfo/editUser', body);
}

export function useEditUserMutation() {
  return useMutation({ mutationFn: editUser, onSuccess: (uinfo) => saveUInfo(uinfo) });
}
