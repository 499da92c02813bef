import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { OrgDetail, OrgRow } from '@/domain/org-manage/orgs';
import { users } from '../../../server/db/schema/auth';
import { orgs } from '../../../server/db/schema/orgs';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let k12Id: string;

beforeAll(async () => {
  t = await createTestApp();
  k12Id = (await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs)).find((o) => o.type === ORG_TYPE.k12)!.id;
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, account: string, payload?: unknown) =>
  t.as(account, { language: 'zh-CN' }).request(method, `/api/busi/web/admin/orgManage/orgInfo${url}`, payload).then((a) => a.res);
const body = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>();
const school = (code: string, adminAccount: string) => ({ name: `测试学校${code}`, code, type: ORG_TYPE.k12, adminName: '王老师', adminAccount, adminPassword: 'Pass1234' });

describe('organisations', () => {
  it('lists the organisations below the district as a tree; another organisation’s id is 404', async () => {
    const tree = body<OrgRow[]>(await call('GET', '/tree', 'district01')).data;
    expect(tree.some((o) => o.id === k12Id)).toBe(true);
    const [district] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.management));
    expect(tree.some((o) => o.id === district.id)).toBe(false);
    expect((await call('GET', `/${district.id}`, 'district01')).statusCode).toBe(404);
    expect((await call('GET', '/tree', 'school01')).statusCode).toBe(403);
  });

  it('creates a school with its administrator in one step; the administrator signs in', async () => {
    const res = await call('POST', '', 'district01', school('71', 'newadmin71'));
    expect(res.statusCode).toBe(200);
    const row = body<OrgRow>(res).data;
    expect(row).toMatchObject({ name: '测试学校71', code: '71', enabled: true });
    const token = await t.login('newadmin71', 'Pass1234');
    const info = await t.request({ method: 'GET', url: '/api/busi/web/k12/currentOrg', token: token.access_token });
    expect(body<{ id: string }>(info).data.id).toBe(row.id);
  });

  it('refuses a taken account or code naming the field and leaves nothing behind', async () => {
    const before = await t.db.$count(orgs);
    const taken = await call('POST', '', 'district01', school('72', 'school01'));
    expect(taken.statusCode).toBe(400);
    expect(body(taken)).toMatchObject({ msg: '该登录账号已被使用', data: { field: 'adminAccount' } });
    const code = await call('POST', '', 'district01', school('71', 'other7200'));
    expect(body(code)).toMatchObject({ data: { field: 'code' } });
    const bad = await call('POST', '', 'district01', { ...school('7', 'abc'), adminPassword: '1' });
    expect(bad.statusCode).toBe(400);
    expect(await t.db.$count(orgs)).toBe(before);
    expect(await t.db.$count(users, eq(users.accountNum, 'other7200'))).toBe(0);
  });

  it('disabling cascades to lower organisations and blocks their administrators’ sign-in; enabling can leave them off', async () => {
    const created = body<OrgRow>(await call('POST', '', 'district01', school('74', 'newadmin74'))).data;
    const session = await t.login('newadmin74', 'Pass1234');
    const off = await call('PUT', `/${created.id}/status`, 'district01', { enabled: false });
    expect(off.statusCode).toBe(200);
    const refused = await t.loginResponse('newadmin74', 'Pass1234');
    expect(refused.statusCode).toBe(400);
    expect(body(refused).msg).toMatch(/停用|禁用/);
    // Their open session ended too.
    expect((await t.request({ method: 'GET', url: '/api/busi/web/k12/currentOrg', token: session.access_token })).statusCode).toBe(401);
    // The district's other school is untouched; school01 can still sign in.
    expect((await t.loginResponse('school01')).statusCode).toBe(200);
    expect((await call('PUT', `/${created.id}/status`, 'district01', { enabled: true, cascade: false })).statusCode).toBe(200);
    expect((await t.loginResponse('newadmin74', 'Pass1234')).statusCode).toBe(200);
  });

  it('exports the list as .xlsx', async () => {
    const res = await call('GET', '/export', 'district01');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('shows a lower organisation’s detail: superior, administrator account (no password) and counts', async () => {
    const detail = body<OrgDetail>(await call('GET', `/${k12Id}`, 'district01')).data;
    expect(detail).toMatchObject({ id: k12Id, parentName: '江宁区教育局', version: 1 });
    expect(detail.admins.map((a) => a.accountNum)).toContain('school01');
    expect(JSON.stringify(detail)).not.toMatch(/password|scrypt/i);
    expect(detail.counts.students).toBeGreaterThan(1000);
    expect(detail.counts.classes).toBe(48);
  });

  it('edits a lower organisation with the add rules and its version; stale saves are 409; its own and others’ ids are 404', async () => {
    const created = body<OrgDetail>(await call('POST', '', 'district01', school('75', 'newadmin75'))).data;
    const save = { name: '测试学校75（改）', code: '75', activatableDevices: 10, version: created.version };
    const first = await call('PUT', `/${created.id}`, 'district01', save);
    expect(first.statusCode).toBe(200);
    expect(body<OrgDetail>(first).data).toMatchObject({ name: '测试学校75（改）', activatableDevices: 10, version: created.version + 1 });
    const stale = await call('PUT', `/${created.id}`, 'district01', { ...save, name: '再改' });
    expect(stale.statusCode).toBe(409);
    const taken = await call('PUT', `/${created.id}`, 'district01', { ...save, code: '01', version: created.version + 1 });
    expect(body(taken)).toMatchObject({ data: { field: 'code' } });
    const badCode = await call('PUT', `/${created.id}`, 'district01', { ...save, code: 'AB', version: created.version + 1 });
    expect(body(badCode)).toMatchObject({ data: { field: 'code' } });
    // The administrator is not edited here; extra fields are refused.
    expect((await call('PUT', `/${created.id}`, 'district01', { ...save, adminAccount: 'x', version: created.version + 1 })).statusCode).toBe(400);
    const [district] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.management));
    expect((await call('PUT', `/${district.id}`, 'district01', { ...save, version: 1 })).statusCode).toBe(404);
    expect((await call('PUT', `/${created.id}`, 'school01', save)).statusCode).toBe(403);
  });
});
