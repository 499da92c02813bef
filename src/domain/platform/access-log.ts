import { z } from 'zod';
import { pageSchema } from '../api';
import { enumFilter, optionalDay } from '../fields';
import { listQuery, textFilter } from '../list-query';
import { enumTable } from '../presentation';

/**
 * The access log (docs/product-rules.md#platform-logs, docs/decisions/062-access-log.md): every signed-in API request of
 * the organisation and those below it, for auditors (等保 2.0). Read-only: only the retention run removes rows.
 */

/** Who called: a console session, the student/parent app, a device. */
export const ACCESS_KINDS = ['console', 'app', 'device'] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];
export const ACCESS_KIND_TABLE = enumTable(ACCESS_KINDS, (k) => `platform:accessLog.kinds.${k}`, { device: 'primary' });

/** The answer's class, as an auditor asks: done, refused (401/403), another client error, a server error. */
export const ACCESS_OUTCOMES = ['success', 'denied', 'clientError', 'serverError'] as const;
export type AccessOutcome = (typeof ACCESS_OUTCOMES)[number];
export const ACCESS_OUTCOME_TABLE = enumTable(ACCESS_OUTCOMES, (o) => `platform:accessLog.outcomes.${o}`, {
  success: 'success',
  denied: 'danger',
  clientError: 'warning',
  serverError: 'danger',
});
export function accessOutcome(status: number): AccessOutcome {
  if (status === 401 || status === 403) return 'denied';
  if (status >= 500) return 'serverError';
  if (status >= 400) return 'clientError';
  return 'success';
}

const rangeInOrder = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;

export const accessLogQuery = listQuery({
  from: optionalDay(),
  to: optionalDay(),
  /** Name or login account of the caller (a device: its serial number). */
  account: textFilter(),
  /** Name of the organisation acted for. */
  org: textFilter(),
  /** Part of the route pattern (`/student`). */
  route: textFilter(),
  outcome: enumFilter(ACCESS_OUTCOMES),
}).refine(rangeInOrder, { message: 'validation:logs.rangeOrder', path: ['to'] });
export type AccessLogQuery = z.output<typeof accessLogQuery>;

export const accessLogRowSchema = z.object({
  id: z.string(),
  at: z.string().describe('ISO instant the answer was sent'),
  kind: z.enum(ACCESS_KINDS),
  userName: z.string().nullable().describe('The console or app user; null for a device'),
  accountNum: z.string().nullable().describe('Login account, or the device serial number'),
  orgName: z.string().nullable(),
  roleName: z.string().nullable(),
  method: z.string(),
  route: z.string().describe('The route pattern, without query values'),
  pageKey: z.string().nullable().describe('Catalogue page key when the route is one of a page'),
  status: z.number().int(),
  durationMs: z.number().int(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type AccessLogRow = z.output<typeof accessLogRowSchema>;
export const accessLogPageSchema = pageSchema(accessLogRowSchema);
