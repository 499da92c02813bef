import { useQuery } from '@tanstack/react-query';
import type { UInfo } from '@/domain/auth/types';
import { get } from '@/lib/api-client';

export const UINFO_QUERY_KEY = ['myInfo', 'uinfo'] as const;

/** GET /api/busi/web/myInfo/getUInfo: accounts with roles and menus of the signed-in user (docs/product-rules.md#calls). */
export function getUInfo(): Promise<UInfo> {
  return get<UInfo>('/api/busi/web/myInfo/getUInfo');
}

export function useUInfoQuery(enabled = true) {
  return useQuery({ queryKey: UINFO_QUERY_KEY, queryFn: getUInfo, enabled });
}
