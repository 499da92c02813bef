import { and, eq, inArray, isNotNull, ne, notInArray, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { AppExemptionRow, ExemptionRow } from '@/domain/exemptions/exemptions';
import { pageAccess } from '@/domain/menus/access';
import type { ClassView } from '@/domain/data-center/types';
import type { ScoreSearchPage } from '@/domain/physique-results/types';
import type { TokenData } from '@/domain/auth/types';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { membershipRoles, memberships, menus, roleMenus, users } from '../../../server/db/schema/auth';
import { auditLogs } from '../../../server/db/schema/audit';
import { physiqueResults } from '../../../server/db/schema/physique';
import { physiqueExemptions } from '../../../server/db/schema/physique-year';
import { parentStudents, parents, schoolYears, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { testPlans } from '../../../server/db/schema/test-plans';
import { orgs } from '../../../server/db/schema/orgs';
import { DEMO_PASSWORD } from '../../../server/seed/demo';
import { sha256Hex } from '../../../server/lib/password';
import { dataOf } from '../../support/factories';
import { pageTexts } from '../../support/pdf-text';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';

/** 免测/缓测 requests (docs/product-rules.md#physique-year, "Exemptions"). */
const BASE = '/api/busi/web/k12/physiqueManage/exemption';
const KEY = 'k12.test.exemption';
let t: TestApp;
let k12Id: string;
let yearId: string;
let ownStudent: string; // a student of a class myclass01 teaches
let otherStudent: string; // a student of another class of the school
let otherSchoolStudent: string;

/** Students the demo gave no request yet. */
const noRequest = sql`not exists (select 1 from physique_exemptions e where e.student_id = ${students.id})`;
const studentsOfClasses = async (classIds: string[], exclude: string[] = []) =>
  t.db
    .select({ id: students.id })
    .from(students)
    .where(and(inArray(students.classId, classIds), eq(students.status, 'studying'), exclude.length ? notInArray(students.id, exclude) : undefined, noRequest))
    .limit(20);

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  [{ id: k12Id }] = await t.db.select({ id: orgs.id }).from(orgs).innerJoin(users, sql`true`).innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.orgId, orgs.id))).where(eq(users.accountNum, 'school01'));
  [{ id: yearId }] = await t.db.select({ id: schoolYears.id }).from(schoolYears).where(and(eq(schoolYears.orgId, k12Id), eq(schoolYears.current, true)));
  const mine = await t.db
    .select({ classId: teacherClasses.classId })
    .from(teacherClasses)
    .innerJoin(teachers, eq(teachers.id, teacherClasses.teacherId))
    .innerJoin(users, eq(users.id, teachers.userId))
    .where(eq(users.accountNum, 'myclass01'));
  const mineIds = mine.map((m) => m.classId);
  [{ id: ownStudent }] = await studentsOfClasses(mineIds);
  const [other] = await t.db
    .select({ id: students.id })
    .from(students)
    .where(and(eq(students.orgId, k12Id), notInArray(students.classId, mineIds), eq(students.status, 'studying'), noRequest))
    .limit(1);
  otherStudent = other.id;
  const [far] = await t.db.select({ id: students.id }).from(students).where(and(ne(students.orgId, k12Id), eq(students.status, 'studying'), noRequest)).limit(1);
  otherSchoolStudent = far.id;
});
afterAll(async () => {
  await t?.close();
});

const request = (studentId: string, over: Record<string, unknown> = {}) => ({ studentId, schoolYearId: yearId, kind: 'exempt', reason: '先天性心脏病，医嘱避免剧烈运动', certificateFileId: null, ...over });

/** Takes the page's buttons from the account's roles while `run` runs (as the kit contract does). */
async function withoutButtons(account: string, actions: ('audit' | 'add')[], run: () => Promise<void>) {
  const roleIds = (
    await t.db
      .select({ roleId: membershipRoles.roleId })
      .from(membershipRoles)
      .innerJoin(memberships, eq(memberships.id, membershipRoles.membershipId))
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(users.accountNum, account))
  ).map((r) => r.roleId);
  const codes = actions.map((a) => pageAccess(KEY).need(a));
  const menuIds = (await t.db.select({ id: menus.menuId }).from(menus).where(inArray(menus.permission, codes))).map((m) => m.id);
  const where = and(inArray(roleMenus.roleId, roleIds), inArray(roleMenus.menuId, menuIds));
  const kept = await t.db.select().from(roleMenus).where(where);
  expect(kept.length).toBeGreaterThan(0);
  await t.db.delete(roleMenus).where(where);
  try {
    await run();
  } finally {
    await t.db.insert(roleMenus).values(kept);
  }
}

describe('a request', () => {
  it("is made by a class teacher for a student of their own class only; another class's or school's student is refused", async () => {
    const teacher = t.as('myclass01');
    const made = await teacher.post<ExemptionRow>(BASE, request(ownStudent));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data).toMatchObject({ studentId: ownStudent, status: 'pending', kind: 'exempt', requestedVia: 'console' });
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'physiqueExemption'), eq(auditLogs.entityId, made.body.data.id), eq(auditLogs.action, 'create')))).toBe(1);
    // The teacher's list holds it; another class's student cannot be asked for.
    const list = dataOf(await teacher.get<{ records: ExemptionRow[] }>(`${BASE}/page?size=50`));
    expect(list.records.map((r) => r.id)).toContain(made.body.data.id);
    for (const student of [otherStudent, otherSchoolStudent]) {
      const refused = await teacher.post(BASE, request(student));
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ data: { field: 'studentId' }, msg: '只能为本人任教班级的在读学生申请' });
    }
    // The picker offers only the teacher's classes.
    const picks = dataOf(await teacher.get<{ id: string }[]>(`${BASE}/students`));
    expect(picks.map((p) => p.id)).not.toContain(otherStudent);
    // Another class's request is not visible to the class-scoped teacher: 404.
    const adminMade = dataOf(await t.as('school01').post<ExemptionRow>(BASE, request(otherStudent, { kind: 'deferred' })));
    expect((await teacher.get(`${BASE}/${adminMade.id}`)).status).toBe(404);
  });

  it('is refused while the student has an open or approved request of the year; a refused one may be asked again', async () => {
    const me = t.as('school01');
    const [{ id: student }] = (await studentsOfClasses([(await t.db.select({ c: students.classId }).from(students).where(eq(students.id, otherStudent)))[0].c], [otherStudent])).slice(0, 1);
    const first = dataOf(await me.post<ExemptionRow>(BASE, request(student)));
    const again = await me.post(BASE, request(student, { kind: 'deferred' }));
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('该学生本学年已有待审核或已批准的申请');
    const refused = await me.put<ExemptionRow>(`${BASE}/${first.id}/decide`, { decision: 'refused', note: '证明不全', version: first.version });
    expect(refused.status, JSON.stringify(refused.body)).toBe(200);
    expect(refused.body.data).toMatchObject({ status: 'refused', decisionNote: '证明不全' });
    expect((await me.post(BASE, request(student))).status).toBe(200);
  });
});

describe('deciding', () => {
  it('needs the audit button (403 without), is once only (a stale or second decision is 409), and a decided request cannot be deleted', async () => {
    const teacher = t.as('myclass01');
    const [, { id: student }] = await studentsOfClasses([(await t.db.select({ c: students.classId }).from(students).where(eq(students.id, ownStudent)))[0].c], [ownStudent]);
    const made = dataOf(await teacher.post<ExemptionRow>(BASE, request(student, { kind: 'deferred' })));
    await withoutButtons('myclass01', ['audit'], async () => {
      expect((await teacher.put(`${BASE}/${made.id}/decide`, { decision: 'approved', note: '', version: made.version })).status).toBe(403);
    });
    // Refusing needs a note.
    const noNote = await t.as('school01').put(`${BASE}/${made.id}/decide`, { decision: 'refused', note: '', version: made.version });
    expect(noNote.status).toBe(400);
    expect(noNote.body).toMatchObject({ data: { field: 'note' } });
    // Two approvers opened the same version: the first decides, the second is stale.
    const first = await t.as('school01').put<ExemptionRow>(`${BASE}/${made.id}/decide`, { decision: 'approved', note: '同意', version: made.version });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'approved', decisionNote: '同意' });
    expect(first.body.data.decidedByName).toBeTruthy();
    expect(first.body.data.decidedAt).toBeTruthy();
    const stale = await teacher.put(`${BASE}/${made.id}/decide`, { decision: 'refused', note: '不同意', version: made.version });
    expect(stale.status).toBe(409);
    const second = await teacher.put(`${BASE}/${made.id}/decide`, { decision: 'refused', note: '不同意', version: first.body.data.version });
    expect(second.status).toBe(409);
    expect(second.body.msg).toBe('该申请已审核，不能再次审核');
    expect((await t.as('school01').delete(`${BASE}/${made.id}`)).status).toBe(409);
    // A pending one is deleted.
    const [, , { id: third }] = await studentsOfClasses([(await t.db.select({ c: students.classId }).from(students).where(eq(students.id, ownStudent)))[0].c], [ownStudent]);
    const pending = dataOf(await teacher.post<ExemptionRow>(BASE, request(third)));
    await withoutButtons('myclass01', ['add'], async () => {
      expect((await teacher.post(BASE, request(ownStudent))).status).toBe(403);
    });
    expect((await t.as('school01').delete(`${BASE}/${pending.id}`)).status).toBe(200);
    expect((await t.as('school01').get(`${BASE}/${pending.id}`)).status).toBe(404);
  });

  it("is another school's business: its requests answer 404", async () => {
    const made = dataOf(await t.as('school01').post<ExemptionRow>(BASE, request((await studentsOfClasses([(await t.db.select({ c: students.classId }).from(students).where(eq(students.id, ownStudent)))[0].c], [ownStudent]))[3].id)));
    const other = t.as('school02');
    expect((await other.get(`${BASE}/${made.id}`)).status).toBe(404);
    expect((await other.put(`${BASE}/${made.id}/decide`, { decision: 'approved', note: '', version: made.version })).status).toBe(404);
    expect((await other.delete(`${BASE}/${made.id}`)).status).toBe(404);
    expect((await other.get(`${BASE}/${made.id}/form.pdf`)).status).toBe(404);
    const list = dataOf(await other.get<{ records: ExemptionRow[] }>(`${BASE}/page?size=80`));
    expect(list.records.map((r) => r.id)).not.toContain(made.id);
  });
});

describe('an approved exemption', () => {
  it("leaves a failing student's result of the year out of the class's pass rate and the score list summary, and the list marks the student 免测", async () => {
    // A failing valid result of the current school year whose student has no request yet.
    const [fail] = await t.db
      .select({ id: physiqueResults.id, studentId: physiqueResults.studentId, classId: physiqueResults.classId, planId: physiqueResults.planId })
      .from(physiqueResults)
      .innerJoin(testPlans, eq(testPlans.id, physiqueResults.planId))
      .innerJoin(students, eq(students.id, physiqueResults.studentId))
      .where(
        and(
          eq(physiqueResults.orgId, k12Id),
          eq(testPlans.schoolYearId, yearId),
          eq(physiqueResults.level, 'fail'),
          eq(physiqueResults.invalid, false),
          eq(students.classId, physiqueResults.classId),
          sql`not exists (select 1 from physique_exemptions e where e.student_id = ${physiqueResults.studentId})`,
        ),
      )
      .limit(1);
    expect(fail).toBeTruthy();
    const me = t.as('school01');
    const classView = async () => dataOf(await me.get<ClassView>(`/api/busi/web/k12/dataCenter/class/${fail.classId}?planId=${fail.planId}`));
    const scoreList = async () => dataOf(await me.get<ScoreSearchPage>(`/api/busi/web/k12/organizeTest/scoreSearch/page?planId=${fail.planId}&classId=${fail.classId}&size=80`));
    const before = await classView();
    const listBefore = await scoreList();
    expect(listBefore.records.find((r) => r.studentId === fail.studentId)?.exemption ?? null).toBeNull();

    const made = dataOf(await me.post<ExemptionRow>(BASE, request(fail.studentId)));
    // Pending changes nothing.
    expect((await classView()).overview.passRate).toBe(before.overview.passRate);
    expect((await me.put(`${BASE}/${made.id}/decide`, { decision: 'approved', note: '', version: made.version })).status).toBe(200);

    const after = await classView();
    const gone = before.overview.levels.fail - after.overview.levels.fail;
    expect(gone).toBeGreaterThanOrEqual(1);
    expect(after.overview.assessed).toBe(before.overview.assessed - gone);
    expect(after.overview.passRate!).toBeGreaterThan(before.overview.passRate!);
    const passed = after.overview.levels.excellent + after.overview.levels.good + after.overview.levels.pass;
    expect(after.overview.passRate).toBeCloseTo(passed / after.overview.assessed, 3);

    // The score list still lists the student, marked, but its summary no longer counts the failing result.
    const listAfter = await scoreList();
    expect(listAfter.records.find((r) => r.studentId === fail.studentId)?.exemption).toBe('exempt');
    expect(listAfter.summary.matched).toBe(listBefore.summary.matched);
    expect(listAfter.summary.levels.fail).toBe(listBefore.summary.levels.fail - 1);
    expect(listAfter.summary.complete).toBe(listBefore.summary.complete - 1);
    // The summary read from the results themselves (a keyword) agrees with the one from the counts.
    const one = dataOf(await me.get<ScoreSearchPage>(`/api/busi/web/k12/organizeTest/scoreSearch/page?planId=${fail.planId}&classId=${fail.classId}&keyword=${encodeURIComponent((await t.db.select({ n: students.regNo }).from(students).where(eq(students.id, fail.studentId)))[0].n)}`));
    expect(one.summary).toMatchObject({ matched: 1, complete: 0 });

    // A result written later for the student (a re-import, a sync) is left out as well.
    const [row] = await t.db.select().from(physiqueResults).where(eq(physiqueResults.id, fail.id));
    await t.db.delete(physiqueResults).where(eq(physiqueResults.id, fail.id));
    await t.db.insert(physiqueResults).values({ ...row, exempt: false });
    const [again] = await t.db.select({ exempt: physiqueResults.exempt }).from(physiqueResults).where(eq(physiqueResults.id, fail.id));
    expect(again.exempt).toBe(true);
    expect((await classView()).overview.passRate).toBe(after.overview.passRate);
  });

  it('a deferred student is marked 缓测 on the score list and still counts once tested', async () => {
    const [r] = await t.db
      .select({ studentId: physiqueResults.studentId, classId: physiqueResults.classId, planId: physiqueResults.planId })
      .from(physiqueResults)
      .innerJoin(testPlans, eq(testPlans.id, physiqueResults.planId))
      .where(and(eq(physiqueResults.orgId, k12Id), eq(testPlans.schoolYearId, yearId), eq(physiqueResults.complete, true), sql`not exists (select 1 from physique_exemptions e where e.student_id = ${physiqueResults.studentId})`))
      .limit(1);
    const me = t.as('school01');
    const list = async () => dataOf(await me.get<ScoreSearchPage>(`/api/busi/web/k12/organizeTest/scoreSearch/page?planId=${r.planId}&classId=${r.classId}&size=80`));
    const before = await list();
    const made = dataOf(await me.post<ExemptionRow>(BASE, request(r.studentId, { kind: 'deferred' })));
    await me.put(`${BASE}/${made.id}/decide`, { decision: 'approved', note: '', version: made.version });
    const after = await list();
    expect(after.records.find((x) => x.studentId === r.studentId)?.exemption).toBe('deferred');
    expect(after.summary).toEqual(before.summary);
  });
});

describe('the application form', () => {
  it("prints the standard's form with the student's name, kind and decision", async () => {
    const me = t.as('school01');
    const [row] = dataOf(await me.get<{ records: ExemptionRow[] }>(`${BASE}/page?status=approved&size=10`)).records;
    const res = await t.request({ url: `${BASE}/${row.id}/form.pdf`, token: await me.token() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const text = pageTexts(await PDFDocument.load(res.rawPayload)).join('\n');
    expect(text).toContain('免予执行《国家学生体质健康标准》申请表');
    expect(text).toContain(row.name);
    expect(text).toContain(row.regNo);
    expect(text).toContain('学生签字');
  });

  it('exports the filtered requests as a workbook', async () => {
    const res = await t.request({ url: `${BASE}/export?status=approved`, token: await t.as('school01').token() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    // A column the list hides (the decision) is left out, the rest in the list's order; gender and grade stay.
    const shown = await t.request({ url: `${BASE}/export?status=approved&columns=status,name,className,academicYear,kind,reason,certificateName,requestedByName,actions`, token: await t.as('school01').token() });
    const [head] = (await readXlsxRows(shown.rawPayload)).rows;
    expect(head).toEqual(['状态', '学生', '学籍号', '性别', '年级', '班级', '学年', '申请类别', '申请理由', '医疗证明', '申请人', '申请时间']);
  });
});

describe('the app API', () => {
  let token: string;
  let child: string;
  let stranger: string;
  beforeAll(async () => {
    const [p] = await t.db
      .select({ account: users.accountNum, parentId: parents.id })
      .from(parents)
      .innerJoin(users, eq(users.id, parents.userId))
      .where(isNotNull(parents.userId))
      .limit(1);
    const kids = await t.db.select({ id: parentStudents.studentId }).from(parentStudents).where(eq(parentStudents.parentId, p.parentId));
    child = kids[0].id;
    const [s] = await t.db.select({ id: students.id }).from(students).where(and(notInArray(students.id, kids.map((k) => k.id)), eq(students.status, 'studying'))).limit(1);
    stranger = s.id;
    // The demo may have given the child a request already: start from none.
    await t.db.execute(sql`delete from physique_exemptions where student_id = ${child}`);
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/app/login', payload: { account: p.account, password: sha256Hex(DEMO_PASSWORD) } });
    token = login.json<Envelope<TokenData>>().data.access_token;
  });
  const app = (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.request({ method, url: `/api/v1/app/${url}`, token, payload: payload as string, headers });

  it("lets a parent request for their own child with a certificate and follow it; another family's child is 404", async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    const boundary = '----tiyuexemption';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="studentId"\r\n\r\n${child}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="诊断证明.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      pdf,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const up = await t.request({ method: 'POST', url: '/api/v1/app/exemption-certificates', token, payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(up.statusCode, up.body).toBe(200);
    const fileId = up.json<Envelope<{ id: string }>>().data.id;

    const made = await app('POST', 'exemptions', { studentId: child, kind: 'exempt', reason: '骨折术后三个月内不宜运动', certificateFileId: fileId });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json<Envelope<AppExemptionRow>>().data).toMatchObject({ studentId: child, status: 'pending', requestedVia: 'app', certificateFileId: fileId });
    const listed = await app('GET', `exemptions?studentId=${child}`);
    expect(listed.json<Envelope<AppExemptionRow[]>>().data.map((r) => r.status)).toEqual(['pending']);

    // The school sees it, with the parent as requester, and decides; the parent sees the decision.
    const inConsole = dataOf(await t.as('school01').get<{ records: ExemptionRow[] }>(`${BASE}/page?status=pending&size=80`)).records.find((r) => r.studentId === child);
    expect(inConsole).toBeTruthy();
    expect(inConsole!.requestedVia).toBe('app');
    expect(inConsole!.certificateName).toBe('诊断证明.pdf');
    await t.as('school01').put(`${BASE}/${inConsole!.id}/decide`, { decision: 'refused', note: '请补充医院诊断', version: inConsole!.version });
    const decided = (await app('GET', 'exemptions')).json<Envelope<AppExemptionRow[]>>().data.find((r) => r.studentId === child)!;
    expect(decided).toMatchObject({ status: 'refused', decisionNote: '请补充医院诊断' });

    // Someone else's child: 404 on the request, the list and the upload, and nothing is written.
    const count = await t.db.$count(physiqueExemptions);
    expect((await app('POST', 'exemptions', { studentId: stranger, kind: 'exempt', reason: '理由', certificateFileId: null })).statusCode).toBe(404);
    expect((await app('GET', `exemptions?studentId=${stranger}`)).statusCode).toBe(404);
    expect(await t.db.$count(physiqueExemptions)).toBe(count);
    // A certificate must be an image or a PDF.
    const zip = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`),
    ]);
    const bad = await t.request({ method: 'POST', url: '/api/v1/app/exemption-certificates', token, payload: zip, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect([400, 404]).toContain(bad.statusCode);
  });
});
