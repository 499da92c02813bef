import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { ClassListView, ClassView, DataCenterOptions, GradeView, SchoolView, StudentListPage } from '@/domain/data-center/types';
import { maskIdNumber, maskMobile } from '@/domain/people/mask';
import type { ScoreSearchPage, TestRecordRow } from '@/domain/physique-results/types';
import type { RoleDetail, RoleRow } from '@/domain/roles/roles';
import type { PlanFormOptions } from '@/domain/test-plans/types';
import type { UserRow } from '@/domain/users/users';
import { roles, users } from '../../../server/db/schema/auth';
import { orgs } from '../../../server/db/schema/orgs';
import { physiqueResults, testRecords } from '../../../server/db/schema/physique';
import { classes, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { testPlans } from '../../../server/db/schema/test-plans';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { jobFile } from '../../support/jobs';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';
import { createPlan, multipartBody, someStudents, templateFor, xlsxOf } from '../physique-results/physique-fixtures';
import { indicators, latestPerStudent, loadResults, loadStudents, near, roster, type ResultRow, type StudentRef } from '../data-center/reference';
import { importJob } from '../../support/jobs';

/**
 * Data scopes (docs/product-rules.md#data-scopes): the demo's myclass01 holds 本班体育教师 ('classes') and teaches two
 * grade-7 classes of the K12 school. Every listed endpoint is checked for that scope against a direct computation
 * over the raw rows, then the role's scope is changed by the school's administrator and takes effect at once.
 */

let t: TestApp;
const tokens: Record<string, string> = {};
let k12Id: string;
let scopedRoleId: string;
let teacherId: string;
/** The classes myclass01 teaches. */
let mine: string[];
/** Every class of the grade(s) of `mine`. */
let mineGrades: string[];
let allK12Classes: string[];
let results: ResultRow[];
let studentList: StudentRef[];

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  for (const account of ['school01', 'myclass01', 'teacher01', 'district01', 'jiaoyan01']) tokens[account] = (await t.login(account)).access_token;
  k12Id = (await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).orderBy(orgs.code))[0].id;
  [{ id: scopedRoleId }] = await t.db.select({ id: roles.id }).from(roles).where(and(eq(roles.orgId, k12Id), eq(roles.name, '本班体育教师')));
  [{ id: teacherId }] = await t.db.select({ id: teachers.id }).from(teachers).innerJoin(users, eq(users.id, teachers.userId)).where(eq(users.accountNum, 'myclass01'));
  mine = (await t.db.select({ id: teacherClasses.classId }).from(teacherClasses).where(eq(teacherClasses.teacherId, teacherId))).map((r) => r.id).sort();
  const gradeIds = (await t.db.select({ g: classes.gradeId }).from(classes).where(inArray(classes.id, mine))).map((r) => r.g);
  mineGrades = (await t.db.select({ id: classes.id }).from(classes).where(inArray(classes.gradeId, gradeIds))).map((r) => r.id).sort();
  allK12Classes = (await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, k12Id))).map((r) => r.id);
  results = await loadResults(t.db);
  studentList = await loadStudents(t.db);
});
afterAll(async () => {
  await t?.close();
});

const api = (path: string) => `/api/busi/web/${path}`;
async function get<T>(path: string, account: string): Promise<T> {
  const res = await t.request({ url: api(path), token: tokens[account] });
  expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).toBe(200);
  return res.json<Envelope<T>>().data;
}
const status = async (path: string, account: string) => (await t.request({ url: api(path), token: tokens[account] })).statusCode;

async function saveRole(account: string, id: string, patch: Partial<RoleDetail>) {
  const role = await get<RoleDetail>(`k12/role/${id}`, account);
  return t.request({
    method: 'PUT',
    url: api(`k12/role/${id}`),
    token: tokens[account],
    payload: { name: role.name, remark: role.remark, identity: role.identity, menuIds: role.menuIds, mobileFunctions: role.mobileFunctions, dataScope: role.dataScope, version: role.version, ...patch },
  });
}
async function setScope(scope: 'org' | 'grades' | 'classes') {
  const res = await saveRole('school01', scopedRoleId, { dataScope: scope });
  expect(res.statusCode, res.body).toBe(200);
}

/** Valid results of the K12 school in `classIds`, of plans not in the recycle bin, counted straight from the table. */
async function resultCount(classIds: readonly string[]): Promise<number> {
  const [{ n }] = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(physiqueResults)
    .innerJoin(testPlans, eq(testPlans.id, physiqueResults.planId))
    .where(and(eq(physiqueResults.orgId, k12Id), inArray(physiqueResults.classId, [...classIds]), isNull(testPlans.deletedAt)));
  return n;
}

describe('the scope an actor resolves to', () => {
  it('seeds myclass01 with two classes of one grade, and that grade has more classes', () => {
    expect(mine).toHaveLength(2);
    expect(mineGrades.length).toBeGreaterThan(2);
    expect(mineGrades).toEqual(expect.arrayContaining(mine));
  });

  it('the score screens’ grade and class options are the teacher’s classes only', async () => {
    const o = await get<PlanFormOptions>('k12/organizeTest/testManage/options', 'myclass01');
    expect(o.classes.map((c) => c.id).sort()).toEqual(mine);
    expect(new Set(o.grades.map((g) => g.gradeNo))).toEqual(new Set([7]));
    const all = await get<PlanFormOptions>('k12/organizeTest/testManage/options', 'teacher01');
    expect(all.classes.length).toBeGreaterThan(mine.length);
  });
});

describe('score lookup, its exports and the student report', () => {
  it('lists only results of the teacher’s classes, as many as a direct count', async () => {
    const page = await get<ScoreSearchPage>('k12/organizeTest/scoreSearch/page?size=80', 'myclass01');
    expect(page.total).toBe(await resultCount(mine));
    expect(page.total).toBeGreaterThan(0);
    for (const r of page.records) expect(mine).toContain(r.classId);
    const whole = await get<ScoreSearchPage>('k12/organizeTest/scoreSearch/page?size=10', 'teacher01');
    expect(whole.total).toBe(await resultCount(allK12Classes));
    // Naming another class filters to nothing rather than widening the scope.
    const other = allK12Classes.find((c) => !mine.includes(c))!;
    expect((await get<ScoreSearchPage>(`k12/organizeTest/scoreSearch/page?classId=${other}`, 'myclass01')).total).toBe(0);
  });

  it('exports only the teacher’s classes', async () => {
    const start = await t.request({ method: 'POST', url: api('k12/organizeTest/scoreSearch/export'), token: tokens.myclass01, payload: {} });
    const res = await jobFile(t, tokens.myclass01, start);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const { rows } = await readXlsxRows(res.rawPayload);
    expect(rows.length - 1).toBe(await resultCount(mine));
  });

  it('a result or a student report outside the scope is 404; inside it is shown', async () => {
    const [outside] = await t.db
      .select({ id: physiqueResults.id, studentId: physiqueResults.studentId })
      .from(physiqueResults)
      .innerJoin(students, eq(students.id, physiqueResults.studentId))
      .where(and(eq(physiqueResults.orgId, k12Id), sql`${physiqueResults.classId} not in (${sql.join(mine.map((c) => sql`${c}::uuid`), sql`, `)})`, sql`${students.classId} = ${physiqueResults.classId}`))
      .limit(1);
    const [inside] = await t.db
      .select({ id: physiqueResults.id, studentId: physiqueResults.studentId })
      .from(physiqueResults)
      .innerJoin(students, eq(students.id, physiqueResults.studentId))
      .where(and(inArray(physiqueResults.classId, mine), inArray(students.classId, mine)))
      .limit(1);
    expect(await status(`k12/physique/report/${outside.studentId}`, 'myclass01')).toBe(404);
    expect(await status(`k12/physique/report/${inside.studentId}`, 'myclass01')).toBe(200);
    expect(await status(`k12/physique/report/${outside.studentId}`, 'teacher01')).toBe(200);
    expect(await status(`k12/physiqueManage/testResult/${outside.id}`, 'myclass01')).toBe(404);
    expect(await status(`k12/physiqueManage/testResult/${inside.id}`, 'myclass01')).toBe(200);
    // Invalid/restore of a result outside the scope changes nothing.
    const res = await t.request({ method: 'POST', url: api('k12/organizeTest/scoreSearch/invalid'), token: tokens.myclass01, payload: { ids: [outside.id] } });
    expect(res.json<Envelope<{ changed: number }>>().data.changed).toBe(0);
  });
});

describe('test records', () => {
  it('lists and exports only the teacher’s classes, as many as a direct count', async () => {
    const [{ n }] = await t.db.select({ n: sql<number>`count(*)::int` }).from(testRecords).where(inArray(testRecords.classId, mine));
    expect(n).toBeGreaterThan(0);
    const page = await get<Page<TestRecordRow>>('k12/selfTest/testRecord/page?size=80', 'myclass01');
    expect(page.total).toBe(n);
    for (const r of page.records) expect(mine).toContain(r.classId);
    const res = await t.request({ url: api('k12/selfTest/testRecord/export'), token: tokens.myclass01 });
    expect(res.statusCode).toBe(200);
    expect((await readXlsxRows(res.rawPayload)).rows.length - 1).toBe(n);
    const [{ all }] = await t.db.select({ all: sql<number>`count(*)::int` }).from(testRecords).where(eq(testRecords.orgId, k12Id));
    expect((await get<Page<TestRecordRow>>('k12/selfTest/testRecord/page?size=10', 'teacher01')).total).toBe(all);
  });
});

describe('data centre', () => {
  /** The latest school year with valid results in the given classes. */
  const latestYear = (classIds: readonly string[]) => Math.max(...results.filter((r) => !r.invalid && classIds.includes(r.classId)).map((r) => r.schoolYear));
  const rosterOf = (classIds: readonly string[], year: number, gender?: string) =>
    classIds.reduce((n, classId) => n + roster(studentList, [k12Id], year, { classId, gender }), 0);

  it('the school view equals a direct computation over the teacher’s classes', async () => {
    const v = await get<SchoolView>('k12/dataCenter/school', 'myclass01');
    const year = latestYear(mine);
    expect(v.period.schoolYear).toBe(year);
    const rows = latestPerStudent(results, { orgIds: [k12Id], year }).filter((r) => mine.includes(r.classId));
    const ref = indicators(rows, rosterOf(mine, year));
    expect(v.overview.tested).toBe(ref.tested);
    expect(v.overview.assessed).toBe(ref.assessed);
    expect(v.overview.levels).toEqual(ref.levels);
    expect(v.overview.bmi).toEqual(ref.bmi);
    expect(v.overview.passRate).toBe(ref.passRate);
    expect(v.overview.students).toBe(rosterOf(mine, year));
    expect(v.overview.participationRate).toBe(ref.participationRate);
    expect(near(v.overview.meanTotal, ref.meanTotal)).toBe(true);
    expect(v.ranking.rows.map((r) => r.id).sort()).toEqual(mine);
    for (const g of v.byGender) expect(g.indicators.students).toBe(rosterOf(mine, year, g.gender));
    expect(v.byGrade.map((g) => g.gradeNo)).toEqual([...new Set(rows.map((r) => r.gradeNo))]);
    // The whole school is more than that.
    const school = await get<SchoolView>('k12/dataCenter/school', 'teacher01');
    expect(school.overview.tested).toBeGreaterThan(v.overview.tested);
  });

  it('grade view, class list and student list hold only the teacher’s classes; another class or student is 404', async () => {
    const grade = await get<GradeView>('k12/dataCenter/grade', 'myclass01');
    expect(grade.units.rows.map((r) => r.id).sort()).toEqual(mine);
    const year = latestYear(mine);
    const rows = latestPerStudent(results, { orgIds: [k12Id], year }).filter((r) => mine.includes(r.classId) && r.gradeNo === grade.gradeNo);
    expect(grade.overview.tested).toBe(rows.length);
    expect(grade.distributions.find((d) => d.item === 'total')?.n ?? 0).toBe(rows.filter((r) => r.total != null).length);

    const list = await get<ClassListView>('k12/dataCenter/class', 'myclass01');
    expect(list.rows.map((r) => r.id).sort()).toEqual(mine);

    const cls = await get<ClassView>(`k12/dataCenter/class/${mine[0]}`, 'myclass01');
    // The grade a class is compared with is the part of it the teacher sees: their two classes.
    const both = latestPerStudent(results, { orgIds: [k12Id], year }).filter((r) => mine.includes(r.classId) && r.gradeNo === cls.class.testGradeNo);
    expect(cls.gradeOverview.tested).toBe(both.length);
    const other = allK12Classes.find((c) => !mine.includes(c))!;
    expect(await status(`k12/dataCenter/class/${other}`, 'myclass01')).toBe(404);

    const students = await get<StudentListPage>('k12/dataCenter/student?size=80', 'myclass01');
    const enabled = studentList.filter((s) => mine.includes(s.classId) && s.enabled && !s.graduated);
    expect(students.total).toBe(enabled.length);
    for (const s of students.records) expect(mine).toContain(s.classId);
    const outsider = studentList.find((s) => s.orgId === k12Id && !mine.includes(s.classId))!;
    expect(await status(`k12/dataCenter/student/${outsider.id}`, 'myclass01')).toBe(404);
    expect(await status(`k12/dataCenter/student/${enabled[0].id}`, 'myclass01')).toBe(200);
  });

  it('offers only the teacher’s grade and classes as filters', async () => {
    const o = await get<DataCenterOptions>('k12/dataCenter/filters', 'myclass01');
    expect(o.classes.map((c) => c.id).sort()).toEqual(mine);
    expect(o.grades).toEqual([...new Set(results.filter((r) => !r.invalid && mine.includes(r.classId)).map((r) => r.gradeNo))].sort((a, b) => a - b));
  });

  it('a class the teacher heads (without teaching it) joins the scope', async () => {
    const other = allK12Classes.find((c) => !mine.includes(c))!;
    await t.db.update(classes).set({ headTeacherId: teacherId }).where(eq(classes.id, other));
    try {
      const o = await get<DataCenterOptions>('k12/dataCenter/filters', 'myclass01');
      expect(o.classes.map((c) => c.id)).toContain(other);
      expect(await status(`k12/dataCenter/class/${other}`, 'myclass01')).toBe(200);
    } finally {
      await t.db.update(classes).set({ headTeacherId: null }).where(eq(classes.id, other));
    }
  });
});

describe('role data scope', () => {
  it('the role API answers and lists the scope; an unknown scope is 400 naming the field, nothing written', async () => {
    const role = await get<RoleDetail>(`k12/role/${scopedRoleId}`, 'school01');
    expect(role.dataScope).toBe('classes');
    const list = await get<Page<RoleRow>>('k12/role/page?size=50', 'school01');
    expect(list.records.find((r) => r.id === scopedRoleId)!.dataScope).toBe('classes');
    expect(list.records.find((r) => r.name === '管理员')!.dataScope).toBe('org');
    const bad = await saveRole('school01', scopedRoleId, { dataScope: 'school' as never });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Envelope<{ field: string }>>().data.field).toBe('dataScope');
    expect((await get<RoleDetail>(`k12/role/${scopedRoleId}`, 'school01')).version).toBe(role.version);
  });

  it('a change of the role’s scope takes effect on the holder’s very next request', async () => {
    // Warm the auth cache with the narrow scope first.
    const narrow = await get<ClassListView>('k12/dataCenter/class', 'myclass01');
    expect(narrow.rows.map((r) => r.id).sort()).toEqual(mine);
    try {
      await setScope('grades');
      const wide = await get<ClassListView>('k12/dataCenter/class', 'myclass01');
      const withResults = new Set(latestPerStudent(results, { orgIds: [k12Id], year: narrow.period.schoolYear! }).map((r) => r.classId));
      expect(wide.rows.map((r) => r.id).sort()).toEqual(mineGrades.filter((c) => withResults.has(c)).sort());
      expect((await get<ScoreSearchPage>('k12/organizeTest/scoreSearch/page?size=10', 'myclass01')).total).toBe(await resultCount(mineGrades));

      await setScope('org');
      expect((await get<ScoreSearchPage>('k12/organizeTest/scoreSearch/page?size=10', 'myclass01')).total).toBe(await resultCount(allK12Classes));
    } finally {
      await setScope('classes');
    }
    expect((await get<ScoreSearchPage>('k12/organizeTest/scoreSearch/page?size=10', 'myclass01')).total).toBe(await resultCount(mine));
  });

  it('nobody hands out a scope wider than their own; the built-in administrator role keeps the whole organisation', async () => {
    // Let the scoped teacher manage roles (the administrator grants the page), then try to widen.
    const role = await get<RoleDetail>(`k12/role/${scopedRoleId}`, 'school01');
    const roleKeys = ['k12.user', 'k12.user.role', 'k12.user.role#add', 'k12.user.role#edit', 'k12.user.role#members'];
    expect((await saveRole('school01', scopedRoleId, { menuIds: [...role.menuIds, ...roleKeys] })).statusCode).toBe(200);
    const create = (dataScope: string, name: string) =>
      t.request({ method: 'POST', url: api('k12/role'), token: tokens.myclass01, payload: { name, identity: 'teacher', menuIds: [], mobileFunctions: [], dataScope } });
    const wider = await create('org', '全校查看');
    expect(wider.statusCode).toBe(403);
    expect(wider.json<Envelope<{ field: string }>>().data.field).toBe('dataScope');
    expect((await create('grades', '年级查看')).statusCode).toBe(403);
    expect((await create('classes', '本班查看')).statusCode).toBe(200);
    // Left out, a new role would see the whole organisation: refused for this editor too.
    const silent = await t.request({ method: 'POST', url: api('k12/role'), token: tokens.myclass01, payload: { name: '默认范围', identity: 'teacher', menuIds: [] } });
    expect(silent.statusCode).toBe(403);

    const [admin] = await t.db.select({ id: roles.id }).from(roles).where(and(eq(roles.orgId, k12Id), eq(roles.builtin, true)));
    expect((await saveRole('school01', admin.id, { dataScope: 'classes' })).statusCode).toBe(200);
    expect((await get<RoleDetail>(`k12/role/${admin.id}`, 'school01')).dataScope).toBe('org');
  });
});

describe('sensitive fields', () => {
  it('masks mobiles and ID numbers the same way everywhere', () => {
    expect(maskMobile('13812345678')).toBe('138****5678');
    expect(maskIdNumber('32011519900101123X')).toBe('3****************X');
  });

  it('the admin user list masks mobiles without the page’s sensitive button, and shows them with it, at once', async () => {
    const unmasked = await get<Page<UserRow>>('admin/user/page?size=50', 'district01');
    const withMobile = unmasked.records.filter((r) => r.mobile);
    expect(withMobile.length).toBeGreaterThan(0);
    for (const r of withMobile) expect(r.mobile).toMatch(/^1\d{10}$/);

    // The district's researcher role gets the user list without the button.
    const [researcher] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.name, '体育教研员'));
    const role = await get<RoleDetail>(`admin/role/${researcher.id}`, 'district01');
    const put = (menuIds: string[], version: number) =>
      t.request({
        method: 'PUT',
        url: api(`admin/role/${researcher.id}`),
        token: tokens.district01,
        payload: { name: role.name, remark: role.remark, identity: role.identity, menuIds, mobileFunctions: role.mobileFunctions, version },
      });
    expect((await put([...role.menuIds, 'admin.user', 'admin.user.user', 'admin.user.user#export'], role.version)).statusCode).toBe(200);
    const masked = await get<Page<UserRow>>('admin/user/page?size=50', 'jiaoyan01');
    expect(masked.total).toBe(unmasked.total);
    for (const r of masked.records) {
      const real = unmasked.records.find((u) => u.id === r.id)!;
      expect(r.mobile).toBe(real.mobile ? maskMobile(real.mobile) : real.mobile);
      if (r.mobile) expect(r.mobile).toMatch(/^1\d{2}\*{4}\d{4}$/);
    }
    // The export is masked the same way, and follows the list's filters (here: the researcher role only).
    const exportedMobiles = async (query: string) => {
      const res = await t.request({ url: api(`admin/user/export${query}`), token: tokens.jiaoyan01 });
      expect(res.statusCode).toBe(200);
      const [header, ...rows] = (await readXlsxRows(res.rawPayload)).rows;
      const col = header.indexOf('手机号');
      return new Map(rows.map((r) => [String(r[header.indexOf('登录账号')]), String(r[col] ?? '')]));
    };
    const maskedExport = await exportedMobiles(`?roleId=${researcher.id}`);
    expect([...maskedExport.keys()].sort()).toEqual(unmasked.records.filter((r) => r.roleId === researcher.id).map((r) => r.accountNum).sort());
    for (const r of unmasked.records.filter((u) => u.roleId === researcher.id && u.mobile)) expect(maskedExport.get(r.accountNum)).toBe(maskMobile(r.mobile));
    expect((await put([...role.menuIds, 'admin.user', 'admin.user.user', 'admin.user.user#export', 'admin.user.user#sensitive'], role.version + 1)).statusCode).toBe(200);
    const shown = await get<Page<UserRow>>('admin/user/page?size=50', 'jiaoyan01');
    expect(shown.records).toEqual(unmasked.records);
    const shownExport = await exportedMobiles('');
    for (const r of unmasked.records.filter((u) => u.mobile)) expect(shownExport.get(r.accountNum)).toBe(r.mobile);
  });

  it('administrator templates hold the button on every people page; teacher templates do not', async () => {
    // Through the roles themselves: the built-in administrator holds k12.user.teacher#sensitive, the PE teacher does not.
    const [admin] = await t.db.select({ id: roles.id }).from(roles).where(and(eq(roles.orgId, k12Id), eq(roles.builtin, true)));
    const adminRole = await get<RoleDetail>(`k12/role/${admin.id}`, 'school01');
    for (const key of ['k12.user.teacher#sensitive', 'k12.user.student#sensitive', 'k12.user.parent#sensitive']) expect(adminRole.menuIds).toContain(key);
    const [teacher] = await t.db.select({ id: roles.id }).from(roles).where(and(eq(roles.orgId, k12Id), eq(roles.name, '体育教师')));
    const teacherRole = await get<RoleDetail>(`k12/role/${teacher.id}`, 'school01');
    expect(teacherRole.menuIds.filter((m) => m.endsWith('#sensitive'))).toEqual([]);
  });
});

describe('handing out a role on the users screen', () => {
  it('a role with a wider data scope than the actor’s is refused like one with more permissions', async () => {
    const usersOnly = ['admin.user', 'admin.user.user', 'admin.user.user#add', 'admin.user.user#edit'];
    const [researcher] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.name, '体育教研员'));
    const role = await get<RoleDetail>(`admin/role/${researcher.id}`, 'district01');
    const put = await t.request({
      method: 'PUT',
      url: api(`admin/role/${researcher.id}`),
      token: tokens.district01,
      payload: { name: role.name, remark: role.remark, identity: role.identity, menuIds: [...new Set([...role.menuIds, ...usersOnly])], mobileFunctions: role.mobileFunctions, dataScope: 'classes', version: role.version },
    });
    expect(put.statusCode, put.body).toBe(200);
    const wide = await t.request({ method: 'POST', url: api('admin/role'), token: tokens.district01, payload: { name: '账号查看全单位', identity: 'teacher', menuIds: usersOnly, dataScope: 'org' } });
    expect(wide.statusCode).toBe(200);
    const person = (accountNum: string, roleId: string) => ({ name: '测试用户', accountNum, mobile: '', roleId, enabled: true, password: 'Start123' });
    const refused = await t.request({ method: 'POST', url: api('admin/user'), token: tokens.jiaoyan01, payload: person('scopeusr01', wide.json<Envelope<{ id: string }>>().data.id) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<Envelope<{ field: string }>>().data.field).toBe('roleId');
    const allowed = await t.request({ method: 'POST', url: api('admin/user'), token: tokens.jiaoyan01, payload: person('scopeusr02', researcher.id) });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });
});

describe('people lists', () => {
  /** Gives the scoped role more catalogue entries (the school's administrator edits it). */
  async function grant(...ids: string[]) {
    const role = await get<RoleDetail>(`k12/role/${scopedRoleId}`, 'school01');
    const res = await saveRole('school01', scopedRoleId, { menuIds: [...new Set([...role.menuIds, ...ids])] });
    expect(res.statusCode, res.body).toBe(200);
  }

  it('staff: a teacher with "my classes" lists the staff of her classes, mobiles masked until she holds the sensitive button', async () => {
    expect(await status('k12/user/teacher/page', 'myclass01')).toBe(403);
    await grant('k12.user', 'k12.user.teacher');
    const page = await get<Page<{ id: string; name: string; mobile: string | null; workNo: string | null }>>('k12/user/teacher/page?size=80', 'myclass01');
    // Exactly the staff who teach, head or teach PE in one of her classes, counted straight from the tables.
    const direct = await t.db
      .selectDistinct({ id: teachers.id })
      .from(teachers)
      .where(
        and(
          eq(teachers.orgId, k12Id),
          sql`(exists (select 1 from teacher_classes tc where tc.teacher_id = ${teachers.id} and tc.class_id in (${sql.join(mine.map((c) => sql`${c}::uuid`), sql`, `)}))
            or exists (select 1 from classes c where c.id in (${sql.join(mine.map((c) => sql`${c}::uuid`), sql`, `)}) and (c.head_teacher_id = ${teachers.id} or c.pe_teacher_id = ${teachers.id})))`,
        ),
      );
    expect(page.records.map((r) => r.id).sort()).toEqual(direct.map((d) => d.id).sort());
    expect(page.records.map((r) => r.workNo)).toContain('100009');
    const all = await get<Page<{ id: string; mobile: string | null }>>('k12/user/teacher/page?size=80', 'school01');
    expect(all.total).toBeGreaterThan(page.total);
    for (const r of page.records) {
      const real = all.records.find((a) => a.id === r.id)!;
      expect(r.mobile).toBe(maskMobile(real.mobile));
      if (r.mobile) expect(r.mobile).toMatch(/^1\d{2}\*{4}\d{4}$/);
    }
    // Someone outside her classes is not found.
    const outsider = all.records.find((a) => !page.records.some((r) => r.id === a.id))!;
    expect(await status(`k12/user/teacher/${outsider.id}`, 'myclass01')).toBe(404);

    await grant('k12.user.teacher#sensitive');
    const shown = await get<Page<{ id: string; mobile: string | null }>>('k12/user/teacher/page?size=80', 'myclass01');
    for (const r of shown.records) expect(r.mobile).toBe(all.records.find((a) => a.id === r.id)!.mobile);
  });

  type StudentListRow = { id: string; classId: string; parents: { parentId: string; mobile: string }[] };
  type ParentListRow = { id: string; mobile: string; children: { studentId: string }[] };

  it('students and parents: only those of her classes; parents’ mobiles masked until she holds the sensitive button', async () => {
    await grant('k12.user', 'k12.user.student', 'k12.user.parent');
    const page = await get<Page<StudentListRow>>('k12/user/student/page?size=80', 'myclass01');
    let expected = 0;
    for (const classId of mine) expected += (await get<Page<StudentListRow>>(`k12/user/student/page?size=10&classId=${classId}`, 'school01')).total;
    expect(page.total).toBe(expected);
    expect(page.total).toBeGreaterThan(0);
    for (const r of page.records) expect(mine).toContain(r.classId);
    const outsider = studentList.find((s) => s.orgId === k12Id && !mine.includes(s.classId))!;
    expect(await status(`k12/user/student/${outsider.id}`, 'myclass01')).toBe(404);
    expect(await status(`k12/user/student/${page.records[0].id}`, 'myclass01')).toBe(200);
    // Naming another class filters to nothing rather than widening the scope.
    const other = allK12Classes.find((c) => !mine.includes(c))!;
    expect((await get<Page<StudentListRow>>(`k12/user/student/page?classId=${other}`, 'myclass01')).total).toBe(0);

    const linked = page.records.flatMap((r) => r.parents);
    expect(linked.length).toBeGreaterThan(0);
    for (const p of linked) expect(p.mobile).toMatch(/^1\d{2}\*{4}\d{4}$/);

    const parents = await get<Page<ParentListRow>>('k12/user/parent/page?size=80', 'myclass01');
    expect(parents.total).toBeGreaterThan(0);
    const mineStudents = new Set(studentList.filter((s) => mine.includes(s.classId)).map((s) => s.id));
    for (const p of parents.records) expect(p.children.some((c) => mineStudents.has(c.studentId))).toBe(true);
    const all = await get<Page<ParentListRow>>(`k12/user/parent/page?size=80&keyword=${encodeURIComponent(parents.records[0].mobile.slice(-4))}`, 'school01');
    const real = all.records.find((r) => r.id === parents.records[0].id)!;
    expect(parents.records[0].mobile).toBe(maskMobile(real.mobile));
    const outsideParent = (await get<Page<ParentListRow>>('k12/user/parent/page?size=80', 'school01')).records.find(
      (p) => !p.children.some((c) => mineStudents.has(c.studentId)),
    )!;
    expect(await status(`k12/user/parent/${outsideParent.id}`, 'myclass01')).toBe(404);

    await grant('k12.user.student#sensitive', 'k12.user.parent#sensitive');
    const shown = await get<Page<ParentListRow>>('k12/user/parent/page?size=80', 'myclass01');
    expect(shown.records.find((r) => r.id === real.id)!.mobile).toBe(real.mobile);
    const shownStudents = await get<Page<StudentListRow>>('k12/user/student/page?size=80', 'myclass01');
    for (const p of shownStudents.records.flatMap((r) => r.parents)) expect(p.mobile).toMatch(/^1\d{10}$/);
  });
});

// Last: these write results, which the dashboards above compare with the results loaded before the run.
describe('test plans, score import and sync', () => {
  it('the sign-up list and the class completion hold only the teacher’s classes', async () => {
    const planId = await createPlan(t.db, k12Id, { name: '范围计划' });
    const signUp = await get<Page<{ classId: string }>>(`k12/organizeTest/testManage/signUp/${planId}?size=80`, 'myclass01');
    const [{ n }] = await t.db.select({ n: sql<number>`count(*)::int` }).from(students).where(and(inArray(students.classId, mine), eq(students.enabled, true)));
    expect(signUp.total).toBe(n);
    for (const r of signUp.records) expect(mine).toContain(r.classId);
    const completion = await get<{ classId: string }[]>(`k12/organizeTest/testManage/classCompletion/${planId}`, 'myclass01');
    expect(completion.map((c) => c.classId).sort()).toEqual(mine);
    expect((await get<{ classId: string }[]>(`k12/organizeTest/testManage/classCompletion/${planId}`, 'teacher01')).length).toBeGreaterThan(mine.length);
  });

  it('a score import refuses the rows of students outside the teacher’s classes, naming why, and writes the others', async () => {
    const planId = await createPlan(t.db, k12Id, { name: '范围导入' });
    const grade7 = await someStudents(t.db, k12Id, [7], 400);
    const inside = grade7.find((s) => mine.includes(s.classId))!;
    const outside = grade7.find((s) => !mine.includes(s.classId))!;
    const body = multipartBody(xlsxOf(templateFor([inside, outside])), 'scores.xlsx');
    const res = await importJob(t, tokens.myclass01, await t.request({ method: 'POST', url: api(`k12/organizeTest/testManage/import/${planId}`), token: tokens.myclass01, payload: body.payload, headers: body.headers }));
    expect(res.statusCode, res.body).toBe(200);
    expect([res.headers['x-import-success'], res.headers['x-import-failure']]).toEqual(['1', '1']);
    expect((await readXlsxRows(res.rawPayload)).rows[1].at(-1)).toContain('不在您的数据范围内');
    const written = await t.db.select({ studentId: physiqueResults.studentId }).from(physiqueResults).where(eq(physiqueResults.planId, planId));
    expect(written.map((w) => w.studentId)).toEqual([inside.id]);
  });

  it('a sync takes device records of the teacher’s classes only', async () => {
    const planId = await createPlan(t.db, k12Id, { name: '范围同步' });
    const preview = await t.request({ method: 'POST', url: api(`k12/organizeTest/testManage/sync/${planId}/preview`), token: tokens.myclass01 });
    expect(preview.statusCode, preview.body).toBe(200);
    const ids = (preview.json().data.changes as { studentId: string }[]).map((c) => c.studentId);
    if (ids.length > 0) {
      const rows = await t.db.select({ classId: students.classId }).from(students).where(inArray(students.id, ids));
      for (const r of rows) expect(mine).toContain(r.classId);
    }
    const synced = await t.request({ method: 'POST', url: api(`k12/organizeTest/testManage/sync/${planId}`), token: tokens.myclass01, payload: { replaceManual: false } });
    expect(synced.statusCode, synced.body).toBe(200);
    const written = await t.db.select({ classId: physiqueResults.classId }).from(physiqueResults).where(eq(physiqueResults.planId, planId));
    for (const w of written) expect(mine).toContain(w.classId);
    const wholeOrg = await t.request({ method: 'POST', url: api(`k12/organizeTest/testManage/sync/${planId}/preview`), token: tokens.teacher01 });
    expect(wholeOrg.json().data.students).toBeGreaterThanOrEqual(written.length);
  });
});
