import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { MessageRow, TodoItem, TodoSummary } from '@/domain/messages/messages';
import { messages } from '../../../server/db/schema/messages';
import { physiqueExemptions } from '../../../server/db/schema/physique-year';
import { schoolYears, semesters } from '../../../server/db/schema/school';
import { writeXlsx } from '../../../server/lib/spreadsheet/xlsx-writer';
import { dataOf, DEMO, orgOf } from '../../support/factories';
import { importJob } from '../../support/jobs';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
const api = '/api/busi/web';

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
});
afterAll(async () => {
  await t?.close();
});

const todos = async (account: string) => dataOf(await t.as(account).get<TodoSummary>(`${api}/todos`));
const itemOf = (summary: TodoSummary, kind: TodoItem['kind']) => summary.items.filter((i) => i.kind === kind);

/** The list API a to-do's link opens, with the link's filter: the console path's page under /api/busi/web. */
function listUrl(item: TodoItem): string {
  const [path, query] = item.to.split('?');
  const meet = /^\/single\/sportsMeet\/signUp\/([^/]+)$/.exec(path);
  if (meet) return `${api}/k12/sportsMeet/${meet[1]}/entries?${query}`;
  if (item.kind === 'unreadNotices') return `${api}/myInfo/notices/page?${query}`;
  return `${api}${path}/page?${query}`;
}
const listTotal = async (account: string, item: TodoItem) => {
  const res = await t.as(account).get<Page<unknown>>(listUrl(item));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.total;
};

describe('to-dos', () => {
  it('every item of a school administrator counts what its list shows under the same filter', async () => {
    const summary = await todos('school01');
    // The demo school has pending sign-ups, exemption requests and ended plans not yet released.
    expect(summary.items.map((i) => i.kind)).toEqual(expect.arrayContaining(['signUpReview', 'reportRelease', 'exemptionReview', 'openCases']));
    for (const item of summary.items) expect(await listTotal('school01', item), item.to).toBe(item.count);
    expect(summary.total).toBe(summary.items.reduce((s, i) => s + i.count, 0));
  });

  it('a new pending exemption request adds one to the item and to its list; an approval takes it away', async () => {
    const before = itemOf(await todos('school01'), 'exemptionReview')[0];
    expect(before.to).toBe('/k12/physiqueManage/exemption?status=pending');
    const k12 = await orgOf(t, DEMO.school);
    const [year] = await t.db.select({ id: schoolYears.id }).from(schoolYears).where(eq(schoolYears.orgId, k12.orgId)).limit(1);
    const students = dataOf(await t.as('school01').get<{ id: string }[]>(`${api}/k12/physiqueManage/exemption/students?keyword=`));
    const taken = new Set((await t.db.select({ s: physiqueExemptions.studentId }).from(physiqueExemptions).where(eq(physiqueExemptions.schoolYearId, year.id))).map((r) => r.s));
    const student = students.find((s) => !taken.has(s.id))!;
    const made = await t.as('school01').post<{ id: string; version: number }>(`${api}/k12/physiqueManage/exemption`, { studentId: student.id, schoolYearId: year.id, kind: 'exempt', reason: '腿伤', certificateFileId: null });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const after = itemOf(await todos('school01'), 'exemptionReview')[0];
    expect(after.count).toBe(before.count + 1);
    expect(await listTotal('school01', after)).toBe(after.count);
    const decided = await t.as('school01').put(`${api}/k12/physiqueManage/exemption/${made.body.data.id}/decide`, { decision: 'approved', note: '', version: made.body.data.version });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(itemOf(await todos('school01'), 'exemptionReview')[0]?.count ?? 0).toBe(before.count);
  });

  it('a page the user may not open gives no item', async () => {
    // A district administrator has no exemption, warning or sign-up review pages of a school.
    const district = await todos('district01');
    expect(district.items.map((i) => i.kind)).not.toContain('exemptionReview');
    expect(district.items.map((i) => i.kind)).not.toContain('openCases');
    // Every item's list opens for its user (no item for a page answered 403).
    for (const account of ['teacher01', 'college01']) {
      for (const item of (await todos(account)).items) expect(await listTotal(account, item), `${account} ${item.to}`).toBe(item.count);
    }
  });
});

describe('job messages', () => {
  const HEAD = ['姓名', '学籍号', '学号', '性别', '出生日期', '民族', '年级', '班级', '家长姓名', '家长手机号', '家长关系'];
  function multipart(file: Buffer, fields: Record<string, string>) {
    const boundary = `----tiyu${randomUUID().replace(/-/g, '')}`;
    const parts = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="students.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    return { payload: Buffer.concat([...parts, head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }

  it('a finished import leaves one message with its result for its starter only; its failures are a to-do until read', async () => {
    const k12 = await orgOf(t, DEMO.school);
    const [year] = await t.db
      .select({ schoolYearId: schoolYears.id, semesterId: semesters.id })
      .from(semesters)
      .innerJoin(schoolYears, eq(schoolYears.id, semesters.schoolYearId))
      .where(eq(schoolYears.orgId, k12.orgId))
      .limit(1);
    const token = await t.as('school01').token();
    const failuresBefore = itemOf(await todos('school01'), 'jobFailures');
    expect(failuresBefore).toEqual([]);
    const stamp = Date.now();
    // One good row and one refused (a class the school does not have).
    const file = writeXlsx([{ name: '学生', rows: [HEAD, ['消息甲', `M${stamp}`, '', '男', '', '', '一年级', '一年级1班'], ['消息乙', `N${stamp}`, '', '女', '', '', '一年级', '没有这个班']] }]);
    const body = multipart(file, { schoolYearId: year.schoolYearId, semesterId: year.semesterId });
    const dry = await t.request({ method: 'POST', url: `${api}/k12/user/student/import/preview`, token, payload: body.payload, headers: body.headers });
    expect(dry.statusCode, dry.body).toBe(200);
    const done = await importJob(t, token, await t.request({ method: 'POST', url: `${api}/k12/user/student/import/${dry.json().data.importId}/commit`, token }));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.headers['x-import-failure']).toBe('1');

    const mine = dataOf(await t.as('school01').get<Page<MessageRow>>(`${api}/myInfo/messages/page?read=unread&outcome=failures`));
    expect(mine.total).toBe(1);
    expect(mine.records[0]).toMatchObject({ kind: 'job', jobKind: 'peopleImport', jobState: 'done', failures: 1, text: '导入人员已完成：成功 1 行，失败 1 行', readAt: null });
    expect(mine.records[0].fileName).toMatch(/\.xlsx$/);
    // In the reader's language.
    const en = dataOf(await t.as('school01', { language: 'en-US' }).get<Page<MessageRow>>(`${api}/myInfo/messages/page?outcome=failures`));
    expect(en.records[0].text).not.toBe(mine.records[0].text);
    // One message per job, and only for its starter.
    expect(await t.db.$count(messages, eq(messages.jobId, mine.records[0].jobId!))).toBe(1);
    // Written by the transaction that marked the job done (the import commits on its own connection: finishIn), so a
    // screen that sees the job done finds its message; written after it, the list above could come back empty.
    const { rows: written } = await t.db.execute<{ same: boolean }>(
      sql`select m.xmin = j.xmin as same from messages m join jobs j on j.id = m.job_id where m.job_id = ${mine.records[0].jobId}::uuid`,
    );
    expect(written).toEqual([{ same: true }]);
    const other = dataOf(await t.as('teacher01').get<Page<MessageRow>>(`${api}/myInfo/messages/page`));
    expect(other.records.map((m) => m.id)).not.toContain(mine.records[0].id);
    expect(itemOf(await todos('teacher01'), 'jobFailures')).toEqual([]);

    // The to-do counts it and opens exactly that list; reading it clears the to-do.
    const [item] = itemOf(await todos('school01'), 'jobFailures');
    expect(item).toMatchObject({ count: 1, to: '/myInfo/messages?tab=jobs&read=unread&outcome=failures' });
    expect(await listTotal('school01', item)).toBe(1);
    // Another user cannot mark it read.
    await t.as('teacher01').post(`${api}/myInfo/messages/read`, { ids: [mine.records[0].id] });
    expect((await t.db.select().from(messages).where(and(eq(messages.id, mine.records[0].id))))[0].readAt).toBeNull();
    expect((await t.as('school01').post(`${api}/myInfo/messages/read`, { ids: [mine.records[0].id] })).status).toBe(200);
    expect(itemOf(await todos('school01'), 'jobFailures')).toEqual([]);
  });
});
