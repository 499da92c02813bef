import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '@/domain/api';
import { DEFAULT_PAGE_SIZE } from '@/domain/constants';
import { TODO_POLL_MS, type MessageRead, type MessageRow, type TodoSummary } from '@/domain/messages/messages';
import { get, post } from '@/lib/api-client';

/** The user's to-dos and messages (docs/product-rules.md#to-dos-and-messages). */
const TODOS = '/api/busi/web/todos';
export const MESSAGES_BASE = '/api/busi/web/myInfo/messages';
export const todosKey = ['todos'] as const;
export const messagesKey = ['messages'] as const;

/** The to-dos: one query shared by the bell and the landing panel, asked again on an interval and on focus. */
export function useTodos(enabled = true) {
  return useQuery({
    queryKey: todosKey,
    queryFn: () => get<TodoSummary>(TODOS),
    enabled,
    refetchInterval: TODO_POLL_MS,
    refetchOnWindowFocus: 'always',
  });
}

type MessageQuery = { current: number; size: number; read?: string; outcome?: string };

export function useMessages(query: MessageQuery, enabled = true) {
  return useQuery({ queryKey: [...messagesKey, query], queryFn: () => get<Page<MessageRow>>(`${MESSAGES_BASE}/page`, query), enabled });
}

/** The latest few messages for the bell's popover. */
export const useLatestMessages = (enabled: boolean) => useMessages({ current: 1, size: DEFAULT_PAGE_SIZE }, enabled);

/** Marks messages read (the ids, or all): the messages and the to-dos (an import's failures) are asked again. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MessageRead) => post<null>(`${MESSAGES_BASE}/read`, body),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: messagesKey }), client.invalidateQueries({ queryKey: todosKey })]),
  });
}
