import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { UInfo } from '@/domain/auth/types';
import { ORG_TYPE } from '@/domain/constants';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, students } from '../../../server/db/schema/school';
import type { StudentRecord } from '@/domain/people/students';
import type { ClassRow, GradeRow, SchoolYearRow } from '@/domain/school/types';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let uniId: string;
let k12Id: string;
let bureauId: string;

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs);
  uniId = rows.find((o) => o.type === ORG_TYPE.university)!.id;
  k12Id = rows.find((o) => o.type === ORG_TYPE.k12)!.id;
  bureauId = rows.find((o) => o.type === ORG_TYPE.management)!.id;
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, account: string, headers: Record<string, string> = {}) =>
  t.as(account).request('GET', `/api/busi/web/${url}`, undefined, { headers }).then((a) => a.res);
const data = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>().data;

describe('classes', () => {
  it('pages the school’s classes (size from PAGE_SIZES, total, current)', async () => {
    const first = await get('k12/org/class/page?current=1&size=10', 'school01');
    expect(first.statusCode).toBe(200);
    const p1 = data<Page<ClassRow>>(first);
    expect(p1).toMatchObject({ current: 1, size: 10 });
    expect(p1.records).toHaveLength(10);
    expect(p1.total).toBeGreaterThan(10);
    const p2 = data<Page<ClassRow>>(await get('k12/org/class/page?current=2&size=10', 'school01'));
    expect(p2.current).toBe(2);
    expect(p2.records.map((r) => r.id)).not.toContain(p1.records[0].id);
    const all = data<Page<ClassRow>>(await get('k12/org/class/page?size=80', 'school01'));
    expect(all.total).toBe(p1.total);
    const n = await t.db.$count(classes, eq(classes.orgId, k12Id));
    expect(all.total).toBe(n);
  });

  it('filters by grade and by name', async () => {
    const grades = data<GradeRow[]>(await get('k12/org/grade/list', 'school01'));
    expect(grades.length).toBeGreaterThan(0);
    const g = grades[0];
    const byGrade = data<Page<ClassRow>>(await get(`k12/org/class/page?size=50&gradeId=${g.id}`, 'school01'));
    expect(byGrade.records.length).toBeGreaterThan(0);
    expect(byGrade.records.every((c) => c.gradeId === g.id && c.gradeNo === g.gradeNo)).toBe(true);
    const name = byGrade.records[0].name;
    const byName = data<Page<ClassRow>>(await get(`k12/org/class/page?name=${encodeURIComponent(name)}`, 'school01'));
    expect(byName.records.map((c) => c.name)).toContain(name);
    // '' filters mean no filter; LIKE wildcards are literal.
    expect(data<Page<ClassRow>>(await get('k12/org/class/page?gradeId=&name=', 'school01')).total).toBe(
      data<Page<ClassRow>>(await get('k12/org/class/page', 'school01')).total,
    );
    expect(data<Page<ClassRow>>(await get('k12/org/class/page?name=%25', 'school01')).total).toBe(0);
  });

  it('refuses a page size outside PAGE_SIZES and a malformed id filter with translated messages', async () => {
    const res = await get('k12/org/class/page?size=7', 'school01');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: '400', data: { field: 'size' }, msg: '每页条数须为10、20、50或80' });
    const en = await get('k12/org/class/page?gradeId=nope', 'school01', { 'accept-language': 'en-US' });
    expect(en.json().msg).toBe('The ID is not valid.');
  });

  it('reads one class of the school', async () => {
    const p = data<Page<ClassRow>>(await get('k12/org/class/page', 'school01'));
    const res = await get(`k12/org/class/${p.records[0].id}`, 'school01');
    expect(res.statusCode).toBe(200);
    expect(data<ClassRow>(res)).toEqual(p.records[0]);
  });

  it("answers 404 and no data for another organisation's class", async () => {
    const [uniClass] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, uniId)).limit(1);
    for (const url of [`k12/org/class/${uniClass.id}`, `gx/org/class/${uniClass.id}`]) {
      const res = await get(url, 'school01');
      // The gx family is not school01's: refused by permission before any lookup.
      expect([403, 404]).toContain(res.statusCode);
      expect(res.json().data).toBeNull();
    }
    const res = await get(`k12/org/class/${uniClass.id}`, 'school01');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: '404', data: null, msg: '数据不存在或不属于当前组织' });
    expect(res.body).not.toContain(uniClass.id);
    expect((await get('k12/org/class/not-a-uuid', 'school01')).statusCode).toBe(404);
  });

  it('the university administrator reads its own classes through the gx family', async () => {
    const p = data<Page<ClassRow>>(await get('gx/org/class/page?size=20', 'college01'));
    expect(p.total).toBeGreaterThan(0);
    expect(p.records[0].collegeName).toBeTruthy();
    const [k12Class] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, k12Id)).limit(1);
    expect((await get(`gx/org/class/${k12Class.id}`, 'college01')).statusCode).toBe(404);
  });
});

describe('students and dictionaries', () => {
  it('pages students with class and keyword filters', async () => {
    const p = data<Page<StudentRecord>>(await get('k12/user/student/page?size=20', 'school01'));
    expect(p.records).toHaveLength(20);
    expect(p.total).toBeGreaterThan(1000);
    const s = p.records[0];
    const byClass = data<Page<StudentRecord>>(await get(`k12/user/student/page?size=80&classId=${s.classId}`, 'school01'));
    expect(byClass.records.every((r) => r.classId === s.classId)).toBe(true);
    const byRegNo = data<Page<StudentRecord>>(await get(`k12/user/student/page?keyword=${s.regNo}`, 'school01'));
    expect(byRegNo.records.map((r) => r.id)).toEqual([s.id]);
    expect(data<StudentRecord>(await get(`k12/user/student/${s.id}`, 'school01'))).toMatchObject(s);
  });

  it("never answers another organisation's student", async () => {
    const [uniStudent] = await t.db.select({ id: students.id }).from(students).where(eq(students.orgId, uniId)).limit(1);
    const res = await get(`k12/user/student/${uniStudent.id}`, 'school01');
    expect(res.statusCode).toBe(404);
    expect(res.json().data).toBeNull();
  });

  it('lists grades and school years with semesters', async () => {
    const years = data<SchoolYearRow[]>(await get('k12/org/acayear/list', 'school01'));
    expect(years.length).toBeGreaterThan(0);
    expect(years.filter((y) => y.current)).toHaveLength(1);
    expect(years[0].semesters.map((s) => s.code).sort()).toEqual([11, 13]);
    const grades = data<GradeRow[]>(await get('gx/org/grade/list', 'college01'));
    expect(grades.every((g) => g.stage === 'university')).toBe(true);
  });
});

describe('permissions and tenant scope', () => {
  it('needs a token', async () => {
    const res = await t.app.inject({ url: '/api/busi/web/k12/org/class/page' });
    expect(res.statusCode).toBe(401);
  });

  it('answers 403 to a teacher on administrator-only screens, in the caller’s language', async () => {
    for (const url of ['k12/org/class/page', 'k12/user/teacher/page', 'k12/user/student/page']) {
      const res = await get(url, 'teacher01');
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ code: '403', data: null, msg: '没有该操作的权限' });
    }
    const en = await get('k12/org/class/page', 'teacher01', { 'accept-language': 'en-US,en;q=0.9' });
    expect(en.json().msg).toBe('You do not have permission for this operation.');
    // Permission comes before validation: a bad query still answers 403.
    expect((await get('k12/org/class/page?size=7', 'teacher01')).statusCode).toBe(403);
  });

  it('keeps families apart: a university administrator has no K12 permission', async () => {
    expect((await get('k12/org/class/page', 'college01')).statusCode).toBe(403);
  });

  it('the orgId header selects only one of the user’s own organisations', async () => {
    // multi0001 becomes K12 administrator; its university membership holds only the teacher role.
    const info = data<UInfo>(await get('myInfo/getUInfo', 'multi0001'));
    const k12 = info.accounts.find((a) => a.tenantOrgId === k12Id)!;
    const admin = k12.roles.find((r) => r.identity === 'administrator')!;
    const sw = await t.request({
      method: 'POST',
      url: '/api/busi/web/myInfo/switchRole',
      token: await t.as('multi0001').token(),
      payload: { accountId: k12.accountId, roleId: admin.roleId, tenantOrgId: k12Id },
    });
    expect(sw.statusCode).toBe(200);

    expect((await get('k12/org/class/page', 'multi0001')).statusCode).toBe(200);
    expect((await get('k12/org/class/page', 'multi0001', { orgId: k12Id })).statusCode).toBe(200);
    // The university membership (teacher) is selected: no class management there.
    expect((await get('k12/org/class/page', 'multi0001', { orgId: uniId })).statusCode).toBe(403);
    // An organisation the user does not belong to is ignored: the present one stays in force.
    const foreign = await get('k12/org/class/page', 'multi0001', { orgId: bureauId });
    expect(foreign.statusCode).toBe(200);
    expect(data<Page<ClassRow>>(foreign).total).toBe(data<Page<ClassRow>>(await get('k12/org/class/page', 'school01')).total);
    // school01 cannot reach the university's data through the header either.
    const p = data<Page<ClassRow>>(await get('k12/org/class/page?size=80', 'school01', { orgId: uniId }));
    const [uniClass] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, uniId)).limit(1);
    expect(p.records.map((c) => c.id)).not.toContain(uniClass.id);
    expect((await get(`k12/org/class/${uniClass.id}`, 'school01', { orgId: uniId })).statusCode).toBe(404);
  });
});
