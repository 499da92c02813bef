import type { UInfo } from '@/domain/auth/types';
import { post } from '@/lib/api-client';

export interface SwitchRoleBody {
  accountId: string;
  roleId: string;
  tenantOrgId: string;
}

/** POST /api/busi/web/myInfo/switchRole: makes the account and role present (docs/product-rules.md#accounts-in-use, #calls). */
export function switchRole(body: SwitchRoleBody): Promise<UInfo> {
  return post<UInfo>('/api/busi/web/myInfo/switchRole', body);
}
