import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { SchoolView } from '@/domain/data-center/types';
import type { DistrictOverview } from '@/domain/platform/district';
import { activityRecords } from '../../../server/db/schema/activities';
import { users } from '../../../server/db/schema/auth';
import { orgs } from '../../../server/db/schema/orgs';
import { students } from '../../../server/db/schema/school';
import { devices } from '../../../server/db/schema/venue';
import { createTestApp, type TestApp } from '../../support/server-app';

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
      const [{ n }] = await t.db.select({ n: sql<number>`count(*)::int` }).from(students).where(and(eq(students.orgId, row.orgId), eq(students.enabled, true)));
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

  it('is for management organisations with the page only', async () => {
    expect((await t.request({ url: URL, token: tokens.school01 })).statusCode).toBe(403);
    expect((await t.request({ url: URL })).statusCode).toBe(401);
    expect((await t.request({ url: `${URL}?semesterCode=12`, token: tokens.district01 })).statusCode).toBe(400);
  });
});
