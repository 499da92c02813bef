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
    const created = await call('POST', 'k12/org/grade', 'school01', { stage: 'senior', gradeNo: 10, enrolYear: 2031, graduated: false });
    expect(created.statusCode).toBe(200);
    const row = body<GradeDetail>(created).data;
    expect(row).toMatchObject({ stage: 'senior', gradeNo: 10, enrolYear: 2031, graduated: false, classCount: 0, version: 1 });
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'grade'), eq(auditLogs.entityId, row.id)));
    expect(log).toMatchObject({ action: 'create', orgId: k12Id });

    const wrong = await call('POST', 'k12/org/grade', 'school01', { stage: 'primary', gradeNo: 7, enrolYear: 2031 });
    expect(wrong.statusCode).toBe(400);
    expect(body(wrong)).toMatchObject({ data: { field: 'gradeNo' } });
    expect(body(wrong).msg).toContain('小学1-6年级');
    const dup = await call('POST', 'k12/org/grade', 'school01', { stage: 'senior', gradeNo: 11, enrolYear: 2031 }, 'en-US');
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
    const free = body<GradeDetail>(await call('POST', 'k12/org/grade', 'school01', { stage: 'primary', gradeNo: 1, enrolYear: 2034 })).data;
    expect((await call('DELETE', `k12/org/grade/${free.id}`, 'school01')).statusCode).toBe(200);
    expect(await t.db.$count(grades, eq(grades.id, free.id))).toBe(0);
  });
});
