import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, users } from '../../../server/db/schema/auth';
import { sensitiveViews } from '../../../server/db/schema/data-access';
import { physiqueResults } from '../../../server/db/schema/physique';
import { orgSecuritySettings } from '../../../server/db/schema/security';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { readZipDirectory, readZipEntry } from '../../../server/lib/spreadsheet/zip';
import { createTestApp, type TestApp } from '../../support/server-app';

/**
 * Every export of personal data goes through the approval above the organisation's threshold, a job's too, and an
 * export that writes unmasked mobiles or ID numbers is logged as a view (docs/product-rules.md#personal-data-access).
 */
let t: TestApp;
let k12Id: string;
const K12 = '/api/busi/web/k12';
const APPROVAL = `${K12}/system/exportApproval`;

beforeAll(async () => {
  t = await createTestApp();
  const [m] = await t.db.select({ org: memberships.tenantOrgId }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(eq(users.accountNum, 'school01'));
  k12Id = m.org;
}, 120_000);
afterAll(() => t.close());

const setThreshold = async (rows: number) => {
  await t.db
    .insert(orgSecuritySettings)
    .values({ orgId: k12Id, value: { exportApprovalRows: rows } })
    .onConflictDoUpdate({ target: orgSecuritySettings.orgId, set: { value: { exportApprovalRows: rows } } });
};

/** The exporter's stamp in the first sheet's print footer. */
const footer = (file: Buffer) => readZipEntry(file, readZipDirectory(file).get('xl/worksheets/sheet1.xml')!, 1 << 26).toString('utf8');

describe('the score export (a job) above the threshold', () => {
  it('is refused with 409 at once, then requested, approved and downloaded as the workbook of every result; below it starts', async () => {
    const [top] = await t.db
      .select({ planId: physiqueResults.planId, n: sql<number>`count(*)::int` })
      .from(physiqueResults)
      .where(eq(physiqueResults.orgId, k12Id))
      .groupBy(physiqueResults.planId)
      .orderBy(desc(sql`count(*)`))
      .limit(1);
    const { planId, n } = top;
    expect(n).toBeGreaterThan(2);
    await setThreshold(n - 1);
    const url = `${K12}/organizeTest/scoreSearch/export`;
    const refused = await t.as('school01').post(url, { planId });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('审批');
    expect(refused.body.data).toMatchObject({ field: 'exportApproval', path: url, screen: 'k12.test.scoreSearch' });

    const request = await t.as('school01').post<{ id: string }>(APPROVAL, { screen: 'k12.test.scoreSearch', path: url, query: { planId }, reason: '体测成绩上报核对' });
    expect(request.status).toBe(200);
    const id = request.body.data.id;
    expect((await t.as('school01').get(`${APPROVAL}/${id}/download`)).status).toBe(409);
    expect((await t.as('school01').post(`${APPROVAL}/${id}/decide`, { approve: true })).status).toBe(200);
    const file = await t.request({ url: `${APPROVAL}/${id}/download`, token: await t.as('school01').token() });
    expect(file.statusCode).toBe(200);
    const { rows } = await readXlsxRows(file.rawPayload);
    expect(rows.length - 1).toBe(n);
    expect(footer(file.rawPayload)).toMatch(/<oddFooter>[^<]*school01/);

    // At the threshold the job starts as before.
    await setThreshold(n);
    const started = await t.as('school01').post<{ id: string }>(url, { planId });
    expect(started.status).toBe(200);
    expect(started.body.data.id).toBeTruthy();
  });
});

describe('an export with path params (a plan\'s sign-up list, beside the page\'s template)', () => {
  it('names its path in the refusal; the request keeps it and the download is that plan\'s list', async () => {
    const [plan] = await t.db.select({ planId: physiqueResults.planId }).from(physiqueResults).where(eq(physiqueResults.orgId, k12Id)).limit(1);
    const url = `${K12}/organizeTest/testManage/signUp/export/${plan.planId}`;
    await setThreshold(100_000);
    const whole = await t.as('school01').get(url);
    expect(whole.status).toBe(200);
    const n = (await readXlsxRows(whole.res.rawPayload)).rows.length - 1;
    expect(n).toBeGreaterThan(1);
    await setThreshold(n - 1);
    const refused = await t.as('school01').get(url);
    expect(refused.status).toBe(409);
    expect(refused.body.data).toMatchObject({ field: 'exportApproval', path: url, screen: 'k12.test.testManage' });
    // The blank template of the same page names nobody: never refused.
    expect((await t.as('school01').get(`${K12}/organizeTest/testManage/import/template`)).status).toBe(200);
    // The path must name an export of the page that opted in.
    const wrong = await t.as('school01').post(APPROVAL, { screen: 'k12.test.testManage', path: `${K12}/organizeTest/testManage/signUp/nothing/${plan.planId}`, query: {}, reason: '报名名单' });
    expect(wrong.status).toBe(404);
    const request = await t.as('school01').post<{ id: string }>(APPROVAL, { screen: 'k12.test.testManage', path: url, query: {}, reason: '报名名单' });
    expect(request.status).toBe(200);
    expect((await t.as('school01').post(`${APPROVAL}/${request.body.data.id}/decide`, { approve: true })).status).toBe(200);
    const file = await t.request({ url: `${APPROVAL}/${request.body.data.id}/download`, token: await t.as('school01').token() });
    expect(file.statusCode).toBe(200);
    expect((await readXlsxRows(file.rawPayload)).rows.length - 1).toBe(n);
    expect(footer(file.rawPayload)).toMatch(/<oddFooter>[^<]*school01/);
  });
});

describe('an export of unmasked numbers', () => {
  it('leaves one view log row naming the exporter, the screen and the people whose numbers the file holds', async () => {
    await setThreshold(100_000);
    const before = await t.db.$count(sensitiveViews);
    const res = await t.as('school01').get(`${K12}/user/teacher/export`);
    expect(res.status).toBe(200);
    const rows = await t.db.select().from(sensitiveViews).where(eq(sensitiveViews.via, 'export'));
    expect(await t.db.$count(sensitiveViews)).toBe(before + 1);
    expect(rows).toHaveLength(1);
    const [me] = await t.db.select().from(users).where(eq(users.accountNum, 'school01'));
    expect(rows[0]).toMatchObject({ userId: me.id, accountNum: 'school01', userName: me.name, screen: 'k12.user.teacher', orgId: k12Id });
    // The people named are exactly those whose mobile or ID number the file holds.
    const { rows: sheet } = await readXlsxRows(res.res.rawPayload);
    // Rows end at their last value: padded to the header's width.
    const head = sheet[0].map((v) => String(v ?? ''));
    const body = sheet.slice(1).map((r) => head.map((_, i) => String(r[i] ?? '')));
    const numbers = ['手机号', '身份证号', '证件号码'].map((h) => head.indexOf(h));
    expect(numbers.every((i) => i >= 0)).toBe(true);
    const withNumbers = body.filter((r) => numbers.some((i) => r[i] !== ''));
    expect(withNumbers.length).toBeGreaterThan(0);
    // Unmasked in the file.
    expect(withNumbers.some((r) => /^1\d{10}$/.test(r[numbers[0]]))).toBe(true);
    expect(withNumbers.some((r) => numbers.some((i) => r[i].includes('*')))).toBe(false);
    expect(rows[0].peopleCount).toBe(withNumbers.length);
    expect(rows[0].people.map((p) => p.name).sort()).toEqual(withNumbers.map((r) => r[head.indexOf('姓名')]).sort());
  });

  it('an export of a list without numbers logs nothing', async () => {
    const before = await t.db.$count(sensitiveViews);
    expect((await t.as('school01').get(`${K12}/exerciseRecord/export`)).status).toBe(200);
    expect(await t.db.$count(sensitiveViews)).toBe(before);
  });
});

describe('exports without personal data', () => {
  it('are never refused, whatever the threshold', async () => {
    await setThreshold(1);
    for (const url of [`${K12}/org/class/export`, `${K12}/organizeTest/testManage/import/template`]) {
      const res = await t.as('school01').get(url);
      expect(res.status, url).toBe(200);
    }
    // A class list of more rows than the threshold.
    const { rows } = await readXlsxRows((await t.as('school01').get(`${K12}/org/class/export`)).res.rawPayload);
    expect(rows.length - 1).toBeGreaterThan(1);
    // …while a student list of as many is refused.
    expect((await t.as('school01').get(`${K12}/user/student/export`)).status).toBe(409);
  });
});
