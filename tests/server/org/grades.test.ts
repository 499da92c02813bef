import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { GradeDetail } from '@/domain/school/grades';
import { auditLogs } from '../../../server/db/schema/audit';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, grades } from '../../../server/db/schema/school';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
const tokens: Record<string, string> = {};
let k12Id: string;
let uniId: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['school01', 'college01']) tokens[account] = (await t.login(account)).access_token;
  const rows = await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs);
  k12Id = rows.find((o) => o.type === ORG_TYPE.k12)!.id;
  uniId = rows.find((o) => o.type === ORG_TYPE.university)!.id;
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, account: string, payload?: unknown, lang = 'zh-CN') =>
  t.request({ method, url: `/api/busi/web/${url}`, token: tokens[account], payload: payload as object, headers: { 'accept-language': lang } });
const body = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>();

describe('grades (k12) and enrolment years (gx)', () => {
  it('lists the tenant’s grades with their class counts', async () => {
    const p = body<Page<GradeDetail>>(await call('GET', 'k12/org/grade/page?size=80', 'school01')).data;
    expect(p.total).toBe(await t.db.$count(grades, eq(grades.orgId, k12Id)));
    const [used] = await t.db.select({ id: classes.gradeId }).from(classes).where(eq(classes.orgId, k12Id)).limit(1);
    const one = body<GradeDetail>(await call('GET', `k12/org/grade/${used.id}`, 'school01')).data;
    expect(one.classCount).toBe(await t.db.$count(classes, eq(classes.gradeId, used.id)));
    expect(one.classCount).toBeGreaterThan(0);
    const junior = body<Page<GradeDetail>>(await call('GET', 'k12/org/grade/page?stage=junior&size=80', 'school01')).data;
    expect(junior.records.every((g) => g.stage === 'junior')).toBe(true);
  });

  it('creates a grade with an audit row; a grade outside its stage and a repeated enrolment year are refused naming the field', async () => {
    // Every senior cohort in school is seeded, so the new one is a graduated cohort (its grade derived: 高三).
    const created = await call('POST', 'k12/org/grade', 'school01', { stage: 'senior', enrolYear: 2021, graduated: true });
    expect(created.statusCode).toBe(200);
    const row = body<GradeDetail>(created).data;
    expect(row).toMatchObject({ stage: 'senior', gradeNo: 12, enrolYear: 2021, graduated: true, classCount: 0, version: 1 });
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'grade'), eq(auditLogs.entityId, row.id)));
    expect(log).toMatchObject({ action: 'create', orgId: k12Id });

    const wrong = await call('POST', 'k12/org/grade', 'school01', { stage: 'primary', gradeNo: 7, enrolYear: 2031 });
    expect(wrong.statusCode).toBe(400);
    expect(body(wrong)).toMatchObject({ data: { field: 'gradeNo' } });
    expect(body(wrong).msg).toContain('小学1-6年级');
    const dup = await call('POST', 'k12/org/grade', 'school01', { stage: 'senior', enrolYear: 2021, graduated: 'true' }, 'en-US');
    expect(dup.statusCode).toBe(400);
    expect(body(dup)).toMatchObject({ msg: 'This stage already has a grade with the same enrolment year', data: { field: 'enrolYear' } });
    // A school offers no university years; a university no K12 stages.
    expect(body(await call('POST', 'k12/org/grade', 'school01', { stage: 'university', gradeNo: 13, enrolYear: 2032 }))).toMatchObject({ data: { field: 'stage' } });
    expect(body(await call('POST', 'gx/org/grade', 'college01', { stage: 'senior', gradeNo: 10, enrolYear: 2032 }))).toMatchObject({ data: { field: 'stage' } });
    expect(await t.db.$count(grades, and(eq(grades.orgId, k12Id), eq(grades.enrolYear, 2032)))).toBe(0);
  });

  it('edits with the version; a stale save is 409; graduation is kept', async () => {
    const row = body<GradeDetail>(await call('POST', 'gx/org/grade', 'college01', { stage: 'university', gradeNo: 13, enrolYear: 2033 })).data;
    const saved = await call('PUT', `gx/org/grade/${row.id}`, 'college01', { stage: 'university', gradeNo: 16, enrolYear: 2033, graduated: 'true', version: 1 });
    expect(saved.statusCode).toBe(200);
    expect(body<GradeDetail>(await call('GET', `gx/org/grade/${row.id}`, 'college01')).data).toMatchObject({ gradeNo: 16, graduated: true, version: 2 });
    expect((await call('PUT', `gx/org/grade/${row.id}`, 'college01', { stage: 'university', gradeNo: 15, enrolYear: 2033, version: 1 })).statusCode).toBe(409);
  });

  it('another organisation’s grade is 404; a grade with classes cannot be deleted (409 naming them)', async () => {
    const [uniGrade] = await t.db.select({ id: grades.id }).from(grades).where(eq(grades.orgId, uniId)).limit(1);
    expect((await call('GET', `k12/org/grade/${uniGrade.id}`, 'school01')).statusCode).toBe(404);
    expect((await call('PUT', `k12/org/grade/${uniGrade.id}`, 'school01', { stage: 'primary', gradeNo: 1, enrolYear: 2030, version: 1 })).statusCode).toBe(404);
    expect((await call('DELETE', `k12/org/grade/${uniGrade.id}`, 'school01')).statusCode).toBe(404);

    const [used] = await t.db.select({ id: classes.gradeId }).from(classes).where(eq(classes.orgId, k12Id)).limit(1);
    const refused = await call('DELETE', `k12/org/grade/${used.id}`, 'school01');
    expect(refused.statusCode).toBe(409);
    expect(body(refused).msg).toContain('班级');
    const free = body<GradeDetail>(await call('POST', 'k12/org/grade', 'school01', { stage: 'primary', enrolYear: 2019, graduated: true })).data;
    expect((await call('DELETE', `k12/org/grade/${free.id}`, 'school01')).statusCode).toBe(200);
    expect(await t.db.$count(grades, eq(grades.id, free.id))).toBe(0);
  });

  it('a school cohort’s grade follows from its enrolment year and the current school year (2026-2027); a second cohort of one grade is refused', async () => {
    const before = await t.db.$count(grades, eq(grades.orgId, k12Id));
    // 2020 primary entrants are in 七年级 this year: a 六年级 of 2020 would be a second 六年级.
    const graduated = await call('POST', 'k12/org/grade', 'school01', { stage: 'primary', gradeNo: 6, enrolYear: 2020, graduated: false });
    expect(graduated.statusCode).toBe(400);
    expect(body(graduated)).toMatchObject({ msg: '2020年入学的小学学生在2026-2027学年已毕业，请选择“已毕业”或修改入学年份', data: { field: 'enrolYear' } });
    const wrongGrade = await call('POST', 'k12/org/grade', 'school01', { stage: 'junior', gradeNo: 8, enrolYear: 2026 }, 'en-US');
    expect(body(wrongGrade)).toMatchObject({ msg: 'Students enrolled in 2026 are in Grade 7 in 2026-2027', data: { field: 'gradeNo' } });
    const early = await call('POST', 'k12/org/grade', 'school01', { stage: 'primary', enrolYear: 2027 });
    expect(body(early)).toMatchObject({ msg: '2027年入学的学生在2026-2027学年尚未入学', data: { field: 'enrolYear' } });
    expect(await t.db.$count(grades, eq(grades.orgId, k12Id))).toBe(before);

    // The form asks only for the stage and enrolment year: the grade follows.
    const options = body<{ currentStartYear: number }>(await call('GET', 'k12/org/grade/options', 'school01')).data;
    expect(options).toEqual({ currentStartYear: 2026 });

    // A cohort saved before the rule (a second 七年级 in school) makes the seeded one refuse to be saved as 七年级 too.
    const [junior] = await t.db.select().from(grades).where(and(eq(grades.orgId, k12Id), eq(grades.stage, 'junior'), eq(grades.enrolYear, 2026)));
    const [stale] = await t.db.insert(grades).values({ orgId: k12Id, stage: 'junior', gradeNo: 7, enrolYear: 2019, graduated: false }).returning({ id: grades.id });
    const second = await call('PUT', `k12/org/grade/${junior.id}`, 'school01', { stage: 'junior', enrolYear: 2026, graduated: false, version: junior.version });
    expect(second.statusCode).toBe(400);
    expect(body(second)).toMatchObject({ data: { field: 'gradeNo' } });
    expect(body(second).msg).toBe('本校已有在读的七年级');
    await t.db.delete(grades).where(eq(grades.id, stale.id));
    const saved = await call('PUT', `k12/org/grade/${junior.id}`, 'school01', { stage: 'junior', enrolYear: 2026, graduated: false, version: junior.version });
    expect(saved.statusCode).toBe(200);
    expect(body<GradeDetail>(saved).data).toMatchObject({ gradeNo: 7, version: junior.version + 1 });
  });
});
