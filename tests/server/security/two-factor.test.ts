import * as OTPAuth from 'otpauth';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { TokenData, TotpChallenge } from '@/domain/auth/types';
import { LOGIN_MAX_FAILURES } from '@/domain/constants';
import type { SecuritySettingsAnswer } from '@/domain/security/settings';
import type { RecoveryCodes, TotpEnrolment } from '@/domain/security/two-factor';
import { users } from '../../../server/db/schema/auth';
import { userTotp } from '../../../server/db/schema/security';
import { DEMO_PASSWORD } from '../../../server/seed/demo';
import { sha256Hex } from '../../../server/lib/password';
import { setOperatorTwoFactorRequired } from '../../../server/modules/security/two-factor.service';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const SEC = '/api/busi/web/myInfo/security';
const STEP_MS = 30_000;
const codeAt = (secret: string, ms: number) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: ms });
const post = (url: string, token: string, payload: Record<string, unknown> = {}) => t.request({ method: 'POST', url, token, payload });
const password = async (account: string) => (await t.loginResponse(account)).json<Envelope<TokenData & TotpChallenge>>();
const codeStep = (challenge: string, code: string) => t.app.inject({ method: 'POST', url: '/api/sso/login/totp', payload: { challenge, code } });

/** Enrols `account` (signed in with the password alone) and answers the secret and the recovery codes. */
async function enrol(account: string): Promise<{ secret: string; codes: string[] }> {
  const token = (await t.login(account)).access_token;
  const started = await post(`${SEC}/totp/start`, token);
  expect(started.statusCode).toBe(200);
  const { secret, uri } = started.json<Envelope<TotpEnrolment>>().data;
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  const wrong = await post(`${SEC}/totp/confirm`, token, { code: codeAt(secret, t.clock.now().getTime() + 10 * STEP_MS) });
  expect(wrong.statusCode).toBe(400);
  const ok = await post(`${SEC}/totp/confirm`, token, { code: codeAt(secret, t.clock.now().getTime()) });
  expect(ok.statusCode).toBe(200);
  const codes = ok.json<Envelope<RecoveryCodes>>().data.recoveryCodes;
  expect(codes).toHaveLength(10);
  // The secret is stored sealed, and no answer gives it back after enrolment.
  const [row] = await t.db.select({ secret: userTotp.secret }).from(userTotp).innerJoin(users, eq(users.id, userTotp.userId)).where(eq(users.accountNum, account));
  expect(row.secret).not.toContain(secret);
  const overview = await t.request({ url: SEC, token });
  expect(overview.body).not.toContain(secret);
  expect(overview.json().data.enabled).toBe(true);
  return { secret, codes };
}

describe('two-factor sign-in', () => {
  it('enrols, then signs in with a code of the previous, current or next time step; a replayed code is refused', async () => {
    const { secret } = await enrol('teacher01');
    const first = await password('teacher01');
    expect(first.data.totp_challenge).toBeTruthy();
    expect((first.data as Partial<TokenData>).access_token).toBeUndefined();
    // Two steps on: the previous step is later than the enrolment's (whose code is spent). A code two steps away is
    // refused and counted.
    t.clock.advance(2 * STEP_MS);
    const far = await codeStep(first.data.totp_challenge, codeAt(secret, t.clock.now().getTime() + 2 * STEP_MS));
    expect(far.statusCode).toBe(400);
    expect(far.json().msg).toBe('验证码错误');
    const previous = codeAt(secret, t.clock.now().getTime() - STEP_MS);
    const signed = await codeStep(first.data.totp_challenge, previous);
    expect(signed.statusCode).toBe(200);
    const token = signed.json<Envelope<TokenData>>().data.access_token;
    expect((await t.request({ url: '/api/busi/web/myInfo/getUInfo', token })).statusCode).toBe(200);

    // The same code again (a new sign-in within its window): refused.
    const again = await password('teacher01');
    expect((await codeStep(again.data.totp_challenge, previous)).statusCode).toBe(400);
    t.clock.advance(STEP_MS);
    const next = await codeStep(again.data.totp_challenge, codeAt(secret, t.clock.now().getTime() + STEP_MS));
    expect(next.statusCode).toBe(200);
    const [u] = await t.db.select({ n: users.failedLogins }).from(users).where(eq(users.accountNum, 'teacher01'));
    expect(u.n).toBe(0);
  });

  it('counts wrong codes with the sign-in lock; a recovery code works once', async () => {
    const { codes } = await enrol('myclass01');
    const first = await password('myclass01');
    for (let i = 1; i < LOGIN_MAX_FAILURES; i++) expect((await codeStep(first.data.totp_challenge, '000000')).statusCode).toBe(400);
    const [u] = await t.db.select({ n: users.failedLogins }).from(users).where(eq(users.accountNum, 'myclass01'));
    expect(u.n).toBe(LOGIN_MAX_FAILURES - 1);
    const ok = await codeStep(first.data.totp_challenge, codes[0].toLowerCase());
    expect(ok.statusCode).toBe(200);
    const again = await password('myclass01');
    const reused = await codeStep(again.data.totp_challenge, codes[0]);
    expect(reused.statusCode).toBe(400);
    expect((await codeStep(again.data.totp_challenge, codes[1])).statusCode).toBe(200);
  });

  it('locks the account at the limit of wrong codes', async () => {
    await enrol('college01');
    const first = await password('college01');
    let last = null as null | { statusCode: number; json(): { msg: string } };
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) last = await codeStep(first.data.totp_challenge, '000000');
    expect(last!.statusCode).toBe(400);
    expect(last!.json().msg).toMatch(/锁定/);
    const [u] = await t.db.select({ lockedUntil: users.lockedUntil }).from(users).where(eq(users.accountNum, 'college01'));
    expect(u.lockedUntil).not.toBeNull();
  });

  it('takes a district administrator without two-factor to enrolment when the platform requires it', async () => {
    await setOperatorTwoFactorRequired(t.db, true);
    try {
      const answer = (await password('district02')).data;
      expect(answer.must_enrol_totp).toBe(true);
      const token = answer.access_token;
      const blocked = await t.request({ url: '/api/busi/web/myInfo/getUInfo', token });
      expect(blocked.statusCode).toBe(428);
      const started = await post(`${SEC}/totp/start`, token);
      expect(started.statusCode).toBe(200);
      const { secret } = started.json<Envelope<TotpEnrolment>>().data;
      expect((await post(`${SEC}/totp/confirm`, token, { code: codeAt(secret, t.clock.now().getTime()) })).statusCode).toBe(200);
      expect((await t.request({ url: '/api/busi/web/myInfo/getUInfo', token })).statusCode).toBe(200);
      // Required: it cannot be turned off.
      const off = await post(`${SEC}/totp/disable`, token, { password: sha256Hex(DEMO_PASSWORD), code: codeAt(secret, t.clock.now().getTime() + STEP_MS) });
      expect(off.statusCode).toBe(409);
    } finally {
      await setOperatorTwoFactorRequired(t.db, false);
    }
  });
});

describe('session limits', () => {
  const settingsUrl = '/api/busi/web/k12/system/security';
  it('ends a session left idle longer than the idle timeout, and any session past its lifetime', async () => {
    const admin = t.as('school01');
    const read = await admin.get<SecuritySettingsAnswer>(settingsUrl);
    expect(read.status).toBe(200);
    const saved = await admin.put<SecuritySettingsAnswer>(settingsUrl, { ...read.body.data, idleTimeoutMinutes: 10, sessionLifetimeHours: 1 });
    expect(saved.status).toBe(200);
    // A stale form (the version read before the save) is refused.
    expect((await admin.put(settingsUrl, { ...read.body.data, idleTimeoutMinutes: 20 })).status).toBe(409);

    const idle = (await t.login('teacher02')).access_token;
    const uinfo = (token: string) => t.request({ url: '/api/busi/web/myInfo/getUInfo', token });
    expect((await uinfo(idle)).statusCode).toBe(200);
    t.clock.advance(9 * 60_000);
    expect((await uinfo(idle)).statusCode).toBe(200);
    t.clock.advance(9 * 60_000);
    expect((await uinfo(idle)).statusCode).toBe(200);
    t.clock.advance(11 * 60_000);
    expect((await uinfo(idle)).statusCode).toBe(401);

    const busy = (await t.login('teacher02')).access_token;
    for (let i = 0; i < 7; i++) {
      t.clock.advance(9 * 60_000);
      const res = await uinfo(busy);
      expect(res.statusCode).toBe(i < 6 ? 200 : 401);
    }
    t.signInAgain();
  });
});

describe('password policy', () => {
  it('refuses a new password shorter than the organisation asks, with its message', async () => {
    const admin = t.as('school01');
    const read = await admin.get<SecuritySettingsAnswer>('/api/busi/web/k12/system/security');
    const saved = await admin.put('/api/busi/web/k12/system/security', { ...read.body.data, passwordMinLength: 10, passwordClasses: 3, idleTimeoutMinutes: 30, sessionLifetimeHours: 12 });
    expect(saved.status).toBe(200);
    const token = (await t.login('teacher03')).access_token;
    const change = (newPassword: string) => post('/api/busi/web/myInfo/editAccount', token, { oldPassword: sha256Hex(DEMO_PASSWORD), newPassword });
    const short = await change('Ab1!xyz');
    expect(short.statusCode).toBe(400);
    expect(short.json().msg).toBe('密码至少需要 10 个字符');
    const plain = await change('abcdefghijkl');
    expect(plain.statusCode).toBe(400);
    const good = await change('Abcdefgh12!x');
    expect(good.statusCode).toBe(200);
  });
});
