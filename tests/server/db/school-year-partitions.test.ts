import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditChainReport, OperationLogRow } from '@/domain/platform/logs';
import type { Page } from '@/domain/api';
import { detachSchoolYear, ensureSchoolYearPartitions, schoolYearOf } from '../../../server/db/school-year-partitions';
import { auditLogs } from '../../../server/db/schema/audit';
import { purgeAuditChain, sealAuditChains } from '../../../server/lib/audit-chain';
import { dataOf, DEMO, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

/** Partitions by school year (docs/decisions/064-partitions-by-school-year.md): the operation log. */
let t: TestApp;
let orgId: string;

/** The partition a row of the operation log sits in. */
const partitionOf = async (entityId: string) =>
  (await t.db.execute<{ p: string }>(sql`select tableoid::regclass::text as p from audit_logs where entity_id = ${entityId}`)).rows.map((r) => r.p);
/** Writes probe rows of the school at the given instants (ISO), sealed in that order. */
const logAt = async (...instants: string[]) => {
  for (const at of instants) {
    await t.db.insert(auditLogs).values({ orgId, at: new Date(at), action: 'update', entity: 'class', entityId: `probe ${at}`, entityName: '七年级1班' });
    await sealAuditChains(t.db);
  }
};
const logPage = async (from: string, to: string) =>
  dataOf<Page<OperationLogRow>>(await t.as(DEMO.school).get(`/api/busi/web/k12/system/operationLog/page?current=1&size=80&entity=class&from=${from}&to=${to}`)).records.filter((r) =>
    r.entityId?.startsWith('probe '),
  );
const verify = async () => dataOf<AuditChainReport>(await t.as(DEMO.school).get('/api/busi/web/k12/system/operationLog/verify'));

beforeAll(async () => {
  t = await createTestApp();
  ({ orgId } = await orgOf(t, DEMO.school));
});
afterAll(() => t?.close());

describe('the operation log partitioned by school year', () => {
  it('knows a school year by China days: it turns on 1 August', () => {
    expect(schoolYearOf(Date.parse('2026-07-31T23:59:00+08:00'))).toBe(2025);
    expect(schoolYearOf(Date.parse('2026-08-01T00:00:00+08:00'))).toBe(2026);
    expect(schoolYearOf(Date.parse('2027-01-15T12:00:00+08:00'))).toBe(2026);
  });

  it("makes a school year's partition ahead; its rows land there, a year without one in the default partition", async () => {
    const made = await ensureSchoolYearPartitions(t.db, new Date('2031-08-01T00:30:00+08:00'));
    expect(made).toEqual([
      { table: 'audit_logs', startYear: 2031, partition: 'audit_logs_sy2031' },
      { table: 'audit_logs', startYear: 2032, partition: 'audit_logs_sy2032' },
    ]);
    // again: nothing new, the same answer
    expect(await ensureSchoolYearPartitions(t.db, new Date('2031-09-01T00:00:00+08:00'))).toEqual(made);
    await logAt('2031-07-31T23:30:00+08:00', '2031-08-01T00:10:00+08:00', '2032-09-01T08:00:00+08:00');
    expect(await partitionOf('probe 2031-07-31T23:30:00+08:00')).toEqual(['audit_logs_default']);
    expect(await partitionOf('probe 2031-08-01T00:10:00+08:00')).toEqual(['audit_logs_sy2031']);
    expect(await partitionOf('probe 2032-09-01T08:00:00+08:00')).toEqual(['audit_logs_sy2032']);
    // the default partition already holds 2030-2031 rows: that year keeps them there rather than failing
    expect(await ensureSchoolYearPartitions(t.db, new Date('2030-09-01T00:00:00+08:00'))).toContainEqual({ table: 'audit_logs', startYear: 2030, partition: null });
    // a query of one month reads that month's school year only
    const plan = (await t.db.execute<{ 'QUERY PLAN': string }>(sql`explain (costs off) select id from audit_logs where org_id = ${orgId}::uuid and at >= '2031-09-01T00:00:00+08:00' and at < '2031-10-01T00:00:00+08:00'`)).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain('audit_logs_sy2031');
    expect(plan).not.toMatch(/audit_logs_(sy2032|sy2026|default)/);
  });

  it('keeps one place per chain across partitions', async () => {
    const [sealed] = (await t.db.execute<{ seq: number }>(sql`select seq::int from audit_logs where entity_id = 'probe 2031-08-01T00:10:00+08:00'`)).rows;
    await t.db.insert(auditLogs).values({ orgId, at: new Date('2032-10-01T00:00:00+08:00'), action: 'update', entity: 'class', entityId: 'probe duplicate' });
    await expect(t.db.execute(sql`update audit_logs set seq = ${sealed.seq}, prev_hash = '', hash = '' where entity_id = 'probe duplicate'`)).rejects.toThrow();
    await expect(t.db.insert(auditLogs).values({ orgId, at: new Date('2032-10-02T00:00:00+08:00'), action: 'update', entity: 'class', seq: sealed.seq })).rejects.toThrow();
    await sealAuditChains(t.db);
    expect((await verify()).breaks).toEqual([]);
  });

  it('detaches an ended school year for archive: the product reads the other years, the chain still verifies', async () => {
    // Archive the school's chain so far (as a retention purge would), then write its history year by year.
    await sealAuditChains(t.db);
    await purgeAuditChain(t.db, orgId, new Date('2100-01-01'), 100_000, async () => undefined);
    expect(await ensureSchoolYearPartitions(t.db, new Date('2024-09-01T00:00:00+08:00'))).toEqual([
      { table: 'audit_logs', startYear: 2024, partition: 'audit_logs_sy2024' },
      { table: 'audit_logs', startYear: 2025, partition: 'audit_logs_sy2025' },
    ]);
    await logAt('2024-10-08T09:00:00+08:00', '2025-03-02T09:00:00+08:00', '2025-10-09T09:00:00+08:00', '2026-03-01T09:00:00+08:00');
    await t.db.insert(auditLogs).values({ orgId, action: 'update', entity: 'class', entityId: 'probe now' });
    await sealAuditChains(t.db);
    expect((await logPage('2024-08-01', '2026-07-31')).map((r) => r.entityId)).toHaveLength(4);
    expect((await verify()).breaks).toEqual([]);

    // The year the product writes in cannot go.
    const now = new Date();
    await expect(detachSchoolYear(t.db, 'audit_logs', schoolYearOf(now.getTime()), now)).rejects.toThrow(/has not ended/);

    const done = await detachSchoolYear(t.db, 'audit_logs', 2024, now);
    expect(done).toEqual({ partition: 'audit_logs_sy2024', rows: 2 });
    // The rows wait in a table of their own for the dump; the log reads the years that remain.
    const kept = await t.db.execute<{ n: number; attached: boolean }>(sql`
      select (select count(*)::int from audit_logs_sy2024) as n, exists (select 1 from pg_inherits where inhrelid = 'audit_logs_sy2024'::regclass) as attached`);
    expect(kept.rows[0]).toEqual({ n: 2, attached: false });
    expect((await logPage('2024-08-01', '2026-07-31')).map((r) => r.entityId).sort()).toEqual(['probe 2025-10-09T09:00:00+08:00', 'probe 2026-03-01T09:00:00+08:00']);
    const report = await verify();
    expect(report.breaks).toEqual([]);
    // New writes keep joining the chain.
    await t.db.insert(auditLogs).values({ orgId, action: 'update', entity: 'class', entityId: 'probe after' });
    await sealAuditChains(t.db);
    expect((await verify()).breaks).toEqual([]);
  });

  it("refuses, changing nothing, a year whose rows are not its chains' oldest", async () => {
    // A 2025-2026 row sealed after this year's rows: detaching 2025 would leave a hole in the chain.
    await logAt('2026-07-30T09:00:00+08:00');
    await expect(detachSchoolYear(t.db, 'audit_logs', 2025, new Date())).rejects.toThrow(/not its oldest/);
    const attached = await t.db.execute<{ attached: boolean }>(sql`select exists (select 1 from pg_inherits where inhrelid = 'audit_logs_sy2025'::regclass) as attached`);
    expect(attached.rows[0].attached).toBe(true);
    expect((await verify()).breaks).toEqual([]);
  });
});
