import type { TFunction } from 'i18next';
import { auditActionLabel, auditEntityLabel } from '@/domain/platform/audit';
import type { OperationLogRow, SignInLogRow } from '@/domain/platform/logs';
import type { AccessLogRow } from '@/domain/platform/access-log';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { ListSheet } from '../../lib/list-export';

const timeFormat = () => new Intl.DateTimeFormat('sv-SE', { timeZone: ORG_TIME_ZONE, dateStyle: 'short', timeStyle: 'medium' });

/** The reason of a refused sign-in in words: the log's own wording, else the error message the person saw. */
export function signInReason(t: TFunction, reason: string | null): string {
  if (!reason) return '';
  const own = `platform:signInLog.reasons.${reason.split(':')[1] ?? reason}`;
  return t(own, { defaultValue: t(reason, { minutes: '—' }) });
}

/**
 * The sign-in log of the current filters as the list's sheet: each column names the list's column it shows
 * (src/features/platform/components/log-screens.tsx), so the export follows the shown columns (server/lib/list-export.ts).
 */
export function signInLogSheet(rows: readonly SignInLogRow[], t: TFunction): ListSheet {
  const time = timeFormat();
  const columns: [key: string, list: string, width: number, text?: boolean][] = [
    ['at', 'at', 20],
    ['account', 'account', 18, true],
    ['name', 'name', 12],
    ['org', 'orgName', 24],
    ['ip', 'ip', 16, true],
    ['result', 'result', 8],
    ['reason', 'reason', 24],
    ['userAgent', 'userAgent', 40],
  ];
  const body = rows.map((r) => [
    time.format(new Date(r.at)),
    r.account,
    r.name,
    r.orgName,
    r.ip,
    t(`platform:signInLog.results.${r.result}`),
    signInReason(t, r.reason),
    r.userAgent,
  ]);
  return { name: t('platform:signInLog.exportName'), columns: columns.map(([key, list, width, text]) => ({ header: t(`platform:signInLog.${key}`), list, width, text })), rows: body };
}

/**
 * The operation log of the current filters, actions and record types in words; before/after stay on the detail screen.
 * Each column names the list's column it shows (the record's id sits in its name cell), so the export follows the
 * shown columns (server/lib/list-export.ts).
 */
export function operationLogSheet(rows: readonly OperationLogRow[], t: TFunction): ListSheet {
  const time = timeFormat();
  const columns: [key: string, list: string, width: number, text?: boolean][] = [
    ['at', 'at', 20],
    ['user', 'userName', 12],
    ['account', 'accountNum', 16, true],
    ['org', 'orgName', 24],
    ['action', 'action', 14],
    ['entity', 'entity', 16],
    ['object', 'entityName', 28],
    ['entityId', 'entityName', 38, true],
  ];
  const body = rows.map((r) => [
    time.format(new Date(r.at)),
    r.userName,
    r.accountNum,
    r.orgName,
    auditActionLabel(t, r.action),
    auditEntityLabel(t, r.entity),
    r.entityName,
    r.entityId,
  ]);
  return { name: t('platform:operationLog.exportName'), columns: columns.map(([key, list, width, text]) => ({ header: t(`platform:operationLog.${key}`), list, width, text })), rows: body };
}

/** A catalogue page's name in the reader's language (the key itself when the catalogue no longer has it). */
function pageName(t: TFunction, key: string | null): string {
  if (!key) return '';
  const entry = getCatalogEntry(key);
  return entry ? t(`menus:${entry.i18nKey}`) : key;
}

/** The access log of the current filters; each column names the list's column it shows (server/lib/list-export.ts). */
export function accessLogSheet(rows: readonly AccessLogRow[], t: TFunction): ListSheet {
  const time = timeFormat();
  const columns: [key: string, list: string, width: number, text?: boolean][] = [
    ['at', 'at', 20],
    ['kind', 'kind', 8],
    ['user', 'userName', 12],
    ['account', 'accountNum', 18, true],
    ['org', 'orgName', 24],
    ['role', 'roleName', 14],
    ['method', 'route', 8],
    ['route', 'route', 48, true],
    ['page', 'pageKey', 20],
    ['status', 'status', 8],
    ['duration', 'durationMs', 10],
    ['ip', 'ip', 16, true],
    ['userAgent', 'userAgent', 40],
  ];
  const body = rows.map((r) => [
    time.format(new Date(r.at)),
    t(`platform:accessLog.kinds.${r.kind}`),
    r.userName,
    r.accountNum,
    r.orgName,
    r.roleName,
    r.method,
    r.route,
    pageName(t, r.pageKey),
    r.status,
    r.durationMs,
    r.ip,
    r.userAgent,
  ]);
  return { name: t('platform:accessLog.exportName'), columns: columns.map(([key, list, width, text]) => ({ header: t(`platform:accessLog.columns.${key}`), list, width, text })), rows: body };
}
