import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app';
import { openDb, type DbHandle } from '../../../server/db/client';
import { parseEnv } from '../../../server/env';
import { WRITE_LSN_COOKIE } from '../../../server/plugins/replica';
import { DEMO_PASSWORD } from '../../../server/seed/demo';
import { sha256Hex } from '../../../server/lib/password';
import { createTestApp, randomStr, type TestApp } from '../../support/server-app';

// A replica that cannot answer never costs the user an error (docs/deploy.md, "Read replica"). The live replica (lag,
// own writes, stop) is proven by tests/cluster; here the replica is a PostgreSQL port nobody listens on.
describe('reads with a dead read replica', () => {
  let t: TestApp;
  let dead: DbHandle;
  let app: FastifyInstance;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    dead = await openDb({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none', connectTimeoutMs: 500 });
    const stream = { write: (line: string) => void lines.push(line) };
    app = await buildApp({
      db: t.db,
      replica: dead.db,
      env: parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: '1234', WEB_DIST: '/nonexistent-tiyu-dist' }),
      logger: { level: 'warn', stream },
      rateLimits: { captchaPerMinute: 10_000, loginPerMinute: 10_000 },
    });
  });
  afterAll(async () => {
    await app?.close();
    await dead?.close();
    await t?.close();
  });

  it('lists answer from the primary, with one log line; a write hands its position on', async () => {
    const key = randomStr();
    await app.inject({ url: `/api/code?randomStr=${key}` });
    const login = await app.inject({ method: 'POST', url: '/api/sso/login', payload: { accountNum: 'district01', password: sha256Hex(DEMO_PASSWORD), code: '1234', randomStr: key } });
    expect(login.statusCode).toBe(200);
    // A write (here the sign-in) names the primary's WAL position for the user's next reads, whichever instance serves them.
    expect(String(login.headers['set-cookie'])).toMatch(new RegExp(`${WRITE_LSN_COOKIE}=[0-9A-F]+/[0-9A-F]+;`));
    const token = login.json<{ data: { access_token: string } }>().data.access_token;
    const get = (url: string) => app.inject({ url, headers: { authorization: `bearer ${token}` } });
    const first = await get('/api/busi/web/admin/user/page?size=50');
    expect(first.statusCode).toBe(200);
    expect(first.json().data.total).toBeGreaterThan(0);
    expect((await get('/api/busi/web/admin/user/page?size=50')).statusCode).toBe(200);
    const warned = lines.filter((l) => l.includes('read replica unusable'));
    expect(warned).toHaveLength(1);
  });
});
