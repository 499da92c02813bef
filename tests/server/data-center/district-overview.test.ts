import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { SchoolView } from '@/domain/data-center/types';
import type { DistrictOverview } from '@/domain/data-center/district';
import { schoolYearOf } from '../../../server/db/school-year-partitions';
import { activityRecords } from '../../../server/db/schema/activities';
import { users } from '../../../server/db/schema/auth';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, grades, students } from '../../../server/db/schema/school';
import { addPlanWithResults } from '../../../server/seed/scale';
import { devices } from '../../../server/db/schema/venue';
import { createTestApp, type TestApp } from '../../support/server-app';
import { indicators, latestPerStudent, loadResults, near } from './reference';

let t: TestApp;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['district01', 'school01']) tokens[account] = (await t.login(account)).access_token;
});
afterAll(() => t?.close());

const URL = '/api/busi/web/admin/dataCenter/overview';
const overview = async (query = '') => {
  const res = await t.request({ url: `${URL}${query}`, token: tokens.district01 });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<DistrictOverview>>().data;
};

describe('district overview', () => {
  it("shows each school's figures equal to that school's own data-centre view, and the district's sums", async () => {
    const view = await overview();
    const schools = await t.db.select({ id: orgs.id, name: orgs.name }).from(orgs).where(sql`${orgs.type} in (${ORG_TYPE.k12}, ${ORG_TYPE.university})`);
    expect(view.schools.map((s) => s.orgId).sort()).toEqual(schools.map((s) => s.id).sort());
    expect(view.period.schoolYear).not.toBeNull();

    for (const row of view.schools) {
      const res = await t.request({ url: `/api/busi/web/admin/dataCenter/school?orgId=${row.orgId}&schoolYear=${view.period.schoolYear}`, token: tokens.district01 });
      const own = res.json<Envelope<SchoolView>>().data.overview;
      expect({ tested: row.tested, meanTotal: row.meanTotal, excellentRate: row.excellentRate, goodRate: row.goodRate, passRate: row.passRate }, row.name).toEqual({
        tested: own.tested,
        meanTotal: own.meanTotal,
        excellentRate: own.excellentRate,
        goodRate: own.goodRate,
        passRate: own.passRate,
      });
      // Students now: enabled, in a grade that has not graduated.
      const [{ n }] = await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(students)
        .innerJoin(classes, eq(classes.id, students.classId))
        .innerJoin(grades, eq(grades.id, classes.gradeId))
        .where(and(eq(students.orgId, row.orgId), eq(students.enabled, true), eq(grades.graduated, false)));
      expect(row.students, row.name).toBe(n);
    }
    expect(view.schools.some((s) => s.tested > 0)).toBe(true);
    expect(view.total.tested).toBe(view.schools.reduce((n, s) => n + s.tested, 0));
    expect(view.total.students).toBe(view.schools.reduce((n, s) => n + s.students, 0));
    // Best mean first.
    const means = view.schools.map((s) => s.meanTotal ?? -1);
    expect([...means].sort((a, b) => b - a)).toEqual(means);
  });

  it('counts distinct students with valid homework and contest records in the school year, and devices online', async () => {
    const before = await overview();
    const year = before.period.schoolYear!;
    const school = before.schools.find((s) => s.students > 0)!;
    const kids = await t.db.select({ id: students.id, classId: students.classId }).from(students).where(eq(students.orgId, school.orgId)).limit(3);
    const [teacher] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'school01'));
    const inYear = new Date(Date.UTC(year, 9, 15, 2));
    const row = (i: number, kind: 'homework' | 'contest', extra: Partial<typeof activityRecords.$inferInsert> = {}) => ({
      orgId: school.orgId,
      studentId: kids[i % kids.length].id,
      classId: kids[i % kids.length].classId!,
      kind,
      item: 'ropeSkip',
      value: 100,
      measuredAt: inYear,
      source: 'console' as const,
      submittedBy: teacher.id,
      clientId: `district-test-${kind}-${i}-${extra.invalid ? 'x' : ''}${extra.measuredAt ? 'old' : ''}`,
      ...extra,
      schoolYear: schoolYearOf((extra.measuredAt ?? inYear).getTime()),
    });
    await t.db.insert(activityRecords).values([
      row(0, 'homework'),
      row(1, 'homework'),
      row(3, 'homework'), // the first student again: counted once
      row(2, 'homework', { invalid: true }),
      row(2, 'homework', { measuredAt: new Date(Date.UTC(year - 1, 9, 15)) }), // another school year
      row(0, 'contest'),
    ]);
    const [device] = await t.db.select({ id: devices.id }).from(devices).where(eq(devices.orgId, school.orgId)).limit(1);
    if (device) await t.db.update(devices).set({ status: 'online' }).where(eq(devices.id, device.id));

    const after = (await overview()).schools.find((s) => s.orgId === school.orgId)!;
    const was = before.schools.find((s) => s.orgId === school.orgId)!;
    expect(after.homeworkStudents - was.homeworkStudents).toBe(2);
    expect(after.contestStudents - was.contestStudents).toBe(1);
    expect(after.homeworkRate).toBe(Math.round((after.homeworkStudents / after.students) * 10_000) / 10_000);
    const [{ online }] = await t.db
      .select({ online: sql<number>`count(*) filter (where ${devices.status} = 'online')::int` })
      .from(devices)
      .where(eq(devices.orgId, school.orgId));
    expect(after.devicesOnline).toBe(online);
  });

  it('equals a direct computation over the stored results, per school and for the district, for a gender too', async () => {
    const year = (await overview()).period.schoolYear!;
    // A school without tests gets a plan, and a K12 school a spring retest of some classes (a student tested twice
    // in one year counts once, with the later result).
    const all = await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs).where(sql`${orgs.type} in (${ORG_TYPE.k12}, ${ORG_TYPE.university})`);
    const before = await overview();
    const untested = before.schools.find((s) => s.tested === 0 && s.students > 0);
    if (untested) await addPlanWithResults(t.db, { orgId: untested.orgId, schoolYear: year, seed: 7, invalid: 0.02 });
    const k12 = before.schools.find((s) => s.type === ORG_TYPE.k12 && s.tested > 0)!;
    const someClasses = (await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, k12.orgId)).limit(2)).map((c) => c.id);
    await addPlanWithResults(t.db, { orgId: k12.orgId, schoolYear: year, semesterCode: 11, classIds: someClasses, seed: 8, invalid: 0 });

    const results = await loadResults(t.db);
    const ids = all.map((o) => o.id);
    for (const gender of [undefined, 'female']) {
      const view = await overview(gender ? `?gender=${gender}` : '');
      for (const row of view.schools) {
        const ref = indicators(latestPerStudent(results, { orgIds: [row.orgId], year, gender }), null);
        expect({ tested: row.tested, assessed: row.assessed, excellentRate: row.excellentRate, goodRate: row.goodRate, passRate: row.passRate }, row.name).toEqual({
          tested: ref.tested,
          assessed: ref.assessed,
          excellentRate: ref.excellentRate,
          goodRate: ref.goodRate,
          passRate: ref.passRate,
        });
        expect(row.failRate).toBe(ref.assessed ? Math.round((ref.levels.fail / ref.assessed) * 10_000) / 10_000 : null);
        expect(near(row.meanTotal, ref.meanTotal), `${row.name}: ${row.meanTotal} vs ${ref.meanTotal}`).toBe(true);
      }
      const district = indicators(latestPerStudent(results, { orgIds: ids, year, gender }), null);
      expect(view.total).toMatchObject({ tested: district.tested, assessed: district.assessed, excellentRate: district.excellentRate, passRate: district.passRate });
      expect(near(view.total.meanTotal, district.meanTotal)).toBe(true);
    }
    if (untested) expect((await overview()).schools.find((s) => s.orgId === untested.orgId)!.tested).toBeGreaterThan(0);
  });

  it('keeps the participation counts equal to the valid records through inserts, invalidations, moves across a school year and deletes', async () => {
    const year = (await overview()).period.schoolYear!;
    const school = (await overview()).schools.find((s) => s.students > 0)!;
    const kids = await t.db.select({ id: students.id, classId: students.classId }).from(students).where(eq(students.orgId, school.orgId)).limit(6);
    const [teacher] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'school01'));
    // August 1st 00:30 in China is the new school year; July 31st 23:30 the old one.
    const at = [new Date(Date.UTC(year, 6, 31, 16, 30)), new Date(Date.UTC(year, 6, 31, 15, 30)), new Date(Date.UTC(year, 11, 1, 2))];
    const rows = Array.from({ length: 30 }, (_, i) => ({
      orgId: school.orgId,
      studentId: kids[i % kids.length].id,
      classId: kids[i % kids.length].classId!,
      kind: (['homework', 'contest', 'exercise'] as const)[i % 3],
      item: 'ropeSkip',
      value: 100,
      measuredAt: at[i % at.length],
      schoolYear: schoolYearOf(at[i % at.length].getTime()),
      source: 'console' as const,
      submittedBy: teacher.id,
      clientId: `participation-${i}`,
    }));
    const counted = async () =>
      (
        await t.db.execute<{ key: string; n: number }>(
          sql`select org_id || ':' || school_year || ':' || kind as key, students as n from activity_participation_counts where students <> 0 order by 1`,
        )
      ).rows.map((r) => `${r.key}=${r.n}`);
    const direct = async () =>
      (
        await t.db.execute<{ key: string; n: number }>(sql`select org_id || ':' || extract(year from (measured_at at time zone 'Asia/Shanghai') - interval '7 months')::int || ':' || kind as key,
          count(distinct student_id)::int as n from activity_records where kind in ('homework', 'contest') and not invalid group by 1 order by 1`)
      ).rows.map((r) => `${r.key}=${r.n}`);
    await t.db.insert(activityRecords).values(rows);
    expect(await counted()).toEqual(await direct());
    expect((await counted()).some((k) => k.includes(`:${year - 1}:homework`))).toBe(true);
    await t.db.execute(sql`update activity_records set invalid = true where client_id in ('participation-0', 'participation-1', 'participation-13')`);
    expect(await counted()).toEqual(await direct());
    // A time moved across 1 August moves the record's school year, its partition key, with it (the CHECK refuses otherwise).
    await t.db.execute(sql`update activity_records set measured_at = measured_at + interval '2 hours',
      school_year = extract(year from ((measured_at + interval '2 hours') at time zone 'Asia/Shanghai') - interval '7 months')
      where client_id like 'participation-%' and not invalid`);
    expect(await counted()).toEqual(await direct());
    await t.db.execute(sql`update activity_records set invalid = false where client_id = 'participation-0'`);
    expect(await counted()).toEqual(await direct());
    await t.db.execute(sql`delete from activity_records where client_id in ('participation-3', 'participation-4', 'participation-24')`);
    expect(await counted()).toEqual(await direct());
    await t.db.execute(sql`delete from activity_records where client_id like 'participation-%'`);
    expect(await counted()).toEqual(await direct());
    const [{ left }] = (await t.db.execute<{ left: number }>(sql`select count(*)::int as left from activity_participation where records <= 0`)).rows;
    expect(left).toBe(0);
  });

  it('is for management organisations with the page only', async () => {
    expect((await t.request({ url: URL, token: tokens.school01 })).statusCode).toBe(403);
    expect((await t.request({ url: URL })).statusCode).toBe(401);
    expect((await t.request({ url: `${URL}?semesterCode=12`, token: tokens.district01 })).statusCode).toBe(400);
  });
});
