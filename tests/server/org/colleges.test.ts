import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { CollegeDetail, MajorDetail } from '@/domain/school/colleges';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, colleges, majors } from '../../../server/db/schema/school';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let uniId: string;

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs);
  uniId = rows.find((o) => o.type === ORG_TYPE.university)!.id;
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, account: string, payload?: unknown, lang = 'zh-CN') =>
  t.as(account, { language: lang }).request(method, `/api/busi/web/${url}`, payload).then((a) => a.res);
const body = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>();

describe('colleges and majors', () => {
  it('lists the university’s colleges; a school has no such API', async () => {
    const p = body<Page<CollegeDetail>>(await call('GET', 'gx/org/college/page?size=80', 'college01')).data;
    expect(p.total).toBe(await t.db.$count(colleges, eq(colleges.orgId, uniId)));
    expect((await call('GET', 'k12/org/college/page', 'school01')).statusCode).toBe(404);
  });

  it('a college code is two digits and unique; a major needs the university’s own college and a unique code in it', async () => {
    const bad = await call('POST', 'gx/org/college', 'college01', { name: '体育学院', code: '7' }, 'en-US');
    expect(body(bad)).toMatchObject({ msg: 'The code must be two digits', data: { field: 'code' } });
    const made = await call('POST', 'gx/org/college', 'college01', { name: '体育学院', code: '88' });
    expect(made.statusCode).toBe(200);
    const college = body<CollegeDetail>(made).data;
    expect(college).toMatchObject({ code: '88', majorCount: 0, version: 1 });
    expect(body(await call('POST', 'gx/org/college', 'college01', { name: '重复', code: '88' }))).toMatchObject({ msg: '已有相同编号的院系', data: { field: 'code' } });

    const major = body<MajorDetail>(await call('POST', 'gx/org/major', 'college01', { collegeId: college.id, name: '运动训练', code: '01', schoolLength: 4 })).data;
    expect(major).toMatchObject({ collegeName: '体育学院', schoolLength: 4, classCount: 0, version: 1 });
    expect(body(await call('POST', 'gx/org/major', 'college01', { collegeId: college.id, name: '重复', code: '01', schoolLength: 4 }))).toMatchObject({ data: { field: 'code' } });
    expect(body(await call('POST', 'gx/org/major', 'college01', { collegeId: college.id, name: '九年', code: '02', schoolLength: 9 }))).toMatchObject({ data: { field: 'schoolLength' } });

    // The college with a major cannot go; once the major is deleted it can.
    const refused = await call('DELETE', `gx/org/college/${college.id}`, 'college01');
    expect(refused.statusCode).toBe(409);
    expect(body(refused).msg).toContain('专业');
    expect((await call('PUT', `gx/org/major/${major.id}`, 'college01', { collegeId: college.id, name: '运动训练学', code: '01', schoolLength: 4, version: 1 })).statusCode).toBe(200);
    expect((await call('PUT', `gx/org/major/${major.id}`, 'college01', { collegeId: college.id, name: '旧', code: '01', schoolLength: 4, version: 1 })).statusCode).toBe(409);
    expect((await call('DELETE', `gx/org/major/${major.id}`, 'college01')).statusCode).toBe(200);
    expect((await call('DELETE', `gx/org/college/${college.id}`, 'college01')).statusCode).toBe(200);
  });

  it('a major with classes cannot be deleted (409 naming them); unknown ids are 404', async () => {
    const [used] = await t.db.select({ id: classes.majorId }).from(classes).where(eq(classes.orgId, uniId)).limit(1);
    const refused = await call('DELETE', `gx/org/major/${used.id}`, 'college01');
    expect(refused.statusCode).toBe(409);
    expect(body(refused).msg).toContain('班级');
    expect(await t.db.$count(majors, eq(majors.id, used.id!))).toBe(1);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await call('GET', `gx/org/college/${missing}`, 'college01')).statusCode).toBe(404);
    expect((await call('POST', 'gx/org/major', 'college01', { collegeId: missing, name: 'x', code: '03', schoolLength: 4 })).statusCode).toBe(400);
  });
});
