import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_TYPE } from '@/domain/constants';
import {
  createClass,
  createCollege,
  createDevice,
  createGrade,
  createMajor,
  createMeet,
  createSchoolYear,
  createStaff,
  createStudent,
  createTestPlan,
  createWiki,
  DEMO,
  orgOf,
} from '../support/factories';
import { createTestApp, type TestApp } from '../support/server-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
});
afterAll(async () => {
  await t?.close();
});

describe('test factories build through the product routes', () => {
  it('finds the organisation each demo account acts in', async () => {
    expect((await orgOf(t, DEMO.school)).orgType).toBe(ORG_TYPE.k12);
    expect((await orgOf(t, DEMO.college)).orgType).toBe(ORG_TYPE.university);
    expect((await orgOf(t, DEMO.school)).orgId).not.toBe((await orgOf(t, DEMO.school2)).orgId);
  });

  it('creates rows the acting account then reads back, and two calls never collide', async () => {
    const me = t.as(DEMO.school);
    const year = await createSchoolYear(t);
    expect((await me.get(`/api/busi/web/k12/org/acayear/${year.id}`)).status).toBe(200);
    const cls = await createClass(t);
    const again = await createClass(t, { gradeId: cls.gradeId });
    expect(again.id).not.toBe(cls.id);
    expect((await me.get(`/api/busi/web/k12/org/class/${again.id}`)).body.data).toMatchObject({ gradeId: cls.gradeId });
    expect((await createGrade(t)).id).toBeTruthy();
    const device = await createDevice(t);
    expect((await me.get(`/api/busi/web/k12/device/${device.id}`)).status).toBe(200);
    expect((await me.get(`/api/busi/web/k12/wikiManagement/schoolWiki/${(await createWiki(t)).id}`)).status).toBe(200);
    const major = await createMajor(t, { collegeId: (await createCollege(t)).id });
    expect((await t.as(DEMO.college).get(`/api/busi/web/gx/org/major/${major.id}`)).status).toBe(200);
    // Another school never sees them.
    expect((await t.as(DEMO.school2).get(`/api/busi/web/k12/org/class/${cls.id}`)).status).toBe(404);
  });

  it('builds students, staff who can sign in, a plan with imported results and a meet with entries', async () => {
    const me = t.as(DEMO.school);
    const student = await createStudent(t);
    expect((await me.get(`/api/busi/web/k12/user/student/${student.id}`)).body.data).toMatchObject({ regNo: student.regNo, classId: student.classId });

    const cls = await createClass(t);
    const staff = await createStaff(t, { classIds: [cls.id] });
    expect((await t.as(staff.accountNum).get('/api/busi/web/myInfo/getUInfo')).status).toBe(200);
    expect((await me.get(`/api/busi/web/k12/user/teacher/${staff.id}`)).body.data).toMatchObject({ accountNum: staff.accountNum, taughtClasses: [{ classId: cls.id }] });

    const plan = await createTestPlan(t, { students: 3, results: 2 });
    const scores = await me.get<{ total: number; records: { studentId: string }[] }>(
      `/api/busi/web/k12/organizeTest/scoreSearch/page?planId=${plan.id}&size=50`,
    );
    expect(scores.status).toBe(200);
    expect(scores.body.data.records.map((r) => r.studentId).sort()).toEqual(plan.tested.map((s) => s.id).sort());

    const meet = await createMeet(t, { entries: 2 });
    const entries = await me.get<{ total: number }>(`/api/busi/web/k12/sportsMeet/${meet.id}/entries`);
    expect(entries.body.data.total).toBe(2);
    expect((await t.as(DEMO.school2).get(`/api/busi/web/k12/sportsMeet/${meet.id}`)).status).toBe(404);
  });
});
