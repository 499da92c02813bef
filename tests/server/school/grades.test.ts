import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { GradeDetail } from '@/domain/school/grades';
import { auditLogs } from '../../../server/db/schema/audit';
import { classes, grades } from '../../../server/db/schema/school';
import { orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let k12Id: string;
let uniId: string;

beforeAll(async () => {
  t = await createTestApp();
  k12Id = (await orgOf(t, 'school01')).orgId;
  uniId = (await orgOf(t, 'college01')).orgId;
});
afterAll(async () => {
  await t?.close();
});

describe('grades (k12) and enrolment years (gx)', () => {
  it('lists the tenant’s grades with their class counts', async () => {
    const p = (await t.as('school01').get<Page<GradeDetail>>('/api/busi/web/k12/org/grade/page?size=80')).body.data;
    expect(p.total).toBe(await t.db.$count(grades, eq(grades.orgId, k12Id)));
    const [used] = await t.db.select({ id: classes.gradeId }).from(classes).where(eq(classes.orgId, k12Id)).limit(1);
    const one = (await t.as('school01').get<GradeDetail>(`/api/busi/web/k12/org/grade/${used.id}`)).body.data;
    expect(one.classCount).toBe(await t.db.$count(classes, eq(classes.gradeId, used.id)));
    expect(one.classCount).toBeGreaterThan(0);
    const junior = (await t.as('school01').get<Page<GradeDetail>>('/api/busi/web/k12/org/grade/page?stage=junior&size=80')).body.data;
    expect(junior.records.every((g) => g.stage === 'junior')).toBe(true);
  });

  it('creates a grade with an audit row; a grade outside its stage and a repeated enrolment year are refused naming the field', async () => {
    // Every senior cohort in school is seeded, so the new one is a graduated cohort (its grade derived: 高三).
    const created = await t.as('school01').post<GradeDetail>('/api/busi/web/k12/org/grade', { stage: 'senior', enrolYear: 2021, graduated: true });
    expect(created.status).toBe(200);
    const row = created.body.data;
    expect(row).toMatchObject({ stage: 'senior', gradeNo: 12, enrolYear: 2021, graduated: true, classCount: 0, version: 1 });
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'grade'), eq(auditLogs.entityId, row.id)));
    expect(log).toMatchObject({ action: 'create', orgId: k12Id });

    const wrong = await t.as('school01').post('/api/busi/web/k12/org/grade', { stage: 'primary', gradeNo: 7, enrolYear: 2031 });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ data: { field: 'gradeNo' } });
    expect(wrong.body.msg).toContain('小学1-6年级');
    const dup = await t.as('school01', { language: 'en-US' }).post('/api/busi/web/k12/org/grade', { stage: 'senior', enrolYear: 2021, graduated: 'true' });
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({ msg: 'This stage already has a grade with the same enrolment year', data: { field: 'enrolYear' } });
    // A school offers no university years; a university no K12 stages.
    expect((await t.as('school01').post('/api/busi/web/k12/org/grade', { stage: 'university', gradeNo: 13, enrolYear: 2032 })).body).toMatchObject({ data: { field: 'stage' } });
    expect((await t.as('college01').post('/api/busi/web/gx/org/grade', { stage: 'senior', gradeNo: 10, enrolYear: 2032 })).body).toMatchObject({ data: { field: 'stage' } });
    expect(await t.db.$count(grades, and(eq(grades.orgId, k12Id), eq(grades.enrolYear, 2032)))).toBe(0);
  });

  it('edits with the version; a stale save is 409; graduation is kept', async () => {
    const row = (await t.as('college01').post<GradeDetail>('/api/busi/web/gx/org/grade', { stage: 'university', gradeNo: 13, enrolYear: 2033 })).body.data;
    const saved = await t.as('college01').put(`/api/busi/web/gx/org/grade/${row.id}`, { stage: 'university', gradeNo: 16, enrolYear: 2033, graduated: 'true', version: 1 });
    expect(saved.status).toBe(200);
    expect((await t.as('college01').get<GradeDetail>(`/api/busi/web/gx/org/grade/${row.id}`)).body.data).toMatchObject({ gradeNo: 16, graduated: true, version: 2 });
    expect((await t.as('college01').put(`/api/busi/web/gx/org/grade/${row.id}`, { stage: 'university', gradeNo: 15, enrolYear: 2033, version: 1 })).status).toBe(409);
  });

  it('another organisation’s grade is 404; a grade with classes cannot be deleted (409 naming them)', async () => {
    const [uniGrade] = await t.db.select({ id: grades.id }).from(grades).where(eq(grades.orgId, uniId)).limit(1);
    expect((await t.as('school01').get(`/api/busi/web/k12/org/grade/${uniGrade.id}`)).status).toBe(404);
    expect((await t.as('school01').put(`/api/busi/web/k12/org/grade/${uniGrade.id}`, { stage: 'primary', gradeNo: 1, enrolYear: 2030, version: 1 })).status).toBe(404);
    expect((await t.as('school01').delete(`/api/busi/web/k12/org/grade/${uniGrade.id}`)).status).toBe(404);

    const [used] = await t.db.select({ id: classes.gradeId }).from(classes).where(eq(classes.orgId, k12Id)).limit(1);
    const refused = await t.as('school01').delete(`/api/busi/web/k12/org/grade/${used.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('班级');
    const free = (await t.as('school01').post<GradeDetail>('/api/busi/web/k12/org/grade', { stage: 'primary', enrolYear: 2019, graduated: true })).body.data;
    expect((await t.as('school01').delete(`/api/busi/web/k12/org/grade/${free.id}`)).status).toBe(200);
    expect(await t.db.$count(grades, eq(grades.id, free.id))).toBe(0);
  });

  it('a school cohort’s grade follows from its enrolment year and the current school year (2026-2027); a second cohort of one grade is refused', async () => {
    const before = await t.db.$count(grades, eq(grades.orgId, k12Id));
    // 2020 primary entrants are in 七年级 this year: a 六年级 of 2020 would be a second 六年级.
    const graduated = await t.as('school01').post('/api/busi/web/k12/org/grade', { stage: 'primary', gradeNo: 6, enrolYear: 2020, graduated: false });
    expect(graduated.status).toBe(400);
    expect(graduated.body).toMatchObject({ msg: '2020年入学的小学学生在2026-2027学年已毕业，请选择“已毕业”或修改入学年份', data: { field: 'enrolYear' } });
    const wrongGrade = await t.as('school01', { language: 'en-US' }).post('/api/busi/web/k12/org/grade', { stage: 'junior', gradeNo: 8, enrolYear: 2026 });
    expect(wrongGrade.body).toMatchObject({ msg: 'Students enrolled in 2026 are in Grade 7 in 2026-2027', data: { field: 'gradeNo' } });
    const early = await t.as('school01').post('/api/busi/web/k12/org/grade', { stage: 'primary', enrolYear: 2027 });
    expect(early.body).toMatchObject({ msg: '2027年入学的学生在2026-2027学年尚未入学', data: { field: 'enrolYear' } });
    expect(await t.db.$count(grades, eq(grades.orgId, k12Id))).toBe(before);

    // The form asks only for the stage and enrolment year: the grade follows.
    const options = (await t.as('school01').get<{ currentStartYear: number }>('/api/busi/web/k12/org/grade/options')).body.data;
    expect(options).toEqual({ currentStartYear: 2026 });

    // A cohort saved before the rule (a second 七年级 in school) makes the seeded one refuse to be saved as 七年级 too.
    const [junior] = await t.db.select().from(grades).where(and(eq(grades.orgId, k12Id), eq(grades.stage, 'junior'), eq(grades.enrolYear, 2026)));
    const [stale] = await t.db.insert(grades).values({ orgId: k12Id, stage: 'junior', gradeNo: 7, enrolYear: 2019, graduated: false }).returning({ id: grades.id });
    const second = await t.as('school01').put(`/api/busi/web/k12/org/grade/${junior.id}`, { stage: 'junior', enrolYear: 2026, graduated: false, version: junior.version });
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({ data: { field: 'gradeNo' } });
    expect(second.body.msg).toBe('本校已有在读的七年级');
    await t.db.delete(grades).where(eq(grades.id, stale.id));
    const saved = await t.as('school01').put<GradeDetail>(`/api/busi/web/k12/org/grade/${junior.id}`, { stage: 'junior', enrolYear: 2026, graduated: false, version: junior.version });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ gradeNo: 7, version: junior.version + 1 });
  });
});
