import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_S } from '@/domain/constants';
import type { Envelope } from '@/domain/api';
import type { TokenData } from '@/domain/auth/types';
import { membershipRoles, memberships, roleMenus, sessions, users } from '../../server/db/schema/auth';
import { createTestApp, type TestApp } from '../support/server-app';

// Sessions and permissions are cached in process (server/lib/auth-cache.ts): every change below is made after a request
// has filled the cache, and must still take effect on the very next request, whoever wrote it (a route or plain SQL).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const YEARS = '/api/busi/web/k12/org/acayear/page?size=20';
const years = (token: string) => t.request({ method: 'GET', url: YEARS, token });
const userId = async (account: string) => (await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, account)))[0].id;

/** Signs in and makes one request, so the session and the scope are in the cache. */
async function warm(account: string): Promise<TokenData> {
  const token = await t.login(account);
  expect((await years(token.access_token)).statusCode).toBe(200);
  expect((await years(token.access_token)).statusCode).toBe(200);
  return token;
}

describe('cached sessions and permissions', () => {
  it('a permission taken from the role in the database is refused on the next request', async () => {
    const token = await warm('school01');
    const [m] = await t.db.select({ id: memberships.id }).from(memberships).where(eq(memberships.userId, await userId('school01')));
    const roleIds = (await t.db.select({ roleId: membershipRoles.roleId }).from(membershipRoles).where(eq(membershipRoles.membershipId, m.id))).map((r) => r.roleId);
    const kept = await t.db.select().from(roleMenus).where(inArray(roleMenus.roleId, roleIds));
    await t.db.delete(roleMenus).where(inArray(roleMenus.roleId, roleIds));
    expect((await years(token.access_token)).statusCode).toBe(403);
    // Given back: allowed again on the next request.
    await t.db.insert(roleMenus).values(kept);
    expect((await years(token.access_token)).statusCode).toBe(200);
  });

  it('a disabled account or membership ends access on the next request', async () => {
    const a = await warm('school01');
    await t.db.update(users).set({ enabled: false }).where(eq(users.accountNum, 'school01'));
    expect((await years(a.access_token)).statusCode).toBe(401);
    await t.db.update(users).set({ enabled: true }).where(eq(users.accountNum, 'school01'));

    const b = await warm('school01');
    await t.db.update(memberships).set({ enabled: false }).where(eq(memberships.userId, await userId('school01')));
    expect((await years(b.access_token)).statusCode).toBe(403);
    await t.db.update(memberships).set({ enabled: true }).where(eq(memberships.userId, await userId('school01')));
    expect((await years(b.access_token)).statusCode).toBe(200);
  });

  it('sign-out, a revoked session and token rotation end the old access token on the next request', async () => {
    const out = await warm('school01');
    expect((await t.request({ method: 'POST', url: '/api/sso/oauth/logout', token: out.access_token })).statusCode).toBe(200);
    expect((await years(out.access_token)).statusCode).toBe(401);

    const revoked = await warm('school01');
    await t.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, await userId('school01')));
    expect((await years(revoked.access_token)).statusCode).toBe(401);

    const rotated = await warm('school01');
    const res = await t.app.inject({ method: 'POST', url: '/api/sso/oauth/token', payload: { refresh_token: rotated.refresh_token } });
    expect(res.statusCode).toBe(200);
    expect((await years(rotated.access_token)).statusCode).toBe(401);
    expect((await years(res.json<Envelope<TokenData>>().data.access_token)).statusCode).toBe(200);
  });

  it('a cached access token still expires on time', async () => {
    const token = await warm('school01');
    t.clock.advance((ACCESS_TOKEN_TTL_S + 1) * 1000);
    expect((await years(token.access_token)).statusCode).toBe(401);
  });
});
