import { useEffect, useState } from 'react';
import { Bell, ChevronLeft, ChevronRight, Pin } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { InboxRow } from '@/domain/notices/notices';
import { EmptyState } from '@/components/empty-state/empty-state';
import { QueryState } from '@/components/query-state/query-state';
import { RichTextView } from '@/components/rich-text/rich-text-view';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/date-time';
import { downloadInboxAttachment, inboxFilePath, useInbox, useInboxNotice, useMarkNoticeRead } from '../api';
import { AttachmentList } from './attachment-list';

const PAGE_SIZE = 10;

/** One notice opened: shown as its readers see it, marked read once it has loaded (docs/product-rules.md#notices). */
function OpenNotice({ row, onClose }: { row: InboxRow; onClose(): void }) {
  const { t, i18n } = useTranslation('notices');
  const one = useInboxNotice(row.id);
  const mark = useMarkNoticeRead();
  const loaded = Boolean(one.data);
  const { mutate } = mark;
  useEffect(() => {
    if (loaded && !row.read) mutate(row.id);
  }, [loaded, row.id, row.read, mutate]);
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-3xl" data-testid="inbox-notice">
        <DialogHeader>
          <DialogTitle className="break-words">{row.title}</DialogTitle>
          <DialogDescription>{`${row.publisherName} · ${row.publishedAt ? formatDateTime(row.publishedAt, i18n.language) : row.showFrom}`}</DialogDescription>
        </DialogHeader>
        <QueryState query={one} data={one.data}>
          {(n) => (
            <div className="grid gap-4">
              <RichTextView html={n.content} contentPath={inboxFilePath(n.id)} />
              <AttachmentList attachments={n.attachments} onDownload={(a) => downloadInboxAttachment(n.id, a.id, a.name)} />
            </div>
          )}
        </QueryState>
        <p className="sr-only" aria-live="polite">
          {mark.isSuccess ? t('inbox.markedRead') : ''}
        </p>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The notices the signed-in user may read (docs/product-rules.md#notices): pinned first, unread marked; opening one
 * shows it and marks it read. Self-contained, so the personal centre's message page can hold it beside other sections.
 */
export function NoticeInbox({ className }: { className?: string }) {
  const { t, i18n } = useTranslation('notices');
  const [current, setCurrent] = useState(1);
  // `?unread=true` (the to-do of unread notices) opens it on the unread ones.
  const [params] = useSearchParams();
  const [unreadOnly, setUnreadOnly] = useState(() => params.get('unread') === 'true');
  const [open, setOpen] = useState<InboxRow | null>(null);
  const inbox = useInbox({ current, size: PAGE_SIZE, ...(unreadOnly ? { unread: true } : {}) });
  const pages = Math.max(1, Math.ceil((inbox.data?.total ?? 0) / PAGE_SIZE));
  return (
    <Card className={className} data-testid="notice-inbox">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle className="text-base">{t('inbox.title')}</CardTitle>
        <div role="group" aria-label={t('inbox.show')} className="flex gap-1">
          <Button type="button" size="sm" variant={unreadOnly ? 'ghost' : 'secondary'} aria-pressed={!unreadOnly} onClick={() => (setUnreadOnly(false), setCurrent(1))}>
            {t('inbox.all')}
          </Button>
          <Button type="button" size="sm" variant={unreadOnly ? 'secondary' : 'ghost'} aria-pressed={unreadOnly} onClick={() => (setUnreadOnly(true), setCurrent(1))}>
            {t('inbox.unreadOnly')}
          </Button>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3">
        <QueryState query={inbox} data={inbox.data}>
          {(page) =>
            page.records.length === 0 ? (
              <EmptyState icon={<Bell aria-hidden />} title={t(unreadOnly ? 'inbox.noneUnread' : 'inbox.none')} />
            ) : (
              <ul className="divide-y rounded-md border" data-testid="inbox-list">
                {page.records.map((r) => (
                  <li key={r.id}>
                    <button
                      type="button"
                      onClick={() => setOpen(r)}
                      data-testid="inbox-item"
                      data-read={r.read}
                      className="flex min-h-12 w-full items-center gap-3 px-3 py-2.5 text-left hover:bg-muted/60 focus-visible:bg-muted/60 focus-visible:outline-none"
                    >
                      <span aria-hidden className={cn('size-2 shrink-0 rounded-full', r.read ? 'bg-transparent' : 'bg-primary')} />
                      <span className="grid min-w-0 flex-1 gap-0.5">
                        <span className={cn('flex items-center gap-1.5 truncate', !r.read && 'font-semibold')}>
                          {r.pinned ? <Pin aria-label={t('field.pinned')} className="size-3.5 shrink-0 text-warning" /> : null}
                          <span className="truncate">{r.title}</span>
                        </span>
                        <span className="truncate text-xs text-muted-foreground">{`${r.publisherName} · ${r.publishedAt ? formatDateTime(r.publishedAt, i18n.language) : r.showFrom}`}</span>
                      </span>
                      {r.read ? <span className="sr-only">{t('inbox.read')}</span> : <Badge variant="default">{t('inbox.unread')}</Badge>}
                    </button>
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
        {pages > 1 ? (
          <div className="flex items-center justify-end gap-2 text-sm">
            <Button type="button" size="icon" variant="outline" aria-label={t('inbox.previous')} disabled={current <= 1} onClick={() => setCurrent((c) => c - 1)}>
              <ChevronLeft aria-hidden />
            </Button>
            <span className="tabular-nums">{`${current} / ${pages}`}</span>
            <Button type="button" size="icon" variant="outline" aria-label={t('inbox.next')} disabled={current >= pages} onClick={() => setCurrent((c) => c + 1)}>
              <ChevronRight aria-hidden />
            </Button>
          </div>
        ) : null}
      </CardContent>
      {open ? <OpenNotice row={open} onClose={() => setOpen(null)} /> : null}
    </Card>
  );
}
