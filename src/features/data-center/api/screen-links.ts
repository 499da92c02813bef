import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ScreenLinkCreate, ScreenLinkCreated, ScreenLinkRow } from '@/domain/data-center/wall';
import { SUCCESS_CODE, type Envelope } from '@/domain/api';
import { ApiError, get, http, post, toApiError } from '@/lib/api-client';
import { dataCenterApi, type DataCenterFamily } from '../family';
import { dataCenterKeys } from './keys';

/** GET …/dataCenter/screenLink: the organisation's wall links, newest first, revoked ones included. */
export function listScreenLinks(family: DataCenterFamily): Promise<ScreenLinkRow[]> {
  return get<ScreenLinkRow[]>(`${dataCenterApi(family)}/screenLink`);
}

export function useScreenLinksQuery(family: DataCenterFamily, enabled = true) {
  return useQuery({ queryKey: dataCenterKeys.screenLinks(family), queryFn: () => listScreenLinks(family), enabled });
}

/** POST …/dataCenter/screenLink: a new read-only wall link; the token comes back this once. */
export function createScreenLink(family: DataCenterFamily, body: ScreenLinkCreate): Promise<ScreenLinkCreated> {
  return post<ScreenLinkCreated>(`${dataCenterApi(family)}/screenLink`, body);
}

/** DELETE …/dataCenter/screenLink/:id: revokes a link (the wall showing it stops at its next refresh). */
export async function revokeScreenLink(family: DataCenterFamily, id: string): Promise<ScreenLinkRow> {
  // The api client has no DELETE helper: unwrap the envelope here the same way.
  let res;
  try {
    res = await http.delete<Envelope<ScreenLinkRow>>(`${dataCenterApi(family)}/screenLink/${encodeURIComponent(id)}`);
  } catch (error) {
    throw toApiError(error);
  }
  if (String(res.data.code) !== SUCCESS_CODE) throw new ApiError(res.data.msg, String(res.data.code), res.status);
  return res.data.data;
}

export function useCreateScreenLink(family: DataCenterFamily) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ScreenLinkCreate) => createScreenLink(family, body),
    onSuccess: () => client.invalidateQueries({ queryKey: dataCenterKeys.screenLinks(family) }),
  });
}

export function useRevokeScreenLink(family: DataCenterFamily) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeScreenLink(family, id),
    onSuccess: () => client.invalidateQueries({ queryKey: dataCenterKeys.screenLinks(family) }),
  });
}
