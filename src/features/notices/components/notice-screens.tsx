import { useMemo } from 'react';
import { Eye, Pin } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useWatch } from 'react-hook-form';
import { richTextLength } from '@/domain/content/rich-text';
import { localDate } from '@/domain/dates';
import {
  audiencesFor,
  NOTICE_ATTACHMENTS_MAX,
  NOTICE_AUDIENCE_TABLE,
  NOTICE_STATE_TABLE,
  NOTICE_TEXT_MAX,
  noticeListQuery,
  noticeSaveSchema,
  type NoticeForm,
  type NoticeRow,
} from '@/domain/notices/notices';
import { enumLabel, enumOptions } from '@/domain/presentation';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { CheckboxGroupField, CustomField, DateField, FieldGroup, RadioField, TextField, UploadField } from '@/components/form/fields';
import { FormControl } from '@/components/form/form';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { RichTextEditor } from '@/components/rich-text/rich-text-editor';
import { RichTextView } from '@/components/rich-text/rich-text-view';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime } from '@/lib/date-time';
import { AttachmentList } from './attachment-list';
import { downloadOwnAttachment, noticeKey, notices, useNoticeReceipts, useNoticeSchools, type NoticeFamily } from '../api';

type Filters = { title?: string; state?: string };
const col = createDataTableColumnHelper<NoticeRow>();

/** "2026-11-01 – 2026-11-30", or from a day on. */
export function useWindowText() {
  const { t } = useTranslation('notices');
  return (from: string, until: string | null) => (until ? t('window.range', { from, until }) : t('window.from', { from }));
}

/** system/notice: the organisation's notices, pinned first (docs/product-rules.md#notices). */
export function NoticeListScreen({ family }: { family: NoticeFamily }) {
  const { t } = useTranslation('notices');
  const navigate = useNavigate();
  const key = noticeKey(family);
  const access = usePageAccess(key);
  const api = notices(family);
  const state = useListState<Filters>(['title', 'state']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const windowText = useWindowText();

  const filters: FilterDef<Filters>[] = [
    { name: 'title', type: 'text', label: t('field.title'), placeholder: t('field.titlePlaceholder') },
    { name: 'state', type: 'select', label: t('field.state'), options: enumOptions(NOTICE_STATE_TABLE, t) },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('title', {
          header: t('field.title'),
          cell: ({ row }) => (
            <button type="button" className="flex max-w-80 items-center gap-1 text-left font-medium text-primary hover:underline" onClick={() => void navigate(access.paths.detail!(row.original.id))} data-testid="notice-open">
              {row.original.pinned ? <Pin aria-label={t('field.pinned')} className="size-3.5 shrink-0 text-warning" /> : null}
              <span className="truncate">{row.original.title}</span>
            </button>
          ),
        }),
        col.accessor('audience', {
          header: t('field.audience'),
          cell: ({ row }) => {
            const r = row.original;
            const label = r.audience === 'chosenSchools' ? t('audienceCount', { count: r.orgCount }) : enumLabel(NOTICE_AUDIENCE_TABLE, r.audience, t);
            return r.toParents ? `${label} · ${t('field.toParents')}` : label;
          },
        }),
        col.accessor('showFrom', { header: t('field.window'), cell: ({ row }) => <span className="whitespace-nowrap">{windowText(row.original.showFrom, row.original.showUntil)}</span> }),
        col.accessor('pinned', { header: t('field.pinned'), cell: ({ getValue }) => (getValue() ? t('yes') : t('no')) }),
        col.accessor('readCount', {
          header: t('field.reads'),
          meta: { align: 'right' },
          cell: ({ row }) => <span className="tabular-nums" data-testid="notice-reads">{`${row.original.readCount} / ${row.original.audienceSize}`}</span>,
        }),
        col.accessor('state', { header: t('field.state'), cell: ({ getValue }) => <EnumBadge table={NOTICE_STATE_TABLE} value={getValue()} /> }),
        rowActionsColumn<NoticeRow>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            { action: 'detail', icon: <Eye aria-hidden />, onClick: (r) => void navigate(access.paths.detail!(r.id)), testId: 'notice-detail' },
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            deleteAction((r) => ({ title: t('deleteTitle', { name: r.title }), description: t('deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, key, navigate, access.paths, remove, windowText],
  );

  return (
    <ListScreen
      pageKey={key}
      state={state}
      querySchema={noticeListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      phone={{ title: 'title', badge: 'state', fields: ['audience', 'showFrom', 'readCount'] }}
      onAdd={() => void navigate(access.paths.add!)}
      data-testid="notice-list"
    />
  );
}

function TextCount() {
  const { t } = useTranslation('notices');
  const html = useWatch({ name: 'content' }) as string | undefined;
  const n = richTextLength(html ?? '');
  return <span className={n > NOTICE_TEXT_MAX ? 'text-destructive' : undefined}>{t('count', { count: n, max: NOTICE_TEXT_MAX })}</span>;
}

/** The chosen schools, shown only when the audience is "chosen schools". */
function SchoolsField({ family }: { family: NoticeFamily }) {
  const { t } = useTranslation('notices');
  const audience = useWatch({ name: 'audience' }) as string | undefined;
  const schools = useNoticeSchools(family, family === 'admin');
  if (audience !== 'chosenSchools') return null;
  return (
    <CheckboxGroupField
      name="schoolIds"
      label={t('field.schools')}
      required
      className="md:col-span-2"
      options={(schools.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
    />
  );
}

/** A school's staff notice may also go to its students' parents (the app); a district's never. */
function ParentsField() {
  const { t } = useTranslation('notices');
  const audience = useWatch({ name: 'audience' }) as string | undefined;
  if (audience !== 'staff') return null;
  return (
    <RadioField
      name="toParents"
      label={t('field.toParents')}
      description={t('field.toParentsHint')}
      options={[
        { value: 'false', label: t('no') },
        { value: 'true', label: t('yes') },
      ]}
    />
  );
}

/** system/notice/add and edit/:id: a stale form is refused by the server (409) and kept. */
export function NoticeFormScreen({ family }: { family: NoticeFamily }) {
  const { t } = useTranslation('notices');
  const { id } = useParams();
  const access = usePageAccess(noticeKey(family));
  const audiences = audiencesFor(family === 'admin');
  const defaults: NoticeForm = {
    title: '',
    content: '',
    attachmentIds: [],
    audience: audiences[0],
    schoolIds: [],
    toParents: 'false',
    pinned: 'false',
    published: 'false',
    showFrom: localDate(new Date()),
    showUntil: '',
  };
  return (
    <FormScreen
      schema={noticeSaveSchema}
      resource={notices(family)}
      id={id}
      defaults={defaults}
      toValues={(r) => ({
        title: r.title,
        content: r.content,
        attachmentIds: r.attachments.map((a) => a.id),
        audience: r.audience,
        schoolIds: r.schoolIds,
        toParents: r.toParents ? 'true' : 'false',
        pinned: r.pinned ? 'true' : 'false',
        published: r.published ? 'true' : 'false',
        showFrom: r.showFrom,
        showUntil: r.showUntil ?? '',
        version: r.version,
      })}
      title={id ? t('editTitle') : t('addTitle')}
      backTo={access.paths.list}
      data-testid="notice-form"
    >
      {() => (
        <FieldGroup>
          <TextField name="title" label={t('field.title')} required placeholder={t('field.titlePlaceholder')} className="md:col-span-2" />
          <RadioField name="audience" label={t('field.audience')} required options={audiences.map((a) => ({ value: a, label: enumLabel(NOTICE_AUDIENCE_TABLE, a, t) }))} />
          <RadioField
            name="published"
            label={t('field.publish')}
            options={[
              { value: 'false', label: t('states.draft') },
              { value: 'true', label: t('publishNow') },
            ]}
          />
          <SchoolsField family={family} />
          <ParentsField />
          <DateField name="showFrom" label={t('field.showFrom')} required />
          <DateField name="showUntil" label={t('field.showUntil')} description={t('field.showUntilHint')} />
          <RadioField
            name="pinned"
            label={t('field.pinned')}
            options={[
              { value: 'false', label: t('no') },
              { value: 'true', label: t('yes') },
            ]}
          />
          <UploadField name="attachmentIds" label={t('field.attachments')} purpose="attachment" maxCount={NOTICE_ATTACHMENTS_MAX} description={t('field.attachmentsHint', { max: NOTICE_ATTACHMENTS_MAX })} />
          <CustomField
            name="content"
            label={t('field.content')}
            required
            className="md:col-span-2"
            description={<TextCount />}
            render={(field) => (
              <FormControl>
                <RichTextEditor value={(field.value as string | undefined) ?? ''} onChange={field.onChange} aria-label={t('field.content')} />
              </FormControl>
            )}
          />
        </FieldGroup>
      )}
    </FormScreen>
  );
}

/** Who has read the notice: per organisation reached, the readers and the people who have not read it yet. */
function Receipts({ family, id }: { family: NoticeFamily; id: string }) {
  const { t, i18n } = useTranslation('notices');
  const receipts = useNoticeReceipts(family, id);
  return (
    <Card data-testid="notice-receipts">
      <CardHeader>
        <CardTitle className="text-base">{t('receipts.title')}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        <QueryState query={receipts} data={receipts.data}>
          {(r) => (
            <>
              <table className="w-full text-sm">
                <thead className="text-left text-muted-foreground">
                  <tr>
                    <th className="py-1 font-normal">{t('receipts.org')}</th>
                    <th className="py-1 text-right font-normal">{t('receipts.read')}</th>
                    <th className="py-1 text-right font-normal">{t('receipts.unread')}</th>
                  </tr>
                </thead>
                <tbody>
                  {r.orgs.map((o) => (
                    <tr key={o.orgId} className="border-t" data-testid="receipt-org">
                      <td className="py-1.5">{o.name}</td>
                      <td className="py-1.5 text-right tabular-nums">{`${o.readCount} / ${o.audienceSize}`}</td>
                      <td className="py-1.5 text-right tabular-nums">{o.audienceSize - o.readCount}</td>
                    </tr>
                  ))}
                  {r.parents ? (
                    <tr className="border-t" data-testid="receipt-parents">
                      <td className="py-1.5">{t('receipts.parents')}</td>
                      <td className="py-1.5 text-right tabular-nums">{`${r.parents.readCount} / ${r.parents.audienceSize}`}</td>
                      <td className="py-1.5 text-right tabular-nums">{r.parents.audienceSize - r.parents.readCount}</td>
                    </tr>
                  ) : null}
                </tbody>
              </table>
              <section className="grid gap-2">
                <h3 className="text-sm font-medium">{t('receipts.unreadPeople', { count: r.unreadTotal })}</h3>
                {r.unread.length === 0 ? (
                  <p className="text-sm text-muted-foreground">{t('receipts.allRead')}</p>
                ) : (
                  <ul className="flex flex-wrap gap-1.5" data-testid="receipt-unread">
                    {r.unread.map((p) => (
                      <li key={`${p.userId}-${p.orgName}`}>
                        <Badge variant="secondary" title={p.account}>{`${p.name} · ${p.orgName}`}</Badge>
                      </li>
                    ))}
                  </ul>
                )}
                {r.unread.length < r.unreadTotal ? <p className="text-xs text-muted-foreground">{t('receipts.more', { count: r.unreadTotal - r.unread.length })}</p> : null}
              </section>
              <section className="grid gap-2">
                <h3 className="text-sm font-medium">{t('receipts.readPeople', { count: r.read.length })}</h3>
                <ul className="grid gap-1 text-sm" data-testid="receipt-read">
                  {r.read.map((p) => (
                    <li key={`${p.userId}-${p.orgName}`} className="flex flex-wrap justify-between gap-2">
                      <span>{`${p.name} · ${p.orgName}`}</span>
                      <span className="text-muted-foreground tabular-nums">{formatDateTime(p.readAt, i18n.language)}</span>
                    </li>
                  ))}
                </ul>
              </section>
            </>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}

/** system/notice/detail/:id: the notice as its readers see it, and its receipts. */
export function NoticeDetailScreen({ family }: { family: NoticeFamily }) {
  const { t } = useTranslation('notices');
  const { id = '' } = useParams();
  const one = notices(family).useGet(id);
  const windowText = useWindowText();
  return (
    <div data-testid="notice-detail" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader title={t('detailTitle')} back={{ safe: true }} />
      <QueryState query={one} data={one.data}>
        {(n) => (
          <div className="grid gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            <Card>
              <CardContent className="grid gap-4 pt-6">
                <div className="grid gap-1">
                  <h2 className="flex items-center gap-2 text-xl font-semibold break-words">
                    {n.pinned ? <Pin aria-label={t('field.pinned')} className="size-4 shrink-0 text-warning" /> : null}
                    {n.title}
                  </h2>
                  <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                    <span>{n.publisherName}</span>
                    <span>{windowText(n.showFrom, n.showUntil)}</span>
                    <EnumBadge table={NOTICE_STATE_TABLE} value={n.state} />
                    <span>{n.audience === 'chosenSchools' ? t('audienceCount', { count: n.orgCount }) : enumLabel(NOTICE_AUDIENCE_TABLE, n.audience, t)}</span>
                    {n.toParents ? <Badge variant="secondary">{t('field.toParents')}</Badge> : null}
                  </p>
                </div>
                <RichTextView html={n.content} />
                <AttachmentList attachments={n.attachments} onDownload={(a) => downloadOwnAttachment(a.id, a.name)} />
              </CardContent>
            </Card>
            <Receipts family={family} id={n.id} />
          </div>
        )}
      </QueryState>
    </div>
  );
}
