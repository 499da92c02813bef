import { and, asc, desc, eq, ilike, ne } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import type { RecordRow, RecordSave, RecordScope, RecordState } from '@/domain/meets/records';
import type { DbOrTx, Tx } from '../../db/client';
import { meetRecords } from '../../db/schema/meets';
import { AppError, fieldError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';

/** Records of the organisation (docs/product-rules.md#meets): current, pending (new, to review) and their history. */
const columns = {
  id: meetRecords.id,
  scope: meetRecords.scope,
  eventName: meetRecords.eventName,
  groupName: meetRecords.groupName,
  resultKind: meetRecords.resultKind,
  mark: meetRecords.mark,
  holder: meetRecords.holder,
  className: meetRecords.className,
  setOn: meetRecords.setOn,
  meetId: meetRecords.meetId,
  state: meetRecords.state,
  version: meetRecords.version,
};

export function recordPage(db: DbOrTx, actor: Actor, q: { current: number; size: number; eventName?: string; scope?: RecordScope; state?: RecordState }): Promise<Page<RecordRow>> {
  const where = and(
    eq(meetRecords.orgId, actor.tenantOrgId),
    q.eventName ? ilike(meetRecords.eventName, containsPattern(q.eventName)) : undefined,
    q.scope ? eq(meetRecords.scope, q.scope) : undefined,
    q.state ? eq(meetRecords.state, q.state) : undefined,
  );
  return paginate(db, db.select(columns).from(meetRecords).where(where).orderBy(asc(meetRecords.groupName), asc(meetRecords.eventName), desc(meetRecords.setOn), asc(meetRecords.id)).$dynamic(), q);
}

export async function recordById(db: DbOrTx, actor: Actor, id: string): Promise<RecordRow> {
  const [row] = await db.select(columns).from(meetRecords).where(and(eq(meetRecords.id, id), eq(meetRecords.orgId, actor.tenantOrgId)));
  if (!row) throw notFound();
  return row;
}

const sameSeries = (orgId: string, b: Pick<RecordSave, 'scope' | 'eventName' | 'groupName'>) =>
  and(eq(meetRecords.orgId, orgId), eq(meetRecords.scope, b.scope), eq(meetRecords.eventName, b.eventName), eq(meetRecords.groupName, b.groupName));

/** A record added by hand becomes current; the one it replaces is kept as history. */
export async function createRecord(tx: Tx, actor: Actor, body: RecordSave): Promise<RecordRow> {
  await tx.update(meetRecords).set({ state: 'history', version: nextVersion(meetRecords.version) }).where(and(sameSeries(actor.tenantOrgId, body), eq(meetRecords.state, 'current')));
  const { version: _v, ...values } = body;
  const [row] = await tx.insert(meetRecords).values({ orgId: actor.tenantOrgId, ...values, className: body.className ?? null, state: 'current' }).returning({ id: meetRecords.id });
  return recordById(tx, actor, row.id);
}

export async function updateRecord(tx: Tx, actor: Actor, id: string, body: RecordSave): Promise<Change<RecordRow>> {
  await lockVersion(tx, meetRecords, id, eq(meetRecords.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await recordById(tx, actor, id);
  if (before.state === 'current' && (before.scope !== body.scope || before.eventName !== body.eventName || before.groupName !== body.groupName)) {
    const [clash] = await tx.select({ id: meetRecords.id }).from(meetRecords).where(and(sameSeries(actor.tenantOrgId, body), eq(meetRecords.state, 'current'), ne(meetRecords.id, id)));
    if (clash) throw fieldError('eventName', 'meets:v.recordExists');
  }
  const { version: _v, ...values } = body;
  await tx.update(meetRecords).set({ ...values, className: body.className ?? null, version: nextVersion(meetRecords.version) }).where(eq(meetRecords.id, id));
  return { before, after: await recordById(tx, actor, id) };
}

/** Deleting the current record brings back the best one of its history. */
export async function deleteRecord(tx: Tx, actor: Actor, id: string): Promise<RecordRow> {
  const before = await recordById(tx, actor, id);
  await tx.delete(meetRecords).where(eq(meetRecords.id, id));
  if (before.state === 'current') {
    const lower = before.resultKind === 'time';
    const [prev] = await tx
      .select({ id: meetRecords.id })
      .from(meetRecords)
      .where(and(sameSeries(actor.tenantOrgId, before), eq(meetRecords.state, 'history')))
      .orderBy(lower ? asc(meetRecords.mark) : desc(meetRecords.mark))
      .limit(1);
    if (prev) await tx.update(meetRecords).set({ state: 'current' }).where(eq(meetRecords.id, prev.id));
  }
  return before;
}

/** Approves a pending record: it becomes current, the current one history. */
export async function approveRecord(tx: Tx, actor: Actor, id: string) {
  const rec = await recordById(tx, actor, id);
  if (rec.state !== 'pending') throw new AppError(409, 'meets:v.recordNotPending');
  await tx.update(meetRecords).set({ state: 'history', version: nextVersion(meetRecords.version) }).where(and(sameSeries(actor.tenantOrgId, rec), eq(meetRecords.state, 'current')));
  await tx.update(meetRecords).set({ state: 'current', version: nextVersion(meetRecords.version) }).where(eq(meetRecords.id, id));
  return { before: { state: 'pending' }, after: { state: 'current' } };
}

