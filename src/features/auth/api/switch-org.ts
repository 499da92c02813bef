import type { UInfo } from '@/domain/auth/types';
import { post } from '@/lib/api-client';

export interface SwitchOrgBody {
  orgId: string;
  tenantOrgId: string;
}

/** POST /api/busi/web/myInfo/switchOrg: makes the organisation's account present (docs/product-rules.md#accounts-in-use, #calls). */
export function switchOrg(body: SwitchOrgBody): Promise<UInfo> {
  return post<UInfo>('/api/busi/web/myInfo/switchOrg', body);
}
