import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { OrgDetail, OrgRow } from '@/domain/org-manage/orgs';
import { users } from '../../../server/db/schema/auth';
import { orgs } from '../../../server/db/schema/orgs';
import { dataOf, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let k12Id: string;

beforeAll(async () => {
  t = await createTestApp();
  k12Id = (await orgOf(t, 'school01')).orgId;
});
afterAll(async () => {
  await t?.close();
});

const school = (code: string, adminAccount: string) => ({ name: `测试学校${code}`, code, type: ORG_TYPE.k12, adminName: '王老师', adminAccount, adminPassword: 'Pass1234' });

describe('organisations', () => {
  it('lists the organisations below the district as a tree; another organisation’s id is 404', async () => {
    const tree = dataOf(await t.as('district01').get<OrgRow[]>('/api/busi/web/admin/orgManage/orgInfo/tree'));
    expect(tree.some((o) => o.id === k12Id)).toBe(true);
    const district = { id: (await orgOf(t, 'district01')).orgId };
    expect(tree.some((o) => o.id === district.id)).toBe(false);
    expect((await t.as('district01').get(`/api/busi/web/admin/orgManage/orgInfo/${district.id}`)).status).toBe(404);
    expect((await t.as('school01').get('/api/busi/web/admin/orgManage/orgInfo/tree')).status).toBe(403);
  });

  it('creates a school with its administrator in one step; the administrator signs in', async () => {
    const res = await t.as('district01').post<OrgRow>('/api/busi/web/admin/orgManage/orgInfo', school('71', 'newadmin71'));
    expect(res.status).toBe(200);
    const row = res.body.data;
    expect(row).toMatchObject({ name: '测试学校71', code: '71', enabled: true });
    const token = await t.login('newadmin71', 'Pass1234');
    const info = await t.request({ method: 'GET', url: '/api/busi/web/k12/currentOrg', token: token.access_token });
    expect(info.json<Envelope<{ id: string }>>().data.id).toBe(row.id);
  });

  it('refuses a taken account or code naming the field and leaves nothing behind', async () => {
    const before = await t.db.$count(orgs);
    const taken = await t.as('district01').post('/api/busi/web/admin/orgManage/orgInfo', school('72', 'school01'));
    expect(taken.status).toBe(400);
    expect(taken.body).toMatchObject({ msg: '该登录账号已被使用', data: { field: 'adminAccount' } });
    const code = await t.as('district01').post('/api/busi/web/admin/orgManage/orgInfo', school('71', 'other7200'));
    expect(code.body).toMatchObject({ data: { field: 'code' } });
    const bad = await t.as('district01').post('/api/busi/web/admin/orgManage/orgInfo', { ...school('7', 'abc'), adminPassword: '1' });
    expect(bad.status).toBe(400);
    expect(await t.db.$count(orgs)).toBe(before);
    expect(await t.db.$count(users, eq(users.accountNum, 'other7200'))).toBe(0);
  });

  it('disabling cascades to lower organisations and blocks their administrators’ sign-in; enabling can leave them off', async () => {
    const created = dataOf(await t.as('district01').post<OrgRow>('/api/busi/web/admin/orgManage/orgInfo', school('74', 'newadmin74')));
    const session = await t.login('newadmin74', 'Pass1234');
    const off = await t.as('district01').put(`/api/busi/web/admin/orgManage/orgInfo/${created.id}/status`, { enabled: false });
    expect(off.status).toBe(200);
    const refused = await t.loginResponse('newadmin74', 'Pass1234');
    expect(refused.statusCode).toBe(400);
    expect(refused.json<Envelope<null>>().msg).toMatch(/停用|禁用/);
    // Their open session ended too.
    expect((await t.request({ method: 'GET', url: '/api/busi/web/k12/currentOrg', token: session.access_token })).statusCode).toBe(401);
    // The district's other school is untouched; school01 can still sign in.
    expect((await t.loginResponse('school01')).statusCode).toBe(200);
    expect((await t.as('district01').put(`/api/busi/web/admin/orgManage/orgInfo/${created.id}/status`, { enabled: true, cascade: false })).status).toBe(200);
    expect((await t.loginResponse('newadmin74', 'Pass1234')).statusCode).toBe(200);
  });

  it('exports the list as .xlsx', async () => {
    const res = await t.as('district01').get('/api/busi/web/admin/orgManage/orgInfo/export');
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toContain('spreadsheetml');
    expect(res.res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('shows a lower organisation’s detail: superior, administrator account (no password) and counts', async () => {
    const detail = dataOf(await t.as('district01').get<OrgDetail>(`/api/busi/web/admin/orgManage/orgInfo/${k12Id}`));
    expect(detail).toMatchObject({ id: k12Id, parentName: '江宁区教育局', version: 1 });
    expect(detail.admins.map((a) => a.accountNum)).toContain('school01');
    expect(JSON.stringify(detail)).not.toMatch(/password|scrypt/i);
    expect(detail.counts.students).toBeGreaterThan(1000);
    expect(detail.counts.classes).toBe(48);
  });

  it('edits a lower organisation with the add rules and its version; stale saves are 409; its own and others’ ids are 404', async () => {
    const created = dataOf(await t.as('district01').post<OrgDetail>('/api/busi/web/admin/orgManage/orgInfo', school('75', 'newadmin75')));
    const save = { name: '测试学校75（改）', code: '75', activatableDevices: 10, version: created.version };
    const first = await t.as('district01').put<OrgDetail>(`/api/busi/web/admin/orgManage/orgInfo/${created.id}`, save);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ name: '测试学校75（改）', activatableDevices: 10, version: created.version + 1 });
    const stale = await t.as('district01').put(`/api/busi/web/admin/orgManage/orgInfo/${created.id}`, { ...save, name: '再改' });
    expect(stale.status).toBe(409);
    const taken = await t.as('district01').put(`/api/busi/web/admin/orgManage/orgInfo/${created.id}`, { ...save, code: '01', version: created.version + 1 });
    expect(taken.body).toMatchObject({ data: { field: 'code' } });
    const badCode = await t.as('district01').put(`/api/busi/web/admin/orgManage/orgInfo/${created.id}`, { ...save, code: 'AB', version: created.version + 1 });
    expect(badCode.body).toMatchObject({ data: { field: 'code' } });
    // The administrator is not edited here; extra fields are refused.
    expect((await t.as('district01').put(`/api/busi/web/admin/orgManage/orgInfo/${created.id}`, { ...save, adminAccount: 'x', version: created.version + 1 })).status).toBe(400);
    const district = { id: (await orgOf(t, 'district01')).orgId };
    expect((await t.as('district01').put(`/api/busi/web/admin/orgManage/orgInfo/${district.id}`, { ...save, version: 1 })).status).toBe(404);
    expect((await t.as('school01').put(`/api/busi/web/admin/orgManage/orgInfo/${created.id}`, save)).status).toBe(403);
  });
});
