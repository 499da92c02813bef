import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { StoredFile } from '@/domain/uploads/stored-file';
import { filePaths } from '@/domain/uploads/stored-file';
import { files } from '../../../server/db/schema/files';
import { FILE_CSP } from '../../../server/modules/files/files.send';
import { createTestApp, type TestApp } from '../../support/server-app';
import { multipartBody, padded, PDF_HEAD, png } from '../files/fixtures';

let t: TestApp;
let dir: string;
let token: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiyu-headers-'));
  await mkdir(join(dir, 'dist', 'assets'), { recursive: true });
  await writeFile(join(dir, 'dist', 'index.html'), '<!doctype html><title>tiyu</title><div id="root"></div>');
  t = await createTestApp({ env: { WEB_DIST: join(dir, 'dist'), STORAGE_DIR: join(dir, 'files') } });
  token = (await t.login('school01')).access_token;
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const directives = (csp: string) => new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));

describe('security headers on every answer', () => {
  it('gives the console page a CSP without inline or evaluated script, and forbids framing', async () => {
    const res = await t.app.inject({ url: '/busi/k12/dataCenter/school' });
    expect(res.statusCode).toBe(200);
    const csp = directives(String(res.headers['content-security-policy']));
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    // Intranet installs run over plain http: the policy must not upgrade their requests.
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['strict-transport-security']).toBe('max-age=15552000');
  });

  it('sends the same headers with API answers, refusals and unknown paths', async () => {
    for (const res of [
      await t.request({ url: '/api/busi/web/myInfo/getUInfo', token }),
      await t.request({ url: '/api/busi/web/myInfo/getUInfo' }),
      await t.request({ url: '/api/no/such/route', token }),
    ]) {
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});

describe('cookies', () => {
  it('sets none: the token travels in the Authorization header', async () => {
    const login = await t.loginResponse('school01');
    expect(login.statusCode).toBe(200);
    const { refresh_token: refreshToken, access_token: access } = login.json<Envelope<{ refresh_token: string; access_token: string }>>().data;
    const answers = [
      login,
      await t.app.inject({ url: `/api/code?randomStr=${Date.now()}abcd` }),
      await t.request({ url: '/api/busi/web/myInfo/getUInfo', token: access }),
      await t.app.inject({ url: '/busi/' }),
      await t.request({ method: 'POST', url: '/api/sso/oauth/token', payload: { refresh_token: refreshToken } }),
    ];
    for (const res of answers) expect(res.headers['set-cookie'], res.raw.req.url).toBeUndefined();
  });
});

describe('uploads are never served as a page', () => {
  const upload = async (name: string, bytes: Buffer) => {
    const body = multipartBody(name, bytes);
    const res = await t.request({ method: 'POST', url: `${filePaths.upload}?purpose=attachment`, token, headers: { 'content-type': body.contentType }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Envelope<StoredFile>>().data;
  };

  it('serves a stored file under a sandboxing CSP of its own, not the console policy', async () => {
    const pdf = await upload('rules.pdf', padded(PDF_HEAD, 2000));
    const res = await t.request({ url: filePaths.content(pdf.id), token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe(FILE_CSP);
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('downloads a file whose stored type is markup as bytes, never as HTML or SVG', async () => {
    // Markup is refused at upload; a row with such a type can only come from outside the store (older data, a hand edit).
    for (const mime of ['text/html', 'image/svg+xml', 'application/xhtml+xml']) {
      const file = await upload('page.png', await png());
      await t.db.update(files).set({ mime }).where(eq(files.id, file.id));
      const res = await t.request({ url: filePaths.content(file.id), token });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
      expect(res.headers['content-security-policy']).toBe(FILE_CSP);
    }
  });
});
