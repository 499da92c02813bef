import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetestCandidate, RetestPlan, RetestStudentPage } from '@/domain/retest/retest';
import type { StudentReport, SyncPreview } from '@/domain/physique-results/types';
import { parseImportCounts, fileNameFromContentDisposition } from '@/domain/uploads/import-result';
import { localDate } from '@/domain/dates';
import { pageAccess } from '@/domain/menus/access';
import { membershipRoles, memberships, menus, roleMenus, users } from '../../../server/db/schema/auth';
import { physiqueResults, testRecords } from '../../../server/db/schema/physique';
import { physiqueExemptions } from '../../../server/db/schema/physique-year';
import { testPlans } from '../../../server/db/schema/test-plans';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { importJob } from '../../support/jobs';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';
import { planSchoolYear } from '../../support/factories';
import { createPlan, demoOrgs, multipartBody, someStudents, templateFor, xlsxOf, type FixtureStudent } from '../physique-results/physique-fixtures';

/**
 * 补测 (docs/product-rules.md#physique-year, "Re-test"): who a re-test plan admits, one re-test per plan, imports into
 * a re-test plan, the year in the student report, deletion of a re-tested plan, tenancy and permissions.
 */
let t: TestApp;
let org: { bureau: string; k12: string; uni: string };
/** The original plan (ended), an earlier plan of the year and its re-test. */
let original: string;
let earlier: string;
let earlierRetest: string;
/** A plan without results (dates and tenancy are refused before anything else is looked at). */
let third: string;
/** a, b, c fail the original; d passes; e fails but is exempt; f was re-tested already this year; g has no result. */
let s: Record<'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g', FixtureStudent>;

const api = (path: string, family = 'k12') => `/api/busi/web/${family}/physiqueManage/retest${path}`;
const DAY = 86_400_000;
const inDays = (n: number) => localDate(new Date(Date.now() + n * DAY));

async function result(planId: string, st: FixtureStudent, total: number) {
  await t.db.insert(physiqueResults).values({
    orgId: org.k12,
    planId,
    schoolYear: planSchoolYear(planId),
    studentId: st.id,
    classId: st.classId,
    gradeNo: st.grade,
    className: st.className,
    gender: st.gender,
    complete: true,
    total,
    standardScore: total,
    level: total >= 90 ? 'excellent' : total >= 80 ? 'good' : total >= 60 ? 'pass' : 'fail',
    source: 'import',
  });
}

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  org = await demoOrgs(t.db);
  const list = await someStudents(t.db, org.k12, [7], 7);
  s = { a: list[0], b: list[1], c: list[2], d: list[3], e: list[4], f: list[5], g: list[6] };
  // The demo's results of these students are left out: the year is decided by the results below alone.
  await t.db.delete(physiqueResults).where(inArray(physiqueResults.studentId, list.map((x) => x.id)));
  earlier = await createPlan(t.db, org.k12, { startInDays: -60, endInDays: -50, name: '早先计划' });
  original = await createPlan(t.db, org.k12, { startInDays: -40, endInDays: -30, name: '秋季体测' });
  third = await createPlan(t.db, org.k12, { startInDays: -20, endInDays: -15, name: '第三计划' });
  earlierRetest = randomUUID();
  const [e] = await t.db.select().from(testPlans).where(eq(testPlans.id, earlier));
  await t.db.insert(testPlans).values({ ...e, id: earlierRetest, name: '早先计划补测', retestOfPlanId: earlier, startDate: inDays(-49), endDate: inDays(-45) });
  await result(original, s.a, 50);
  await result(original, s.b, 45);
  await result(original, s.c, 40);
  await result(original, s.d, 75);
  await result(original, s.e, 40);
  await result(earlier, s.f, 50);
  await result(earlierRetest, s.f, 55);
  await result(original, s.f, 52);
  const [year] = await t.db.select({ schoolYearId: testPlans.schoolYearId }).from(testPlans).where(eq(testPlans.id, original));
  await t.db.insert(physiqueExemptions).values({ orgId: org.k12, studentId: s.e.id, schoolYearId: year.schoolYearId, kind: 'exempt', reason: '骨折', status: 'approved' });
});
afterAll(async () => {
  await t?.close();
});

let retest: RetestPlan;

describe('re-tests', () => {
  it('offers plans with failing years and starts a re-test of one: same year, items and standard, default name, eligible students only', async () => {
    const candidates = await t.as('school01').get<RetestCandidate[]>(api('/candidates'));
    expect(candidates.status).toBe(200);
    const offered = candidates.body.data.find((c) => c.id === original);
    // a, b, c: failing, not exempt (e), not re-tested (f), tested in the plan (g is not).
    expect(offered?.eligible).toBe(3);
    // A re-test plan is never offered (a re-test cannot be re-tested).
    expect(candidates.body.data.some((c) => c.id === earlierRetest)).toBe(false);

    const made = await t.as('school01').post<RetestPlan>(api('/add'), { planId: original, startDate: inDays(0), endDate: inDays(10) });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    retest = made.body.data;
    expect(retest).toMatchObject({ name: '秋季体测补测', originalPlanId: original, eligible: 3, tested: 0, status: 'inProgress' });
    const [stored] = await t.db.select().from(testPlans).where(eq(testPlans.id, retest.id));
    const [orig] = await t.db.select().from(testPlans).where(eq(testPlans.id, original));
    expect(stored).toMatchObject({ retestOfPlanId: original, schoolYearId: orig.schoolYearId, standardVersion: orig.standardVersion, orgId: org.k12 });

    const page = await t.as('school01').get<RetestStudentPage>(api(`/page?planId=${retest.id}&size=50`));
    expect(page.status).toBe(200);
    expect(page.body.data.records.map((r) => r.studentId).sort()).toEqual([s.a.id, s.b.id, s.c.id].sort());
    expect(page.body.data.records.find((r) => r.studentId === s.a.id)).toMatchObject({ planTotal: 50, retestTotal: null, yearSource: 'plan', yearTotal: 50, yearLevel: 'fail' });
    expect(page.body.data.plan?.id).toBe(retest.id);
    // On the test-plan page the re-test plan counts and lists its eligible students only.
    const detail = await t.as('school01').get<{ counts: { students: number } }>(`/api/busi/web/k12/organizeTest/testManage/detail/${retest.id}`);
    expect(detail.body.data.counts.students).toBe(3);
    const signUp = await t.as('school01').get<{ total: number }>(`/api/busi/web/k12/organizeTest/testManage/signUp/${retest.id}?size=50`);
    expect(signUp.body.data.total).toBe(3);
  });

  it('re-tests a plan once, never a re-test plan, within the school year and not before the original', async () => {
    const again = await t.as('school01').post(api('/add'), { planId: original, startDate: inDays(1), endDate: inDays(5) });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('该测试计划已发起过补测，每个计划只能补测一次');
    const ofRetest = await t.as('school01').post(api('/add'), { planId: retest.id, startDate: inDays(1), endDate: inDays(5) });
    expect(ofRetest.status).toBe(409);
    expect(ofRetest.body.msg).toBe('补测计划不能再补测');
    const early = await t.as('school01').post<{ field: string }>(api('/add'), { planId: third, startDate: inDays(-25), endDate: inDays(5) });
    expect(early.status).toBe(400);
    expect(early.body.data.field).toBe('startDate');
    expect(early.body.msg).toMatch(/^补测不能早于原测试计划的开始日期/);
    const late = await t.as('school01').post<{ field: string }>(api('/add'), { planId: third, startDate: inDays(0), endDate: '2099-01-01' });
    expect(late.status).toBe(400);
    expect(late.body.data.field).toBe('endDate');
    expect(await t.db.$count(testPlans, eq(testPlans.retestOfPlanId, third))).toBe(0);
  });

  it('imports into a re-test plan only the students it admits: the others are refused rows with the reason', async () => {
    const token = (await t.login('school01')).access_token;
    const body = multipartBody(xlsxOf(templateFor([s.a, s.d, s.e, s.f, s.g])), 'retest.xlsx');
    const start = await t.request({
      method: 'POST',
      url: `/api/busi/web/k12/organizeTest/testManage/import/${retest.id}`,
      token,
      payload: body.payload,
      headers: { ...body.headers, 'accept-language': 'zh-CN' },
    });
    const res = await importJob(t, token, start, 'zh-CN');
    expect(res.statusCode, res.body).toBe(200);
    expect(parseImportCounts(fileNameFromContentDisposition(String(res.headers['content-disposition'])) ?? '')).toEqual({ success: 1, failure: 4 });
    const reasons = (await readXlsxRows(res.rawPayload)).rows.slice(1).map((r) => String(r.at(-1)));
    expect(reasons).toEqual([
      '第3行，学籍号：不在补测范围：该学生本学年成绩已及格',
      '第4行，学籍号：不在补测范围：该学生本学年已免测',
      '第5行，学籍号：不在补测范围：该学生本学年已补测过一次',
      '第6行，学籍号：不在补测范围：该学生没有原测试计划的有效完整成绩',
    ]);
    const written = await t.db.select({ studentId: physiqueResults.studentId }).from(physiqueResults).where(eq(physiqueResults.planId, retest.id));
    expect(written.map((r) => r.studentId)).toEqual([s.a.id]);
    // Importing the admitted student again is not "re-tested already": the re-test's own result does not count against it.
    const again = multipartBody(xlsxOf(templateFor([s.a], 11)), 'retest.xlsx');
    const second = await importJob(t, token, await t.request({ method: 'POST', url: `/api/busi/web/k12/organizeTest/testManage/import/${retest.id}`, token, payload: again.payload, headers: again.headers }), 'zh-CN');
    expect(parseImportCounts(fileNameFromContentDisposition(String(second.headers['content-disposition'])) ?? '')).toEqual({ success: 1, failure: 0 });
  });

  it('syncs into a re-test plan only the students it admits: device records of the others are left out', async () => {
    const at = new Date();
    await t.db.insert(testRecords).values([
      { orgId: org.k12, studentId: s.a.id, classId: s.a.classId, item: 'run50m', raw: 7.1, source: 'device', testedAt: at },
      { orgId: org.k12, studentId: s.d.id, classId: s.d.classId, item: 'run50m', raw: 7.2, source: 'device', testedAt: at },
    ]);
    const preview = await t.as('school01').post<SyncPreview>(`/api/busi/web/k12/organizeTest/testManage/sync/${retest.id}/preview`, {});
    expect(preview.status).toBe(200);
    expect(preview.body.data.changes.some((c) => c.studentId === s.a.id)).toBe(true);
    expect(preview.body.data.changes.some((c) => c.studentId === s.d.id)).toBe(false);
    expect((await t.as('school01').post(`/api/busi/web/k12/organizeTest/testManage/sync/${retest.id}`, {})).status).toBe(200);
    const written = await t.db.select({ studentId: physiqueResults.studentId }).from(physiqueResults).where(eq(physiqueResults.planId, retest.id));
    expect(written.map((r) => r.studentId)).toEqual([s.a.id]);
  });

  it("reports the year: a passing re-test counts 60 with both totals, a failing one the better total, an exempt year 免测", async () => {
    await result(retest.id, s.b, 70);
    await result(retest.id, s.c, 52);
    const report = (id: string) => t.as('school01').get<StudentReport>(`/api/busi/web/k12/physique/report/${id}`);
    const b = (await report(s.b.id)).body.data;
    expect(b.year).toEqual({ source: 'retest', total: 60, level: 'pass', planTotal: 45, retestTotal: 70 });
    const c = (await report(s.c.id)).body.data;
    expect(c.year).toEqual({ source: 'retest', total: 52, level: 'fail', planTotal: 40, retestTotal: 52 });
    const d = (await report(s.d.id)).body.data;
    expect(d.year).toEqual({ source: 'plan', total: 75, level: 'pass', planTotal: 75, retestTotal: null });
    const e = (await report(s.e.id)).body.data;
    expect(e.year).toMatchObject({ source: 'exempt', total: null, level: null });

    const page = (await t.as('school01').get<RetestStudentPage>(api(`/page?planId=${retest.id}&size=50`))).body.data;
    expect(page.records.find((r) => r.studentId === s.b.id)).toMatchObject({ planTotal: 45, retestTotal: 70, yearSource: 'retest', yearTotal: 60, yearLevel: 'pass' });
    // b passes after the re-test; a's imported values may pass too.
    expect(page.plan).toMatchObject({ eligible: 3, passed: page.records.filter((r) => r.yearSource === 'retest' && r.yearTotal! >= 60).length });
    expect(page.plan!.passed).toBeGreaterThanOrEqual(1);

    const file = await t.as('school01').get(api(`/export?planId=${retest.id}`));
    expect(file.status).toBe(200);
    const rows = (await readXlsxRows(file.res.rawPayload)).rows;
    expect(rows[0]).toContain('补测总分');
    expect(rows.find((r) => r[1] === s.b.regNo)).toEqual(expect.arrayContaining([45, 70, '补测', 60, '及格']));
    // The columns the list hides (gender, the plan's total, the source) are left out, the rest in the list's order.
    const shown = await t.as('school01').get(api(`/export?planId=${retest.id}&columns=regNo,name,className,retestTotal,yearTotal,yearLevel`));
    expect((await readXlsxRows(shown.res.rawPayload)).rows[0]).toEqual(['学籍号', '姓名', '年级', '班级', '补测总分', '学年总分', '学年等级']);
  });

  it('refuses to delete a plan that has a re-test (409), translated', async () => {
    const res = await t.as('school01').post(`/api/busi/web/k12/organizeTest/testManage/delete/${original}`);
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('该测试计划已发起补测，请先删除其补测计划');
    const en = await t.as('school01').post(`/api/busi/web/k12/organizeTest/testManage/delete/${original}`, undefined, { headers: { 'accept-language': 'en-US' } });
    expect(en.body.msg).toBe('This test plan has a re-test plan: delete the re-test plan first.');
    expect(await t.db.$count(testPlans, and(eq(testPlans.id, original)))).toBe(1);
  });

  it("keeps to the school: another school's plan is 404, and without the add button 403", async () => {
    const body = { planId: third, startDate: inDays(0), endDate: inDays(3) };
    expect((await t.as('school02').post(api('/add'), body)).status).toBe(404);
    expect((await t.as('school02').get(api(`/page?planId=${retest.id}`))).status).toBe(404);
    expect((await t.as('college01').post(api('/add', 'gx'), body)).status).toBe(404);
    // A PE teacher's role holds the page; without its add button 发起补测 is 403.
    const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'teacher01'));
    const ms = await t.db.select({ id: memberships.id }).from(memberships).where(eq(memberships.userId, user.id));
    const roleIds = (await t.db.select({ roleId: membershipRoles.roleId }).from(membershipRoles).where(inArray(membershipRoles.membershipId, ms.map((m) => m.id)))).map((r) => r.roleId);
    const addMenus = (await t.db.select({ menuId: menus.menuId }).from(menus).where(eq(menus.permission, pageAccess('k12.test.retest').need('add')))).map((m) => m.menuId);
    await t.db.delete(roleMenus).where(and(inArray(roleMenus.roleId, roleIds), inArray(roleMenus.menuId, addMenus)));
    expect((await t.as('teacher01').post(api('/add'), body)).status).toBe(403);
    expect((await t.as('teacher01').get(api('/page'))).status).toBe(200);
    expect(await t.db.$count(testPlans, eq(testPlans.retestOfPlanId, third))).toBe(0);
  });
});
