import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Family } from '@/domain/menus/access';
import type { AuditChainReport, OnlineSessionRow, OperationLogDetail, OperationLogRow, SignInLogRow } from '@/domain/platform/logs';
import type { AccessLogRow } from '@/domain/platform/access-log';
import { get, post } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';
import { pageApi } from '@/domain/menus/access';

const cache = new Map<string, Resource<never, never>>();
function resource<Row, One = Row>(key: string): Resource<Row, never, One> {
  let r = cache.get(key);
  if (!r) cache.set(key, (r = createResource<never, never>({ base: pageApi(key) })));
  return r as unknown as Resource<Row, never, One>;
}

/** The sign-in log of a family's organisation (system/signInLog). */
export const signInLog = (family: Family) => resource<SignInLogRow>(`${family}.system.signInLog`);

/** The operation log (system/operationLog): rows, and one row with before/after. */
export const operationLog = (family: Family) => resource<OperationLogRow, OperationLogDetail>(`${family}.system.operationLog`);

/** Every signed-in API request of the organisation and those below it (system/accessLog). */
export const accessLog = (family: Family) => resource<AccessLogRow>(`${family}.system.accessLog`);

/** Sessions signed in now (system/onlineSession). */
export const onlineSessions = (family: Family) => resource<OnlineSessionRow>(`${family}.system.onlineSession`);

/** One operation with the record before and after, while its dialog is open. */
export function useOperationDetail(family: Family, id: string | null) {
  const api = operationLog(family);
  return useQuery({ queryKey: [...api.key, 'detail', id], queryFn: () => get<OperationLogDetail>(`${api.base}/${id}`), enabled: !!id });
}

/** The operation log's hash chains checked while the verify dialog is open (never cached: each opening checks again). */
export function useAuditChainCheck(family: Family, open: boolean) {
  const api = operationLog(family);
  return useQuery({ queryKey: [...api.key, 'verify'], queryFn: () => get<AuditChainReport>(`${api.base}/verify`), enabled: open, gcTime: 0, staleTime: 0 });
}

/** Ends one session; the list reloads. */
export function useSignOutSession(family: Family) {
  const client = useQueryClient();
  const api = onlineSessions(family);
  return useMutation({
    mutationFn: (id: string) => post<null>(`${api.base}/${encodeURIComponent(id)}/signOut`),
    onSuccess: () => client.invalidateQueries({ queryKey: api.key }),
  });
}
