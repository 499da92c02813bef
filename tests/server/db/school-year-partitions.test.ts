import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditChainReport, OperationLogRow } from '@/domain/platform/logs';
import type { Page } from '@/domain/api';
import { detachSchoolYear, ensureSchoolYearPartitions, schoolYearOf } from '../../../server/db/school-year-partitions';
import { auditLogs } from '../../../server/db/schema/audit';
import { dcRollups } from '../../../server/db/schema/data-center';
import { physiqueResultCounts, physiqueResultLogs, physiqueResults } from '../../../server/db/schema/physique';
import { periodResults } from '../../../server/modules/data-center/data-center.sql';
import { resultFilter } from '../../../server/modules/physique-results/physique-results.service';
import type { ScoreSearchPage } from '@/domain/physique-results/answers';
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
      { table: 'physique_results', startYear: 2031, partition: 'physique_results_sy2031' },
      { table: 'physique_results', startYear: 2032, partition: 'physique_results_sy2032' },
      { table: 'activity_records', startYear: 2031, partition: 'activity_records_sy2031' },
      { table: 'activity_records', startYear: 2032, partition: 'activity_records_sy2032' },
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
      // the demo's school years made their results' partitions when they were created
      { table: 'physique_results', startYear: 2024, partition: 'physique_results_sy2024' },
      { table: 'physique_results', startYear: 2025, partition: 'physique_results_sy2025' },
      { table: 'activity_records', startYear: 2024, partition: 'activity_records_sy2024' },
      { table: 'activity_records', startYear: 2025, partition: 'activity_records_sy2025' },
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

/** The physique results, partitioned by their plan's school year (`school_year`). */
describe('the physique results partitioned by school year', () => {
  /** The school's plans with results, newest school year first. */
  const plansWithResults = async () =>
    (
      await t.db.execute<{ id: string; year_id: string; start_year: number; start_date: string; n: number }>(sql`
        select p.id, p.school_year_id as year_id, y.start_year::int as start_year, p.start_date::text as start_date, count(*)::int as n
          from physique_results r join test_plans p on p.id = r.plan_id join school_years y on y.id = p.school_year_id
         where r.org_id = ${orgId}::uuid and p.retest_of_plan_id is null group by 1, 2, 3, 4 order by 3 desc, 4 desc`)
    ).rows;
  /** The partitions a statement read (EXPLAIN ANALYZE: partitions pruned at run time show as never executed). */
  const partitionsRead = async (query: ReturnType<typeof sql>) => {
    const lines = (await t.db.execute<{ 'QUERY PLAN': string }>(sql`explain (analyze, costs off, timing off, summary off) ${query}`)).rows.map((r) => r['QUERY PLAN']);
    if (process.env.TIYU_PRINT_PLANS) console.log(lines.join('\n'));
    return [...new Set(lines.filter((l) => !l.includes('never executed')).flatMap((l) => [...l.matchAll(/physique_results_(sy\d{4}|default)/g)].map((m) => m[0])))];
  };
  const caller = () => ({ family: 'k12' as const, tenantOrgId: orgId, userId: '00000000-0000-0000-0000-000000000000', classScope: { all: true as const } });
  const scoreList = async (planId: string) =>
    dataOf<ScoreSearchPage>(await t.as(DEMO.school).get(`/api/busi/web/k12/organizeTest/scoreSearch/page?current=1&size=10&planId=${planId}`));

  it("keeps every result in its plan's school-year partition and refuses a row without its plan's year, changing nothing", async () => {
    const placed = await t.db.execute<{ n: number; wrong_year: number; misplaced: number }>(sql`
      select count(*)::int as n, count(*) filter (where r.school_year <> y.start_year)::int as wrong_year,
             count(*) filter (where r.tableoid::regclass::text <> 'physique_results_sy' || r.school_year)::int as misplaced
        from physique_results r join test_plans p on p.id = r.plan_id join school_years y on y.id = p.school_year_id`);
    expect(placed.rows[0].n).toBeGreaterThan(0);
    expect(placed.rows[0]).toMatchObject({ wrong_year: 0, misplaced: 0 });

    const [plan] = await plansWithResults();
    const [row] = await t.db.select().from(physiqueResults).where(eq(physiqueResults.planId, plan.id)).limit(1);
    const before = await t.db.$count(physiqueResults, eq(physiqueResults.planId, plan.id));
    const { id: _id, schoolYear: _year, studentId: _student, ...rest } = row;
    const [other] = (await t.db.execute<{ id: string }>(sql`select id from students where org_id = ${orgId}::uuid and id not in (select student_id from physique_results where plan_id = ${plan.id}::uuid) limit 1`)).rows;
    // A writer that leaves the year out (the column's default), or names another year, is refused.
    await expect(t.db.insert(physiqueResults).values({ ...rest, studentId: other.id })).rejects.toThrow();
    await expect(t.db.insert(physiqueResults).values({ ...rest, studentId: other.id, schoolYear: plan.start_year + 1 })).rejects.toThrow();
    expect(await t.db.$count(physiqueResults, eq(physiqueResults.planId, plan.id))).toBe(before);
  });

  it("reads only the year's partition for the score list of a plan or a school year and for the data centre's period", async () => {
    const plans = await plansWithResults();
    const older = plans.find((p) => p.start_year < plans[0].start_year)!;
    const mine = `physique_results_sy${older.start_year}`;
    const byPlan = resultFilter(caller(), { planId: older.id } as never);
    expect(await partitionsRead(sql`select ${physiqueResults.id} from ${physiqueResults} where ${byPlan}`)).toEqual([mine]);
    const byYear = resultFilter(caller(), { schoolYearId: older.year_id } as never);
    expect(await partitionsRead(sql`select ${physiqueResults.id} from ${physiqueResults} where ${byYear}`)).toEqual([mine]);
    const period = periodResults({ orgIds: [orgId], plans: [{ id: older.id, orgId, schoolYear: older.start_year, startDate: older.start_date }] });
    expect(await partitionsRead(period)).toEqual([mine]);
    // and the list answers as before
    expect((await scoreList(older.id)).total).toBe(older.n);
  });

  it('moves the results of a plan moved to another school year, with their logs; the rollups stay', async () => {
    const plans = await plansWithResults();
    const plan = plans[plans.length - 1];
    const target = plans[0];
    const [result] = await t.db.select({ id: physiqueResults.id, schoolYear: physiqueResults.schoolYear }).from(physiqueResults).where(eq(physiqueResults.planId, plan.id)).limit(1);
    await t.db.insert(physiqueResultLogs).values({ resultId: result.id, schoolYear: result.schoolYear, action: 'edit', field: 'run50m', oldValue: '9.1', newValue: '9.0' });
    const rollups = await t.db.$count(dcRollups, eq(dcRollups.planId, plan.id));

    await t.db.execute(sql`update test_plans set school_year_id = ${target.year_id}::uuid where id = ${plan.id}::uuid`);
    const moved = await t.db.execute<{ years: number[]; partitions: string[] }>(sql`
      select array_agg(distinct school_year::int) as years, array_agg(distinct tableoid::regclass::text) as partitions from physique_results where plan_id = ${plan.id}::uuid`);
    expect(moved.rows[0]).toEqual({ years: [target.start_year], partitions: [`physique_results_sy${target.start_year}`] });
    const [log] = await t.db.select({ schoolYear: physiqueResultLogs.schoolYear }).from(physiqueResultLogs).where(eq(physiqueResultLogs.resultId, result.id));
    expect(log.schoolYear).toBe(target.start_year);
    expect(await t.db.$count(dcRollups, eq(dcRollups.planId, plan.id))).toBe(rollups);

    await t.db.execute(sql`update test_plans set school_year_id = ${plan.year_id}::uuid where id = ${plan.id}::uuid`);
    expect(await t.db.$count(physiqueResults, and(eq(physiqueResults.planId, plan.id), eq(physiqueResults.schoolYear, plan.start_year)))).toBe(plan.n);
  });

  it('detaches an ended year of results with their logs: the list, the rollups and the counts forget that year, the others stay', async () => {
    const plans = await plansWithResults();
    const oldest = Math.min(...plans.map((p) => p.start_year));
    const gone = plans.filter((p) => p.start_year === oldest);
    const kept = plans.filter((p) => p.start_year !== oldest);
    const now = new Date();
    await expect(detachSchoolYear(t.db, 'physique_results', schoolYearOf(now.getTime()), now)).rejects.toThrow(/has not ended/);
    const rows = await t.db.$count(physiqueResults, eq(physiqueResults.schoolYear, oldest));
    const logs = await t.db.$count(physiqueResultLogs, eq(physiqueResultLogs.schoolYear, oldest));
    expect(logs).toBeGreaterThan(0);
    const keptTotals = await Promise.all(kept.map(async (p) => (await scoreList(p.id)).total));

    expect(await detachSchoolYear(t.db, 'physique_results', oldest, now)).toEqual({ partition: `physique_results_sy${oldest}`, rows });
    const archived = await t.db.execute<{ results: number; logs: number; attached: boolean }>(sql`
      select (select count(*)::int from ${sql.identifier(`physique_results_sy${oldest}`)}) as results,
             (select count(*)::int from ${sql.identifier(`physique_result_logs_sy${oldest}`)}) as logs,
             exists (select 1 from pg_inherits where inhrelid = ${`physique_results_sy${oldest}`}::regclass) as attached`);
    expect(archived.rows[0]).toEqual({ results: rows, logs, attached: false });
    const ids = gone.map((p) => p.id);
    expect(await t.db.$count(physiqueResults, inArray(physiqueResults.planId, ids))).toBe(0);
    expect(await t.db.$count(physiqueResultLogs, eq(physiqueResultLogs.schoolYear, oldest))).toBe(0);
    expect(await t.db.$count(dcRollups, inArray(dcRollups.planId, ids))).toBe(0);
    expect(await t.db.$count(physiqueResultCounts, inArray(physiqueResultCounts.planId, ids))).toBe(0);
    expect((await scoreList(gone[0].id)).total).toBe(0);
    expect(await Promise.all(kept.map(async (p) => (await scoreList(p.id)).total))).toEqual(keptTotals);
  });
});
