import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app';
import { onServer } from '../../../server/db/client';
import { parseEnv } from '../../../server/env';
import { createUploadLocker } from '../../../server/lib/shared-limits';
import { createTestApp, randomStr, type TestApp } from '../../support/server-app';

// Two instances on one database (docs/deploy.md, "Several instances"): what one counts, the other sees.
describe('limits shared by the instances on one database', () => {
  let a: TestApp;
  let b: FastifyInstance;
  beforeAll(async () => {
    a = await createTestApp({ rateLimits: { captchaPerMinute: 3, loginPerMinute: 2 } });
    b = await buildApp({
      db: a.db,
      env: parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: '1234', WEB_DIST: '/nonexistent-tiyu-dist' }),
      rateLimits: { captchaPerMinute: 3, loginPerMinute: 2 },
    });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a client gets the captcha limit once across two instances, not once per instance', async () => {
    const code = (app: FastifyInstance) => app.inject({ url: `/api/code?randomStr=${randomStr()}`, remoteAddress: '10.0.0.7' });
    expect((await code(a.app)).statusCode).toBe(200);
    expect((await code(b)).statusCode).toBe(200);
    expect((await code(a.app)).statusCode).toBe(200);
    expect((await code(b)).statusCode).toBe(429);
    expect((await code(a.app)).statusCode).toBe(429);
    // Another client has its own count; another route too.
    expect((await b.inject({ url: `/api/code?randomStr=${randomStr()}`, remoteAddress: '10.0.0.8' })).statusCode).toBe(200);
    const login = (app: FastifyInstance) => app.inject({ method: 'POST', url: '/api/sso/login', payload: {}, remoteAddress: '10.0.0.7' });
    expect((await login(b)).statusCode).toBe(400);
    expect((await login(a.app)).statusCode).toBe(400);
    expect((await login(b)).statusCode).toBe(429);
  });

  it('a new window starts once the old one has ended', async () => {
    await a.db.execute(sql`update rate_limit_hits set resets_at = now() - interval '1 second'`);
    expect((await b.inject({ url: `/api/code?randomStr=${randomStr()}`, remoteAddress: '10.0.0.7' })).statusCode).toBe(200);
  });

  it('on PostgreSQL an upload locked by one instance waits for it (advisory lock); on PGlite the one process locks in memory', async () => {
    const one = await createUploadLocker(a.db);
    const two = await createUploadLocker(a.db);
    const held = one.locker.newLock('upload-1');
    await held.lock(new AbortController().signal, async () => {});
    if (!onServer(a.db)) {
      await held.unlock();
      await Promise.all([one.close(), two.close()]);
      return;
    }
    let got = false;
    const second = two.locker.newLock('upload-1');
    const waiting = second
      .lock(new AbortController().signal, async () => {})
      .then(() => (got = true));
    await new Promise((r) => setTimeout(r, 300));
    const whileHeld = got;
    // Another upload is not held up.
    const other = two.locker.newLock('upload-2');
    await other.lock(new AbortController().signal, async () => {});
    await other.unlock();
    await held.unlock();
    await waiting;
    await second.unlock();
    await Promise.all([one.close(), two.close()]);
    expect({ whileHeld, afterRelease: got }).toEqual({ whileHeld: false, afterRelease: true });
  });
});
