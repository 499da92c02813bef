import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { students } from '../../server/db/schema/school';
import { orgs } from '../../server/db/schema/orgs';
import { ORG_TYPE } from '@/domain/constants';
import { createTestApp, type TestApp } from '../support/server-app';

let t: TestApp;
let dist: string;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'tiyu-dist-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>tiyu</title><div id="root"></div>');
  t = await createTestApp({ env: { WEB_DIST: dist } });
  for (const account of ['school01', 'college01', 'teacher01']) tokens[account] = (await t.login(account)).access_token;
});
afterAll(async () => {
  await t?.close();
  await rm(dist, { recursive: true, force: true });
});

const json = { 'content-type': 'application/json' };

describe('bodies of calls that take none', () => {
  it('signs out with content-type application/json and an empty body', async () => {
    const { access_token: token } = await t.login('school01');
    const res = await t.request({ method: 'POST', url: '/api/sso/oauth/logout', token, headers: json, payload: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ code: '200', data: null });
    expect((await t.request({ url: '/api/busi/web/myInfo/getUInfo', token })).statusCode).toBe(401);
  });

  it('still refuses a malformed non-empty JSON body, and an empty body where one is required, in the envelope', async () => {
    const bad = await t.request({ method: 'POST', url: '/api/sso/oauth/logout', token: tokens.school01, headers: json, payload: '{"a' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: '400', data: null, msg: '请求参数有误' });
    const empty = await t.request({ method: 'POST', url: '/api/busi/web/myInfo/editUser', token: tokens.school01, headers: json, payload: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: '400', data: null });
  });
});

describe('bad input answers 400, never 500', () => {
  it('refuses a NUL character in a text field, naming the field', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/busi/web/myInfo/editUser',
      token: tokens.school01,
      payload: { userName: 'a\u0000b', mobile: '', gender: 'male' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: '400', data: null, msg: '字段 userName 含有不允许的字符' });
  });

  it('refuses a NUL character in a query filter, naming it', async () => {
    const res = await t.request({ url: '/api/busi/web/k12/org/class/page?name=%00x', token: tokens.school01, headers: { 'accept-language': 'en-US' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: '400', data: null, msg: 'The field name contains a character that is not allowed.' });
  });

  it('refuses test-record date filters that are no calendar day', async () => {
    const res = await t.request({ url: '/api/busi/web/k12/selfTest/testRecord/page?from=2026-13-45', token: tokens.school01 });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('起始日期须为有效日期（YYYY-MM-DD）');
    const zero = await t.request({ url: '/api/busi/web/k12/selfTest/testRecord/page?to=0000-01-01', token: tokens.school01 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().msg).toBe('截止日期须为有效日期（YYYY-MM-DD）');
  });

  it('answers a URL that cannot be decoded inside the envelope', async () => {
    const res = await t.app.inject({ url: '/api/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: '400', data: null, msg: '请求参数有误' });
  });
});

describe('security headers', () => {
  it('marks API answers with personal data no-store, with the security headers', async () => {
    const res = await t.request({ url: '/api/busi/web/myInfo/getUInfo', token: tokens.school01 });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const page = await t.request({ url: '/api/busi/web/k12/org/class/page?size=10', token: tokens.school01 });
    expect(page.headers['cache-control']).toBe('no-store');
    const err = await t.request({ url: '/api/busi/web/myInfo/getUInfo' });
    expect(err.headers['cache-control']).toBe('no-store');
  });

  it('sends CSP, frame, content-type and referrer headers with the console page', async () => {
    const res = await t.app.inject({ url: '/busi/' });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
  });
});

describe('route families', () => {
  it("refuses a caller whose organisation is not of the route's family", async () => {
    const [k12] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12));
    const [uni] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.university));
    const [k12Student] = await t.db.select({ id: students.id }).from(students).where(and(eq(students.orgId, k12.id))).limit(1);
    const [uniStudent] = await t.db.select({ id: students.id }).from(students).where(and(eq(students.orgId, uni.id))).limit(1);

    const own = await t.request({ url: `/api/busi/web/k12/physique/report/${k12Student.id}`, token: tokens.school01 });
    expect(own.statusCode, own.body).toBe(200);
    const k12AsGx = await t.request({ url: `/api/busi/web/gx/physique/report/${k12Student.id}`, token: tokens.school01 });
    expect(k12AsGx.statusCode).toBe(403);
    expect(k12AsGx.json()).toEqual({ code: '403', data: null, msg: '没有该操作的权限' });
    const gxAsK12 = await t.request({ url: `/api/busi/web/k12/physique/report/${uniStudent.id}`, token: tokens.college01 });
    expect(gxAsK12.statusCode).toBe(403);
    const teacherAsGx = await t.request({ url: `/api/busi/web/gx/physique/report/${k12Student.id}`, token: tokens.teacher01 });
    expect(teacherAsGx.statusCode).toBe(403);
  });
});
