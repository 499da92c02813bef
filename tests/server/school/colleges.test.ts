import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { CollegeDetail, MajorDetail } from '@/domain/school/colleges';
import { classes, colleges, majors } from '../../../server/db/schema/school';
import { DEMO, orgOf } from '../../support/factories';
import { createTestApp, type AsUser, type TestApp } from '../../support/server-app';

let t: TestApp;
let uniId: string;
let college: AsUser;
const GX = '/api/busi/web/gx';

beforeAll(async () => {
  t = await createTestApp();
  uniId = (await orgOf(t, DEMO.college)).orgId;
  college = t.as(DEMO.college);
});
afterAll(async () => {
  await t?.close();
});

describe('colleges and majors', () => {
  it('lists the university’s colleges; a school has no such API', async () => {
    const p = (await college.get<Page<CollegeDetail>>(`${GX}/org/college/page?size=80`)).body.data;
    expect(p.total).toBe(await t.db.$count(colleges, eq(colleges.orgId, uniId)));
    expect((await t.as(DEMO.school).get('/api/busi/web/k12/org/college/page')).status).toBe(404);
  });

  it('a college code is two digits and unique; a major needs the university’s own college and a unique code in it', async () => {
    const bad = await t.as(DEMO.college, { language: 'en-US' }).post(`${GX}/org/college`, { name: '体育学院', code: '7' });
    expect(bad.body).toMatchObject({ msg: 'The code must be two digits', data: { field: 'code' } });
    const made = await college.post<CollegeDetail>(`${GX}/org/college`, { name: '体育学院', code: '88' });
    expect(made.status).toBe(200);
    const created = made.body.data;
    expect(created).toMatchObject({ code: '88', majorCount: 0, version: 1 });
    expect((await college.post(`${GX}/org/college`, { name: '重复', code: '88' })).body).toMatchObject({ msg: '已有相同编号的院系', data: { field: 'code' } });

    const major = (await college.post<MajorDetail>(`${GX}/org/major`, { collegeId: created.id, name: '运动训练', code: '01', schoolLength: 4 })).body.data;
    expect(major).toMatchObject({ collegeName: '体育学院', schoolLength: 4, classCount: 0, version: 1 });
    expect((await college.post(`${GX}/org/major`, { collegeId: created.id, name: '重复', code: '01', schoolLength: 4 })).body).toMatchObject({ data: { field: 'code' } });
    expect((await college.post(`${GX}/org/major`, { collegeId: created.id, name: '九年', code: '02', schoolLength: 9 })).body).toMatchObject({ data: { field: 'schoolLength' } });

    // The college with a major cannot go; once the major is deleted it can.
    const refused = await college.delete(`${GX}/org/college/${created.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('专业');
    expect((await college.put(`${GX}/org/major/${major.id}`, { collegeId: created.id, name: '运动训练学', code: '01', schoolLength: 4, version: 1 })).status).toBe(200);
    expect((await college.put(`${GX}/org/major/${major.id}`, { collegeId: created.id, name: '旧', code: '01', schoolLength: 4, version: 1 })).status).toBe(409);
    expect((await college.delete(`${GX}/org/major/${major.id}`)).status).toBe(200);
    expect((await college.delete(`${GX}/org/college/${created.id}`)).status).toBe(200);
  });

  it('a major with classes cannot be deleted (409 naming them); unknown ids are 404', async () => {
    const [used] = await t.db.select({ id: classes.majorId }).from(classes).where(eq(classes.orgId, uniId)).limit(1);
    const refused = await college.delete(`${GX}/org/major/${used.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('班级');
    expect(await t.db.$count(majors, eq(majors.id, used.id!))).toBe(1);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await college.get(`${GX}/org/college/${missing}`)).status).toBe(404);
    expect((await college.post(`${GX}/org/major`, { collegeId: missing, name: 'x', code: '03', schoolLength: 4 })).status).toBe(400);
  });
});
