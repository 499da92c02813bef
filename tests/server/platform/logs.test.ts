import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { OnlineSessionRow, OperationLogDetail, OperationLogRow, SignInLogRow } from '@/domain/platform/logs';
import { eq } from 'drizzle-orm';
import { auditLogs } from '../../../server/db/schema/audit';
import { classes } from '../../../server/db/schema/school';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, TEST_CAPTCHA, type TestApp } from '../../support/server-app';
import { sha256Hex } from '../../../server/lib/password';

let t: TestApp;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  for (const account of ['school01', 'district01', 'college01', 'teacher01']) tokens[account] = (await t.login(account)).access_token;
});
afterAll(() => t?.close());

const EN = { 'accept-language': 'en-US' };
const api = (family: string, page: string) => `/api/busi/web/${family}/system/${page}`;
const page = async <T>(url: string, token: string) => {
  const res = await t.request({ url, token, headers: EN });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<Page<T>>>().data;
};

describe('sign-in log', () => {
  it('records every attempt with time, account, address, result and reason, for the organisation and those above it', async () => {
    expect((await t.loginResponse('teacher01', 'wrong-password-1')).statusCode).toBe(400);
    const captchaWrong = await t.app.inject({
      method: 'POST',
      url: '/api/sso/login',
      headers: { 'x-forwarded-for': '10.1.2.3' },
      payload: { accountNum: 'teacher01', password: sha256Hex('x'), code: TEST_CAPTCHA.replace(/./g, (d) => String((Number(d) + 1) % 10)), randomStr: await t.captcha() },
    });
    expect(captchaWrong.statusCode).toBe(400);
    expect((await t.loginResponse('nobody-here-1')).statusCode).toBe(400);
    await t.login('teacher01');

    const rows = (await page<SignInLogRow>(`${api('k12', 'signInLog')}/page?account=teacher01&size=50`, tokens.school01)).records;
    const reasons = rows.map((r) => [r.result, r.reason]);
    expect(reasons).toContainEqual(['failure', 'errors:badCredentials']);
    expect(reasons).toContainEqual(['failure', 'errors:captchaWrong']);
    expect(reasons).toContainEqual(['success', null]);
    expect(rows[0]).toMatchObject({ account: 'teacher01', name: expect.any(String), orgName: '南京市江宁区实验学校', ip: expect.any(String) });
    // Newest first.
    expect([...rows].sort((a, b) => b.at.localeCompare(a.at)).map((r) => r.id)).toEqual(rows.map((r) => r.id));

    const failures = (await page<SignInLogRow>(`${api('k12', 'signInLog')}/page?account=teacher01&result=failure`, tokens.school01)).records;
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures.every((r) => r.result === 'failure')).toBe(true);

    // The bureau above reads its schools' people; a sibling university does not.
    expect((await page<SignInLogRow>(`${api('admin', 'signInLog')}/page?account=teacher01`, tokens.district01)).total).toBe(rows.length);
    expect((await page<SignInLogRow>(`${api('gx', 'signInLog')}/page?account=teacher01`, tokens.college01)).total).toBe(0);
    // An account that does not exist belongs to no organisation.
    expect((await page<SignInLogRow>(`${api('admin', 'signInLog')}/page?account=nobody-here-1`, tokens.district01)).total).toBe(0);
  });

  it('refuses an end date before the start date, naming the field, and teachers without the page', async () => {
    const res = await t.request({ url: `${api('k12', 'signInLog')}/page?from=2026-05-02&to=2026-05-01`, token: tokens.school01, headers: EN });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ data: { field: 'to' }, msg: 'The end date cannot be before the start date' });
    expect((await t.request({ url: `${api('k12', 'signInLog')}/page?from=2026-02-30`, token: tokens.school01 })).statusCode).toBe(400);
    expect((await t.request({ url: `${api('k12', 'signInLog')}/page`, token: tokens.teacher01 })).statusCode).toBe(403);
  });

  it('filters by day in the organisations’ time zone and exports the filtered rows', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(t.clock.now());
    const todays = await page<SignInLogRow>(`${api('k12', 'signInLog')}/page?from=${today}&to=${today}&size=80`, tokens.school01);
    expect(todays.total).toBeGreaterThan(0);
    expect((await page<SignInLogRow>(`${api('k12', 'signInLog')}/page?to=2020-01-01`, tokens.school01)).total).toBe(0);

    const res = await t.request({ url: `${api('k12', 'signInLog')}/export?account=teacher01&result=failure`, token: tokens.school01, headers: EN });
    expect(res.statusCode).toBe(200);
    const { rows } = await readXlsxRows(res.rawPayload);
    expect(rows[0]).toEqual(['Time', 'Account', 'Name', 'Organization', 'IP address', 'Result', 'Reason', 'Browser']);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.slice(1).map((r) => r[5])).toEqual(rows.slice(1).map(() => 'Failure'));
    expect(rows.slice(1).map((r) => r[6])).toContain('Wrong account or password');
    // Columns the list hides (name, organisation, browser) are left out, the rest in the list's order.
    const shown = await t.request({ url: `${api('k12', 'signInLog')}/export?account=teacher01&result=failure&columns=result,at,account,ip,reason`, token: tokens.school01, headers: EN });
    expect((await readXlsxRows(shown.rawPayload)).rows[0]).toEqual(['Result', 'Time', 'Account', 'IP address', 'Reason']);
  });
});

describe('online sessions and the operation log', () => {
  it('lists live sessions, signs out exactly one, and records it in the operation log', async () => {
    const first = (await t.login('teacher01')).access_token;
    t.clock.advance(60_000);
    const second = (await t.login('teacher01')).access_token;
    const list = await page<OnlineSessionRow>(`${api('k12', 'onlineSession')}/page?user=teacher01&size=80`, tokens.school01);
    expect(list.total).toBeGreaterThanOrEqual(2);
    expect(list.records.every((r) => r.accountNum === 'teacher01' && !r.current)).toBe(true);
    const own = await page<OnlineSessionRow>(`${api('k12', 'onlineSession')}/page?user=school01&size=80`, tokens.school01);
    expect(own.records.filter((r) => r.current)).toHaveLength(1);

    // Latest activity first: the second sign-in.
    const target = list.records[0];
    // Another organisation cannot see or end it.
    expect((await t.request({ method: 'POST', url: `${api('gx', 'onlineSession')}/${target.id}/signOut`, token: tokens.college01 })).statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: `${api('k12', 'onlineSession')}/${target.id}/signOut`, token: tokens.teacher01 })).statusCode).toBe(403);

    const res = await t.request({ method: 'POST', url: `${api('k12', 'onlineSession')}/${target.id}/signOut`, token: tokens.school01 });
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.request({ url: '/api/busi/web/myInfo/getUInfo', token: second })).statusCode).toBe(401);
    expect((await t.request({ url: '/api/busi/web/myInfo/getUInfo', token: first })).statusCode).toBe(200);
    // Ended sessions leave the list and cannot be ended twice.
    expect((await page<OnlineSessionRow>(`${api('k12', 'onlineSession')}/page?user=teacher01&size=80`, tokens.school01)).records.map((r) => r.id)).not.toContain(target.id);
    expect((await t.request({ method: 'POST', url: `${api('k12', 'onlineSession')}/${target.id}/signOut`, token: tokens.school01 })).statusCode).toBe(404);

    const ops = await page<OperationLogRow>(`${api('k12', 'operationLog')}/page?entity=session&action=signOut`, tokens.school01);
    const row = ops.records.find((r) => r.entityId === target.id);
    expect(row).toMatchObject({ accountNum: 'school01', orgName: '南京市江宁区实验学校' });
    const detail = await t.request({ url: `${api('k12', 'operationLog')}/${row!.id}`, token: tokens.school01 });
    expect(detail.json<Envelope<OperationLogDetail>>().data.before).toMatchObject({ accountNum: 'teacher01' });
    // The bureau reads it too; the university gets 404 for the same id.
    expect((await t.request({ url: `${api('admin', 'operationLog')}/${row!.id}`, token: tokens.district01 })).statusCode).toBe(200);
    expect((await t.request({ url: `${api('gx', 'operationLog')}/${row!.id}`, token: tokens.college01 })).statusCode).toBe(404);
    expect((await page<OperationLogRow>(`${api('gx', 'operationLog')}/page?entity=session`, tokens.college01)).records.map((r) => r.id)).not.toContain(row!.id);

    const xlsx = await t.request({ url: `${api('k12', 'operationLog')}/export?entity=session`, token: tokens.school01, headers: EN });
    expect(xlsx.statusCode).toBe(200);
    const { rows } = await readXlsxRows(xlsx.rawPayload);
    expect(rows[0]).toEqual(['Time', 'By', 'Account', 'Organization', 'Action', 'Record type', 'Record', 'Record id']);
    expect(rows.find((r) => r[7] === target.id)?.slice(4, 6)).toEqual(['Sign out session', 'Session']);
    // Columns the list hides (account, organisation, record type) are left out; the record's id goes with its name.
    const shown = await t.request({ url: `${api('k12', 'operationLog')}/export?entity=session&columns=entityName,at,userName,action,actions`, token: tokens.school01, headers: EN });
    expect((await readXlsxRows(shown.rawPayload)).rows[0]).toEqual(['Record', 'Record id', 'Time', 'By', 'Action']);
  });
});

describe('the operation log in words', () => {
  const classApi = '/api/busi/web/k12/org/class';
  const write = (method: 'POST' | 'PUT', url: string, payload: object) => t.request({ method, url, token: tokens.school01, payload });

  it('filters by record type and action (codes of the one table), answers the record name beside its id, also for older rows', async () => {
    const [some] = (await page<{ gradeId: string }>(`${classApi}/page?size=10`, tokens.school01)).records;
    const created = (await write('POST', classApi, { gradeId: some.gradeId, code: 95, name: '日志95班' })).json<Envelope<{ id: string; version: number }>>().data;
    expect((await write('PUT', `${classApi}/${created.id}`, { gradeId: some.gradeId, code: 95, name: '日志九十五班', version: created.version })).statusCode).toBe(200);

    const updates = await page<OperationLogRow>(`${api('k12', 'operationLog')}/page?entity=class&action=update`, tokens.school01);
    expect(updates.records.every((r) => r.entity === 'class' && r.action === 'update')).toBe(true);
    const updated = updates.records.find((r) => r.entityId === created.id);
    expect(updated).toMatchObject({ entityName: '日志九十五班' });
    const creates = await page<OperationLogRow>(`${api('k12', 'operationLog')}/page?entity=class&action=create`, tokens.school01);
    expect(creates.records.find((r) => r.entityId === created.id)).toMatchObject({ action: 'create', entityName: '日志95班' });
    expect((await page<OperationLogRow>(`${api('k12', 'operationLog')}/page?entity=banner`, tokens.school01)).records.map((r) => r.entityId)).not.toContain(created.id);

    // The detail holds the record before and after, and the name.
    const detail = (await t.request({ url: `${api('k12', 'operationLog')}/${updated!.id}`, token: tokens.school01 })).json<Envelope<OperationLogDetail>>().data;
    expect(detail).toMatchObject({ entityName: '日志九十五班', before: { name: '日志95班' }, after: { name: '日志九十五班' } });

    // Rows written before names were kept: the name the row's record held, else the record's name now.
    const [{ orgId }] = await t.db.select({ orgId: classes.orgId }).from(classes).where(eq(classes.id, created.id));
    await t.db.insert(auditLogs).values([
      { orgId, action: 'status', entity: 'class', entityId: created.id, after: { id: created.id, name: '那时的名字' } },
      { orgId, action: 'import', entity: 'class', entityId: created.id, after: { count: 3 } },
    ]);
    const old = (await page<OperationLogRow>(`${api('k12', 'operationLog')}/page?entity=class`, tokens.school01)).records.filter((r) => r.entityId === created.id);
    expect(old.find((r) => r.action === 'status')?.entityName).toBe('那时的名字');
    expect(old.find((r) => r.action === 'import')?.entityName).toBe('日志九十五班');

    // The export says it in words: action, record type, name.
    const xlsx = await t.request({ url: `${api('k12', 'operationLog')}/export?entity=class&action=update`, token: tokens.school01 });
    const { rows } = await readXlsxRows(xlsx.rawPayload);
    expect(rows[0].slice(4)).toEqual(['操作', '对象类型', '操作对象', '对象编号']);
    expect(rows.find((r) => r[7] === created.id)?.slice(4, 7)).toEqual(['修改', '班级', '日志九十五班']);
  });

  it('refuses a filter that is not one of the codes, naming the field, in the request language', async () => {
    const res = await t.request({ url: `${api('k12', 'operationLog')}/page?action=cre`, token: tokens.school01, headers: EN });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ data: { field: 'action' }, msg: 'Choose an action from the list' });
    const zh = await t.request({ url: `${api('k12', 'operationLog')}/page?entity=班级`, token: tokens.school01 });
    expect(zh.json()).toMatchObject({ data: { field: 'entity' }, msg: '请从列表中选择对象类型' });
  });
});
