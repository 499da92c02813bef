import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ScreenLinkCreate, ScreenLinkCreated, ScreenLinkRow } from '@/domain/wall/wall';
import { del, get, post } from '@/lib/api-client';
import { dataCenterApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { dataCenterKeys } from './keys';

/** GET …/dataCenter/screenLink: the organisation's wall links, newest first, revoked ones included. */
export function listScreenLinks(family: Family): Promise<ScreenLinkRow[]> {
  return get<ScreenLinkRow[]>(`${dataCenterApi(family)}/screenLink`);
}

export function useScreenLinksQuery(family: Family, enabled = true) {
  return useQuery({ queryKey: dataCenterKeys.screenLinks(family), queryFn: () => listScreenLinks(family), enabled });
}

/** POST …/dataCenter/screenLink: a new read-only wall link; the token comes back this once. */
export function createScreenLink(family: Family, body: ScreenLinkCreate): Promise<ScreenLinkCreated> {
  return post<ScreenLinkCreated>(`${dataCenterApi(family)}/screenLink`, body);
}

/** DELETE …/dataCenter/screenLink/:id: revokes a link (the wall showing it stops at its next refresh). */
export function revokeScreenLink(family: Family, id: string): Promise<ScreenLinkRow> {
  return del<ScreenLinkRow>(`${dataCenterApi(family)}/screenLink/${encodeURIComponent(id)}`);
}

export function useCreateScreenLink(family: Family) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ScreenLinkCreate) => createScreenLink(family, body),
    onSuccess: () => client.invalidateQueries({ queryKey: dataCenterKeys.screenLinks(family) }),
  });
}

export function useRevokeScreenLink(family: Family) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeScreenLink(family, id),
    onSuccess: () => client.invalidateQueries({ queryKey: dataCenterKeys.screenLinks(family) }),
  });
}
