import type { TFunction } from 'i18next';
import { auditActionLabel, auditEntityLabel } from '@/domain/platform/audit';
import type { OperationLogRow, SignInLogRow } from '@/domain/platform/logs';
import { ORG_TIME_ZONE } from '@/domain/dates';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';

const timeFormat = () => new Intl.DateTimeFormat('sv-SE', { timeZone: ORG_TIME_ZONE, dateStyle: 'short', timeStyle: 'medium' });

/** The reason of a refused sign-in in words: the log's own wording, else the error message the person saw. */
export function signInReason(t: TFunction, reason: string | null): string {
  if (!reason) return '';
  const own = `platform:signInLog.reasons.${reason.split(':')[1] ?? reason}`;
  return t(own, { defaultValue: t(reason, { minutes: '—' }) });
}

/** The sign-in log of the current filters, with the columns of the list. */
export function signInLogWorkbook(rows: readonly SignInLogRow[], t: TFunction): Buffer {
  const time = timeFormat();
  const head = ['at', 'account', 'name', 'org', 'ip', 'result', 'reason', 'userAgent'].map((k) => t(`platform:signInLog.${k}`));
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
  return writeXlsx([{ name: t('platform:signInLog.exportName'), rows: [head, ...body], columnWidths: [20, 18, 12, 24, 16, 8, 24, 40], textColumns: [1, 4] }]);
}

/** The operation log of the current filters, actions and record types in words; before/after stay on the detail screen. */
export function operationLogWorkbook(rows: readonly OperationLogRow[], t: TFunction): Buffer {
  const time = timeFormat();
  const head = ['at', 'user', 'account', 'org', 'action', 'entity', 'object', 'entityId'].map((k) => t(`platform:operationLog.${k}`));
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
  return writeXlsx([
    { name: t('platform:operationLog.exportName'), rows: [head, ...body], columnWidths: [20, 12, 16, 24, 14, 16, 28, 38], textColumns: [2, 7] },
  ]);
}
