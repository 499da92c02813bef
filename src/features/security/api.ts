import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RecoveryCodes, SecurityOverview, TotpEnrolment } from '@/domain/security/two-factor';
import { get, post } from '@/lib/api-client';
import { sha256 } from '@/lib/sha256';

const BASE = '/api/busi/web/myInfo/security';
export const SECURITY_OVERVIEW_KEY = ['myInfo', 'security'] as const;

/** GET /myInfo/security: two-factor state, the password policy that applies, recent sign-ins. */
export function useSecurityOverview(enabled = true) {
  return useQuery({ queryKey: SECURITY_OVERVIEW_KEY, queryFn: () => get<SecurityOverview>(BASE), enabled });
}

export const startTotp = () => post<TotpEnrolment>(`${BASE}/totp/start`);
export const confirmTotp = (code: string) => post<RecoveryCodes>(`${BASE}/totp/confirm`, { code });

export function useDisableTotp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ password, code }: { password: string; code: string }) => post<null>(`${BASE}/totp/disable`, { password: sha256(password), code }),
    onSuccess: () => client.invalidateQueries({ queryKey: SECURITY_OVERVIEW_KEY }),
  });
}
