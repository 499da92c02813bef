import { useMemo } from 'react';
import { CheckCheck, Download, ExternalLink } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { MESSAGE_OUTCOME_FILTERS, MESSAGE_READ_FILTERS, messageListQuery, type MessageRow } from '@/domain/messages/messages';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { downloadJobFile } from '@/components/jobs/api';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { useListState } from '@/components/list/use-list-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { useDateTime } from '@/lib/date-time';
import { useMarkRead, useMessages } from '../api';

type Filters = { read?: string; outcome?: string };
const col = createDataTableColumnHelper<MessageRow>();

/**
 * The messages finished jobs left the user (docs/product-rules.md#to-dos-and-messages): newest first, filtered by read
 * state and failures (the to-do "imports with failures" opens `?read=unread&outcome=failures`); the file downloads while
 * the store keeps it, and downloading or "mark read" marks a message read.
 */
export function JobMessages() {
  const { t } = useTranslation('messages');
  const at = useDateTime();
  const state = useListState<Filters>(['read', 'outcome']);
  const query = useMessages(state.query);
  const markRead = useMarkRead();
  const filters: FilterDef<Filters>[] = [
    { name: 'read', type: 'select', label: t('filter.read'), className: 'w-32', options: MESSAGE_READ_FILTERS.map((v) => ({ value: v, label: t(`filter.readOption.${v}`) })) },
    { name: 'outcome', type: 'select', label: t('filter.outcome'), className: 'w-32', options: MESSAGE_OUTCOME_FILTERS.map((v) => ({ value: v, label: t(`filter.outcomeOption.${v}`) })) },
  ];
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('text', {
          header: t('column.text'),
          cell: ({ row }) => <span className={row.original.readAt ? undefined : 'font-medium'}>{row.original.text}</span>,
        }),
        col.accessor('readAt', {
          id: 'state',
          header: t('column.state'),
          cell: ({ getValue }) => <Badge variant={getValue() ? 'secondary' : 'default'}>{t(getValue() ? 'state.read' : 'state.unread')}</Badge>,
        }),
        col.accessor('createdAt', { header: t('column.time'), meta: { className: 'whitespace-nowrap' }, cell: ({ getValue }) => at(getValue()) }),
        col.display({
          id: 'file',
          header: t('column.file'),
          cell: ({ row }) => {
            const m = row.original;
            return (
              <div className="flex flex-wrap gap-1">
                {m.jobId && m.fileName ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    data-testid="message-download"
                    onClick={() =>
                      void downloadJobFile({ id: m.jobId!, result: { fileName: m.fileName! } }).then(() => (m.readAt ? undefined : markRead.mutateAsync({ ids: [m.id] })))
                    }
                  >
                    <Download aria-hidden />
                    {t('action.download')}
                  </Button>
                ) : null}
                {m.to ? (
                  // A message about something elsewhere (an export's decision → 我的导出): opening it marks it read.
                  <Button asChild variant="ghost" size="sm">
                    <Link to={m.to} data-testid="message-open" onClick={() => (m.readAt ? undefined : void markRead.mutateAsync({ ids: [m.id] }))}>
                      <ExternalLink aria-hidden />
                      {t('action.open')}
                    </Link>
                  </Button>
                ) : null}
                {m.readAt ? null : (
                  <Button variant="ghost" size="sm" data-testid="message-mark-read" onClick={() => void markRead.mutateAsync({ ids: [m.id] })}>
                    <CheckCheck aria-hidden />
                    {t('action.markRead')}
                  </Button>
                )}
              </div>
            );
          },
        }),
      ]),
    [t, at, markRead],
  );
  return (
    <div className="grid gap-3">
      <div className="flex justify-end">
        <Button
          variant="outline"
          size="sm"
          data-testid="messages-mark-all"
          disabled={markRead.isPending}
          onClick={() => void markRead.mutateAsync({}).then(() => toast.success(t('marked')))}
        >
          <CheckCheck aria-hidden />
          {t('action.markAllRead')}
        </Button>
      </div>
      <ListScreen
        pageKey="personal.myInfo.messages"
        section={{}}
        state={state}
        querySchema={messageListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        phone={{ title: 'text', badge: 'state', fields: ['createdAt', 'file'] }}
        data-testid="job-messages"
      />
    </div>
  );
}
