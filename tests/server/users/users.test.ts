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
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
const tokens: Record<string, string> = {};
let bureauId: string;
let adminRoleId: string;
let researcherRoleId: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['district01', 'school01', 'jiaoyan01']) tokens[account] = (await t.login(account)).access_token;
  [{ id: bureauId }] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.management));
  const rs = await t.db.select({ id: roles.id, name: roles.name }).from(roles).where(eq(roles.orgId, bureauId));
  adminRoleId = rs.find((r) => r.name === '管理员')!.id;
  researcherRoleId = rs.find((r) => r.name === '体育教研员')!.id;
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: unknown, lang = 'zh-CN') =>
  t.request({ method, url: `/api/busi/web/admin/user${url}`, token, payload: payload as object, headers: { 'accept-language': lang } });
const body = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>();
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
    const page = body<Page<UserRow>>(await call('GET', '/page?size=80', tokens.district01)).data;
    const accounts = page.records.map((r) => r.accountNum);
    expect(accounts).toEqual(expect.arrayContaining(['district01', 'district02', 'jiaoyan01', 'jiaoyan02']));
    expect(accounts).not.toContain('school01');
    expect(page.records.find((r) => r.accountNum === 'jiaoyan01')).toMatchObject({ roleName: '体育教研员', enabled: true });
    const filtered = body<Page<UserRow>>(await call('GET', `/page?roleId=${researcherRoleId}`, tokens.district01)).data;
    expect(filtered.records.map((r) => r.accountNum).sort()).toEqual(['jiaoyan01', 'jiaoyan02']);
    expect((await call('GET', '/page', tokens.school01)).statusCode).toBe(403);
    // A school's account id is not the district's: 404.
    expect((await call('GET', `/${await accountIdOf('school01')}`, tokens.district01)).statusCode).toBe(404);
  });

  it('a role without the user buttons gets 403 on the list and on writes', async () => {
    expect((await call('GET', '/page', tokens.jiaoyan01)).statusCode).toBe(403);
    expect((await call('POST', '', tokens.jiaoyan01, person('nobody01'))).statusCode).toBe(403);
    expect((await call('PUT', `/${await accountIdOf('jiaoyan02')}/password`, tokens.jiaoyan01, { mode: 'generate' })).statusCode).toBe(403);
  });

  it('a sibling district cannot reach the district’s accounts, nor the other way round', async () => {
    const make = (code: string, adminAccount: string) =>
      t.request({
        method: 'POST',
        url: '/api/busi/web/admin/orgManage/orgInfo',
        token: tokens.district01,
        payload: { name: `下级教育局${code}`, code, type: ORG_TYPE.management, adminName: '管理员', adminAccount, adminPassword: 'Pass1234' },
      });
    expect((await make('81', 'sibadmin81')).statusCode).toBe(200);
    expect((await make('82', 'sibadmin82')).statusCode).toBe(200);
    const a = (await t.login('sibadmin81', 'Pass1234')).access_token;
    const own = body<Page<UserRow>>(await call('GET', '/page', a)).data;
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
      expect((await call(method, url, a, payload)).statusCode, `${method} ${url}`).toBe(404);
    }
  });
});

describe('users: add and edit', () => {
  it('refuses bad input naming the field, in the request’s language, writing nothing', async () => {
    const before = await t.db.$count(users);
    const short = await call('POST', '', tokens.district01, person('abc'));
    expect(short.statusCode).toBe(400);
    expect(body(short)).toMatchObject({ data: { field: 'accountNum' } });
    const mobile = await call('POST', '', tokens.district01, person('gooduser1', { mobile: '12345' }), 'en-US');
    expect(body(mobile)).toMatchObject({ data: { field: 'mobile' } });
    expect(body(mobile).msg).toBe('The phone number is not valid.');
    const taken = await call('POST', '', tokens.district01, person('school01'));
    expect(body(taken)).toMatchObject({ msg: '该登录账号已被使用', data: { field: 'accountNum' } });
    const [schoolRole] = await t.db.select({ id: roles.id }).from(roles).innerJoin(orgs, eq(orgs.id, roles.orgId)).where(eq(orgs.type, ORG_TYPE.k12)).limit(1);
    const foreignRole = await call('POST', '', tokens.district01, person('gooduser2', { roleId: schoolRole.id }));
    expect(body(foreignRole)).toMatchObject({ data: { field: 'roleId' } });
    expect(await t.db.$count(users)).toBe(before);
  });

  it('adds an account that must change its first password; the audit row holds no hash or password', async () => {
    const res = await call('POST', '', tokens.district01, person('newstaff01', { name: '新同事', mobile: '13900001111' }));
    expect(res.statusCode).toBe(200);
    const row = body<UserRow>(res).data;
    expect(row).toMatchObject({ accountNum: 'newstaff01', roleId: researcherRoleId, enabled: true, mustChangePassword: true, version: 1 });
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'user'), eq(auditLogs.entityId, row.id)));
    expect(log.action).toBe('create');
    expect(JSON.stringify(log.after)).not.toMatch(/scrypt|Start123|password/i);
    await signInAndChange('newstaff01', 'Start123', 'Mine1234');
  });

  it('edits with the version it read; a stale save is 409', async () => {
    const id = await accountIdOf('jiaoyan02');
    const row = body<UserRow>(await call('GET', `/${id}`, tokens.district01)).data;
    const save = { name: '郑强（改）', accountNum: row.accountNum, mobile: row.mobile ?? '', roleId: row.roleId, enabled: true, version: row.version };
    const first = await call('PUT', `/${id}`, tokens.district01, save);
    expect(first.statusCode).toBe(200);
    expect(body<UserRow>(first).data).toMatchObject({ name: '郑强（改）', version: row.version + 1 });
    const stale = await call('PUT', `/${id}`, tokens.district01, { ...save, name: '又改' });
    expect(stale.statusCode).toBe(409);
    expect(body(stale).msg).toBe('数据已被他人修改，请刷新后重试');
  });
});

describe('users: status', () => {
  it('a disabled account cannot sign in and its open session ends; enabled again it can', async () => {
    const session = await t.login('jiaoyan02');
    const id = await accountIdOf('jiaoyan02');
    expect((await call('PUT', `/${id}/status`, tokens.district01, { enabled: false })).statusCode).toBe(200);
    const refused = await t.loginResponse('jiaoyan02');
    expect(refused.statusCode).toBe(400);
    expect(body(refused).msg).toBe('账号已停用，请联系管理员');
    expect((await t.request({ method: 'GET', url: '/api/busi/web/myInfo/getUInfo', token: session.access_token })).statusCode).toBe(401);
    expect((await call('PUT', `/${id}/status`, tokens.district01, { enabled: true })).statusCode).toBe(200);
    expect((await t.loginResponse('jiaoyan02')).statusCode).toBe(200);
  });

  it('an administrator cannot disable or delete their own account', async () => {
    const own = await accountIdOf('district01');
    expect((await call('PUT', `/${own}/status`, tokens.district01, { enabled: false })).statusCode).toBe(409);
    expect((await call('DELETE', `/${own}`, tokens.district01)).statusCode).toBe(409);
  });
});

describe('users: reset password', () => {
  it('generates a one-time password shown once; the person must change it and every other call is refused until then', async () => {
    const id = await accountIdOf('jiaoyan01');
    const res = await call('PUT', `/${id}/password`, tokens.district01, { mode: 'generate' });
    expect(res.statusCode).toBe(200);
    const { password } = body<ResetPasswordResult>(res).data;
    expect(password).toMatch(/^[A-Za-z0-9]{10}$/);
    // The old session ended with the reset; the old password no longer works.
    expect((await call('GET', '/options', tokens.jiaoyan01)).statusCode).toBe(401);
    expect((await t.loginResponse('jiaoyan01')).statusCode).toBe(400);

    const token = await t.login('jiaoyan01', password!);
    expect(token.must_change_password).toBe(true);
    const refused = await t.request({ method: 'GET', url: '/api/busi/web/myInfo/getUInfo', token: token.access_token, headers: { 'accept-language': 'zh-CN' } });
    expect(refused.statusCode).toBe(428);
    expect(body(refused).msg).toBe('密码已被管理员重置，请先修改密码');
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
    const bad = await call('PUT', `/${id}/password`, tokens.district01, { mode: 'set', password: '12345' });
    expect(bad.statusCode).toBe(400);
    expect(body(bad)).toMatchObject({ data: { field: 'password' } });
    const res = await call('PUT', `/${id}/password`, tokens.district01, { mode: 'set', password: 'Typed2026' });
    expect(body<ResetPasswordResult>(res).data).toEqual({ password: null });
    await signInAndChange('district02', 'Typed2026', 'Later2026');
  });
});

describe('users: delete', () => {
  it('deletes an account; the person can no longer sign in', async () => {
    const created = body<UserRow>(await call('POST', '', tokens.district01, person('leaving01'))).data;
    expect((await call('DELETE', `/${created.id}`, tokens.district01)).statusCode).toBe(200);
    expect((await call('GET', `/${created.id}`, tokens.district01)).statusCode).toBe(404);
    expect((await t.loginResponse('leaving01', 'Start123')).statusCode).toBe(400);
  });
});

describe('users: escalation', () => {
  it('an account manager cannot hand out a role holding more than its own, by adding or by editing; nothing written', async () => {
    // A role with the users screen only, held by a new account of the district.
    const usersOnly = ['admin.user.user', ...getCatalogEntry('admin.user.user')!.buttons.map((b) => buttonId('admin.user.user', b.action))];
    const role = await t.request({ method: 'POST', url: '/api/busi/web/admin/role', token: tokens.district01, payload: { name: '账号管理员', identity: 'administrator', menuIds: usersOnly } });
    expect(role.statusCode).toBe(200);
    const managerRoleId = body<{ id: string }>(role).data.id;
    expect((await call('POST', '', tokens.district01, person('acctmgr01', { roleId: managerRoleId }))).statusCode).toBe(200);
    const token = await signInAndChange('acctmgr01', 'Start123', 'Mgr2026ok');
    const manager = token.access_token;

    const before = await t.db.$count(users);
    const add = await call('POST', '', manager, person('sneaky01', { roleId: adminRoleId }));
    expect(add.statusCode).toBe(403);
    expect(body(add)).toMatchObject({ msg: '不能分配权限超出您本人的角色', data: { field: 'roleId' } });
    expect(await t.db.$count(users)).toBe(before);

    // Raising an existing account to the administrator role is the same escalation.
    const target = body<UserRow>(await call('GET', `/${await accountIdOf('jiaoyan02')}`, manager)).data;
    const raise = await call('PUT', `/${target.id}`, manager, { name: target.name, accountNum: target.accountNum, mobile: target.mobile ?? '', roleId: adminRoleId, enabled: true, version: target.version });
    expect(raise.statusCode).toBe(403);
    expect(body<UserRow>(await call('GET', `/${target.id}`, tokens.district01)).data.roleId).toBe(researcherRoleId);

    // Within its own permissions it may add accounts.
    expect((await call('POST', '', manager, person('helper01', { roleId: managerRoleId }))).statusCode).toBe(200);
  });
});
