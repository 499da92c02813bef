import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { DeviceCredential, IngestSummary } from '@/domain/activities/ingest';
import type { ExerciseRecordRow } from '@/domain/activities/exercise-records';
import { ORG_TYPE } from '@/domain/constants';
import { detachSchoolYear, ensureSchoolYearPartitions } from '../../../server/db/school-year-partitions';
import { activityRecords } from '../../../server/db/schema/activities';
import { orgs } from '../../../server/db/schema/orgs';
import { students } from '../../../server/db/schema/school';
import { devices } from '../../../server/db/schema/venue';
import { recordFilter } from '../../../server/modules/activities/exercise-records.service';
import { insertRecords } from '../activities/records';
import { dataOf, DEMO } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

/** Activity records partitioned by school year (docs/decisions/064-partitions-by-school-year.md), through the ingest API. */
let t: TestApp;
let orgId: string;
let student: string;
let regNo: string;
let auth: string;

beforeAll(async () => {
  t = await createTestApp();
  orgId = (await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs)).find((o) => o.type === ORG_TYPE.k12)!.id;
  [{ id: student, regNo }] = await t.db
    .select({ id: students.id, regNo: students.regNo })
    .from(students)
    .where(and(eq(students.orgId, orgId), eq(students.status, 'studying'), eq(students.enabled, true)))
    .limit(1);
  const [device] = await t.db
    .select()
    .from(devices)
    .where(and(eq(devices.orgId, orgId), isNotNull(devices.activatedAt), ne(devices.status, 'disabled')))
    .limit(1);
  const credential = dataOf<DeviceCredential>(await t.as(DEMO.school).post(`/api/busi/web/k12/device/${device.id}/secret`));
  auth = `Basic ${Buffer.from(`${credential.serialNo}:${credential.secret}`).toString('base64')}`;
});
afterAll(() => t?.close());

const post = async (records: unknown[]) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/device/records', headers: { authorization: auth }, payload: { records } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<IngestSummary>>().data;
};
const rec = (clientId: string, measuredAt: string) => ({ clientId, studentId: student, kind: 'exercise', item: 'ropeFree', value: 120, measuredAt });
/** The stored rows of a client id, with the partition each sits in. */
const stored = async (clientId: string) =>
  (
    await t.db.execute<{ id: string; partition: string; measured_at: string }>(
      sql`select id, tableoid::regclass::text as partition, measured_at::text from activity_records where client_id = ${clientId} order by measured_at`,
    )
  ).rows;
const inDefault = async () => (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from activity_records_default`)).rows[0].n;
const exerciseList = async (query = '') =>
  dataOf<Page<ExerciseRecordRow>>(await t.as(DEMO.school).get(`/api/busi/web/k12/exerciseRecord/page?size=80&keyword=${regNo}${query}`)).records;
/** Moves the test clock to an instant (it only goes forward). */
const moveTo = (iso: string) => {
  t.clock.advance(Date.parse(iso) - t.clock.now().getTime());
  t.signInAgain();
};

describe('activity records partitioned by school year', () => {
  it('stores a resent record once, in the partition of its school year, and lists the same record', async () => {
    const at = new Date(t.clock.now().getTime() - 30 * 60_000).toISOString();
    expect(await post([rec('sy-resend', at)])).toMatchObject({ accepted: 1, duplicate: 0 });
    const [first] = await stored('sy-resend');
    expect(await post([rec('sy-resend', at)])).toMatchObject({ accepted: 0, duplicate: 1 });
    // a resend whose time moved within the year is the same record too
    expect(await post([rec('sy-resend', new Date(Date.parse(at) - 60_000).toISOString())])).toMatchObject({ accepted: 0, duplicate: 1 });
    const rows = await stored('sy-resend');
    expect(rows).toEqual([first]);
    const year = Number((await t.db.execute<{ y: number }>(sql`select school_year::int as y from activity_records where id = ${first.id}::uuid`)).rows[0].y);
    expect(first.partition).toBe(`activity_records_sy${year}`);
    expect((await exerciseList()).filter((r) => r.id === first.id)).toHaveLength(1);
    expect(await inDefault()).toBe(0);
  });

  it('refuses, changing nothing, a row written without its school year or with another year', async () => {
    const [row] = await t.db.select().from(activityRecords).where(eq(activityRecords.clientId, 'sy-resend'));
    const { id: _id, senderKey: _key, schoolYear, ...rest } = row;
    const before = await t.db.$count(activityRecords);
    await expect(t.db.insert(activityRecords).values({ ...rest, clientId: 'sy-no-year' })).rejects.toThrow();
    await expect(t.db.insert(activityRecords).values({ ...rest, clientId: 'sy-wrong-year', schoolYear: schoolYear + 1 })).rejects.toThrow();
    expect(await t.db.$count(activityRecords)).toBe(before);
    expect(await inDefault()).toBe(0);
  });

  it('puts a record of a new school year in its partition, made ahead, and keeps a resend moved across 1 August one record', async () => {
    // 1 August 2027, 00:20 in China: the hourly job has made this year's and next year's partitions.
    moveTo('2027-08-01T00:20:00+08:00');
    expect(await ensureSchoolYearPartitions(t.db, t.clock.now())).toContainEqual({ table: 'activity_records', startYear: 2028, partition: 'activity_records_sy2028' });
    expect(await post([rec('sy-old-year', '2027-07-31T23:50:00+08:00'), rec('sy-new-year', '2027-08-01T00:10:00+08:00')])).toMatchObject({ accepted: 2 });
    expect((await stored('sy-old-year')).map((r) => r.partition)).toEqual(['activity_records_sy2026']);
    expect((await stored('sy-new-year')).map((r) => r.partition)).toEqual(['activity_records_sy2027']);
    // The device's clock was corrected: the same record resent with a time in the other school year stays one record.
    expect(await post([rec('sy-old-year', '2027-08-01T00:05:00+08:00'), rec('sy-new-year', '2027-07-31T23:55:00+08:00')])).toMatchObject({ accepted: 0, duplicate: 2 });
    expect(await stored('sy-old-year')).toHaveLength(1);
    expect(await stored('sy-new-year')).toHaveLength(1);
    expect(await inDefault()).toBe(0);
  });

  it('reads only the partitions of the school year or days the exercise list names', async () => {
    const lines = async (filter: Parameters<typeof recordFilter>[1]) => {
      const where = recordFilter({ family: 'k12', tenantOrgId: orgId, userId: '00000000-0000-0000-0000-000000000000', classScope: { all: true } }, filter);
      const plan = (await t.db.execute<{ 'QUERY PLAN': string }>(sql`explain (analyze, costs off, timing off, summary off) select ${activityRecords.id} from ${activityRecords} where ${where}`)).rows.map(
        (r) => r['QUERY PLAN'],
      );
      if (process.env.TIYU_PRINT_PLANS) console.log(plan.join('\n'));
      return [...new Set(plan.filter((l) => !l.includes('never executed')).flatMap((l) => [...l.matchAll(/activity_records_(sy\d{4}|default)/g)].map((m) => m[0])))].sort();
    };
    expect(await lines({ from: '2027-08-01', to: '2027-08-31' } as never)).toEqual(['activity_records_sy2027']);
    expect(await lines({ from: '2027-06-01', to: '2027-08-31' } as never)).toEqual(['activity_records_sy2026', 'activity_records_sy2027']);
    const [year] = (await t.db.execute<{ id: string }>(sql`select id from school_years where org_id = ${orgId}::uuid and start_year = 2026`)).rows;
    if (year) expect(await lines({ schoolYearId: year.id } as never)).toEqual(['activity_records_sy2026', 'activity_records_sy2027']);
    // and the list answers by days as before
    expect((await exerciseList('&from=2027-08-01&to=2027-08-01')).map((r) => r.measuredAt)).toEqual([new Date('2027-07-31T16:10:00Z').toISOString()]);
  });

  it('detaches an ended school year once the ingest can no longer write into it; the list forgets it, the rows stay in the detached table', async () => {
    await insertRecords(t.db, [{ studentId: student, item: 'ropeFree', value: 99, measuredAt: new Date('2026-03-02T09:00:00+08:00') }]);
    const [old] = (await t.db.execute<{ id: string; partition: string }>(sql`select id, tableoid::regclass::text as partition from activity_records where value = 99 and student_id = ${student}::uuid`)).rows;
    expect(old.partition).toBe('activity_records_sy2025');
    // 2026-2027 ended yesterday, but records measured in it may still arrive for 90 days: it stays.
    await expect(detachSchoolYear(t.db, 'activity_records', 2026, t.clock.now())).rejects.toThrow(/still takes records/);
    const done = await detachSchoolYear(t.db, 'activity_records', 2025, t.clock.now());
    expect(done.partition).toBe('activity_records_sy2025');
    expect(done.rows).toBeGreaterThan(0);
    expect((await exerciseList()).map((r) => r.id)).not.toContain(old.id);
    expect((await exerciseList()).length).toBeGreaterThan(0);
    const archived = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from activity_records_sy2025 where id = ${old.id}::uuid`)).rows[0].n;
    expect(archived).toBe(1);
    // the detached year is no partition any more; the other years still take their records
    await expect(detachSchoolYear(t.db, 'activity_records', 2025, t.clock.now())).rejects.toThrow(/not a partition/);
    expect(await post([rec('sy-after-detach', new Date(t.clock.now().getTime() - 60_000).toISOString())])).toMatchObject({ accepted: 1 });
    expect(await inDefault()).toBe(0);
  });
});
