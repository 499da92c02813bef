import { useQuery } from '@tanstack/react-query';
import type { SimpleOrgInfo } from '@/domain/auth/types';
import { get } from '@/lib/api-client';

/** GET /api/oper/web/cs/tenantOrg/getSimpleInfo (public): title, icon, login image, filing number (spec §1). */
export function getSimpleInfo(orgId?: string | null): Promise<SimpleOrgInfo> {
  return get<SimpleOrgInfo>('/api/oper/web/cs/tenantOrg/getSimpleInfo', orgId ? { orgId } : undefined);
}

export function useSimpleInfoQuery(orgId?: string | null) {
  return useQuery({
    queryKey: ['tenantOrg', 'simpleInfo', orgId ?? null],
    queryFn: () => getSimpleInfo(orgId),
    staleTime: 10 * 60_000,
    // Branding is optional: the login screen falls back to the defaults without a warning.
    meta: { silent: true },
    retry: false,
  });
}
