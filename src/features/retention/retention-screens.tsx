import { useMemo, useState } from 'react';
import { Download, Pencil } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import {
  DATA_REQUEST_KIND_TABLE,
  DATA_REQUEST_STATUS_TABLE,
  RETENTION_CATEGORIES,
  RETENTION_KEYS,
  dataRequestHandleSchema,
  dataRequestListQuery,
  retentionSaveSchema,
  type AccessLogArchiveRow,
  type DataRequestHandleForm,
  type DataRequestRow,
  type RetentionForm,
  type RetentionKey,
  type RetentionRunRow,
  type RetentionSchedule,
} from '@/domain/retention/retention';
import { enumOptions } from '@/domain/presentation';
import { formatBytes } from '@/domain/uploads/rules';
import { localDate } from '@/domain/dates';
import { useDateTime } from '@/lib/date-time';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { PersonCell } from '@/components/data-table/person-cell';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { RadioField, TextField, TextareaField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import type { ActionDialogProps, PageActions } from '@/components/list/page-actions';
import { useListState } from '@/components/list/use-list-state';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { showFailure } from '@/lib/query-client';
import {
  dataRequestKey,
  dataRequestResource,
  downloadAccessLogArchive,
  downloadArchive,
  downloadChildData,
  useAccessLogArchives,
  retentionKey,
  useHandleDataRequest,
  useRetentionRuns,
  useRetentionSchedule,
  useSaveRetention,
  type DataRequestFamily,
  type RetentionFamily,
} from './api';

const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : '');
const day = (iso: string) => iso.slice(0, 10);

/**
 * system/retention (docs/product-rules.md#retention): the schedule per data category (a platform operator edits it
 * within each category's bounds; others read it) and the latest runs with what each removed, with the operation-log
 * archives for those who may read the operation log.
 */
export function RetentionScreen({ family }: { family: RetentionFamily }) {
  const { t } = useTranslation('retention');
  const access = usePageAccess(retentionKey(family));
  const schedule = useRetentionSchedule(family);
  const [editing, setEditing] = useState(false);
  const canEdit = access.can('edit') && schedule.data?.canEdit === true;
  const accessLogReader = usePageAccess(`${family}.system.accessLog`).can('view');
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="retention-screen">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          canEdit ? (
            <Button onClick={() => setEditing(true)} data-testid="retention-edit">
              <Pencil aria-hidden />
              {t('edit')}
            </Button>
          ) : null
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>{t('schedule')}</CardTitle>
          {schedule.data && !schedule.data.canEdit ? <p className="text-sm text-muted-foreground">{t('operatorsOnly')}</p> : null}
        </CardHeader>
        <CardContent>
          <QueryState query={schedule} data={schedule.data}>
            {(s) => <ScheduleTable schedule={s} />}
          </QueryState>
        </CardContent>
      </Card>
      <RunsList family={family} />
      {accessLogReader ? <AccessLogArchives family={family} /> : null}
      {editing && schedule.data ? <ScheduleDialog family={family} schedule={schedule.data} open={editing} onOpenChange={setEditing} /> : null}
    </div>
  );
}

function useDuration() {
  const { t } = useTranslation('retention');
  return (key: RetentionKey, amount: number) => t(`unit.${RETENTION_CATEGORIES[key].unit}`, { count: amount });
}

function ScheduleTable({ schedule }: { schedule: RetentionSchedule }) {
  const { t } = useTranslation('retention');
  const duration = useDuration();
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="retention-schedule">
        <thead className="text-left text-muted-foreground">
          <tr className="border-b">
            <th className="py-2 pr-4 font-medium">{t('column.category')}</th>
            <th className="py-2 pr-4 font-medium">{t('column.duration')}</th>
            <th className="py-2 pr-4 font-medium">{t('column.effect')}</th>
            <th className="py-2 pr-4 font-medium">{t('column.bounds')}</th>
          </tr>
        </thead>
        <tbody>
          {RETENTION_KEYS.map((key) => {
            const c = RETENTION_CATEGORIES[key];
            const value = schedule.durations[key];
            return (
              <tr key={key} className="border-b last:border-0" data-category={key}>
                <td className="py-2 pr-4">
                  <div className="font-medium">{t(`category.${key}`)}</div>
                  <div className="text-xs text-muted-foreground">{t(`categoryHint.${key}`)}</div>
                </td>
                <td className="py-2 pr-4 whitespace-nowrap tabular-nums">
                  {duration(key, value)}
                  {value !== c.default ? <span className="ml-2 text-xs text-muted-foreground">{t('defaultWas', { value: duration(key, c.default) })}</span> : null}
                </td>
                <td className="py-2 pr-4">{t(`effect.${c.effect}`)}</td>
                <td className="py-2 pr-4 whitespace-nowrap text-muted-foreground tabular-nums">{`${duration(key, c.min)} – ${duration(key, c.max)}`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const runCol = createDataTableColumnHelper<RetentionRunRow>();

/** A download's failure shown (an approval request opens the shell's dialog instead: showFailure). */
const saving = (file: Promise<void>) => void file.catch(showFailure);
const archiveCol = createDataTableColumnHelper<AccessLogArchiveRow>();

/**
 * The latest runs (the server answers its last RETENTION_RUNS_SHOWN whole: no pager), with the rows each category's
 * step removed (its cut-off on hover) and the operation-log archives it made, for those who may read the log.
 */
function RunsList({ family }: { family: RetentionFamily }) {
  const { t } = useTranslation('retention');
  const runs = useRetentionRuns(family);
  const state = useListState<Record<string, never>>([]);
  const columns = useMemo(
    () =>
      runCol.columns([
        runCol.accessor('startedAt', {
          header: t('column.startedAt'),
          cell: ({ row }) => (
            <span className="whitespace-nowrap tabular-nums">
              {when(row.original.startedAt)}
              {row.original.finishedAt ? null : <Badge variant="secondary" className="ml-2">{t('running')}</Badge>}
            </span>
          ),
        }),
        ...RETENTION_KEYS.map((key) =>
          runCol.display({
            id: key,
            header: t(`category.${key}`),
            meta: { align: 'right' },
            cell: ({ row }) => {
              const item = row.original.items.find((i) => i.category === key);
              if (!item) return '–';
              return item.error ? (
                <span className="text-destructive" title={item.error}>
                  {t('failed')}
                </span>
              ) : (
                <span className="tabular-nums" title={t('cutoff', { date: day(item.cutoff) })}>
                  {item.rows}
                </span>
              );
            },
          }),
        ),
        runCol.accessor('archives', {
          header: t('column.archives'),
          cell: ({ getValue }) => (
            <div className="grid gap-1">
              {getValue().map((a) => {
                const org = a.orgName ?? t('platformChain');
                return (
                  <Button key={a.id} variant="link" size="sm" className="h-auto justify-start p-0" onClick={() => saving(downloadArchive(family, a.id, `audit-${org}-${a.fromSeq}-${a.toSeq}.jsonl`))}>
                    <Download aria-hidden />
                    {t('archive', { org, from: a.fromSeq, to: a.toSeq, rows: a.rows })}
                  </Button>
                );
              })}
            </div>
          ),
        }),
      ]),
    [t, family],
  );
  return (
    <ListScreen
      pageKey={retentionKey(family)}
      section={{ title: t('runs') }}
      description={t('runsHint')}
      state={state}
      filters={[]}
      query={runs}
      columns={columns}
      rowKey="id"
      paged={false}
      empty={t('noRuns')}
      phone={{ mode: 'scroll' }}
      data-testid="retention-runs"
    />
  );
}

/**
 * The access log's archives (docs/decisions/062-access-log.md): one per day the retention run archived and dropped,
 * with period, rows, size and when it was made. Every organisation's requests are in them (user ids, IPs): the server
 * lists them to platform operators only (its latest ACCESS_LOG_ARCHIVES_SHOWN, whole), and a download above the export
 * threshold goes through an approval (the request dialog opens on the server's refusal), like the logs' exports.
 */
function AccessLogArchives({ family }: { family: RetentionFamily }) {
  const { t } = useTranslation('retention');
  const archives = useAccessLogArchives(family, true);
  const state = useListState<Record<string, never>>([]);
  const at = useDateTime('short');
  const columns = useMemo(
    () =>
      archiveCol.columns([
      archiveCol.display({ id: 'period', header: t('accessArchives.period'), cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{period(row.original, t, at)}</span> }),
      archiveCol.accessor('rows', { header: t('accessArchives.rows'), meta: { align: 'right' }, cell: ({ getValue }) => <span className="tabular-nums">{getValue().toLocaleString()}</span> }),
      archiveCol.accessor('size', { header: t('accessArchives.size'), meta: { align: 'right' }, cell: ({ getValue }) => <span className="tabular-nums">{formatBytes(getValue())}</span> }),
      archiveCol.accessor('createdAt', { header: t('accessArchives.createdAt'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{at(getValue())}</span> }),
      archiveCol.display({
        id: 'download',
        header: t('accessArchives.download'),
        cell: ({ row }) => (
          <Button variant="link" size="sm" className="h-auto p-0" onClick={() => saving(downloadAccessLogArchive(family, row.original.id))} data-testid="access-log-archive-download">
            <Download aria-hidden />
            {t('accessArchives.download')}
          </Button>
        ),
      }),
      ]),
    [t, at, family],
  );
  return (
    <ListScreen
      pageKey={retentionKey(family)}
      section={{ title: t('accessArchives.title') }}
      description={t('accessArchives.hint')}
      state={state}
      filters={[]}
      query={archives}
      columns={columns}
      rowKey="id"
      paged={false}
      empty={t('accessArchives.none')}
      phone={{ title: 'period', badge: false, fields: ['rows', 'size', 'createdAt', 'download'] }}
      data-testid="access-log-archives"
    />
  );
}

/** A day's archive shows its China day; a batch its first and last request; an archive made before periods, its row ids. */
function period(a: AccessLogArchiveRow, t: (key: string, options?: Record<string, unknown>) => string, at: (iso: string) => string): string {
  if (!a.periodFrom || !a.periodTo) return t('accessArchives.ids', { from: a.fromId, to: a.toId });
  const from = new Date(a.periodFrom);
  const midnight = localDate(from) !== localDate(new Date(from.getTime() - 1));
  if (midnight && Date.parse(a.periodTo) - from.getTime() === 86_400_000) return localDate(from);
  return `${at(a.periodFrom)} – ${at(a.periodTo)}`;
}

/** The operator's form: one whole number per category, within its bounds (the server checks the same schema). */
function ScheduleDialog({ family, schedule, open, onOpenChange }: { family: RetentionFamily; schedule: RetentionSchedule; open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation('retention');
  const save = useSaveRetention(family);
  const duration = useDuration();
  const defaults: RetentionForm = { ...schedule.durations, version: schedule.version };
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={retentionSaveSchema}
      defaults={defaults}
      title={t('editTitle')}
      description={t('editText')}
      submit={(body) => save.mutateAsync(body)}
      onDone={() => onOpenChange(false)}
      data-testid="retention-form"
    >
      {() => (
        <div className="grid gap-4 sm:grid-cols-2">
          {RETENTION_KEYS.map((key) => {
            const c = RETENTION_CATEGORIES[key];
            return (
              <TextField
                key={key}
                name={key}
                type="number"
                inputMode="numeric"
                required
                label={`${t(`category.${key}`)}（${t(`unitName.${c.unit}`)}）`}
                description={t('bounds', { min: duration(key, c.min), max: duration(key, c.max), def: duration(key, c.default) })}
              />
            );
          })}
        </div>
      )}
    </FormDialog>
  );
}

// ---------------------------------------------------------------------------------------------------------------------

type Filters = { status?: string; keyword?: string };
const col = createDataTableColumnHelper<DataRequestRow>();

/**
 * system/dataRequest (docs/product-rules.md#retention, "Data requests"): the parents' requests of the school, pending
 * first by deadline, overdue ones marked; handle (done with a note, refused with a reason) and download the child's data.
 */
export function DataRequestScreen({ family }: { family: DataRequestFamily }) {
  const { t } = useTranslation('retention');
  const api = dataRequestResource(family);
  const state = useListState<Filters>(['status', 'keyword']);
  const query = api.useList(state.query);
  const filters: FilterDef<Filters>[] = [
    { name: 'status', type: 'select', label: t('request.column.status'), options: enumOptions(DATA_REQUEST_STATUS_TABLE, t) },
    { name: 'keyword', type: 'text', label: t('request.keyword'), placeholder: t('request.keywordPlaceholder') },
  ];
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('studentName', {
          header: t('request.column.student'),
          cell: ({ row }) => <PersonCell name={row.original.studentName} sub={row.original.className} />,
        }),
        col.accessor('parentName', { header: t('request.column.parent'), meta: { className: 'whitespace-nowrap' } }),
        col.accessor('kind', { header: t('request.column.kind'), cell: ({ getValue }) => <EnumBadge table={DATA_REQUEST_KIND_TABLE} value={getValue()} /> }),
        col.accessor('text', { header: t('request.column.text'), cell: ({ getValue }) => <span className="line-clamp-2 min-w-48 max-w-80">{getValue()}</span> }),
        col.accessor('createdAt', { header: t('request.column.createdAt'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{when(getValue())}</span> }),
        col.accessor('dueAt', {
          header: t('request.column.dueAt'),
          cell: ({ row }) => (
            <span className={cn('flex items-center gap-2 whitespace-nowrap tabular-nums', row.original.overdue && 'font-medium text-destructive')} data-overdue={row.original.overdue || undefined}>
              {day(row.original.dueAt)}
              {row.original.overdue ? <Badge variant="destructive">{t('request.overdue')}</Badge> : null}
            </span>
          ),
        }),
        col.accessor('status', { header: t('request.column.status'), cell: ({ getValue }) => <EnumBadge table={DATA_REQUEST_STATUS_TABLE} value={getValue()} /> }),
        col.accessor('note', {
          header: t('request.column.note'),
          cell: ({ row }) =>
            row.original.handledAt ? (
              <span className="grid min-w-32">
                <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">{when(row.original.handledAt)}</span>
                <span>{row.original.note}</span>
              </span>
            ) : null,
        }),
      ]),
    [t],
  );
  const actions: PageActions<DataRequestRow> = {
    audit: { button: 'audit', label: t('request.handle'), hidden: (r) => r.status !== 'pending', dialog: (p) => <HandleDialog family={family} {...p} /> },
    download: { button: 'download', label: t('request.download'), run: ([r]) => downloadChildData(family, r), success: false },
  };
  return (
    <ListScreen
      pageKey={dataRequestKey(family)}
      state={state}
      querySchema={dataRequestListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      actions={actions}
      data-testid="data-request-list"
    />
  );
}

/** Done with a note, or refused with a reason (both required: the parent reads it). A stale form shows the 409. */
function HandleDialog({ family, rows, open, onOpenChange, done }: { family: DataRequestFamily } & ActionDialogProps<DataRequestRow>) {
  const { t } = useTranslation('retention');
  const handle = useHandleDataRequest(family);
  const [row] = rows;
  const defaults: DataRequestHandleForm = { status: 'done', note: '', version: row.version };
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={dataRequestHandleSchema}
      defaults={defaults}
      title={t('request.handleTitle', { name: row.studentName, kind: t(`request.kinds.${row.kind}`) })}
      description={row.text}
      submit={(body) => handle.mutateAsync({ id: row.id, ...body })}
      success={t('request.handled')}
      onDone={done}
      data-testid="data-request-handle"
    >
      {() => (
        <div className="grid gap-4">
          <RadioField
            name="status"
            label={t('request.outcome')}
            required
            options={[
              { value: 'done', label: t('request.statuses.done') },
              { value: 'refused', label: t('request.statuses.refused') },
            ]}
          />
          <TextareaField name="note" label={t('request.note')} required rows={3} placeholder={t('request.notePlaceholder')} />
        </div>
      )}
    </FormDialog>
  );
}
