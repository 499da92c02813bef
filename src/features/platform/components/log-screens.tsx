import { useMemo, useState } from 'react';
import { Eye, LogOut, ShieldCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Family } from '@/domain/menus/access';
import { AUDIT_ACTIONS, AUDIT_ENTITIES, auditActionLabel, auditEntityLabel } from '@/domain/platform/audit';
import {
  onlineSessionQuery,
  operationLogQuery,
  signInLogQuery,
  SIGN_IN_RESULT_TABLE,
  type OnlineSessionRow,
  type OperationLogRow,
  type SignInLogRow,
} from '@/domain/platform/logs';
import { enumOptions } from '@/domain/presentation';
import { ACCESS_KIND_TABLE, ACCESS_OUTCOME_TABLE, accessLogQuery, accessOutcome, type AccessLogRow } from '@/domain/platform/access-log';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { menuLabel } from '@/components/layout/menu-label';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { LogListScreen } from '@/components/list/log-list-screen';
import { rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { Badge } from '@/components/ui/badge';
import { accessLog, onlineSessions, operationLog, signInLog, useSignOutSession } from '../api';
import { AuditChainDialog } from './audit-chain-dialog';
import { OperationDetailDialog } from './operation-detail-dialog';
import { useDateTime } from '@/lib/date-time';

const muted = (v: string | null) => v ?? <span className="text-muted-foreground">—</span>;

type SignInFilters = { account?: string; ip?: string; result?: string; from?: string; to?: string };
const signInCol = createDataTableColumnHelper<SignInLogRow>();

/** system/signInLog: every sign-in attempt of the organisation's people (docs/product-rules.md#platform-logs). */
export function SignInLogScreen({ family }: { family: Family }) {
  const { t } = useTranslation(['platform', 'errors']);
  const key = `${family}.system.signInLog`;
  const time = useDateTime('seconds');
  const reason = (r: string | null) => (r ? t(`signInLog.reasons.${r.split(':')[1] ?? r}`, { defaultValue: t(r, { minutes: '—' }) }) : '');

  const filters: FilterDef<SignInFilters>[] = [
    { name: 'account', type: 'text', label: t('signInLog.accountFilter') },
    { name: 'ip', type: 'text', label: t('signInLog.ip'), className: 'w-36' },
    { name: 'result', type: 'select', label: t('signInLog.result'), className: 'w-28', options: enumOptions(SIGN_IN_RESULT_TABLE, t) },
    { name: 'from', type: 'date', label: t('signInLog.from') },
    { name: 'to', type: 'date', label: t('signInLog.to') },
  ];
  const columns = useMemo(
    () =>
      signInCol.columns([
        signInCol.accessor('at', { header: t('signInLog.at'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{time(getValue())}</span> }),
        signInCol.accessor('account', { header: t('signInLog.account'), cell: ({ getValue }) => <span className="font-mono">{getValue()}</span> }),
        signInCol.accessor('name', { header: t('signInLog.name'), cell: ({ getValue }) => muted(getValue()) }),
        signInCol.accessor('orgName', { header: t('signInLog.org'), cell: ({ getValue }) => muted(getValue()) }),
        signInCol.accessor('ip', { header: t('signInLog.ip'), cell: ({ getValue }) => <span className="font-mono">{muted(getValue())}</span> }),
        signInCol.accessor('result', {
          header: t('signInLog.result'),
          cell: ({ getValue }) => <EnumBadge table={SIGN_IN_RESULT_TABLE} value={getValue()} />,
        }),
        signInCol.accessor('reason', { header: t('signInLog.reason'), cell: ({ getValue }) => reason(getValue()) }),
        signInCol.accessor('userAgent', {
          header: t('signInLog.userAgent'),
          cell: ({ getValue }) => (
            <span className="block max-w-64 truncate text-xs text-muted-foreground" title={getValue() ?? undefined}>
              {getValue() ?? '—'}
            </span>
          ),
        }),
      ]),
    // reason only closes over t.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, time],
  );
  return (
    <LogListScreen api={signInLog(family)} pageKey={key} description={t('signInLog.description')} querySchema={signInLogQuery} filters={filters} columns={columns} data-testid="sign-in-log" />
  );
}

type OperationFilters = { user?: string; entity?: string; action?: string; from?: string; to?: string };
const opCol = createDataTableColumnHelper<OperationLogRow>();

/** system/operationLog: the audit rows of the organisation and those below it, each with its before/after. */
export function OperationLogScreen({ family }: { family: Family }) {
  const { t } = useTranslation('platform');
  const key = `${family}.system.operationLog`;
  const time = useDateTime('seconds');
  const [open, setOpen] = useState<string | null>(null);

  // Options in the user's language, from the one table of what the server writes (src/domain/platform/audit.ts).
  const filters: FilterDef<OperationFilters>[] = [
    { name: 'user', type: 'text', label: t('operationLog.userFilter') },
    { name: 'entity', type: 'select', label: t('operationLog.entity'), className: 'w-40', options: AUDIT_ENTITIES.map((e) => ({ value: e, label: auditEntityLabel(t, e) })) },
    { name: 'action', type: 'select', label: t('operationLog.action'), className: 'w-40', options: AUDIT_ACTIONS.map((a) => ({ value: a, label: auditActionLabel(t, a) })) },
    { name: 'from', type: 'date', label: t('signInLog.from') },
    { name: 'to', type: 'date', label: t('signInLog.to') },
  ];
  const columns = useMemo(
    () =>
      opCol.columns([
        opCol.accessor('at', { header: t('operationLog.at'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{time(getValue())}</span> }),
        opCol.accessor('userName', { header: t('operationLog.user'), cell: ({ getValue }) => muted(getValue()) }),
        opCol.accessor('accountNum', { header: t('operationLog.account'), cell: ({ getValue }) => <span className="font-mono">{muted(getValue())}</span> }),
        opCol.accessor('orgName', { header: t('operationLog.org'), cell: ({ getValue }) => muted(getValue()) }),
        opCol.accessor('action', {
          header: t('operationLog.action'),
          cell: ({ getValue }) => (
            <Badge variant="secondary" className="whitespace-nowrap">
              {auditActionLabel(t, getValue())}
            </Badge>
          ),
        }),
        opCol.accessor('entity', { header: t('operationLog.entity'), cell: ({ getValue }) => <span className="whitespace-nowrap">{auditEntityLabel(t, getValue())}</span> }),
        opCol.accessor('entityName', {
          header: t('operationLog.object'),
          cell: ({ row }) => <ObjectCell name={row.original.entityName} id={row.original.entityId} />,
        }),
        rowActionsColumn<OperationLogRow>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [{ action: 'detail', icon: <Eye aria-hidden />, onClick: (r) => setOpen(r.id) }],
        }),
      ]),
    [t, time, key],
  );
  return (
    <>
      <LogListScreen
        api={operationLog(family)}
        pageKey={key}
        description={t('operationLog.description')}
        querySchema={operationLogQuery}
        filters={filters}
        columns={columns}
        toolbar={[{ action: 'verify', icon: <ShieldCheck aria-hidden />, variant: 'outline', dialog: (props) => <AuditChainDialog family={family} {...props} /> }]}
        data-testid="operation-log"
      />
      <OperationDetailDialog family={family} id={open} onClose={() => setOpen(null)} />
    </>
  );
}

/** The record a log row is about: its name, with its id small beneath (the id alone when no name is known). */
function ObjectCell({ name, id }: { name: string | null; id: string | null }) {
  if (!name && !id) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="block max-w-56">
      {name ? <span className="block truncate" title={name}>{name}</span> : null}
      {id ? (
        <span className="block truncate font-mono text-xs text-muted-foreground" title={id}>
          {id}
        </span>
      ) : null}
    </span>
  );
}

type AccessFilters = { account?: string; org?: string; route?: string; outcome?: string; from?: string; to?: string };
const accessCol = createDataTableColumnHelper<AccessLogRow>();

/** A catalogue page's name (the key when the catalogue no longer has it). */
const pageName = (t: Parameters<typeof menuLabel>[0], key: string | null) => {
  const entry = key ? getCatalogEntry(key) : undefined;
  return entry ? menuLabel(t, entry) : key;
};

/**
 * system/accessLog: every signed-in API request of the organisation and those below it — who, which route (its
 * pattern, never the values), the answer, from where (docs/decisions/062-access-log.md). Read-only.
 */
export function AccessLogScreen({ family }: { family: Family }) {
  const { t } = useTranslation(['platform', 'menus']);
  const time = useDateTime('seconds');
  const filters: FilterDef<AccessFilters>[] = [
    { name: 'account', type: 'text', label: t('accessLog.filters.account') },
    { name: 'org', type: 'text', label: t('accessLog.filters.org') },
    { name: 'route', type: 'text', label: t('accessLog.filters.route'), placeholder: '/student' },
    { name: 'outcome', type: 'select', label: t('accessLog.filters.outcome'), className: 'w-32', options: enumOptions(ACCESS_OUTCOME_TABLE, t) },
    { name: 'from', type: 'date', label: t('signInLog.from'), before: 'to' },
    { name: 'to', type: 'date', label: t('signInLog.to'), after: 'from' },
  ];
  const columns = useMemo(
    () =>
      accessCol.columns([
        accessCol.accessor('at', { header: t('accessLog.columns.at'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{time(getValue())}</span> }),
        accessCol.accessor('kind', { header: t('accessLog.columns.kind'), cell: ({ getValue }) => <EnumBadge table={ACCESS_KIND_TABLE} value={getValue()} /> }),
        accessCol.accessor('userName', {
          header: t('accessLog.columns.user'),
          cell: ({ row }) => (
            <span className="whitespace-nowrap">
              {row.original.userName ?? ''} <span className="font-mono text-muted-foreground">{row.original.accountNum ?? ''}</span>
            </span>
          ),
        }),
        accessCol.accessor('orgName', { header: t('accessLog.columns.org'), cell: ({ getValue }) => <span className="whitespace-nowrap">{muted(getValue())}</span> }),
        accessCol.accessor('roleName', { header: t('accessLog.columns.role'), cell: ({ getValue }) => <span className="whitespace-nowrap">{muted(getValue())}</span> }),
        accessCol.accessor('route', {
          header: t('accessLog.columns.route'),
          cell: ({ row }) => (
            <span className="block max-w-80 truncate font-mono text-xs" title={`${row.original.method} ${row.original.route}`}>
              <span className="font-semibold">{row.original.method}</span> {row.original.route}
            </span>
          ),
        }),
        accessCol.accessor('pageKey', { header: t('accessLog.columns.page'), cell: ({ getValue }) => <span className="whitespace-nowrap">{muted(pageName(t, getValue()))}</span> }),
        accessCol.accessor('status', {
          header: t('accessLog.columns.status'),
          cell: ({ getValue }) => (
            <span className="whitespace-nowrap tabular-nums">
              {getValue()} <EnumBadge table={ACCESS_OUTCOME_TABLE} value={accessOutcome(getValue())} />
            </span>
          ),
        }),
        accessCol.accessor('durationMs', { header: t('accessLog.columns.duration'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{t('accessLog.ms', { count: getValue() })}</span> }),
        accessCol.accessor('ip', { header: t('accessLog.columns.ip'), cell: ({ getValue }) => <span className="whitespace-nowrap font-mono">{muted(getValue())}</span> }),
        accessCol.accessor('userAgent', {
          header: t('accessLog.columns.userAgent'),
          cell: ({ getValue }) => (
            <span className="block max-w-64 truncate text-xs text-muted-foreground" title={getValue() ?? undefined}>
              {getValue() ?? '—'}
            </span>
          ),
        }),
      ]),
    [t, time],
  );
  return <LogListScreen api={accessLog(family)} pageKey={`${family}.system.accessLog`} description={t('accessLog.description')} querySchema={accessLogQuery} filters={filters} columns={columns} data-testid="access-log" />;
}

type SessionFilters = { user?: string; ip?: string };
const sessionCol = createDataTableColumnHelper<OnlineSessionRow>();

/** system/onlineSession: sessions signed in now, with "sign out this session". */
export function OnlineSessionScreen({ family }: { family: Family }) {
  const { t } = useTranslation('platform');
  const key = `${family}.system.onlineSession`;
  const api = onlineSessions(family);
  const state = useListState<SessionFilters>(['user', 'ip']);
  const query = api.useList(state.query);
  const signOut = useSignOutSession(family);
  const time = useDateTime('seconds');

  const filters: FilterDef<SessionFilters>[] = [
    { name: 'user', type: 'text', label: t('onlineSession.userFilter') },
    { name: 'ip', type: 'text', label: t('onlineSession.ip'), className: 'w-36' },
  ];
  const columns = useMemo(
    () =>
      sessionCol.columns([
        sessionCol.accessor('userName', {
          header: t('onlineSession.user'),
          cell: ({ row }) => (
            <span className="flex items-center gap-2 whitespace-nowrap">
              <span className="font-medium">{row.original.userName}</span>
              {row.original.current ? <Badge variant="outline">{t('onlineSession.current')}</Badge> : null}
            </span>
          ),
        }),
        sessionCol.accessor('accountNum', { header: t('onlineSession.account'), cell: ({ getValue }) => <span className="font-mono">{getValue()}</span> }),
        sessionCol.accessor('orgName', { header: t('onlineSession.org'), cell: ({ getValue }) => muted(getValue()) }),
        sessionCol.accessor('ip', { header: t('onlineSession.ip'), cell: ({ getValue }) => <span className="font-mono">{muted(getValue())}</span> }),
        sessionCol.accessor('signedInAt', { header: t('onlineSession.signedInAt'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{time(getValue())}</span> }),
        sessionCol.accessor('lastSeenAt', { header: t('onlineSession.lastSeenAt'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{time(getValue())}</span> }),
        sessionCol.accessor('userAgent', {
          header: t('onlineSession.userAgent'),
          cell: ({ getValue }) => (
            <span className="block max-w-56 truncate text-xs text-muted-foreground" title={getValue() ?? undefined}>
              {getValue() ?? '—'}
            </span>
          ),
        }),
        rowActionsColumn<OnlineSessionRow>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            {
              action: 'signOut',
              icon: <LogOut aria-hidden />,
              destructive: true,
              confirm: (r) => ({
                title: t('onlineSession.confirmTitle'),
                description: r.current ? t('onlineSession.confirmCurrent') : t('onlineSession.confirmBody', { name: r.userName, ip: r.ip ?? '—' }),
              }),
              onClick: async (r) => void (await signOut.mutateAsync(r.id)),
            },
          ],
        }),
      ]),
    [t, time, key, signOut],
  );
  return (
    <ListScreen
      pageKey={key}
      description={t('onlineSession.description')}
      state={state}
      querySchema={onlineSessionQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      data-testid="online-sessions"
    />
  );
}
