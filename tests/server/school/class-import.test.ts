import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_TYPE } from '@/domain/constants';
import { auditLogs } from '../../../server/db/schema/audit';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, grades, teachers } from '../../../server/db/schema/school';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { writeXlsx } from '../../../server/lib/spreadsheet/xlsx-writer';
import { createTestApp, type TestApp } from '../../support/server-app';
import { multipartBody } from '../physique-results/physique-fixtures';

let t: TestApp;
const tokens: Record<string, string> = {};
let k12Id: string;
let grade3: { id: string; enrolYear: number };

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['school01', 'teacher01', 'college01']) tokens[account] = (await t.login(account)).access_token;
  const rows = await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs);
  k12Id = rows.find((o) => o.type === ORG_TYPE.k12)!.id;
  [grade3] = await t.db.select({ id: grades.id, enrolYear: grades.enrolYear }).from(grades).where(and(eq(grades.orgId, k12Id), eq(grades.gradeNo, 3)));
});
afterAll(async () => {
  await t?.close();
});

const HEAD = ['年级', '入学年份', '班级编号', '班级名称', '班号', '班主任', '体育老师'];
const book = (rows: unknown[][]) => writeXlsx([{ name: '班级', rows }]);

function upload(file: Buffer, fileName = 'classes.xlsx', account = 'school01', lang = 'zh-CN', o: { dryRun?: boolean; updateExisting?: boolean } = {}) {
  const plain = multipartBody(file, fileName);
  // The option travels as a form field before the file (as the dialog sends it).
  const boundary = plain.headers['content-type'].split('boundary=')[1];
  const body = o.updateExisting
    ? { ...plain, payload: Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="updateExisting"\r\n\r\ntrue\r\n`), plain.payload]) }
    : plain;
  return t.request({
    method: 'POST',
    url: `/api/busi/web/k12/org/class/import${o.dryRun ? '?dryRun=1' : ''}`,
    token: tokens[account],
    payload: body.payload,
    headers: { ...body.headers, 'accept-language': lang },
  });
}
const countK12 = () => t.db.$count(classes, eq(classes.orgId, k12Id));
const resultName = (res: { headers: Record<string, unknown> }) => decodeURIComponent(String(res.headers['content-disposition']).split("''")[1]);

describe('class import and export', () => {
  it('the template has the Chinese headers and an example row, in any language', async () => {
    const res = await t.request({ url: '/api/busi/web/k12/org/class/import/template', token: tokens.school01, headers: { 'accept-language': 'en-US' } });
    expect(res.statusCode).toBe(200);
    const { rows } = await readXlsxRows(res.rawPayload);
    expect(rows[0]).toEqual(HEAD);
    expect(rows[1].slice(0, 4)).toEqual(['三年级', 2024, 1, '三年级1班']);
    const gx = await readXlsxRows((await t.request({ url: '/api/busi/web/gx/org/class/import/template', token: tokens.college01 })).rawPayload);
    expect(gx.rows[0]).toEqual(['入学年份', '专业', '班级编号', '班级名称', '班号', '班主任', '体育老师']);
  });

  it('imports every row, numbers stored as text or as numbers, with teachers by staff number, and audits each class', async () => {
    const [teacher] = await t.db.select({ name: teachers.name, workNo: teachers.workNo }).from(teachers).where(eq(teachers.orgId, k12Id)).limit(1);
    const before = await countK12();
    const res = await upload(
      book([
        ['班级导入'], // a title row above the header
        HEAD,
        ['3', String(grade3.enrolYear), '61', '三年级61班', '0361', teacher.workNo, ''],
        [3, grade3.enrolYear, 62, '三年级62班', null, null, teacher.name],
        ['三年级', '', ' 63 ', '三年级63班', '', '', ''],
      ]),
    );
    expect(res.statusCode).toBe(200);
    expect(resultName(res)).toBe('班级导入结果_3_0.xlsx');
    expect(res.headers['x-import-success']).toBe('3');
    expect(await countK12()).toBe(before + 3);
    const [c61] = await t.db.select().from(classes).where(and(eq(classes.gradeId, grade3.id), eq(classes.code, 61)));
    expect(c61).toMatchObject({ name: '三年级61班', classNo: '0361', orgId: k12Id });
    expect(c61.headTeacherId).not.toBeNull();
    const logs = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'class'), eq(auditLogs.action, 'import'), eq(auditLogs.orgId, k12Id)));
    expect(logs.length).toBe(3);
  });

  it('is all or nothing: one refused row imports nothing, and every refused row is listed with its reason', async () => {
    const before = await countK12();
    const res = await upload(
      book([
        HEAD,
        ['3', '', '70', '三年级70班'],
        ['3', '', '100', '一百班'],
        ['3', '', '61', '重复编号'],
        ['3', '', '70', '文件内重复'],
        ['13', '', '1', '没有的年级'],
        ['3', '', '', '没有编号'],
        ['3', '', '71', '', '', '查无此人'],
      ]),
    );
    expect(res.statusCode).toBe(200);
    expect(resultName(res)).toBe('班级导入结果_0_6.xlsx');
    expect(await countK12()).toBe(before);
    const { rows } = await readXlsxRows(res.rawPayload);
    expect(rows[0]).toEqual([...HEAD, '失败原因']);
    const reasons = rows.slice(1).map((r) => r.at(-1));
    expect(reasons).toEqual([
      '第3行，班级编号：班级编号不能大于99',
      '第4行，班级编号：该年级下已有相同编号的班级',
      '第5行，班级编号：该年级下已有相同编号的班级',
      '第6行，年级：本校没有这个年级',
      '第7行，班级编号：请填写班级编号',
      '第8行，班主任：未找到“查无此人”',
    ]);
    expect(rows[1].slice(0, 4)).toEqual(['3', '', '100', '一百班']);
  });

  it('refuses anything but .xlsx, a file without the header, and callers without the import button', async () => {
    const file = book([HEAD, ['3', '', '80', '八十班']]);
    const csv = await upload(file, 'classes.csv');
    expect(csv.statusCode).toBe(400);
    expect(csv.json<{ msg: string }>().msg).toBe('只能导入Excel文件（.xlsx）');
    const en = await upload(book([['姓名', '学号'], ['x', 'y']]), 'classes.xlsx', 'school01', 'en-US');
    expect(en.statusCode).toBe(400);
    expect(en.json<{ msg: string }>().msg).toBe('No header row found; use the class import template');
    const missing = await upload(book([['年级', '班级编号', '班级名称'], ['3', '80', 'x']]));
    expect(missing.json<{ msg: string }>().msg).toBe('缺少必需的列：入学年份');
    expect((await upload(file, 'classes.xlsx', 'teacher01')).statusCode).toBe(403);
  });

  it('exports the classes of the current filter with the import columns and the head count', async () => {
    const res = await t.request({ url: `/api/busi/web/k12/org/class/export?gradeId=${grade3.id}`, token: tokens.school01 });
    expect(res.statusCode).toBe(200);
    expect(resultName(res)).toBe('班级列表.xlsx');
    const { rows } = await readXlsxRows(res.rawPayload);
    expect(rows[0]).toEqual([...HEAD, '人数']);
    const body = rows.slice(1);
    expect(body.length).toBe(await t.db.$count(classes, eq(classes.gradeId, grade3.id)));
    expect(body.every((r) => r[0] === '三年级' && r[1] === grade3.enrolYear)).toBe(true);
    expect(body.find((r) => r[3] === '三年级61班')?.[2]).toBe(61);
    expect((await t.request({ url: '/api/busi/web/k12/org/class/export', token: tokens.teacher01 })).statusCode).toBe(403);
  });

  it('an existing class (grade and code) changes only with 更新已存在的数据; the dry run lists each change and writes nothing', async () => {
    const [teacher] = await t.db.select({ id: teachers.id, name: teachers.name }).from(teachers).where(eq(teachers.orgId, k12Id)).limit(1);
    expect((await upload(book([HEAD, ['3', '', '81', '三年级81班']]))).statusCode).toBe(200);
    const [made] = await t.db.select().from(classes).where(and(eq(classes.gradeId, grade3.id), eq(classes.code, 81)));
    const rows = [HEAD, ['3', '', '81', '三年级八十一班', '0381', teacher.name], ['3', '', '82', '三年级82班']];
    // Without the option: refused, untouched (and the new row with it: all or nothing).
    const plain = await upload(book(rows));
    expect(resultName(plain)).toBe('班级导入结果_0_1.xlsx');
    expect((await readXlsxRows(plain.rawPayload)).rows[1].at(-1)).toBe('第2行，班级编号：该年级下已有相同编号的班级');
    expect((await t.db.select().from(classes).where(eq(classes.id, made.id)))[0]).toMatchObject({ name: '三年级81班', version: made.version });
    // The dry run with the option: counts and every change, nothing written.
    const dry = await upload(book(rows), 'classes.xlsx', 'school01', 'zh-CN', { dryRun: true, updateExisting: true });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().data).toEqual({
      rows: 2,
      create: 1,
      update: 1,
      unchanged: 0,
      rejected: 0,
      failures: [],
      updates: [
        {
          row: 2,
          who: '三年级81班',
          changes: [
            { field: 'name', label: '班级名称', before: '三年级81班', after: '三年级八十一班' },
            { field: 'classNo', label: '班号', before: '', after: '0381' },
            { field: 'headTeacherId', label: '班主任', before: '', after: teacher.name },
          ],
        },
      ],
    });
    expect((await t.db.select().from(classes).where(eq(classes.id, made.id)))[0].name).toBe('三年级81班');
    expect(await t.db.$count(classes, and(eq(classes.gradeId, grade3.id), eq(classes.code, 82)))).toBe(0);
    // The commit with the option updates it (audited) and creates the new one; the same file again changes nothing.
    const done = await upload(book(rows), 'classes.xlsx', 'school01', 'zh-CN', { updateExisting: true });
    expect(resultName(done)).toBe('班级导入结果_2_0.xlsx');
    expect((await t.db.select().from(classes).where(eq(classes.id, made.id)))[0]).toMatchObject({ name: '三年级八十一班', classNo: '0381', headTeacherId: teacher.id });
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, made.id), eq(auditLogs.action, 'import'), sql`${auditLogs.before} is not null`));
    expect(log.before).toMatchObject({ name: '三年级81班' });
    const again = await upload(book(rows), 'classes.xlsx', 'school01', 'zh-CN', { dryRun: true });
    expect(again.json().data).toMatchObject({ create: 0, update: 0, unchanged: 2, rejected: 0 });
  });
});
