import { z } from 'zod';
import { enumFilter, optionalDay } from '../fields';
import { listQuery, textFilter } from '../list-query';
import { enumTable } from '../presentation';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from './audit';

/**
 * The logs an organisation's administrators read (docs/product-rules.md#platform-logs): the sign-in log, the
 * operation log (the audit rows) and the sessions signed in now, each of the organisation and those below it.
 */

export const SIGN_IN_RESULTS = ['success', 'failure'] as const;
export type SignInResult = (typeof SIGN_IN_RESULTS)[number];
export const SIGN_IN_RESULT_TABLE = enumTable(SIGN_IN_RESULTS, (r) => `platform:signInLog.results.${r}`, { success: 'success', failure: 'danger' });

/** An optional day filter 'YYYY-MM-DD' ('' means none). */
export const dayFilter = optionalDay();

/** The time filters of a log: from the start of `from` to the end of `to`, both optional; `to` before `from` is refused. */
const rangeInOrder = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;
const rangeIssue = { message: 'validation:logs.rangeOrder', path: ['to'] };

export const signInLogQuery = listQuery({
  from: dayFilter,
  to: dayFilter,
  account: textFilter(),
  ip: textFilter(),
  result: enumFilter(SIGN_IN_RESULTS),
}).refine(rangeInOrder, rangeIssue);
export type SignInLogQuery = z.output<typeof signInLogQuery>;

export const operationLogQuery = listQuery({
  from: dayFilter,
  to: dayFilter,
  /** Name or login account of who did it. */
  user: textFilter(),
  /** Record type and action: codes of src/domain/platform/audit.ts (the screen offers them as selects). */
  entity: enumFilter(AUDIT_ENTITIES, 'validation:logs.entity'),
  action: enumFilter(AUDIT_ACTIONS, 'validation:logs.action'),
}).refine(rangeInOrder, rangeIssue);
export type OperationLogQuery = z.output<typeof operationLogQuery>;

export const onlineSessionQuery = listQuery({ user: textFilter(), ip: textFilter() });
export type OnlineSessionQuery = z.output<typeof onlineSessionQuery>;

export interface SignInLogRow {
  id: string;
  at: string;
  account: string;
  /** Name of the person the account belongs to, when it exists. */
  name: string | null;
  orgName: string | null;
  ip: string | null;
  userAgent: string | null;
  result: SignInResult;
  /** Error key of a refusal ('errors:badCredentials'); the screen translates it. */
  reason: string | null;
}

export interface OperationLogRow {
  id: string;
  at: string;
  userName: string | null;
  accountNum: string | null;
  orgName: string | null;
  /** A code of AUDIT_ACTIONS (rows older than the table may hold another; the screen shows it as written). */
  action: string;
  entity: string;
  entityId: string | null;
  /** The record's name (as written, else as the row holds it, else as it is now); null when none is known. */
  entityName: string | null;
}

export interface OperationLogDetail extends OperationLogRow {
  before: unknown;
  after: unknown;
}

export interface OnlineSessionRow {
  id: string;
  userName: string;
  accountNum: string;
  orgName: string | null;
  ip: string | null;
  userAgent: string | null;
  signedInAt: string;
  lastSeenAt: string;
  /** The session of the request that lists them. */
  current: boolean;
}
