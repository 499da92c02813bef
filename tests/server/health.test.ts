import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Db } from '../../server/db/client';
import { parseEnv } from '../../server/env';
import { createTestApp, type TestApp } from '../support/server-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seeded: false });
});
afterAll(async () => {
  await t?.close();
});

describe('health and readiness for a load balancer', () => {
  it('answers liveness without signing in and without the database', async () => {
    const res = await t.request({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers a probe asking with HEAD; the API’s other reads are GET only (no HEAD twins: server/app.ts)', async () => {
    for (const url of ['/api/health', '/api/health/ready']) {
      const res = await t.request({ method: 'HEAD', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('');
    }
    expect((await t.request({ url: '/api/docs/console/json' })).statusCode).toBe(200);
    expect((await t.request({ method: 'HEAD', url: '/api/docs/console/json' })).statusCode).toBe(404);
  });

  it('is ready when the database answers and every committed migration is applied', async () => {
    const res = await t.request({ url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ready: true, database: 'ok', migrations: 'current' });
  });

  it('is not ready (503) when the database is older than the code', async () => {
    const { rows } = await t.db.execute<{ id: number; hash: string; created_at: string }>(sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`);
    const newest = rows[0];
    await t.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${newest.id}`);
    try {
      const res = await t.request({ url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ ready: false, database: 'ok', migrations: 'behind' });
    } finally {
      await t.db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest.id}, ${newest.hash}, ${newest.created_at})`);
    }
    expect((await t.request({ url: '/api/health/ready' })).statusCode).toBe(200);
  });

  it('is not ready (503) when the database cannot be reached', async () => {
    const unreachable = new Proxy({} as Db, {
      get(_target, prop) {
        if (prop === 'execute') return () => Promise.reject(new Error('connection refused (test)'));
        return undefined;
      },
    });
    const app = await buildApp({ db: unreachable, env: parseEnv({ NODE_ENV: 'test', WEB_DIST: '/nonexistent-tiyu-dist' }) });
    try {
      expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
      const res = await app.inject({ url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ ready: false, database: 'unreachable', migrations: 'unknown' });
    } finally {
      await app.close();
    }
  });

  it('holds every request until the start-up work beside it (the menus against the catalogue) is done', async () => {
    let done!: () => void;
    const startup = new Promise<void>((resolve) => (done = resolve));
    const app = await buildApp({ db: t.db, env: parseEnv({ NODE_ENV: 'test', WEB_DIST: '/nonexistent-tiyu-dist' }), startup });
    try {
      let answered = false;
      const health = app.inject({ url: '/api/health' }).then((res) => ((answered = true), res));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(answered).toBe(false);
      done();
      expect((await health).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
