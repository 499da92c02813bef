import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditChainReport } from '@/domain/platform/logs';
import { auditLogs } from '../../../server/db/schema/audit';
import { purgeAuditChain, sealAuditChains, verifyArchivedRows, type ArchivedAuditRow } from '../../../server/lib/audit-chain';
import { dataOf, DEMO, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

/** The operation log's hash chains (docs/decisions/050-audit-hash-chain.md, docs/product-rules.md#audit). */
let t: TestApp;
const verify = async (account: string, family = 'k12') => dataOf<AuditChainReport>(await t.as(account).get(`/api/busi/web/${family}/system/operationLog/verify`));

/** What only someone who can switch triggers off (a superuser) could do: the chain must still show it. */
const tamper = (statement: ReturnType<typeof sql>) =>
  t.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(statement);
  });
/** An organisation's sealed rows, newest first. */
const chainRows = async (orgId: string, db = t.db) => db.select().from(auditLogs).where(and(eq(auditLogs.orgId, orgId), isNotNull(auditLogs.seq))).orderBy(desc(auditLogs.seq));
/** A few writes' rows in an organisation's log (the demo seed writes few). */
const logRows = async (db: TestApp['db'], account: string) => {
  const { orgId } = await orgOf(t, account);
  await db.insert(auditLogs).values(Array.from({ length: 6 }, (_, i) => ({ orgId, action: 'update' as const, entity: 'class' as const, entityId: `c${i}`, entityName: `七年级${i}班`, after: { name: `七年级${i}班`, no: i } })));
};

beforeAll(async () => {
  t = await createTestApp();
  for (const account of [DEMO.school, DEMO.school2, DEMO.college]) await logRows(t.db, account);
});
afterAll(() => t?.close());

describe('the operation log hash chain', () => {
  it('seals every row once, each pointing at the one before; an untouched log verifies intact', async () => {
    const report = await verify(DEMO.school);
    expect(report.breaks).toEqual([]);
    expect(report.rows).toBeGreaterThanOrEqual(6);
    expect(report.unsealed).toBe(0);
    const { orgId } = await orgOf(t, DEMO.school);
    const [last, previous] = await chainRows(orgId);
    expect(last.seq).toBe(previous.seq! + 1);
    expect(last.prevHash).toBe(previous.hash);
    // a new row joins the chain at the next place
    await t.db.insert(auditLogs).values({ orgId, action: 'update', entity: 'class', entityId: 'x' });
    expect(await sealAuditChains(t.db)).toBe(1);
    const [newest] = await chainRows(orgId);
    expect(newest).toMatchObject({ seq: last.seq! + 1, prevHash: last.hash });
  });

  it('refuses to change, delete or truncate log rows through any statement', async () => {
    const { orgId } = await orgOf(t, DEMO.school);
    const [row] = await chainRows(orgId);
    await expect(t.db.update(auditLogs).set({ entityName: 'changed' }).where(eq(auditLogs.id, row.id))).rejects.toThrow();
    await expect(t.db.update(auditLogs).set({ hash: 'x' }).where(eq(auditLogs.id, row.id))).rejects.toThrow();
    await expect(t.db.delete(auditLogs).where(eq(auditLogs.id, row.id))).rejects.toThrow();
    await expect(t.db.execute(sql`truncate audit_logs`)).rejects.toThrow();
    await expect(t.db.execute(sql`update audit_chains set seq = 1`)).rejects.toThrow();
    expect((await chainRows(orgId))[0]).toEqual(row);
  });

  it('names the first altered row, even when its hash was rewritten too', async () => {
    await verify(DEMO.college, 'gx');
    const { orgId } = await orgOf(t, DEMO.college);
    const rows = await chainRows(orgId);
    const victim = rows[Math.floor(rows.length / 2)];
    await tamper(sql`update audit_logs set entity_name = 'someone else' where id = ${victim.id}`);
    let report = await verify(DEMO.college, 'gx');
    expect(report.breaks).toEqual([expect.objectContaining({ orgId, seq: victim.seq, id: victim.id, kind: 'altered' })]);
    // recomputing the altered row's own hash moves the mismatch to the next row's link, still naming this row
    await tamper(sql`update audit_logs set hash = encode(sha256(convert_to('forged', 'UTF8')), 'hex') where id = ${victim.id}`);
    report = await verify(DEMO.college, 'gx');
    expect(report.breaks).toEqual([expect.objectContaining({ orgId, seq: victim.seq, id: victim.id, kind: 'altered' })]);
  });

  it('names where rows were deleted: from the middle, and the newest', async () => {
    await verify(DEMO.school2);
    const { orgId } = await orgOf(t, DEMO.school2);
    const rows = await chainRows(orgId);
    expect(rows.length).toBeGreaterThan(3);
    const middle = rows[2];
    await tamper(sql`delete from audit_logs where id = ${middle.id}`);
    expect((await verify(DEMO.school2)).breaks).toEqual([expect.objectContaining({ orgId, seq: middle.seq, id: null, kind: 'missing' })]);
    // the district sees it for its school
    expect((await verify(DEMO.district, 'admin')).breaks).toContainEqual(expect.objectContaining({ orgId, kind: 'missing' }));

    const fresh = await createTestApp();
    try {
      await logRows(fresh.db, DEMO.school2);
      await sealAuditChains(fresh.db);
      const [newest] = await chainRows(orgId, fresh.db);
      await fresh.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`delete from audit_logs where id = ${newest.id}`);
      });
      const report = dataOf<AuditChainReport>(await fresh.as(DEMO.school2).get('/api/busi/web/k12/system/operationLog/verify'));
      expect(report.breaks).toEqual([expect.objectContaining({ orgId, seq: newest.seq, kind: 'tail' })]);
    } finally {
      await fresh.close();
    }
  });

  it("a retention purge removes a chain's oldest rows through its own setting only; the chain verifies from its new start", async () => {
    const { orgId } = await orgOf(t, DEMO.school);
    const before = await verify(DEMO.school);
    expect(before.breaks).toEqual([]);
    const oldest = (await chainRows(orgId)).reverse();
    let archived: ArchivedAuditRow[] = [];
    const removed = await purgeAuditChain(t.db, orgId, new Date(Date.now() + 365 * 86_400_000), 3, async (rows) => {
      archived = [...rows];
    });
    expect(removed.map((r) => r.seq)).toEqual(oldest.slice(0, 3).map((r) => r.seq));
    expect(archived).toEqual(removed);
    // The archive holds up on its own, and the first kept row follows its last row.
    expect(verifyArchivedRows(archived)).toBeNull();
    const [first] = (await chainRows(orgId)).reverse();
    expect(first).toMatchObject({ seq: archived[2].seq + 1, prevHash: archived[2].hash });
    // Verification starts after the archived rows: nothing reported missing.
    const after = await verify(DEMO.school);
    expect(after.breaks).toEqual([]);
    expect(after.rows).toBe(before.rows - 3);
    // An archive with an edited row does not hold up.
    expect(verifyArchivedRows(archived.map((r, i) => (i === 1 ? { ...r, content: r.content.replace('"update"', '"delete"') } : r)))).toBe(archived[1].seq);
    // Outside the purge's transaction a delete is still refused, and a row not yet due is never taken.
    await expect(t.db.delete(auditLogs).where(eq(auditLogs.id, first.id))).rejects.toThrow();
    expect(await purgeAuditChain(t.db, orgId, new Date(0), 10, async () => undefined)).toEqual([]);
  });

  it('needs the verify button', async () => {
    expect((await t.as(DEMO.teacher).get('/api/busi/web/k12/system/operationLog/verify')).status).toBe(403);
  });
});
