import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '@/domain/api';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import type { InboxNotice, InboxQuery, InboxRow, NoticeDetail, NoticeReceipts, NoticeRow, NoticeSave, NoticeSchool } from '@/domain/notices/notices';
import { download, get, post, saveFile, type Params } from '@/lib/api-client';
import { filePaths } from '@/domain/uploads/stored-file';
import { createResource, type Resource } from '@/lib/resource';

export type NoticeFamily = ServedBy<'system.notice'>;
export const noticeKey = (family: NoticeFamily) => `${family}.system.notice`;

const cache = new Map<string, Resource<NoticeRow, NoticeSave, NoticeDetail>>();
/** The publisher's notices (system/notice) of a family. */
export function notices(family: NoticeFamily): Resource<NoticeRow, NoticeSave, NoticeDetail> {
  const key = noticeKey(family);
  let r = cache.get(key);
  if (!r) cache.set(key, (r = createResource<NoticeRow, NoticeSave, NoticeDetail>({ base: pageApi(key) })));
  return r;
}

/** A management organisation's schools (the form's picker); empty for a school. */
export function useNoticeSchools(family: NoticeFamily, enabled: boolean) {
  const base = notices(family).base;
  return useQuery({ queryKey: [base, 'schools'], queryFn: () => get<NoticeSchool[]>(`${base}/schools`), enabled, staleTime: 60_000 });
}

export function useNoticeReceipts(family: NoticeFamily, id: string) {
  const r = notices(family);
  return useQuery({ queryKey: [...r.key, 'receipts', id], queryFn: () => get<NoticeReceipts>(`${r.base}/${id}/receipts`), enabled: Boolean(id) });
}

/** A publisher's own attachment, from the file store. */
export const downloadOwnAttachment = async (fileId: string, name: string) => saveFile(await download(filePaths.content(fileId)), name);

// ---- The readers' side (docs/product-rules.md#notices).

export const INBOX_API = '/api/busi/web/myInfo/notices';
const inboxKey = ['notices', 'inbox'] as const;
/** A file of a notice, read through the notice (the reader is below the publisher). */
export const inboxFilePath = (noticeId: string) => (fileId: string) => `${INBOX_API}/${noticeId}/files/${fileId}`;

export function useInbox(query: Partial<InboxQuery>) {
  return useQuery({ queryKey: [...inboxKey, 'page', query], queryFn: () => get<Page<InboxRow>>(`${INBOX_API}/page`, query as Params), placeholderData: keepPreviousData });
}

/** The signed-in user's unread notices: the header bell's count. */
export function useUnreadNoticeCount() {
  return useQuery({ queryKey: [...inboxKey, 'unread'], queryFn: () => get<{ unread: number }>(`${INBOX_API}/unread-count`), staleTime: 60_000 });
}

export function useInboxNotice(id: string | null) {
  return useQuery({ queryKey: [...inboxKey, 'one', id], queryFn: () => get<InboxNotice>(`${INBOX_API}/${id}`), enabled: Boolean(id) });
}

/** Marks a notice read (the first open counts); the list and the count follow. */
export function useMarkNoticeRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => post<{ read: boolean }>(`${INBOX_API}/${id}/read`),
    meta: { silent: true },
    onSuccess: () => client.invalidateQueries({ queryKey: inboxKey }),
  });
}

export const downloadInboxAttachment = async (noticeId: string, fileId: string, name: string) => saveFile(await download(inboxFilePath(noticeId)(fileId)), name);
