import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { ClassListView, ClassView, DataCenterOptions, GradeView, SchoolView, StudentListPage, StudentView } from '@/domain/data-center/types';
import { dataCenterCodes } from '../../../server/modules/data-center/data-center.permissions';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, colleges } from '../../../server/db/schema/school';
import { addPlanWithResults } from '../../../server/seed/scale';
import { createTestApp, type TestApp } from '../../support/server-app';
import { indicators, latestPerStudent, loadResults, loadStudents, roster, type ResultRow, type StudentRef } from './reference';

/** The university family's data centre (docs/product-rules.md#data-centre: the gx family has the college and major equivalents). */

let t: TestApp;
const tokens: Record<string, string> = {};
let k12Id: string;
let uniId: string;
let results: ResultRow[];
let studentList: StudentRef[];
let collegeOf: Map<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['school01', 'college01']) tokens[account] = (await t.login(account)).access_token;
  const rows = await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs);
  k12Id = rows.find((o) => o.type === ORG_TYPE.k12)!.id;
  uniId = rows.find((o) => o.type === ORG_TYPE.university)!.id;
  await addPlanWithResults(t.db, { orgId: k12Id, schoolYear: 2026, seed: 11, invalid: 0.01 });
  await addPlanWithResults(t.db, { orgId: uniId, schoolYear: 2025, seed: 12, invalid: 0.01 });
  await addPlanWithResults(t.db, { orgId: uniId, schoolYear: 2026, seed: 13, invalid: 0.02 });
  results = await loadResults(t.db);
  studentList = await loadStudents(t.db);
  const cls = await t.db.select({ id: classes.id, collegeId: classes.collegeId }).from(classes).where(eq(classes.orgId, uniId));
  collegeOf = new Map(cls.map((c) => [c.id, c.collegeId ?? '']));
});
afterAll(async () => {
  await t?.close();
});

const url = (path: string) => `/api/busi/web/${path}`;

async function view<T>(path: string, account = 'college01'): Promise<T> {
  const res = await t.request({ url: url(path), token: tokens[account] });
  expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).toBe(200);
  return res.json<Envelope<T>>().data;
}

describe('gx data-centre permissions', () => {
  it('use the catalogue’s gx.dataCenter codes (no score-search fallback any more)', () => {
    expect(dataCenterCodes('gx')).toEqual({
      school: 'gx:dataCenter:school:view',
      grade: 'gx:dataCenter:college:view',
      college: 'gx:dataCenter:college:view',
      class: 'gx:dataCenter:class:view',
      classDetail: 'gx:dataCenter:class:detail',
      student: 'gx:dataCenter:student:view',
      studentDetail: 'gx:dataCenter:student:detail',
      screenLink: 'gx:dataCenter:school:screen',
    });
    // K12 has no college page; the admin family still has no data-centre screens.
    expect(dataCenterCodes('k12').college).toBeUndefined();
    expect(dataCenterCodes('admin').school).toBe('admin:test:scoreSearch:view');
  });

  it('a K12 administrator cannot read any gx view, and the college endpoint is gx only', async () => {
    const uniClass = [...collegeOf.keys()][0];
    const uniStudent = studentList.find((s) => s.orgId === uniId)!.id;
    for (const path of ['school', 'college', 'grade', 'class', `class/${uniClass}`, 'student', `student/${uniStudent}`, 'filters', 'screenLink']) {
      const res = await t.request({ url: url(`gx/dataCenter/${path}`), token: tokens.school01 });
      expect(res.statusCode, path).toBe(403);
    }
    expect((await t.request({ url: url('k12/dataCenter/college'), token: tokens.school01 })).statusCode).toBe(404);
    expect((await t.request({ url: url('k12/dataCenter/school'), token: tokens.college01 })).statusCode).toBe(403);
  });
});

describe('gx views of college01', () => {
  it('the school view covers the university only', async () => {
    const v = await view<SchoolView>('gx/dataCenter/school');
    expect(v.scope).toMatchObject({ orgId: uniId, schools: 1 });
    const rows = latestPerStudent(results, { orgIds: [uniId], year: 2026 });
    expect(rows.length).toBeGreaterThan(0);
    expect(v.overview.tested).toBe(rows.length);
    expect(v.overview.levels).toEqual(indicators(rows, null).levels);
    expect(v.overview.students).toBe(roster(studentList, [uniId], 2026));
    expect(v.byGrade.map((g) => g.gradeNo)).toEqual([13, 14, 15, 16]);
    expect(v.ranking.rows.every((r) => r.orgId === uniId && collegeOf.has(r.id))).toBe(true);
    expect(v.trend.map((p) => p.schoolYear)).toEqual(expect.arrayContaining([2025, 2026]));
  });

  it('the college list puts the colleges side by side, equal to a direct computation', async () => {
    const v = await view<ClassListView>('gx/dataCenter/college');
    const names = new Map((await t.db.select({ id: colleges.id, name: colleges.name }).from(colleges).where(eq(colleges.orgId, uniId))).map((c) => [c.id, c.name]));
    expect(v.rows.map((r) => r.id).sort()).toEqual([...names.keys()].sort());
    const rows = latestPerStudent(results, { orgIds: [uniId], year: 2026 });
    for (const r of v.rows) {
      const mine = rows.filter((x) => collegeOf.get(x.classId) === r.id);
      const ref = indicators(mine, null);
      expect(r.name).toBe(names.get(r.id));
      expect(r.orgId).toBe(uniId);
      expect(r.tested).toBe(mine.length);
      expect(r.levels).toEqual(ref.levels);
      expect(r.excellentRate).toBe(ref.excellentRate);
      expect(r.passRate).toBe(ref.passRate);
    }
    expect(v.rows.reduce((n, r) => n + r.tested, 0)).toBe(rows.length);
    expect(v.rows.map((r) => r.rank)).toContain(1);
    // One year of study: the same colleges, fewer students.
    const first = await view<ClassListView>('gx/dataCenter/college?gradeNo=13');
    expect(first.rows.reduce((n, r) => n + r.tested, 0)).toBe(rows.filter((r) => r.gradeNo === 13).length);
  });

  it('one college’s page (grade view with collegeId) spans every year of study unless one is chosen', async () => {
    const college = (await view<DataCenterOptions>('gx/dataCenter/filters')).colleges[0].id;
    const rows = latestPerStudent(results, { orgIds: [uniId], year: 2026 }).filter((r) => collegeOf.get(r.classId) === college);
    const v = await view<GradeView>(`gx/dataCenter/grade?collegeId=${college}`);
    expect(v.gradeNo).toBeNull();
    expect(v.overview.tested).toBe(rows.length);
    expect(v.units.unit).toBe('class');
    expect(v.units.rows.every((u) => collegeOf.get(u.id) === college)).toBe(true);
    expect(new Set(v.units.rows.map((u) => u.gradeNo))).toEqual(new Set([13, 14, 15, 16]));
    expect(v.distributions.find((d) => d.item === 'total')?.n).toBe(rows.filter((r) => r.total != null).length);
    expect(v.overview.students).toBeGreaterThan(0);
    const oneYear = await view<GradeView>(`gx/dataCenter/grade?collegeId=${college}&gradeNo=14`);
    expect(oneYear.gradeNo).toBe(14);
    expect(oneYear.overview.tested).toBe(rows.filter((r) => r.gradeNo === 14).length);
  });

  it('classes, a class, students and a student of the university; another school’s are not found', async () => {
    const list = await view<ClassListView>('gx/dataCenter/class');
    expect(list.rows.length).toBeGreaterThan(0);
    expect(list.rows.every((r) => collegeOf.has(r.id))).toBe(true);
    const cls = await view<ClassView>(`gx/dataCenter/class/${list.rows[0].id}`);
    expect(cls.class.collegeName).toBeTruthy();
    expect(cls.class.majorName).toBeTruthy();
    const students = await view<StudentListPage>('gx/dataCenter/student?size=10');
    expect(students.records.every((s) => s.orgId === uniId)).toBe(true);
    const one = await view<StudentView>(`gx/dataCenter/student/${students.records[0].studentId}`);
    expect(one.student.orgId).toBe(uniId);
    const k12Class = (await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, k12Id)).limit(1))[0].id;
    const k12Student = studentList.find((s) => s.orgId === k12Id)!.id;
    expect((await t.request({ url: url(`gx/dataCenter/class/${k12Class}`), token: tokens.college01 })).statusCode).toBe(404);
    expect((await t.request({ url: url(`gx/dataCenter/student/${k12Student}`), token: tokens.college01 })).statusCode).toBe(404);
  });
});
