import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { TokenData, UInfo } from '@/domain/auth/types';
import { ACCESS_TOKEN_TTL_S, CAPTCHA_TTL_MS, LOGIN_LOCK_MS, LOGIN_MAX_FAILURES, REFRESH_TOKEN_TTL_S } from '@/domain/constants';
import { DEFAULT_SECURITY_SETTINGS, IDLE_TIMEOUT_MINUTES } from '@/domain/security/settings';
import { memberships, sessions, users } from '../../../server/db/schema/auth';
import { orgSecuritySettings } from '../../../server/db/schema/security';
import { DEMO_PASSWORD } from '../../../server/seed/demo';
import { sha256Hex } from '../../../server/lib/password';
import { createTestApp, randomStr, TEST_CAPTCHA, type TestApp } from '../../support/server-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The token tests below leave a session unused for two hours: the school's idle timeout (default 30 minutes,
  // docs/product-rules.md#sign-in-security) is set to its longest so they test the tokens' own expiry.
  const [school] = await t.db.select({ orgId: memberships.tenantOrgId }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(eq(users.accountNum, 'school01'));
  await t.db.insert(orgSecuritySettings).values({ orgId: school.orgId, value: { ...DEFAULT_SECURITY_SETTINGS, idleTimeoutMinutes: IDLE_TIMEOUT_MINUTES.max } });
});
afterAll(async () => {
  await t?.close();
});

const uinfo = (token: string) => t.request({ url: '/api/busi/web/myInfo/getUInfo', token });
const loginWith = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/sso/login', payload, headers });
const failedLogins = async (accountNum: string) =>
  (await t.db.select({ n: users.failedLogins }).from(users).where(eq(users.accountNum, accountNum)))[0].n;

describe('GET /api/code', () => {
  it('answers an SVG image and stores no answer in clear', async () => {
    const res = await t.app.inject({ url: `/api/code?randomStr=${randomStr()}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it('refuses a missing randomStr with a translated message', async () => {
    const res = await t.app.inject({ url: '/api/code' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: '400', data: { field: 'randomStr' }, msg: '获取校验码失败，请稍后再试！' });
  });

  it('is single use: a second login with the same captcha is refused, even after a wrong answer', async () => {
    const key = await t.captcha();
    const wrong = await loginWith({ accountNum: 'school01', password: sha256Hex(DEMO_PASSWORD), code: 'zzzz', randomStr: key });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().msg).toBe('验证码错误');
    const again = await loginWith({ accountNum: 'school01', password: sha256Hex(DEMO_PASSWORD), code: TEST_CAPTCHA, randomStr: key });
    expect(again.json().msg).toBe('验证码已过期，请重新获取');

    const used = await t.captcha();
    expect((await loginWith({ accountNum: 'school01', password: sha256Hex(DEMO_PASSWORD), code: TEST_CAPTCHA, randomStr: used })).statusCode).toBe(200);
    const replay = await loginWith({ accountNum: 'school01', password: sha256Hex(DEMO_PASSWORD), code: TEST_CAPTCHA, randomStr: used });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().msg).toBe('验证码已过期，请重新获取');
  });

  it('expires after CAPTCHA_TTL_MS', async () => {
    const key = await t.captcha();
    t.clock.advance(CAPTCHA_TTL_MS + 1000);
    const res = await loginWith({ accountNum: 'school01', password: sha256Hex(DEMO_PASSWORD), code: TEST_CAPTCHA, randomStr: key });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('验证码已过期，请重新获取');
  });

  it('a wrong captcha is refused before the password is checked (no failure counted)', async () => {
    const before = await failedLogins('college01');
    const res = await loginWith({ accountNum: 'college01', password: sha256Hex('wrong-password'), code: '9999', randomStr: await t.captcha() });
    expect(res.json().msg).toBe('验证码错误');
    expect(await failedLogins('college01')).toBe(before);
  });
});

describe('POST /api/sso/login', () => {
  it('signs in with account number and answers TokenData', async () => {
    const res = await t.loginResponse('school01');
    expect(res.statusCode).toBe(200);
    const body = res.json<Envelope<TokenData>>();
    expect(body.code).toBe('200');
    expect(body.data).toEqual({
      access_token: expect.stringMatching(/^[\w-]{43}$/),
      expires_in: ACCESS_TOKEN_TTL_S,
      refresh_token: expect.stringMatching(/^[\w-]{43}$/),
      token_type: 'bearer',
    });
    expect(body.data.access_token).not.toBe(body.data.refresh_token);
    // Only hashes are stored.
    const stored = await t.db.select({ a: sessions.accessHash, r: sessions.refreshHash }).from(sessions);
    expect(stored.some((s) => s.a === body.data.access_token || s.r === body.data.refresh_token)).toBe(false);
    expect(stored.some((s) => s.a === sha256Hex(body.data.access_token))).toBe(true);
  });

  it('accepts `username` as an alias of accountNum (docs/product-rules.md#calls)', async () => {
    const res = await loginWith({ username: 'school01', password: sha256Hex(DEMO_PASSWORD), code: TEST_CAPTCHA, randomStr: await t.captcha() });
    expect(res.statusCode).toBe(200);
  });

  it('signs in with the mobile number', async () => {
    const [{ mobile }] = await t.db.select({ mobile: users.mobile }).from(users).where(eq(users.accountNum, 'teacher01'));
    expect(mobile).toMatch(/^1\d{10}$/);
    const token = await t.login(mobile!);
    const info = (await uinfo(token.access_token)).json<Envelope<UInfo>>().data;
    expect(info.accounts[0].accountNum).toBe('teacher01');
  });

  it('refuses a wrong password with a message and counts the failure', async () => {
    const res = await t.loginResponse('college01', 'Wrong@2026');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: '400', data: null, msg: '用户名或密码错误' });
    expect(await failedLogins('college01')).toBe(1);
    // A success resets the count.
    await t.login('college01');
    expect(await failedLogins('college01')).toBe(0);
  });

  it('refuses an unknown account with the same message', async () => {
    const res = await t.loginResponse('nobody999');
    expect(res.json().msg).toBe('用户名或密码错误');
  });

  it('validates the body with translated messages', async () => {
    const res = await loginWith({ accountNum: '', password: sha256Hex('x'), code: TEST_CAPTCHA, randomStr: randomStr() });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('请填写登录用户名');
    const en = await loginWith({ accountNum: 'school01', password: sha256Hex('x'), code: ' ', randomStr: randomStr() }, { 'accept-language': 'en-US' });
    expect(en.json().msg).toBe('Please enter the captcha.');
  });

  it(`locks the account for 15 minutes after ${LOGIN_MAX_FAILURES} failures`, async () => {
    for (let i = 1; i < LOGIN_MAX_FAILURES; i++) {
      expect((await t.loginResponse('district01', 'Wrong@2026')).json().msg).toBe('用户名或密码错误');
    }
    const fifth = await t.loginResponse('district01', 'Wrong@2026');
    expect(fifth.json().msg).toBe('登录失败次数过多，账号已锁定，请15分钟后再试');

    // The right password is refused while locked.
    const sixth = await t.loginResponse('district01');
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json().msg).toBe('登录失败次数过多，账号已锁定，请15分钟后再试');
    t.clock.advance(10 * 60_000);
    expect((await t.loginResponse('district01')).json().msg).toBe('登录失败次数过多，账号已锁定，请5分钟后再试');
    expect((await t.loginResponse('district01', DEMO_PASSWORD, { 'accept-language': 'en-US' })).json().msg).toBe(
      'Too many failed sign-ins. The account is locked; try again in 5 minutes.',
    );

    t.clock.advance(LOGIN_LOCK_MS - 10 * 60_000);
    const after = await t.loginResponse('district01');
    expect(after.statusCode).toBe(200);
  });
});

describe('tokens', () => {
  it('a missing or unknown token answers HTTP 401 with the session-expired message', async () => {
    const none = await uinfo('');
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ code: '401', data: null, msg: '当前登录状态已过期，请重新登录' });
    expect((await uinfo('not-a-real-token')).statusCode).toBe(401);
  });

  it(`the access token expires after ACCESS_TOKEN_TTL_S`, async () => {
    const token = await t.login('school01');
    expect((await uinfo(token.access_token)).statusCode).toBe(200);
    t.clock.advance((ACCESS_TOKEN_TTL_S - 5) * 1000);
    expect((await uinfo(token.access_token)).statusCode).toBe(200);
    t.clock.advance(10_000);
    expect((await uinfo(token.access_token)).statusCode).toBe(401);
  });

  it('refresh rotates: new tokens work, the old refresh and access tokens do not', async () => {
    const first = await t.login('school01');
    t.clock.advance((ACCESS_TOKEN_TTL_S + 60) * 1000);
    expect((await uinfo(first.access_token)).statusCode).toBe(401);

    const res = await t.app.inject({ method: 'POST', url: '/api/sso/oauth/token', payload: { refresh_token: first.refresh_token } });
    expect(res.statusCode).toBe(200);
    const second = res.json<Envelope<TokenData>>().data;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await uinfo(second.access_token)).statusCode).toBe(200);

    const replay = await t.app.inject({ method: 'POST', url: '/api/sso/oauth/token', payload: { refresh_token: first.refresh_token } });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().msg).toBe('登录凭证无效，请重新登录');
  });

  it('reusing a rotated refresh token ends the whole session, for the thief and the owner', async () => {
    const other = await t.login('college01');
    const first = await t.login('college01');
    const token = (refresh_token: string) => t.app.inject({ method: 'POST', url: '/api/sso/oauth/token', payload: { refresh_token } });
    const second = (await token(first.refresh_token)).json<Envelope<TokenData>>().data;
    expect((await uinfo(second.access_token)).statusCode).toBe(200);

    const replay = await token(first.refresh_token);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().msg).toBe('登录凭证无效，请重新登录');
    // Every token descended from that sign-in is dead now.
    expect((await uinfo(second.access_token)).statusCode).toBe(401);
    expect((await token(second.refresh_token)).statusCode).toBe(401);
    // The person's other sign-in is another session and keeps working.
    expect((await uinfo(other.access_token)).statusCode).toBe(200);
  });

  it('locking or disabling an account ends its sessions', async () => {
    const session = await t.login('gxteacher03');
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) await t.loginResponse('gxteacher03', 'Wrong@2026');
    expect((await uinfo(session.access_token)).statusCode).toBe(401);
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/sso/oauth/token', payload: { refresh_token: session.refresh_token } });
    expect(refreshed.statusCode).toBe(401);

    const before = await t.login('gxteacher04');
    await t.db.update(users).set({ enabled: false }).where(eq(users.accountNum, 'gxteacher04'));
    expect((await uinfo(before.access_token)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/sso/oauth/token', payload: { refresh_token: before.refresh_token } })).statusCode).toBe(401);
  });

  it('a refresh token expires after REFRESH_TOKEN_TTL_S', async () => {
    const token = await t.login('school01');
    t.clock.advance((REFRESH_TOKEN_TTL_S + 1) * 1000);
    const res = await t.app.inject({ method: 'POST', url: '/api/sso/oauth/token', payload: { refresh_token: token.refresh_token } });
    expect(res.statusCode).toBe(401);
  });

  it('logout revokes the session: its access and refresh tokens answer 401', async () => {
    const token = await t.login('teacher01');
    const other = await t.login('teacher01');
    const res = await t.request({ method: 'POST', url: '/api/sso/oauth/logout', token: token.access_token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: '200', data: null });
    expect((await uinfo(token.access_token)).statusCode).toBe(401);
    const refresh = await t.app.inject({ method: 'POST', url: '/api/sso/oauth/token', payload: { refresh_token: token.refresh_token } });
    expect(refresh.statusCode).toBe(401);
    // Another session of the same person is untouched.
    expect((await uinfo(other.access_token)).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: '/api/sso/oauth/logout' })).statusCode).toBe(401);
  });
});
