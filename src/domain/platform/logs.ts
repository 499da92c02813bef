import { z } from 'zod';
import { pageSchema } from '../api';
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

export const signInLogRowSchema = z.object({
  id: z.string(),
  at: z.string().describe('ISO instant'),
  account: z.string(),
  name: z.string().nullable().describe('Name of the person the account belongs to, when it exists'),
  orgName: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  result: z.enum(SIGN_IN_RESULTS),
  reason: z.string().nullable().describe("Error key of a refusal ('errors:badCredentials'); the screen translates it"),
});
export type SignInLogRow = z.output<typeof signInLogRowSchema>;

export const operationLogRowSchema = z.object({
  id: z.string(),
  at: z.string().describe('ISO instant'),
  userName: z.string().nullable(),
  accountNum: z.string().nullable(),
  orgName: z.string().nullable(),
  action: z.string().describe('A code of AUDIT_ACTIONS (rows older than the table may hold another; the screen shows it as written)'),
  entity: z.string(),
  entityId: z.string().nullable(),
  entityName: z.string().nullable().describe("The record's name (as written, else as the row holds it, else as it is now); null when none is known"),
});
export type OperationLogRow = z.output<typeof operationLogRowSchema>;

export const operationLogDetailSchema = operationLogRowSchema.extend({
  before: z.unknown().describe('The record before the change, as the audit row keeps it'),
  after: z.unknown().describe('The record after the change'),
});
export type OperationLogDetail = z.output<typeof operationLogDetailSchema>;

/** The kinds of break a chain check finds (docs/decisions/050-audit-hash-chain.md). */
export const AUDIT_CHAIN_BREAKS = ['altered', 'missing', 'tail'] as const;

/** What checking the operation log's hash chains found, per organisation of the reader's tree. */
export const auditChainReportSchema = z.object({
  chains: z.number().int().describe('Organisations whose chain was checked'),
  rows: z.number().int().describe('Sealed rows checked'),
  unsealed: z.number().int().describe('Rows written since the last seal (sealed within seconds)'),
  checkedAt: z.string().describe('ISO instant'),
  breaks: z.array(
    z.object({
      orgId: z.string(),
      orgName: z.string().nullable(),
      seq: z.number().int().describe("The first broken place in the organisation's chain"),
      id: z.string().nullable().describe('The altered row, when it still exists'),
      at: z.string().nullable(),
      kind: z.enum(AUDIT_CHAIN_BREAKS),
    }),
  ),
});
export type AuditChainReport = z.output<typeof auditChainReportSchema>;

export const onlineSessionRowSchema = z.object({
  id: z.string(),
  userName: z.string(),
  accountNum: z.string(),
  orgName: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  signedInAt: z.string().describe('ISO instant'),
  lastSeenAt: z.string(),
  current: z.boolean().describe('The session of the request that lists them'),
});
export type OnlineSessionRow = z.output<typeof onlineSessionRowSchema>;

/** The paged answers of the three logs. */
export const signInLogPageSchema = pageSchema(signInLogRowSchema);
export const operationLogPageSchema = pageSchema(operationLogRowSchema);
