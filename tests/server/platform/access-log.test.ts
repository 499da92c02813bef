import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { AccessLogRow } from '@/domain/platform/access-log';
import { accessLogs } from '../../../server/db/schema/access-log';
import { users } from '../../../server/db/schema/auth';
import { dataOf, DEMO, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

/** The access log (docs/decisions/062-access-log.md): every signed-in request, read by the organisation's auditors. */
let t: TestApp;
const LOG = (family: string) => `/api/busi/web/${family}/system/accessLog`;
const STUDENTS = '/api/busi/web/k12/user/student/page';

beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(() => t.close());

async function userId(account: string): Promise<string> {
  const [u] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, account));
  return u.id;
}
/** The newest logged row of `account` on `route` (after the writer's buffer is flushed). */
async function lastRow(account: string, route: string) {
  await t.app.accessLog.flush();
  const [row] = await t.db
    .select()
    .from(accessLogs)
    .where(and(eq(accessLogs.userId, await userId(account)), eq(accessLogs.route, route)))
    .orderBy(desc(accessLogs.id))
    .limit(1);
  return row;
}

describe('the access log', () => {
  it('a signed-in request leaves one row after the flush: who, the route pattern without the query values, the page, the status', async () => {
    const { orgId } = await orgOf(t, DEMO.school);
    const res = await t.as(DEMO.school).get(`${STUDENTS}?size=10&name=${encodeURIComponent('张三')}`, { headers: { 'user-agent': 'access-log-test' } });
    expect(res.status).toBe(200);
    const before = await t.db.$count(accessLogs);
    await t.app.accessLog.flush();
    expect(await t.db.$count(accessLogs)).toBeGreaterThan(before);
    const row = await lastRow(DEMO.school, STUDENTS);
    expect(row).toMatchObject({ kind: 'console', method: 'GET', route: STUDENTS, pageKey: 'k12.user.student', status: 200, orgId, userAgent: 'access-log-test' });
    expect(row.accountId).toBeTruthy();
    expect(row.roleId).toBeTruthy();
    expect(row.ip).toBeTruthy();
    // The values a URL carried (a name typed in a filter) are nowhere in the log.
    const { rows } = await t.db.execute<{ n: number }>(`select count(*)::int as n from access_logs where route like '%张三%' or route like '%?%'` as never);
    expect(Number(rows[0].n)).toBe(0);
  });

  it('a refused request (403) is logged too, and found by the "refused" filter', async () => {
    // The PE teacher holds no access-log page.
    const refused = await t.as(DEMO.teacher).get(`${LOG('k12')}/page`);
    expect(refused.status).toBe(403);
    expect(await lastRow(DEMO.teacher, `${LOG('k12')}/page`)).toMatchObject({ status: 403, kind: 'console' });
    const page = dataOf<Page<AccessLogRow>>(await t.as(DEMO.school).get(`${LOG('k12')}/page?size=80&outcome=denied&route=accessLog`));
    expect(page.records.length).toBeGreaterThan(0);
    expect(page.records.every((r) => r.status === 403 || r.status === 401)).toBe(true);
    expect(page.records.some((r) => r.accountNum === DEMO.teacher)).toBe(true);
  });

  it('is tenant-scoped: a school reads its own rows only, the bureau above reads its schools’', async () => {
    await t.as(DEMO.school2).get(STUDENTS);
    await t.app.accessLog.flush();
    const school2 = await orgOf(t, DEMO.school2);
    const mine = dataOf<Page<AccessLogRow>>(await t.as(DEMO.school2).get(`${LOG('k12')}/page?size=80`));
    expect(mine.records.length).toBeGreaterThan(0);
    expect(mine.records.every((r) => r.orgName === school2.name)).toBe(true);
    expect(mine.records.some((r) => r.accountNum === DEMO.school)).toBe(false);
    // Filtered by another school's account: nothing, not its rows.
    expect(dataOf<Page<AccessLogRow>>(await t.as(DEMO.school2).get(`${LOG('k12')}/page?account=${DEMO.school}`)).total).toBe(0);
    const district = dataOf<Page<AccessLogRow>>(await t.as(DEMO.district).get(`${LOG('admin')}/page?size=80&account=${DEMO.school}`));
    expect(district.records.some((r) => r.route === STUDENTS && r.pageKey === 'k12.user.student')).toBe(true);
  });

  it('answers from the read cache are accesses too', async () => {
    const url = '/api/busi/web/k12/organizeTest/scoreSearch/page?size=20';
    const route = '/api/busi/web/k12/organizeTest/scoreSearch/page';
    await t.as(DEMO.school).get(url);
    await t.app.accessLog.flush();
    const count = async () => t.db.$count(accessLogs, and(eq(accessLogs.userId, await userId(DEMO.school)), eq(accessLogs.route, route)));
    const before = await count();
    const again = await t.request({ url, token: await t.as(DEMO.school).token() });
    expect(again.headers['x-read-cache']).toBe('hit');
    await t.app.accessLog.flush();
    expect(await count()).toBe(before + 1);
  });

  it('is never editable through the product: no write route, and the export is the list', async () => {
    const token = await t.as(DEMO.school).token();
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      for (const url of [LOG('k12'), `${LOG('k12')}/1`, `${LOG('k12')}/page`]) {
        expect((await t.request({ method, url, token, payload: {} })).statusCode, `${method} ${url}`).toBe(404);
      }
    }
    const file = await t.request({ url: `${LOG('k12')}/export?route=student`, token });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
  });
});
