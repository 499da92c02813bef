import { useQuery } from '@tanstack/react-query';
import type { SimpleOrgInfo } from '@/domain/auth/types';

/** GET /api/oper/web/cs/tenantOrg/getSimpleInfo (public): title, icon, login image, filing number (docs/product-rules.md#branding). */
export async function getSimpleInfo(orgId?: string | null): Promise<SimpleOrgInfo> {
  // The login screen asks this first; the API client (axios) loads then, after the first paint, not with it.
  const { get } = await import('@/lib/api-client');
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
