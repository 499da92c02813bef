import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { ClassDetail, SchoolYearDetail } from '@/domain/school/types';
import { defaultSchoolYear } from '@/domain/school/school-years';
import { auditLogs } from '../../../server/db/schema/audit';
import { classes, grades, students, teachers } from '../../../server/db/schema/school';
import { dataOf, orgOf } from '../../support/factories';
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

async function k12Grade(): Promise<string> {
  const [g] = await t.db.select({ id: grades.id }).from(grades).where(eq(grades.orgId, k12Id)).limit(1);
  return g.id;
}

describe('resource kit: paging and tenancy', () => {
  it('pages with the list-query schema: sizes 10/20/50/80 only; a text filter past its limit is 400 naming the field', async () => {
    const p = dataOf(await t.as('school01').get<Page<ClassDetail>>('/api/busi/web/k12/org/class/page?current=2&size=20'));
    expect(p).toMatchObject({ current: 2, size: 20 });
    expect(p.records.length).toBeLessThanOrEqual(20);
    expect(p.total).toBe(await t.db.$count(classes, eq(classes.orgId, k12Id)));
    expect((await t.as('school01').get('/api/busi/web/k12/org/class/page?size=30')).status).toBe(400);
    const long = await t.as('school01').get(`/api/busi/web/k12/org/class/page?name=${'x'.repeat(65)}`);
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ msg: '查询条件过长，请缩短后重试', data: { field: 'name' } });
  });

  it('each class row counts its own students', async () => {
    const p = dataOf(await t.as('school01').get<Page<ClassDetail>>('/api/busi/web/k12/org/class/page?size=80'));
    const counted = p.records.filter((c) => c.studentCount > 0);
    expect(counted.length).toBeGreaterThan(1);
    for (const c of p.records) expect(c.studentCount).toBe(await t.db.$count(students, eq(students.classId, c.id)));
  });

  it('another organisation’s id is 404 on read, update and delete; a university lists only its own classes', async () => {
    const [uniClass] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, uniId)).limit(1);
    expect((await t.as('school01').get(`/api/busi/web/k12/org/class/${uniClass.id}`)).status).toBe(404);
    expect((await t.as('school01').put(`/api/busi/web/k12/org/class/${uniClass.id}`, { gradeId: await k12Grade(), code: 5, name: 'x', version: 1 })).status).toBe(404);
    expect((await t.as('school01').delete(`/api/busi/web/k12/org/class/${uniClass.id}`)).status).toBe(404);
    const gx = dataOf(await t.as('college01').get<Page<ClassDetail>>('/api/busi/web/gx/org/class/page?size=80'));
    expect(gx.total).toBe(await t.db.$count(classes, eq(classes.orgId, uniId)));
  });

  it('permissions come from the catalogue: a teacher without the class buttons gets 403 on writes', async () => {
    const res = await t.as('teacher01').post('/api/busi/web/k12/org/class', { gradeId: await k12Grade(), code: 98, name: '九十八班' });
    expect(res.status).toBe(403);
  });
});

describe('classes', () => {
  it('creates a class with an audit row; the code is unique within the grade; above 99 is refused with the rule’s message', async () => {
    const gradeId = await k12Grade();
    const [teacher] = await t.db.select({ id: teachers.id }).from(teachers).where(eq(teachers.orgId, k12Id)).limit(1);
    const created = await t.as('school01').post<ClassDetail>('/api/busi/web/k12/org/class', { gradeId, code: 97, name: '实验97班', headTeacherId: teacher.id, peTeacherId: '' });
    expect(created.status).toBe(200);
    const row = created.body.data;
    expect(row).toMatchObject({ code: 97, name: '实验97班', headTeacherId: teacher.id, peTeacherId: null, studentCount: 0, version: 1 });
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'class'), eq(auditLogs.entityId, row.id)));
    expect(log).toMatchObject({ action: 'create', orgId: k12Id, before: null });
    expect(log.after).toMatchObject({ name: '实验97班' });

    const dup = await t.as('school01').post('/api/busi/web/k12/org/class', { gradeId, code: 97, name: '重复' });
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({ msg: '该年级下已有相同编号的班级', data: { field: 'code' } });
    const big = await t.as('school01', { language: 'en-US' }).post('/api/busi/web/k12/org/class', { gradeId, code: 100, name: '一百' });
    expect(big.body).toMatchObject({ msg: 'The class code cannot be above 99', data: { field: 'code' } });
  });

  it('a stale save is 409 with the translated message and changes nothing; the fresh one writes before/after', async () => {
    const gradeId = await k12Grade();
    const row = dataOf(await t.as('school01').post<ClassDetail>('/api/busi/web/k12/org/class', { gradeId, code: 96, name: '旧名' }));
    const first = await t.as('school01').put<ClassDetail>(`/api/busi/web/k12/org/class/${row.id}`, { gradeId, code: 96, name: '新名', version: row.version });
    expect(first.status).toBe(200);
    expect(first.body.data.version).toBe(row.version + 1);
    const stale = await t.as('school01').put(`/api/busi/web/k12/org/class/${row.id}`, { gradeId, code: 96, name: '覆盖', version: row.version });
    expect(stale.status).toBe(409);
    expect(stale.body.msg).toBe('数据已被他人修改，请刷新后重试');
    const [now] = await t.db.select({ name: classes.name }).from(classes).where(eq(classes.id, row.id));
    expect(now.name).toBe('新名');
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, row.id), eq(auditLogs.action, 'update')));
    expect(log.before).toMatchObject({ name: '旧名' });
    expect(log.after).toMatchObject({ name: '新名' });
  });

  it('a class with students cannot be deleted (409 naming them); an empty one can, with a delete audit row', async () => {
    const [withKids] = await t.db.select({ id: students.classId }).from(students).where(eq(students.orgId, k12Id)).limit(1);
    const refused = await t.as('school01').delete(`/api/busi/web/k12/org/class/${withKids.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(/^该数据已被学生使用（\d+条），不能删除$/);
    const row = dataOf(await t.as('school01').post<ClassDetail>('/api/busi/web/k12/org/class', { gradeId: await k12Grade(), code: 95, name: '待删' }));
    expect((await t.as('school01').delete(`/api/busi/web/k12/org/class/${row.id}`)).status).toBe(200);
    expect(await t.db.$count(classes, eq(classes.id, row.id))).toBe(0);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, row.id), eq(auditLogs.action, 'delete')));
    expect(log.before).toMatchObject({ name: '待删' });
  });
});

describe('school years', () => {
  it('creates a year with both semesters; the semester containing today is current', async () => {
    const y = new Date().getUTCFullYear() + 5;
    const created = await t.as('school01').post<SchoolYearDetail>('/api/busi/web/k12/org/acayear', defaultSchoolYear(y));
    expect(created.status).toBe(200);
    const row = created.body.data;
    expect(row.academicYear).toBe(`${y}-${y + 1}`);
    expect(row.semesters.map((s) => s.code)).toEqual([13, 11]);
    expect(row.current).toBe(false);
    const again = await t.as('school01').post('/api/busi/web/k12/org/acayear', defaultSchoolYear(y));
    expect(again.body).toMatchObject({ msg: '该学年已存在', data: { field: 'academicYear' } });
  });

  it('refuses a semester outside its year, overlapping semesters, and an overlap with another year', async () => {
    const y = new Date().getUTCFullYear() + 7;
    const outside = defaultSchoolYear(y);
    outside.autumn.startDate = `${y}-07-01`;
    expect((await t.as('school01').post('/api/busi/web/k12/org/acayear', outside)).body).toMatchObject({ data: { field: 'autumn.startDate' } });
    const overlap = defaultSchoolYear(y);
    overlap.spring.startDate = `${y + 1}-01-10`;
    expect((await t.as('school01').post('/api/busi/web/k12/org/acayear', overlap)).body).toMatchObject({ data: { field: 'spring.startDate' } });
    expect((await t.as('school01').post('/api/busi/web/k12/org/acayear', defaultSchoolYear(y))).status).toBe(200);
    const next = defaultSchoolYear(y + 1);
    next.autumn.startDate = `${y + 1}-08-15`; // inside year y's summer break
    const clash = await t.as('school01').post('/api/busi/web/k12/org/acayear', next);
    expect(clash.body).toMatchObject({ msg: '与其他学年的学期或假期重叠', data: { field: 'autumn.startDate' } });
  });

  it('a year with test plans cannot be deleted; a new one can; a stale edit is 409', async () => {
    const years = dataOf(await t.as('school01').get<Page<SchoolYearDetail>>('/api/busi/web/k12/org/acayear/page?size=80')).records;
    const used = years.find((r) => r.current) ?? years[0];
    const refused = await t.as('school01').delete(`/api/busi/web/k12/org/acayear/${used.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(/测试计划|体测成绩/);
    const y = new Date().getUTCFullYear() + 9;
    const row = dataOf(await t.as('school01').post<SchoolYearDetail>('/api/busi/web/k12/org/acayear', defaultSchoolYear(y)));
    expect((await t.as('school01').put(`/api/busi/web/k12/org/acayear/${row.id}`, { ...defaultSchoolYear(y), version: row.version })).status).toBe(200);
    expect((await t.as('school01').put(`/api/busi/web/k12/org/acayear/${row.id}`, { ...defaultSchoolYear(y), version: row.version })).status).toBe(409);
    expect((await t.as('school01').delete(`/api/busi/web/k12/org/acayear/${row.id}`)).status).toBe(200);
  });
});

describe('audit', () => {
  it('never stores secrets', async () => {
    const { audit } = await import('../../../server/lib/audit');
    await audit(t.db, { userId: null as unknown as string, accountId: null as unknown as string, tenantOrgId: k12Id }, {
      action: 'update',
      entity: 'user',
      entityId: 'x',
      before: { name: 'a', passwordHash: 'scrypt$…', nested: { accessToken: 't', secretKey: 's', ok: 1 } },
      after: { name: 'b', password: 'p' },
    });
    const [log] = await t.db.select().from(auditLogs).where(eq(auditLogs.entity, 'user'));
    expect(log.before).toEqual({ name: 'a', nested: { ok: 1 } });
    expect(log.after).toEqual({ name: 'b' });
  });
});
