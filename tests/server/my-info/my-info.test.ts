import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { MenuNode, UInfo } from '@/domain/auth/types';
import { LOGIN_MAX_FAILURES } from '@/domain/constants';
import { landingPath } from '@/domain/menus/tree';
import { memberships, users } from '../../../server/db/schema/auth';
import { DEMO_PASSWORD } from '../../../server/seed/demo';
import { sha256Hex } from '../../../server/lib/password';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const CLASS_VIEW = 'k12:org:class:view';

async function uinfoOf(token: string): Promise<UInfo> {
  const res = await t.request({ url: '/api/busi/web/myInfo/getUInfo', token });
  expect(res.statusCode).toBe(200);
  return res.json<Envelope<UInfo>>().data;
}

const post = (url: string, token: string, payload: object, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: `/api/busi/web/myInfo/${url}`, token, payload, headers });

/** Every page path of a menu tree, depth first. */
const paths = (tree: readonly MenuNode[]): string[] => tree.flatMap((n) => [n.menuPath, ...paths(n.children)].filter(Boolean));

describe('getUInfo', () => {
  it.each([
    ['district01', '/admin', 10],
    ['school01', '/k12', 21],
    ['teacher01', '/k12', 21],
    ['college01', '/gx', 22],
  ] as const)('%s: one present account and role, type path %s, a menu tree with default paths', async (account, typePath, orgType) => {
    const info = await uinfoOf((await t.login(account)).access_token);
    expect(info.currentTypePath).toBe(typePath);
    expect(info.orgType).toBe(orgType);
    expect(info.accounts).toHaveLength(1);
    const [acc] = info.accounts;
    expect(acc).toMatchObject({ accountNum: account, presentFlag: true, orgType });
    expect(acc.orgName).toBeTruthy();
    expect(acc.tenantOrgName).toBeTruthy();
    expect(acc.roles.filter((r) => r.presentFlag)).toHaveLength(1);
    expect(acc.roles[0].menus.length).toBeGreaterThan(0);

    expect(info.menuTree.length).toBeGreaterThan(0);
    for (const top of info.menuTree) {
      expect(top.pid).toBe('0');
      expect(top.defaultPath).toMatch(/^\//);
    }
    expect(landingPath(info.menuTree)).toMatch(new RegExp(`^(${typePath}|/single|/myInfo)/`));
    expect(paths(info.menuTree).some((p) => p.startsWith(`${typePath}/`))).toBe(true);
    // Menus and permissions are this family's (plus shared screens), never another family's.
    for (const other of ['/admin', '/k12', '/gx'].filter((p) => p !== typePath)) {
      expect(paths(info.menuTree).some((p) => p.startsWith(`${other}/`))).toBe(false);
    }
    expect(info.permissions.length).toBeGreaterThan(0);
    expect(info.platformName).toBeTruthy();
    expect(info.icon).toMatch(/^data:image\/svg\+xml/);
  });

  it('a teacher lacks the administrator-only permissions the school administrator holds', async () => {
    const admin = await uinfoOf((await t.login('school01')).access_token);
    const teacher = await uinfoOf((await t.login('teacher01')).access_token);
    expect(admin.permissions).toContain(CLASS_VIEW);
    expect(admin.permissions).toContain('k12:user:teacher:view');
    expect(teacher.permissions).not.toContain(CLASS_VIEW);
    expect(teacher.permissions).not.toContain('k12:user:teacher:view');
    expect(paths(teacher.menuTree)).not.toContain('/k12/org/class');
    expect(paths(admin.menuTree)).toContain('/k12/org/class');
  });

  it('multi0001 sees both memberships and their roles', async () => {
    const info = await uinfoOf((await t.login('multi0001')).access_token);
    expect(info.accounts).toHaveLength(2);
    expect(info.accounts.map((a) => a.orgType).sort()).toEqual([21, 22]);
    const k12 = info.accounts.find((a) => a.orgType === 21)!;
    expect(k12.presentFlag).toBe(true);
    expect(k12.roles.map((r) => r.identity).sort()).toEqual(['administrator', 'teacher']);
    expect(k12.roles.find((r) => r.presentFlag)!.identity).toBe('teacher');
    expect(info.currentTypePath).toBe('/k12');
    expect(info.permissions).not.toContain(CLASS_VIEW);
  });

  it('marks the first membership present when none is', async () => {
    const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'college01'));
    await t.db.update(memberships).set({ present: false }).where(eq(memberships.userId, user.id));
    const info = await uinfoOf((await t.login('college01')).access_token);
    expect(info.accounts[0].presentFlag).toBe(true);
    expect(info.currentTypePath).toBe('/gx');
    const [row] = await t.db.select({ present: memberships.present }).from(memberships).where(eq(memberships.userId, user.id));
    expect(row.present).toBe(true);
  });
});

describe('switchRole, switchOrg and the menu build (multi0001)', () => {
  it('switchRole changes the present role, the permissions and the menu', async () => {
    const token = (await t.login('multi0001')).access_token;
    const before = await uinfoOf(token);
    const k12 = before.accounts.find((a) => a.orgType === 21)!;
    const adminRole = k12.roles.find((r) => r.identity === 'administrator')!;
    const ref = { accountId: k12.accountId, roleId: adminRole.roleId, tenantOrgId: k12.tenantOrgId };

    const built = await post('menu', token, ref);
    expect(built.statusCode).toBe(200);
    const menu = built.json<Envelope<MenuNode[]>>().data;
    expect(paths(menu)).toContain('/k12/org/class');

    const res = await post('switchRole', token, ref);
    expect(res.statusCode).toBe(200);
    const after = res.json<Envelope<UInfo>>().data;
    const k12After = after.accounts.find((a) => a.accountId === k12.accountId)!;
    expect(k12After.roles.find((r) => r.presentFlag)!.roleId).toBe(adminRole.roleId);
    expect(after.permissions).toContain(CLASS_VIEW);
    expect(after.menuTree).toEqual(menu);
    expect(paths(after.menuTree)).not.toEqual(paths(before.menuTree));
    // It lasts: the next getUInfo answers the same.
    expect((await uinfoOf(token)).permissions).toContain(CLASS_VIEW);
  });

  it('switchOrg moves to the university: presentFlag, currentTypePath and menu follow', async () => {
    const token = (await t.login('multi0001')).access_token;
    const before = await uinfoOf(token);
    const uni = before.accounts.find((a) => a.orgType === 22)!;
    expect(uni.presentFlag).toBe(false);

    const res = await post('switchOrg', token, { orgId: uni.orgId, tenantOrgId: uni.tenantOrgId });
    expect(res.statusCode).toBe(200);
    const after = res.json<Envelope<UInfo>>().data;
    expect(after.currentTypePath).toBe('/gx');
    expect(after.orgType).toBe(22);
    expect(after.accounts.find((a) => a.accountId === uni.accountId)!.presentFlag).toBe(true);
    expect(after.accounts.filter((a) => a.presentFlag)).toHaveLength(1);
    expect(paths(after.menuTree).some((p) => p.startsWith('/gx/'))).toBe(true);
    expect(paths(after.menuTree).some((p) => p.startsWith('/k12/'))).toBe(false);
    expect(after.platformName).not.toBe(before.platformName);

    // Back again, with the role chosen earlier still in place.
    const k12 = after.accounts.find((a) => a.orgType === 21)!;
    const back = (await post('switchOrg', token, { orgId: k12.orgId, tenantOrgId: k12.tenantOrgId })).json<Envelope<UInfo>>().data;
    expect(back.currentTypePath).toBe('/k12');
  });

  it("refuses another user's account or role with 404", async () => {
    const school = await uinfoOf((await t.login('school01')).access_token);
    const token = (await t.login('multi0001')).access_token;
    const other = school.accounts[0];
    const ref = { accountId: other.accountId, roleId: other.roles[0].roleId, tenantOrgId: other.tenantOrgId };
    for (const url of ['switchRole', 'menu']) {
      const res = await post(url, token, ref);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: '404', data: null, msg: '数据不存在或不属于当前组织' });
    }
    const garbage = await post('switchOrg', token, { orgId: 'x', tenantOrgId: 'y' });
    expect(garbage.statusCode).toBe(404);
  });

  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/busi/web/myInfo/switchOrg', payload: { orgId: 'a', tenantOrgId: 'b' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('editUser', () => {
  it('updates name, mobile and gender and answers UInfo', async () => {
    const token = (await t.login('college01')).access_token;
    const res = await post('editUser', token, { userName: '刘志远', mobile: '13912345678', gender: 'male' });
    expect(res.statusCode).toBe(200);
    const info = res.json<Envelope<UInfo>>().data;
    expect(info).toMatchObject({ userName: '刘志远', mobile: '13912345678', gender: 'male' });
    expect(res.json().msg).toBe('保存成功');
    // The new mobile signs in.
    await t.login('13912345678');
  });

  it('refuses a bad or taken mobile with translated messages', async () => {
    const token = (await t.login('college01')).access_token;
    const bad = await post('editUser', token, { userName: '刘志远', mobile: '12345', gender: 'male' }, { 'accept-language': 'zh-TW' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('手機號碼格式不正確');
    const [teacher] = await t.db.select({ mobile: users.mobile }).from(users).where(eq(users.accountNum, 'teacher01'));
    const taken = await post('editUser', token, { userName: '刘志远', mobile: teacher.mobile!, gender: 'male' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().msg).toBe('该手机号已被其他账号使用');
  });
});

describe('editAccount', () => {
  it('refuses a wrong current password', async () => {
    const token = (await t.login('gxteacher01')).access_token;
    const res = await post('editAccount', token, { oldPassword: sha256Hex('Wrong@2026'), newPassword: 'New@2026x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('原密码错误');
    const en = await post('editAccount', token, { oldPassword: sha256Hex(DEMO_PASSWORD), newPassword: '123' }, { 'accept-language': 'en-US' });
    expect(en.statusCode).toBe(400);
    expect(en.json().msg).toBe('The password must be 6 to 20 characters.');
  });

  it('refuses a new password equal to the current one', async () => {
    const token = (await t.login('teacher05')).access_token;
    const res = await post('editAccount', token, { oldPassword: sha256Hex(DEMO_PASSWORD), newPassword: DEMO_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: '400', data: null, msg: '新密码不能与原密码相同' });
    expect((await post('editAccount', token, { oldPassword: sha256Hex(DEMO_PASSWORD), newPassword: DEMO_PASSWORD }, { 'accept-language': 'en-US' })).json().msg).toBe(
      'The new password must differ from the current one.',
    );
    await t.login('teacher05');
  });

  it(`ends the guessing session after ${LOGIN_MAX_FAILURES} wrong current passwords, but leaves the owner's sign-in open`, async () => {
    const owner = (await t.login('teacher06')).access_token;
    const token = (await t.login('teacher06')).access_token;
    const guess = (password: string) => post('editAccount', token, { oldPassword: sha256Hex(password), newPassword: 'New@2026x' });
    for (let i = 1; i < LOGIN_MAX_FAILURES; i++) expect((await guess(`Wrong@${i}`)).json().msg).toBe('原密码错误');
    const ended = await guess('Wrong@5');
    expect(ended.statusCode).toBe(400);
    expect(ended.json().msg).toBe('原密码错误次数过多，本次登录已结束，请重新登录');
    // The session that guessed is over; the owner's other session and sign-in are not touched.
    expect((await t.request({ url: '/api/busi/web/myInfo/getUInfo', token })).statusCode).toBe(401);
    expect((await t.request({ url: '/api/busi/web/myInfo/getUInfo', token: owner })).statusCode).toBe(200);
    const [row] = await t.db.select({ failedLogins: users.failedLogins, lockedUntil: users.lockedUntil }).from(users).where(eq(users.accountNum, 'teacher06'));
    expect(row).toEqual({ failedLogins: 0, lockedUntil: null });
    const fresh = (await t.login('teacher06')).access_token;
    // The count belongs to the session that guessed: a fresh one starts again.
    expect((await post('editAccount', fresh, { oldPassword: sha256Hex('Wrong@6'), newPassword: 'New@2026x' })).json().msg).toBe('原密码错误');
    expect((await post('editAccount', fresh, { oldPassword: sha256Hex(DEMO_PASSWORD), newPassword: 'New@2026x' }, { 'accept-language': 'en-US' })).statusCode).toBe(200);
    await t.login('teacher06', 'New@2026x');
  });

  it('answers the ended session in the request language', async () => {
    const token = (await t.login('teacher04')).access_token;
    let last;
    for (let i = 1; i <= LOGIN_MAX_FAILURES; i++) last = await post('editAccount', token, { oldPassword: sha256Hex(`Wrong@${i}`), newPassword: 'New@2026x' }, { 'accept-language': 'en-US' });
    expect(last!.json().msg).toBe('Too many wrong current passwords: this session has ended. Please sign in again.');
    await t.login('teacher04');
  });

  it('changes the password: the new one signs in, the old one not, other sessions end', async () => {
    const other = (await t.login('gxteacher01')).access_token;
    const token = (await t.login('gxteacher01')).access_token;
    const res = await post('editAccount', token, { oldPassword: sha256Hex(DEMO_PASSWORD), newPassword: 'New@2026x' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: '200', data: null });

    expect((await t.request({ url: '/api/busi/web/myInfo/getUInfo', token })).statusCode).toBe(200);
    expect((await t.request({ url: '/api/busi/web/myInfo/getUInfo', token: other })).statusCode).toBe(401);
    expect((await t.loginResponse('gxteacher01')).json().msg).toBe('用户名或密码错误');
    await t.login('gxteacher01', 'New@2026x');
  });
});
