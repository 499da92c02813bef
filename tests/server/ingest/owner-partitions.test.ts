import { and, eq, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { DeviceCredential, IngestSummary } from '@/domain/activities/ingest';
import type { ContestEntryRow, ContestRow, ParticipationDay } from '@/domain/contests/contests';
import type { HomeworkDetail, HomeworkStudentCompletion, HomeworkSubmission } from '@/domain/homework/homework';
import { ensureSchoolYearPartitions } from '../../../server/db/school-year-partitions';
import { activityRecords } from '../../../server/db/schema/activities';
import { contests } from '../../../server/db/schema/contests';
import { homeworks } from '../../../server/db/schema/homework';
import { students } from '../../../server/db/schema/school';
import { devices } from '../../../server/db/schema/venue';
import { datedOwnerYears, inDatedOwnerYearsSql, inRecordYears } from '../../../server/modules/activities/owner-years';
import { dataOf, DEMO } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

/**
 * Reads of activity records by their owner (`ref_id`) name the owner's school years (docs/decisions/064): records of one
 * contest or homework on both sides of 1 August are still found, counted and deleted with it, and the reads touch only
 * those years' partitions.
 */
let t: TestApp;
let student: { id: string; classId: string };
let auth: string;

const CONTESTS = '/api/busi/web/k12/onlineManagement/competitionRank';
const HOMEWORK = '/api/busi/web/k12/sportsHomework/homeworkManagement';

beforeAll(async () => {
  t = await createTestApp();
  const [device] = await t.db
    .select()
    .from(devices)
    .where(and(isNotNull(devices.orgId), isNotNull(devices.activatedAt), ne(devices.status, 'disabled')))
    .limit(1);
  [student] = await t.db
    .select({ id: students.id, classId: students.classId })
    .from(students)
    .where(and(eq(students.orgId, device.orgId!), eq(students.status, 'studying'), eq(students.enabled, true)))
    .limit(1);
  const credential = dataOf<DeviceCredential>(await t.as(DEMO.school).post(`/api/busi/web/k12/device/${device.id}/secret`));
  auth = `Basic ${Buffer.from(`${credential.serialNo}:${credential.secret}`).toString('base64')}`;
});
afterAll(() => t?.close());

/** Moves the test clock to an instant (it only goes forward). */
const moveTo = (iso: string) => {
  t.clock.advance(Date.parse(iso) - t.clock.now().getTime());
  t.signInAgain();
};
const post = async (records: unknown[]) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/device/records', headers: { authorization: auth }, payload: { records } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<IngestSummary>>().data;
};
const entry = (kind: 'contest' | 'homework', refId: string, clientId: string, measuredAt: string) => ({
  clientId,
  studentId: student.id,
  kind,
  refId,
  item: 'rope1min',
  value: 150,
  measuredAt,
});
/** The partitions an owner's stored records sit in. */
const partitionsOf = async (refId: string) =>
  (
    await t.db.execute<{ partition: string }>(
      sql`select tableoid::regclass::text as partition from activity_records where ref_id = ${refId}::uuid order by measured_at`,
    )
  ).rows.map((r) => r.partition);
/** The partitions a statement reads (those pruned at planning are absent, those skipped at run time never executed). */
const partitionsRead = async (query: SQL) => {
  const plan = (await t.db.execute<{ 'QUERY PLAN': string }>(sql`explain (analyze, costs off, timing off, summary off) ${query}`)).rows.map((r) => r['QUERY PLAN']);
  if (process.env.TIYU_PRINT_PLANS) console.log(plan.join('\n'));
  return [...new Set(plan.filter((l) => !l.includes('never executed')).flatMap((l) => [...l.matchAll(/activity_records_(sy\d{4}|default)/g)].map((m) => m[0])))].sort();
};

let contestId: string;
let homeworkId: string;
let editedId: string;

describe('reads of activity records by owner, across 1 August', () => {
  it('finds and counts a contest’s entries and a homework’s submissions on both sides of 1 August', async () => {
    moveTo('2027-07-20T10:00:00+08:00');
    const contest = dataOf(
      await t.as(DEMO.school).post<ContestRow>(CONTESTS, { name: '跨学年跳绳', startDate: '2027-07-25', endDate: '2027-08-10', items: ['rope1min'], rule: 'best' }),
    );
    contestId = contest.id;
    const homework = {
      name: '跨学年打卡',
      note: '',
      classIds: [student.classId],
      items: [{ item: 'rope1min', target: 120, intensity: 'medium' }],
      cycle: 'daily',
      startDate: '2027-07-25',
      endDate: '2027-08-10',
    };
    homeworkId = dataOf(await t.as(DEMO.school).post<HomeworkDetail>(HOMEWORK, homework)).id;
    const edited = dataOf(await t.as(DEMO.school).post<HomeworkDetail>(HOMEWORK, { ...homework, name: '改期打卡', endDate: '2027-08-20' }));
    editedId = edited.id;

    moveTo('2027-07-28T10:00:00+08:00');
    expect(
      await post([
        entry('contest', contestId, 'own-c-july', '2027-07-28T09:00:00+08:00'),
        entry('homework', homeworkId, 'own-h-july', '2027-07-28T09:00:00+08:00'),
        entry('homework', editedId, 'own-e-july', '2027-07-28T09:00:00+08:00'),
      ]),
    ).toMatchObject({ accepted: 3 });
    moveTo('2027-08-02T10:00:00+08:00');
    expect(
      await post([entry('contest', contestId, 'own-c-aug', '2027-08-02T09:00:00+08:00'), entry('homework', homeworkId, 'own-h-aug', '2027-08-02T09:00:00+08:00')]),
    ).toMatchObject({ accepted: 2 });
    expect(await partitionsOf(contestId)).toEqual(['activity_records_sy2026', 'activity_records_sy2027']);
    expect(await partitionsOf(homeworkId)).toEqual(['activity_records_sy2026', 'activity_records_sy2027']);

    const entries = dataOf(await t.as(DEMO.school).get<Page<ContestEntryRow>>(`${CONTESTS}/${contestId}/entries/page?size=20`));
    expect(entries.total).toBe(2);
    expect(entries.records.map((r) => r.measuredAt)).toEqual(['2027-08-02T01:00:00.000Z', '2027-07-28T01:00:00.000Z']);
    const days = dataOf(await t.as(DEMO.school).get<ParticipationDay[]>(`${CONTESTS}/${contestId}/participation`));
    expect(days).toEqual([
      { day: '2027-07-28', entries: 1, students: 1 },
      { day: '2027-08-02', entries: 1, students: 1 },
    ]);
    // an entry of the old year is set invalid through the contest too
    const july = entries.records.find((r) => r.measuredAt.startsWith('2027-07-28'))!;
    expect((await t.as(DEMO.school).post(`${CONTESTS}/${contestId}/entries/invalid`, { ids: [july.id], reason: '器材故障' })).status).toBe(200);
    expect(dataOf(await t.as(DEMO.school).get<Page<ContestEntryRow>>(`${CONTESTS}/${contestId}/entries/page?invalid=true`)).records.map((r) => r.id)).toEqual([july.id]);

    const subs = dataOf(await t.as(DEMO.school).get<Page<HomeworkSubmission>>(`${HOMEWORK}/${homeworkId}/submissions?current=1&size=20`));
    expect(subs.total).toBe(2);
    const mine = dataOf(await t.as(DEMO.school).get<Page<HomeworkStudentCompletion>>(`${HOMEWORK}/${homeworkId}/students?current=1&size=80&classId=${student.classId}`)).records.find(
      (r) => r.studentId === student.id,
    );
    expect(mine).toMatchObject({ submissions: 2, periodsDone: 2 });
  });

  it('still finds the submissions of a homework whose dates were edited past them', async () => {
    // Its start moved to today: the July submission lies before it now, yet it stays the homework's.
    const before = dataOf(await t.as(DEMO.school).get<HomeworkDetail>(`${HOMEWORK}/${editedId}`));
    const moved = await t.as(DEMO.school).put(`${HOMEWORK}/${editedId}`, {
      name: before.name,
      note: '',
      classIds: [student.classId],
      items: [{ item: 'rope1min', target: 120, intensity: 'medium' }],
      cycle: 'daily',
      startDate: '2027-08-02',
      endDate: '2027-08-20',
      version: before.version,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(dataOf(await t.as(DEMO.school).get<Page<HomeworkSubmission>>(`${HOMEWORK}/${editedId}/submissions?current=1&size=20`)).total).toBe(1);
  });

  it('reads only the partitions of the owner’s school years', async () => {
    // The seeded years' partitions exist, and 2028-2029's made ahead: none of them is read.
    moveTo('2027-08-03T10:00:00+08:00');
    expect(await ensureSchoolYearPartitions(t.db, t.clock.now())).toContainEqual({ table: 'activity_records', startYear: 2028, partition: 'activity_records_sy2028' });
    const [contest] = await t.db.select().from(contests).where(eq(contests.id, contestId));
    const ofContest = and(eq(activityRecords.kind, 'contest'), eq(activityRecords.refId, contestId), inRecordYears(activityRecords.schoolYear, datedOwnerYears(contest)));
    expect(await partitionsRead(sql`select ${activityRecords.id} from ${activityRecords} where ${ofContest}`)).toEqual(['activity_records_sy2026', 'activity_records_sy2027']);
    // a contest within August reads its one year
    const august = datedOwnerYears({ ...contest, startDate: '2027-08-01', endDate: '2027-08-10' });
    expect(await partitionsRead(sql`select id from activity_records where kind = 'contest' and ${inRecordYears(sql`school_year`, august)}`)).toEqual([
      'activity_records_sy2027',
    ]);
    // a list's per-row count names each row's years from the row itself (pruned as each row's count runs)
    const [hw] = await t.db.select().from(homeworks).where(eq(homeworks.id, homeworkId));
    expect(hw.version).toBe(1);
    expect(
      await partitionsRead(sql`select h.id, (select count(*) from activity_records r where r.kind = 'homework' and r.ref_id = h.id and ${inDatedOwnerYearsSql(sql`r.school_year`, 'h')})
        from homeworks h where h.id = ${homeworkId}::uuid`),
    ).toEqual(['activity_records_sy2026', 'activity_records_sy2027']);
  });

  it('deletes the owner’s records of both years with it', async () => {
    expect((await t.as(DEMO.school).delete(`${CONTESTS}/${contestId}`)).status).toBe(200);
    expect((await t.as(DEMO.school).delete(`${HOMEWORK}/${homeworkId}`)).status).toBe(200);
    expect((await t.as(DEMO.school).delete(`${HOMEWORK}/${editedId}`)).status).toBe(200);
    expect(await partitionsOf(contestId)).toEqual([]);
    expect(await partitionsOf(homeworkId)).toEqual([]);
    expect(await partitionsOf(editedId)).toEqual([]);
  });
});
