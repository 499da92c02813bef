import type { SchoolFamily } from '@/domain/menus/access';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ScreenLinkCreated, ScreenLinkRow } from '@/domain/wall/wall';
import type { BoardLinkCreate } from '@/domain/meets/board';
import { del, get, post } from '@/lib/api-client';
import { meets } from './api';

/** A meet's board links (wall links of the screen-link kit showing the meet's live board), …/sportsMeet/:id/boardLinks. */
export function useBoardLinks(family: SchoolFamily, meetId: string) {
  const api = meets(family);
  const base = `${api.base}/${meetId}/boardLinks`;
  const key = [...api.key, 'meet', meetId, 'boardLinks'];
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: key });
  return {
    list: useQuery({ queryKey: key, queryFn: () => get<ScreenLinkRow[]>(base) }),
    create: useMutation({ mutationFn: (body: BoardLinkCreate) => post<ScreenLinkCreated>(base, body), onSuccess: refresh }),
    revoke: useMutation({ mutationFn: (id: string) => del<ScreenLinkRow>(`${base}/${encodeURIComponent(id)}`), onSuccess: refresh }),
  };
}
