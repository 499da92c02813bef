import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { SimpleOrgInfo } from '@/domain/auth/types';
import { ORG_TYPE } from '@/domain/constants';
import { buildApp } from '../../server/app';
import type { Db } from '../../server/db/client';
import { orgs } from '../../server/db/schema/orgs';
import { parseEnv } from '../../server/env';
import { precompressDir } from '../../scripts/precompress';
import { createTestApp, randomStr, type TestApp } from '../support/server-app';

/** A database whose every use fails: for routes that must not touch it, and for the 5xx path. */
const QUERY_METHODS = new Set(['select', 'selectDistinct', 'insert', 'update', 'delete', 'transaction', 'execute', '$count']);
const brokenDb = new Proxy({} as Db, {
  get(_target, prop) {
    if (typeof prop === 'string' && QUERY_METHODS.has(prop)) throw new Error('database unavailable (test)');
    return undefined;
  },
});

describe('environment', () => {
  it('has the documented defaults', () => {
    expect(parseEnv({})).toMatchObject({ PORT: 8080, HOST: '0.0.0.0', PGLITE_DIR: './data', WEB_DIST: 'dist/web', NODE_ENV: 'development', LOG_LEVEL: 'info' });
    expect(parseEnv({}).DATABASE_URL).toBeUndefined();
    expect(parseEnv({ PORT: '9000', DATABASE_URL: '' }).PORT).toBe(9000);
  });

  it('refuses TIYU_CAPTCHA_FIXED when NODE_ENV=production', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', TIYU_CAPTCHA_FIXED: '1234' })).toThrow(/TIYU_CAPTCHA_FIXED is refused when NODE_ENV=production/);
    expect(parseEnv({ NODE_ENV: 'production' }).TIYU_CAPTCHA_FIXED).toBeUndefined();
    expect(parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: '1234' }).TIYU_CAPTCHA_FIXED).toBe('1234');
  });

  it('names a bad variable', () => {
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});

describe('a write that races past a uniqueness check', () => {
  it('answers 409 asking to refresh, not a server error', async () => {
    // The database's unique index refused the row (PostgreSQL 23505, wrapped by the driver and drizzle).
    const raced = new Proxy({} as Db, {
      get(_target, prop) {
        if (typeof prop === 'string' && QUERY_METHODS.has(prop)) {
          throw Object.assign(new Error('Failed query'), { cause: Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }) });
        }
        return undefined;
      },
    });
    const app = await buildApp({ db: raced, env: parseEnv({ NODE_ENV: 'test', WEB_DIST: '/nonexistent-tiyu-dist' }) });
    try {
      const res = await app.inject({ url: '/api/oper/web/cs/tenantOrg/getSimpleInfo', headers: { 'accept-language': 'en-US' } });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ code: '409', data: null, msg: 'Someone has just saved the same record. Refresh and try again.' });
    } finally {
      await app.close();
    }
  });
});

describe('rate limits (counted in the database, server/lib/shared-limits.ts)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: { loginPerMinute: 2, captchaPerMinute: 1 } });
  });
  afterAll(() => t?.close());

  it('limits sign-in attempts per IP (429, translated)', async () => {
    const attempt = () => t.app.inject({ method: 'POST', url: '/api/sso/login', payload: {}, headers: { 'accept-language': 'en-US' } });
    expect((await attempt()).statusCode).toBe(400);
    expect((await attempt()).statusCode).toBe(400);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ code: '429', data: null, msg: 'Too many requests. Please try again later.' });
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('limits captcha requests per IP', async () => {
    await t.app.inject({ url: '/api/code' });
    const limited = await t.app.inject({ url: '/api/code' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().msg).toBe('操作过于频繁，请稍后再试');
  });
});

describe('error envelope (no database needed)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({
      db: brokenDb,
      env: parseEnv({ NODE_ENV: 'test', WEB_DIST: '/nonexistent-tiyu-dist' }),
    });
  });
  afterAll(() => app?.close());

  it('answers 5xx with the generic server-error text, never the cause', async () => {
    const res = await app.inject({ url: '/api/oper/web/cs/tenantOrg/getSimpleInfo' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: '500', data: null, msg: '服务器出错，请稍后重试' });
    const en = await app.inject({ url: '/api/oper/web/cs/tenantOrg/getSimpleInfo', headers: { 'accept-language': 'en-US' } });
    expect(en.json().msg).toBe('Server error. Please try again later.');
  });

  it('answers unknown routes and malformed JSON in the envelope', async () => {
    const missing = await app.inject({ url: '/api/nothing-here', headers: { 'accept-language': 'zh-TW' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: '404', data: null, msg: '資料不存在或不屬於目前組織' });
    const bad = await app.inject({ method: 'POST', url: '/api/sso/oauth/token', headers: { 'content-type': 'application/json' }, payload: '{"refresh' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: '400', data: null, msg: '请求参数有误' });
  });

  it('redirects / to the app base path', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/busi/');
  });
});

describe('static web app under /busi/', () => {
  let app: FastifyInstance;
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'tiyu-dist-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>tiyu</title><div id="root"></div>');
    await writeFile(join(dist, 'assets', 'app-abc123.js'), 'console.log("tiyu")');
    app = await buildApp({ db: brokenDb, env: parseEnv({ NODE_ENV: 'test', WEB_DIST: dist }) });
  });
  afterAll(async () => {
    await app?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('serves index.html and assets', async () => {
    const index = await app.inject({ url: '/busi/' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/text\/html/);
    expect(index.body).toContain('<div id="root">');
    const js = await app.inject({ url: '/busi/assets/app-abc123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    // Hashed names never change content: kept a year, never asked again; the page itself is revalidated every load.
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(index.headers['cache-control']).toBe('no-cache');
    expect((await app.inject({ url: '/busi/k12/org/class' })).headers['cache-control']).toBe('no-cache');
    const bare = await app.inject({ url: '/busi' });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/busi/');
  });

  it('sends a hashed asset compressed when the browser accepts it, cached for good', async () => {
    // What a build writes: the chunk and, beside it, its brotli and gzip copies (scripts/precompress.ts).
    const code = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: "row ${i}" }`).join(', ')}];`;
    await writeFile(join(dist, 'assets', 'rows-def456.js'), code);
    await precompressDir(dist);
    const url = '/busi/assets/rows-def456.js';
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const res = await app.inject({ url, headers: { 'accept-encoding': accept } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.rawPayload.length).toBeLessThan(code.length / 4);
      expect(decode(res.rawPayload).toString()).toBe(code);
    }
    // A client that accepts neither gets the file as it is.
    const plain = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(code);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('falls back to index.html for client-side routes, but not for the API', async () => {
    const route = await app.inject({ url: '/busi/k12/org/class' });
    expect(route.statusCode).toBe(200);
    expect(route.body).toContain('<div id="root">');
    const asset = await app.inject({ url: '/busi/assets/app-old999.js' });
    expect(asset.statusCode).toBe(404);
    expect(asset.json().code).toBe('404');
    const api = await app.inject({ url: '/api/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe('404');
  });
});

describe('GET /api/oper/web/cs/tenantOrg/getSimpleInfo (public)', () => {
  let t: TestApp;
  let ids: Record<'bureau' | 'k12' | 'uni', string>;
  beforeAll(async () => {
    t = await createTestApp();
    const rows = await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs);
    const of = (type: number) => rows.find((o) => o.type === type)!.id;
    ids = { bureau: of(ORG_TYPE.management), k12: of(ORG_TYPE.k12), uni: of(ORG_TYPE.university) };
  });
  afterAll(() => t?.close());

  const info = async (query = '', lang?: string) => {
    const res = await t.app.inject({ url: `/api/oper/web/cs/tenantOrg/getSimpleInfo${query}`, headers: lang ? { 'accept-language': lang } : {} });
    expect(res.statusCode).toBe(200);
    return res.json<Envelope<SimpleOrgInfo>>().data;
  };

  it('answers the root organisation’s branding without an orgId', async () => {
    const root = await info();
    expect(root.platformName).toBe('江宁区智慧体育管理平台');
    expect(root.icon).toMatch(/^data:image\//);
    expect(root.loginImg).toMatch(/^data:image\//);
    expect(root.filingNumber).toBeTruthy();
  });

  it('answers an organisation’s own title and inherits what it lacks from its parents', async () => {
    const root = await info();
    const school = await info(`?orgId=${ids.k12}`);
    expect(school.platformName).toBe('江宁区实验学校体育平台');
    expect(school.icon).not.toBe(root.icon);
    expect(school.loginImg).toBe(root.loginImg);
    expect(school.filingNumber).toBe(root.filingNumber);
  });

  it('falls back to the root for unknown or malformed ids', async () => {
    const root = await info();
    expect(await info('?orgId=00000000-0000-4000-8000-000000000000')).toEqual(root);
    expect(await info('?orgId=garbage')).toEqual(root);
  });

  it('answers the default title (in the caller’s language) and empty images when nobody is branded', async () => {
    await t.db.update(orgs).set({ title: null, icon: null, loginImg: null, filingNumber: null });
    expect(await info(`?orgId=${ids.uni}`)).toEqual({ platformName: '体育管理平台', icon: '', loginImg: '', filingNumber: '' });
    expect((await info('', 'en-US')).platformName).not.toBe('体育管理平台');
    // The signed-in view uses the same default.
    const token = (await t.login('college01')).access_token;
    const u = (await t.request({ url: '/api/busi/web/myInfo/getUInfo', token })).json<Envelope<{ platformName: string; icon: string }>>().data;
    expect(u).toMatchObject({ platformName: '体育管理平台', icon: '' });
    expect((await t.db.select({ title: orgs.title }).from(orgs).where(eq(orgs.id, ids.bureau)))[0].title).toBeNull();
  });
});

it('randomStr helper looks like the browser’s (timestamp + random)', () => {
  expect(randomStr()).toMatch(/^\d{13}[0-9a-f]{8}$/);
});
