import { useMemo } from 'react';
import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  EXPORT_LINK_HOURS,
  EXPORT_REQUEST_STATUS_TABLE,
  exportDecisionSchema,
  exportRequestQuery,
  sensitiveLogQuery,
  type ExportRequestRow,
  type SensitiveLogRow,
} from '@/domain/data-access/data-access';
import { pageAccess, type Family } from '@/domain/menus/access';
import { enumOptions } from '@/domain/presentation';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { FormDialog } from '@/components/form/form-dialog';
import { RadioField, TextareaField } from '@/components/form/fields';
import { menuLabel } from '@/components/layout/menu-label';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { LogListScreen } from '@/components/list/log-list-screen';
import type { PageActions } from '@/components/list/page-actions';
import { useListState } from '@/components/list/use-list-state';
import { Button } from '@/components/ui/button';
import { useDateTime } from '@/lib/date-time';
import { showFailure } from '@/lib/query-client';
import { decideExport, downloadApproved, exportRequests, myExports, sensitiveLog } from './api';

/** How many names a log row shows before "and N more". */
const NAMES_SHOWN = 5;

const screenName = (t: Parameters<typeof menuLabel>[0], key: string) => {
  try {
    return menuLabel(t, pageAccess(key).entry);
  } catch {
    return key;
  }
};

type LogFilters = { viewer?: string; person?: string; from?: string; to?: string };
const logCol = createDataTableColumnHelper<SensitiveLogRow>();

/** system/sensitiveLog: every view of unmasked mobiles and ID numbers (docs/product-rules.md#personal-data-access). */
export function SensitiveLogScreen({ family }: { family: Family }) {
  const { t } = useTranslation(['dataAccess', 'menus']);
  const key = `${family}.system.sensitiveLog`;
  const time = useDateTime('seconds');
  const filters: FilterDef<LogFilters>[] = [
    { name: 'viewer', type: 'text', label: t('sensitiveLog.filters.viewer') },
    { name: 'person', type: 'text', label: t('sensitiveLog.filters.person') },
    { name: 'from', type: 'date', label: t('sensitiveLog.filters.from'), before: 'to' },
    { name: 'to', type: 'date', label: t('sensitiveLog.filters.to'), after: 'from' },
  ];
  const columns = useMemo(
    () =>
      logCol.columns([
        logCol.accessor('at', { header: t('sensitiveLog.columns.at'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{time(getValue())}</span> }),
        logCol.accessor('userName', {
          id: 'viewer',
          header: t('sensitiveLog.columns.viewer'),
          cell: ({ row }) => (
            <span className="whitespace-nowrap">
              {row.original.userName} <span className="font-mono text-muted-foreground">{row.original.accountNum}</span>
            </span>
          ),
        }),
        logCol.accessor('screen', { header: t('sensitiveLog.columns.screen'), cell: ({ getValue }) => screenName(t, getValue()) }),
        logCol.accessor('via', { header: t('sensitiveLog.columns.via'), cell: ({ getValue }) => t(`sensitiveLog.via.${getValue()}`) }),
        logCol.accessor('people', {
          header: t('sensitiveLog.columns.people'),
          cell: ({ row }) => {
            const { people, peopleCount } = row.original;
            const shown = people.slice(0, NAMES_SHOWN).map((p) => p.name).join('、');
            return peopleCount > NAMES_SHOWN ? `${shown} ${t('sensitiveLog.morePeople', { count: peopleCount - NAMES_SHOWN })}` : shown;
          },
        }),
      ]),
    [t, time],
  );
  return (
    <LogListScreen
      api={sensitiveLog(family)}
      pageKey={key}
      description={t('sensitiveLog.description')}
      querySchema={sensitiveLogQuery}
      filters={filters}
      columns={columns}
      data-testid="sensitive-log"
    />
  );
}

type RequestFilters = { status?: string; user?: string; mine?: string };
const reqCol = createDataTableColumnHelper<ExportRequestRow>();
const decisionForm = exportDecisionSchema.extend({ approve: z.enum(['true', 'false']) });

/**
 * system/exportApproval: requests of exports above the organisation's threshold; an administrator (button `audit`)
 * approves or refuses with a note, the requester downloads an approved one within 24 h (docs/product-rules.md#personal-data-access).
 */
export function ExportApprovalScreen({ family }: { family: Family }) {
  const { t } = useTranslation(['dataAccess', 'menus']);
  const key = `${family}.system.exportApproval`;
  const api = exportRequests(family);
  const state = useListState<RequestFilters>(['status', 'user', 'mine']);
  const query = api.useList(state.query);
  const time = useDateTime('short');
  const filters: FilterDef<RequestFilters>[] = [
    { name: 'status', type: 'select', label: t('exportApproval.filters.status'), className: 'w-32', options: enumOptions(EXPORT_REQUEST_STATUS_TABLE, t) },
    { name: 'user', type: 'text', label: t('exportApproval.filters.user') },
    { name: 'mine', type: 'select', label: t('exportApproval.mine'), className: 'w-32', options: [{ value: 'true', label: t('exportApproval.mine') }] },
  ];
  const columns = useMemo(
    () =>
      reqCol.columns([
        reqCol.accessor('createdAt', { header: t('exportApproval.columns.createdAt'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{time(getValue())}</span> }),
        reqCol.accessor('userName', { header: t('exportApproval.columns.user') }),
        reqCol.accessor('screen', { header: t('exportApproval.columns.screen'), cell: ({ getValue }) => screenName(t, getValue()) }),
        reqCol.accessor('rows', { header: t('exportApproval.columns.rows'), cell: ({ getValue }) => <span className="tabular-nums">{getValue()}</span> }),
        reqCol.accessor('reason', { header: t('exportApproval.columns.reason'), cell: ({ getValue }) => <span className="block max-w-56 truncate" title={getValue()}>{getValue()}</span> }),
        reqCol.accessor('status', { header: t('exportApproval.columns.status'), cell: ({ getValue }) => <EnumBadge table={EXPORT_REQUEST_STATUS_TABLE} value={getValue()} /> }),
        reqCol.accessor('decidedByName', {
          header: t('exportApproval.columns.decidedBy'),
          cell: ({ row }) => (row.original.decidedByName ? `${row.original.decidedByName}${row.original.note ? `：${row.original.note}` : ''}` : '—'),
        }),
        reqCol.accessor('expiresAt', { header: t('exportApproval.columns.expiresAt'), cell: ({ getValue }) => { const v = getValue(); return v ? <span className="whitespace-nowrap tabular-nums">{time(v)}</span> : '—'; } }),
        reqCol.accessor('downloads', { header: t('exportApproval.columns.downloads') }),
        reqCol.display({
          id: 'download',
          header: t('exportApproval.download'),
          cell: ({ row }) =>
            row.original.mine && row.original.status === 'approved' ? (
              <Button size="sm" variant="outline" onClick={() => void downloadApproved(family, row.original.id).then(() => void query.refetch())} data-testid="export-approval-download">
                <Download aria-hidden />
                {t('exportApproval.download')}
              </Button>
            ) : null,
        }),
      ]),
    [t, time, family, query],
  );
  const actions: PageActions<ExportRequestRow> = {
    audit: {
      button: 'audit',
      hidden: (row) => row.status !== 'pending',
      dialog: ({ rows, open, onOpenChange, done }) => (
        <FormDialog
          open={open}
          onOpenChange={onOpenChange}
          schema={decisionForm}
          defaults={{ approve: 'true', note: '' }}
          title={t('exportApproval.decideTitle')}
          description={rows[0] ? `${rows[0].userName} · ${screenName(t, rows[0].screen)} · ${rows[0].rows} · ${rows[0].reason}` : undefined}
          submit={(v) => decideExport(family, rows[0].id, { approve: v.approve === 'true', note: v.note })}
          onDone={done}
          data-testid="export-approval-decide"
        >
          {() => (
            <>
              <RadioField
                name="approve"
                label={t('exportApproval.decideTitle')}
                options={[
                  { value: 'true', label: t('exportApproval.approve') },
                  { value: 'false', label: t('exportApproval.refuse') },
                ]}
              />
              <TextareaField name="note" label={t('exportApproval.note')} />
            </>
          )}
        </FormDialog>
      ),
    },
  };
  return (
    <ListScreen
      pageKey={key}
      description={t('exportApproval.description')}
      state={state}
      querySchema={exportRequestQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      actions={actions}
      data-testid="export-approval"
    />
  );
}

type MyFilters = { status?: string };

/**
 * personal.myInfo.exports (我的导出): the caller's own export requests, whatever their role — the page, reason, rows,
 * state, when requested and decided, the note of a refusal, the link's expiry — and the download of an approved one
 * within its 24 h (docs/product-rules.md#personal-data-access). Only the caller's own rows: no personal data of others.
 */
export function MyExportsScreen() {
  const { t } = useTranslation(['dataAccess', 'menus']);
  const state = useListState<MyFilters>(['status']);
  const query = myExports.useList(state.query);
  const time = useDateTime('short');
  const filters: FilterDef<MyFilters>[] = [
    { name: 'status', type: 'select', label: t('exportApproval.filters.status'), className: 'w-32', options: enumOptions(EXPORT_REQUEST_STATUS_TABLE, t) },
  ];
  const columns = useMemo(() => {
    const when = (v: string | null) => (v ? <span className="whitespace-nowrap tabular-nums">{time(v)}</span> : '—');
    return reqCol.columns([
        reqCol.accessor('screen', { header: t('exportApproval.columns.screen'), cell: ({ getValue }) => screenName(t, getValue()) }),
        reqCol.accessor('reason', { header: t('exportApproval.columns.reason'), cell: ({ getValue }) => <span className="block max-w-56 truncate" title={getValue()}>{getValue()}</span> }),
        reqCol.accessor('rows', { header: t('exportApproval.columns.rows'), cell: ({ getValue }) => <span className="tabular-nums">{getValue()}</span> }),
        reqCol.accessor('status', { header: t('exportApproval.columns.status'), cell: ({ getValue }) => <EnumBadge table={EXPORT_REQUEST_STATUS_TABLE} value={getValue()} /> }),
        reqCol.accessor('createdAt', { header: t('exportApproval.columns.createdAt'), cell: ({ getValue }) => when(getValue()) }),
        reqCol.accessor('decidedAt', { header: t('exportApproval.columns.decidedAt'), cell: ({ getValue }) => when(getValue()) }),
        reqCol.accessor('note', {
          header: t('exportApproval.columns.refusal'),
          cell: ({ row }) => (row.original.decidedByName ? `${row.original.decidedByName}${row.original.note ? `：${row.original.note}` : ''}` : '—'),
        }),
        reqCol.accessor('expiresAt', { header: t('exportApproval.columns.expiresAt'), cell: ({ getValue }) => when(getValue()) }),
        reqCol.display({
          id: 'download',
          header: t('exportApproval.download'),
          cell: ({ row }) =>
            row.original.status === 'approved' ? (
              <Button
                size="sm"
                variant="outline"
                onClick={() =>
                  // A link that expired since the list was read answers 410: its message, and the list shows it expired.
                  void downloadApproved(null, row.original.id)
                    .catch(showFailure)
                    .finally(() => void query.refetch())
                }
                data-testid="my-export-download"
              >
                <Download aria-hidden />
                {t('exportApproval.download')}
              </Button>
            ) : null,
        }),
      ]);
  }, [t, time, query]);
  return (
    <ListScreen
      pageKey="personal.myInfo.exports"
      section={{}}
      description={t('exportApproval.my.description', { hours: EXPORT_LINK_HOURS })}
      state={state}
      querySchema={exportRequestQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      phone={{ title: 'screen', badge: 'status', fields: ['reason', 'rows', 'createdAt', 'note', 'expiresAt', 'download'] }}
      data-testid="my-exports"
    />
  );
}
