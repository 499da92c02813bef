import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_MAX_FAILURES } from '@/domain/constants';
import { localDate } from '@/domain/dates';
import { auditLogs } from '../../../server/db/schema/audit';
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

const UNLOCK = '/api/busi/web/shell/unlock';
const MOURNING = '/api/busi/web/shell/mourning';
const PUBLIC_MOURNING = '/api/oper/web/cs/mourning';

describe('lock screen unlock (docs/product-rules.md#lock-screen)', () => {
  it('answers 401 without a session', async () => {
    const res = await t.request({ method: 'POST', url: UNLOCK, payload: { password: sha256Hex(DEMO_PASSWORD) } });
    expect(res.statusCode).toBe(401);
  });

  it('unlocks with the signed-in account password; a wrong one is a 400 on the password field that says how many tries are left', async () => {
    const token = (await t.login('teacher01')).access_token;
    const ok = await t.request({ method: 'POST', url: UNLOCK, token, payload: { password: sha256Hex(DEMO_PASSWORD) } });
    expect(ok.statusCode, ok.body).toBe(200);
    const wrong = await t.request({ method: 'POST', url: UNLOCK, token, headers: { 'accept-language': 'en-US' }, payload: { password: sha256Hex('Wrong@2026') } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().data).toMatchObject({ field: 'password' });
    expect(wrong.json().msg).toContain(`${LOGIN_MAX_FAILURES - 1}`);
    // Not a sha-256: refused before any password check.
    const bad = await t.request({ method: 'POST', url: UNLOCK, token, payload: { password: 'plain' } });
    expect(bad.statusCode).toBe(400);
    // The session still works.
    const info = await t.request({ url: '/api/busi/web/myInfo/getUInfo', token });
    expect(info.statusCode).toBe(200);
  });

  it('counts wrong passwords on the session: the last allowed one ends the session (401), a right one in between resets the count', async () => {
    const token = (await t.login('school01')).access_token;
    const guess = () => t.request({ method: 'POST', url: UNLOCK, token, payload: { password: sha256Hex('Wrong@2026') } });
    for (let i = 1; i < LOGIN_MAX_FAILURES; i++) expect((await guess()).statusCode).toBe(400);
    // A right password clears the count: another LOGIN_MAX_FAILURES - 1 wrong ones are still 400.
    expect((await t.request({ method: 'POST', url: UNLOCK, token, payload: { password: sha256Hex(DEMO_PASSWORD) } })).statusCode).toBe(200);
    for (let i = 1; i < LOGIN_MAX_FAILURES; i++) expect((await guess()).statusCode).toBe(400);
    const last = await guess();
    expect(last.statusCode).toBe(401);
    expect((await t.request({ url: '/api/busi/web/myInfo/getUInfo', token })).statusCode).toBe(401);
    // The account itself is not locked: its owner signs in again.
    expect((await t.loginResponse('school01')).statusCode).toBe(200);
  });
});

describe('mourning mode (docs/product-rules.md#mourning-mode)', () => {
  // Calendar days in China, as the server counts them.
  const shift = (days: number) => localDate(new Date(t.clock.now().getTime() + days * 86_400_000));
  const today = () => shift(0);

  it('is off with no setting; the public read needs no sign-in and may be cached', async () => {
    const res = await t.request({ url: PUBLIC_MOURNING });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ active: false });
    expect(res.headers['cache-control']).toMatch(/public, max-age=\d+/);
  });

  it('is set by platform operators only: school administrators and teachers get 403, a signed-out caller 401', async () => {
    const body = { enabled: true, startDate: today(), endDate: today(), version: 0 };
    expect((await t.as('school01').put(MOURNING, body)).status).toBe(403);
    expect((await t.as('teacher01').put(MOURNING, body)).status).toBe(403);
    expect((await t.as('school01').get(MOURNING)).status).toBe(403);
    expect((await t.request({ method: 'PUT', url: MOURNING, payload: body })).statusCode).toBe(401);
    expect((await t.request({ url: PUBLIC_MOURNING })).json().data).toEqual({ active: false });
  });

  it('refuses an end before the start and a range over 31 days, changing nothing', async () => {
    const op = t.as('district01');
    const back = await op.put(MOURNING, { enabled: true, startDate: shift(2), endDate: shift(1), version: 0 });
    expect(back.status).toBe(400);
    expect(back.body.data).toMatchObject({ field: 'endDate' });
    expect((await op.put(MOURNING, { enabled: true, startDate: shift(0), endDate: shift(40), version: 0 })).status).toBe(400);
    expect((await op.get(MOURNING)).body.data).toMatchObject({ enabled: false, version: 0 });
  });

  it("greys the console between its dates: the operator's save is audited, read publicly at once, and a stale form is refused", async () => {
    const op = t.as('district01');
    const saved = await op.put(MOURNING, { enabled: true, startDate: shift(-1), endDate: shift(1), version: 0 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ enabled: true, version: 1 });
    expect((await t.request({ url: PUBLIC_MOURNING })).json().data).toEqual({ active: true });
    const [row] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'platformSetting'), eq(auditLogs.entityId, 'mourning')));
    expect(row).toMatchObject({ action: 'create' });

    // Another operator's form from before the save.
    expect((await op.put(MOURNING, { enabled: false, startDate: shift(-1), endDate: shift(1), version: 0 })).status).toBe(409);

    // A range that ended yesterday is not grey today.
    const moved = await op.put(MOURNING, { enabled: true, startDate: shift(-3), endDate: shift(-1), version: 1 });
    expect(moved.status).toBe(200);
    expect((await t.request({ url: PUBLIC_MOURNING })).json().data).toEqual({ active: false });
    // Switched off within its dates: not grey.
    await op.put(MOURNING, { enabled: false, startDate: today(), endDate: today(), version: 2 });
    expect((await t.request({ url: PUBLIC_MOURNING })).json().data).toEqual({ active: false });
    await op.put(MOURNING, { enabled: true, startDate: today(), endDate: today(), version: 3 });
    expect((await t.request({ url: PUBLIC_MOURNING })).json().data).toEqual({ active: true });
  });
});
