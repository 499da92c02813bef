import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { TokenData } from '@/domain/auth/types';
import { ORG_TYPE } from '@/domain/constants';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { buttonId } from '@/domain/roles/roles';
import type { ResetPasswordResult, UserRow } from '@/domain/users/users';
import { auditLogs } from '../../../server/db/schema/audit';
import { memberships, roles, users } from '../../../server/db/schema/auth';
import { orgs } from '../../../server/db/schema/orgs';
import { sha256Hex } from '../../../server/lib/password';
import { dataOf, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let bureauId: string;
let adminRoleId: string;
let researcherRoleId: string;

beforeAll(async () => {
  t = await createTestApp();
  bureauId = (await orgOf(t, 'district01')).orgId;
  const rs = await t.db.select({ id: roles.id, name: roles.name }).from(roles).where(eq(roles.orgId, bureauId));
  adminRoleId = rs.find((r) => r.name === '管理员')!.id;
  researcherRoleId = rs.find((r) => r.name === '体育教研员')!.id;
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const USERS = '/api/busi/web/admin/user';
const person = (accountNum: string, extra: object = {}) => ({ name: '测试用户', accountNum, mobile: '', roleId: researcherRoleId, enabled: true, password: 'Start123', ...extra });

async function accountIdOf(accountNum: string): Promise<string> {
  const [row] = await t.db.select({ id: memberships.id }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(eq(users.accountNum, accountNum));
  return row.id;
}

/** Signs in and changes the administrator's password, as the person must before anything else. */
async function signInAndChange(accountNum: string, given: string, next: string): Promise<TokenData> {
  const token = await t.login(accountNum, given);
  expect(token.must_change_password).toBe(true);
  const res = await t.request({ method: 'POST', url: '/api/busi/web/myInfo/editAccount', token: token.access_token, payload: { oldPassword: sha256Hex(given), newPassword: next } });
  expect(res.statusCode).toBe(200);
  return token;
}

describe('users: list and tenancy', () => {
  it('lists the district’s own accounts only, with their roles; a school administrator gets 403', async () => {
    const page = dataOf(await t.as('district01').get<Page<UserRow>>('/api/busi/web/admin/user/page?size=80'));
    const accounts = page.records.map((r) => r.accountNum);
    expect(accounts).toEqual(expect.arrayContaining(['district01', 'district02', 'jiaoyan01', 'jiaoyan02']));
    expect(accounts).not.toContain('school01');
    expect(page.records.find((r) => r.accountNum === 'jiaoyan01')).toMatchObject({ roleName: '体育教研员', enabled: true });
    const filtered = dataOf(await t.as('district01').get<Page<UserRow>>(`/api/busi/web/admin/user/page?roleId=${researcherRoleId}`));
    expect(filtered.records.map((r) => r.accountNum).sort()).toEqual(['jiaoyan01', 'jiaoyan02']);
    expect((await t.as('school01').get('/api/busi/web/admin/user/page')).status).toBe(403);
    // A school's account id is not the district's: 404.
    expect((await t.as('district01').get(`/api/busi/web/admin/user/${await accountIdOf('school01')}`)).status).toBe(404);
  });

  it('a role without the user buttons gets 403 on the list and on writes', async () => {
    expect((await t.as('jiaoyan01').get('/api/busi/web/admin/user/page')).status).toBe(403);
    expect((await t.as('jiaoyan01').post('/api/busi/web/admin/user', person('nobody01'))).status).toBe(403);
    expect((await t.as('jiaoyan01').put(`/api/busi/web/admin/user/${await accountIdOf('jiaoyan02')}/password`, { mode: 'generate' })).status).toBe(403);
  });

  it('a sibling district cannot reach the district’s accounts, nor the other way round', async () => {
    const make = (code: string, adminAccount: string) =>
      t.as('district01').post('/api/busi/web/admin/orgManage/orgInfo', { name: `下级教育局${code}`, code, type: ORG_TYPE.management, adminName: '管理员', adminAccount, adminPassword: 'Pass1234' });
    expect((await make('81', 'sibadmin81')).status).toBe(200);
    expect((await make('82', 'sibadmin82')).status).toBe(200);
    // The new bureau's administrator signs in with the password it was given (not the demo's).
    const a = (await t.login('sibadmin81', 'Pass1234')).access_token;
    const own = JSON.parse((await t.request({ url: `${USERS}/page`, token: a })).body).data as Page<UserRow>;
    expect(own.records.map((r) => r.accountNum)).toEqual(['sibadmin81']);
    const sibling = await accountIdOf('sibadmin82');
    for (const [method, url, payload] of [
      ['GET', `/${sibling}`, undefined],
      ['PUT', `/${sibling}`, { name: 'x', accountNum: 'sibadmin82', mobile: '', roleId: adminRoleId, enabled: true, version: 1 }],
      ['PUT', `/${sibling}/status`, { enabled: false }],
      ['PUT', `/${sibling}/password`, { mode: 'generate' }],
      ['DELETE', `/${sibling}`, undefined],
      ['GET', `/${await accountIdOf('district02')}`, undefined],
    ] as const) {
      expect((await t.request({ method, url: `${USERS}${url}`, token: a, payload })).statusCode, `${method} ${url}`).toBe(404);
    }
  });
});

describe('users: add and edit', () => {
  it('refuses bad input naming the field, in the request’s language, writing nothing', async () => {
    const before = await t.db.$count(users);
    const short = await t.as('district01').post('/api/busi/web/admin/user', person('abc'));
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ data: { field: 'accountNum' } });
    const mobile = await t.as('district01', { language: 'en-US' }).post('/api/busi/web/admin/user', person('gooduser1', { mobile: '12345' }));
    expect(mobile.body).toMatchObject({ data: { field: 'mobile' } });
    expect(mobile.body.msg).toBe('The phone number is not valid.');
    const taken = await t.as('district01').post('/api/busi/web/admin/user', person('school01'));
    expect(taken.body).toMatchObject({ msg: '该登录账号已被使用', data: { field: 'accountNum' } });
    const [schoolRole] = await t.db.select({ id: roles.id }).from(roles).innerJoin(orgs, eq(orgs.id, roles.orgId)).where(eq(orgs.type, ORG_TYPE.k12)).limit(1);
    const foreignRole = await t.as('district01').post('/api/busi/web/admin/user', person('gooduser2', { roleId: schoolRole.id }));
    expect(foreignRole.body).toMatchObject({ data: { field: 'roleId' } });
    expect(await t.db.$count(users)).toBe(before);
  });

  it('adds an account that must change its first password; the audit row holds no hash or password', async () => {
    const res = await t.as('district01').post<UserRow>('/api/busi/web/admin/user', person('newstaff01', { name: '新同事', mobile: '13900001111' }));
    expect(res.status).toBe(200);
    const row = res.body.data;
    expect(row).toMatchObject({ accountNum: 'newstaff01', roleId: researcherRoleId, enabled: true, mustChangePassword: true, version: 1 });
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'user'), eq(auditLogs.entityId, row.id)));
    expect(log.action).toBe('create');
    expect(JSON.stringify(log.after)).not.toMatch(/scrypt|Start123|password/i);
    await signInAndChange('newstaff01', 'Start123', 'Mine1234');
  });

  it('edits with the version it read; a stale save is 409', async () => {
    const id = await accountIdOf('jiaoyan02');
    const row = dataOf(await t.as('district01').get<UserRow>(`/api/busi/web/admin/user/${id}`));
    const save = { name: '郑强（改）', accountNum: row.accountNum, mobile: row.mobile ?? '', roleId: row.roleId, enabled: true, version: row.version };
    const first = await t.as('district01').put<UserRow>(`/api/busi/web/admin/user/${id}`, save);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ name: '郑强（改）', version: row.version + 1 });
    const stale = await t.as('district01').put(`/api/busi/web/admin/user/${id}`, { ...save, name: '又改' });
    expect(stale.status).toBe(409);
    expect(stale.body.msg).toBe('数据已被他人修改，请刷新后重试');
  });
});

describe('users: status', () => {
  it('a disabled account cannot sign in and its open session ends; enabled again it can', async () => {
    const session = await t.login('jiaoyan02');
    const id = await accountIdOf('jiaoyan02');
    expect((await t.as('district01').put(`/api/busi/web/admin/user/${id}/status`, { enabled: false })).status).toBe(200);
    const refused = await t.loginResponse('jiaoyan02');
    expect(refused.statusCode).toBe(400);
    expect(refused.json<Envelope<null>>().msg).toBe('账号已停用，请联系管理员');
    expect((await t.request({ method: 'GET', url: '/api/busi/web/myInfo/getUInfo', token: session.access_token })).statusCode).toBe(401);
    expect((await t.as('district01').put(`/api/busi/web/admin/user/${id}/status`, { enabled: true })).status).toBe(200);
    expect((await t.loginResponse('jiaoyan02')).statusCode).toBe(200);
  });

  it('an administrator cannot disable or delete their own account', async () => {
    const own = await accountIdOf('district01');
    expect((await t.as('district01').put(`/api/busi/web/admin/user/${own}/status`, { enabled: false })).status).toBe(409);
    expect((await t.as('district01').delete(`/api/busi/web/admin/user/${own}`)).status).toBe(409);
  });
});

describe('users: reset password', () => {
  it('generates a one-time password shown once; the person must change it and every other call is refused until then', async () => {
    const id = await accountIdOf('jiaoyan01');
    const res = await t.as('district01').put<ResetPasswordResult>(`/api/busi/web/admin/user/${id}/password`, { mode: 'generate' });
    expect(res.status).toBe(200);
    const { password } = res.body.data;
    expect(password).toMatch(/^[A-Za-z0-9]{10}$/);
    // The old session ended with the reset; the old password no longer works.
    expect((await t.as('jiaoyan01').get('/api/busi/web/admin/user/options')).status).toBe(401);
    expect((await t.loginResponse('jiaoyan01')).statusCode).toBe(400);

    const token = await t.login('jiaoyan01', password!);
    expect(token.must_change_password).toBe(true);
    const refused = await t.request({ method: 'GET', url: '/api/busi/web/myInfo/getUInfo', token: token.access_token, headers: { 'accept-language': 'zh-CN' } });
    expect(refused.statusCode).toBe(428);
    expect(refused.json<Envelope<null>>().msg).toBe('密码已被管理员重置，请先修改密码');
    expect((await t.request({ method: 'GET', url: '/api/busi/web/admin/organizeTest/testManage/page', token: token.access_token })).statusCode).toBe(428);

    const change = await t.request({
      method: 'POST',
      url: '/api/busi/web/myInfo/editAccount',
      token: token.access_token,
      payload: { oldPassword: sha256Hex(password!), newPassword: 'Fresh2026' },
    });
    expect(change.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/busi/web/myInfo/getUInfo', token: token.access_token })).statusCode).toBe(200);
    const again = await t.login('jiaoyan01', 'Fresh2026');
    expect(again.must_change_password).toBeUndefined();

    const logs = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'user'), eq(auditLogs.action, 'resetPassword'), eq(auditLogs.entityId, id)));
    expect(logs).toHaveLength(1);
    expect(JSON.stringify(logs[0])).not.toContain(password!);
    expect(JSON.stringify(logs[0])).not.toMatch(/scrypt/);
  });

  it('sets the password the administrator typed (6–20 characters), to be changed at sign-in', async () => {
    const id = await accountIdOf('district02');
    const bad = await t.as('district01').put(`/api/busi/web/admin/user/${id}/password`, { mode: 'set', password: '12345' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ data: { field: 'password' } });
    const res = await t.as('district01').put<ResetPasswordResult>(`/api/busi/web/admin/user/${id}/password`, { mode: 'set', password: 'Typed2026' });
    expect(res.body.data).toEqual({ password: null });
    await signInAndChange('district02', 'Typed2026', 'Later2026');
  });
});

describe('users: delete', () => {
  it('deletes an account; the person can no longer sign in', async () => {
    const created = dataOf(await t.as('district01').post<UserRow>('/api/busi/web/admin/user', person('leaving01')));
    expect((await t.as('district01').delete(`/api/busi/web/admin/user/${created.id}`)).status).toBe(200);
    expect((await t.as('district01').get(`/api/busi/web/admin/user/${created.id}`)).status).toBe(404);
    expect((await t.loginResponse('leaving01', 'Start123')).statusCode).toBe(400);
  });
});

describe('users: escalation', () => {
  it('an account manager cannot hand out a role holding more than its own, by adding or by editing; nothing written', async () => {
    // A role with the users screen only, held by a new account of the district.
    const usersOnly = ['admin.user.user', ...getCatalogEntry('admin.user.user')!.buttons.map((b) => buttonId('admin.user.user', b.action))];
    const managerRoleId = dataOf(await t.as('district01').post<{ id: string }>('/api/busi/web/admin/role', { name: '账号管理员', identity: 'administrator', menuIds: usersOnly })).id;
    expect((await t.as('district01').post('/api/busi/web/admin/user', person('acctmgr01', { roleId: managerRoleId }))).status).toBe(200);
    const token = await signInAndChange('acctmgr01', 'Start123', 'Mgr2026ok');
    // The manager signs in with the password it chose (not the demo's).
    const asManager = (method: Method, url: string, payload?: object) => t.request({ method, url: `${USERS}${url}`, token: token.access_token, payload });

    const before = await t.db.$count(users);
    const add = await asManager('POST', '', person('sneaky01', { roleId: adminRoleId }));
    expect(add.statusCode).toBe(403);
    expect(add.json()).toMatchObject({ msg: '不能分配权限超出您本人的角色', data: { field: 'roleId' } });
    expect(await t.db.$count(users)).toBe(before);

    // Raising an existing account to the administrator role is the same escalation.
    const target = (await asManager('GET', `/${await accountIdOf('jiaoyan02')}`)).json<Envelope<UserRow>>().data;
    const raise = await asManager('PUT', `/${target.id}`, { name: target.name, accountNum: target.accountNum, mobile: target.mobile ?? '', roleId: adminRoleId, enabled: true, version: target.version });
    expect(raise.statusCode).toBe(403);
    expect(dataOf(await t.as('district01').get<UserRow>(`/api/busi/web/admin/user/${target.id}`)).roleId).toBe(researcherRoleId);

    // Within its own permissions it may add accounts.
    expect((await asManager('POST', '', person('helper01', { roleId: managerRoleId }))).statusCode).toBe(200);
  });
});
