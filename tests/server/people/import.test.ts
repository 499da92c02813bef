import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_TYPE } from '@/domain/constants';
import { auditLogs } from '../../../server/db/schema/audit';
import { users } from '../../../server/db/schema/auth';
import { orgs } from '../../../server/db/schema/orgs';
import { physiqueResults, testRecords } from '../../../server/db/schema/physique';
import { dcRoster } from '../../../server/db/schema/data-center';
import { classes, grades, parentStudents, parents, schoolYears, semesters, studentClassHistory, students, teachers } from '../../../server/db/schema/school';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { writeXlsx } from '../../../server/lib/spreadsheet/xlsx-writer';
import { readZipDirectory, readZipEntry } from '../../../server/lib/spreadsheet/zip';
import { PEOPLE_IMPORT_TTL_MS } from '@/domain/people/people-import';
import { buildApp } from '../../../server/app';
import { pendingImports } from '../../../server/db/schema/files';
import { parseEnv } from '../../../server/env';
import { createStorage } from '../../../server/lib/storage/create-storage';
import { sweepFiles } from '../../../server/modules/files/files.service';
import { allowLargeExports } from '../../support/export-approval';
import { createTestApp, TEST_CAPTCHA, type TestApp } from '../../support/server-app';
import { xlsxPackage } from '../spreadsheet/xlsx-package';
import { importJob } from '../../support/jobs';

let t: TestApp;
const tokens: Record<string, string> = {};
let k12Id: string;
let year: { schoolYearId: string; semesterId: string };

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  for (const account of ['school01', 'school02', 'teacher01', 'district02']) tokens[account] = (await t.login(account)).access_token;
  const rows = await t.db.select({ id: orgs.id, type: orgs.type, name: orgs.name }).from(orgs);
  k12Id = rows.find((o) => o.type === ORG_TYPE.k12 && o.name.includes('实验学校'))!.id;
  const [s] = await t.db
    .select({ schoolYearId: schoolYears.id, semesterId: semesters.id })
    .from(semesters)
    .innerJoin(schoolYears, eq(schoolYears.id, semesters.schoolYearId))
    .where(eq(schoolYears.orgId, k12Id))
    .limit(1);
  year = s;
  // The whole school's export below is not about its approval (tests/server/data-access).
  await allowLargeExports(t, 'school01');
});
afterAll(async () => {
  await t?.close();
});

const STUDENT_API = '/api/busi/web/k12/user/student';
const HEAD = ['姓名', '学籍号', '学号', '性别', '出生日期', '民族', '年级', '班级', '家长姓名', '家长手机号', '家长关系'];
const book = (rows: unknown[][]) => writeXlsx([{ name: '学生', rows }]);

function multipart(file: Buffer, fileName: string, fields: Record<string, string>) {
  const boundary = `----tiyu${randomUUID().replace(/-/g, '')}`;
  const parts = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  return { payload: Buffer.concat([...parts, head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function preview(file: Buffer, opts: { fileName?: string; fields?: Record<string, string>; account?: string; api?: string; lang?: string } = {}) {
  const body = multipart(file, opts.fileName ?? 'students.xlsx', opts.fields ?? year);
  return t.request({
    method: 'POST',
    url: `${opts.api ?? STUDENT_API}/import/preview`,
    token: tokens[opts.account ?? 'school01'],
    payload: body.payload,
    headers: { ...body.headers, 'accept-language': opts.lang ?? 'zh-CN' },
  });
}
const commit = async (importId: string, account = 'school01', api = STUDENT_API) =>
  importJob(t, tokens[account], await t.request({ method: 'POST', url: `${api}/import/${importId}/commit`, token: tokens[account] }));
const countsOf = (res: { headers: Record<string, unknown> }) => ({ success: Number(res.headers['x-import-success']), failure: Number(res.headers['x-import-failure']) });

async function importAll(file: Buffer, fields: Record<string, string> = year) {
  const dry = await preview(file, { fields });
  expect(dry.statusCode, dry.body).toBe(200);
  const done = await commit(dry.json().data.importId);
  expect(done.statusCode, done.body).toBe(200);
  return { dry: dry.json().data, done };
}
const studentsWith = (regNos: string[]) => t.db.select().from(students).where(and(eq(students.orgId, k12Id), inArray(students.regNo, regNos)));

describe('student import: dry run, then commit', () => {
  it('the template has the Chinese headers, an example row and drop-down lists', async () => {
    const res = await t.request({ url: `${STUDENT_API}/import/template`, token: tokens.school01, headers: { 'accept-language': 'en-US' } });
    expect(res.statusCode).toBe(200);
    const file = res.rawPayload;
    const { rows, sheetNames } = await readXlsxRows(file);
    expect(rows[0].slice(0, 3)).toEqual(['姓名', '学籍号', '学号']);
    expect(rows[1][0]).toBe('张小明');
    expect(sheetNames).toHaveLength(2);
    const dir = readZipDirectory(file);
    const sheet = readZipEntry(file, dir.get('xl/worksheets/sheet1.xml')!, 1 << 24).toString('utf8');
    expect(sheet).toContain('<dataValidations count="8">');
    // Where the schema orders it: before ignoredErrors (Excel refuses the file otherwise).
    expect(sheet.indexOf('<dataValidations')).toBeLessThan(sheet.indexOf('<ignoredErrors'));
    expect(sheet).toMatch(/<dataValidation type="list"[^>]*sqref="D2:D5001"><formula1>'下拉选项'!\$A\$1:\$A\$2<\/formula1>/);
    const workbook = readZipEntry(file, dir.get('xl/workbook.xml')!, 1 << 24).toString('utf8');
    expect(workbook).toMatch(/name="下拉选项"[^>]*state="hidden"|state="hidden"[^>]*name="下拉选项"/);
    const lists = await readXlsxRows(file, { sheet: '下拉选项' });
    expect(lists.rows.map((r) => r[2]).filter(Boolean)).toContain('一年级');
    expect(lists.rows.map((r) => r[3]).filter(Boolean)).toContain('一年级1班');
  });

  it('refuses a student import before the school year and semester are chosen, and anything but .xlsx', async () => {
    const file = book([HEAD, ['王一', 'T1000001', '', '男', '', '', '一年级', '一年级1班']]);
    const res = await preview(file, { fields: {}, lang: 'en-US' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('Choose academic year and semester before importing students');
    expect((await preview(file, { fileName: 'students.xls' })).json().msg).toBe('只能导入Excel文件（.xlsx）');
    // A text file renamed .xlsx.
    const fake = await preview(Buffer.from('姓名,学籍号\n王一,T1\n'), { fileName: 'students.xlsx' });
    expect(fake.statusCode).toBe(400);
  });

  it('the dry run counts and lists rejected rows and writes nothing; the commit writes the accepted rows', async () => {
    const file = book([
      HEAD,
      ['王一', 'T1000001', '', '男', '2015-03-02', '汉族', '一年级', '一年级1班', '王大', '13912340001', '父亲'],
      ['王二', 'T1000002', '', '女', '', '', '一年级', '一年级1班', '王大', '13912340001', '父亲'],
      ['王三', 'T1000003', '', '人', '', '', '一年级', '一年级1班'],
      ['王四', 'T1000001', '', '男', '', '', '一年级', '一年级2班'],
      ['王五', 'T1000005', '', '男', '', '', '一年级', '九十九班'],
    ]);
    const before = await t.db.$count(students, eq(students.orgId, k12Id));
    const dry = await preview(file);
    expect(dry.statusCode, dry.body).toBe(200);
    const data = dry.json().data;
    expect(data).toMatchObject({ rows: 5, create: 2, update: 0, rejected: 3, parentsCreate: 1, parentsUpdate: 0 });
    expect(data.failures.map((f: { row: number }) => f.row)).toEqual([4, 5, 6]);
    expect(data.failures[0].reason).toMatch(/^第4行，性别：/);
    expect(data.failures[1].reason).toBe('第5行，学籍号：与第2行重复');
    expect(data.failures[2].reason).toContain('九十九班');
    expect(await t.db.$count(students, eq(students.orgId, k12Id))).toBe(before);

    const done = await commit(data.importId);
    expect(done.statusCode, done.body).toBe(200);
    expect(countsOf(done)).toEqual({ success: 2, failure: 3 });
    const name = decodeURIComponent(String(done.headers['content-disposition']).split("''")[1]);
    expect(name).toBe('学生导入结果_2_3.xlsx');
    const failures = await readXlsxRows(done.rawPayload);
    expect(failures.rows[0].at(-1)).toBe('失败原因');
    expect(failures.rows.slice(1).map((r) => r[0])).toEqual(['王三', '王四', '王五']);
    // One parent (one mobile) with both children.
    const kids = await studentsWith(['T1000001', 'T1000002']);
    expect(kids).toHaveLength(2);
    const [dad] = await t.db.select().from(parents).where(and(eq(parents.orgId, k12Id), eq(parents.mobile, '13912340001')));
    expect(dad.name).toBe('王大');
    expect(await t.db.$count(parentStudents, eq(parentStudents.parentId, dad.id))).toBe(2);
    // The id is used up; another organisation never sees it.
    expect((await commit(data.importId)).statusCode).toBe(404);
    const audits = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'student'), eq(auditLogs.action, 'import')));
    expect(audits.length).toBeGreaterThan(0);
  });

  it('an import id belongs to its organisation and account', async () => {
    const dry = await preview(book([HEAD, ['赵一', 'T2000001', '', '男', '', '', '一年级', '一年级1班']]));
    const id = dry.json().data.importId;
    expect((await commit(id, 'school02')).statusCode).toBe(404);
    expect((await studentsWith(['T2000001']))).toHaveLength(0);
    expect((await t.request({ method: 'DELETE', url: `${STUDENT_API}/import/${id}`, token: tokens.school01 })).statusCode).toBe(200);
    expect((await commit(id)).statusCode).toBe(404);
  });

  it('a dry-run file waits in the file store: another server instance commits it, and it expires after 15 minutes', async () => {
    const dry = await preview(book([HEAD, ['仓一', 'T1500001', '', '男', '', '', '一年级', '一年级1班']]));
    const { importId } = dry.json().data;
    expect(await t.db.$count(pendingImports, eq(pendingImports.id, importId))).toBe(1);
    // A second instance on the same database and store (a restart, or another server behind the load balancer).
    const other = await buildApp({ db: t.db, env: parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: TEST_CAPTCHA, WEB_DIST: '/nonexistent-tiyu-dist' }), now: t.clock.now });
    try {
      const done = await importJob(t, tokens.school01, await other.inject({ method: 'POST', url: `${STUDENT_API}/import/${importId}/commit`, headers: { authorization: `bearer ${tokens.school01}` } }));
      expect(done.statusCode, done.body).toBe(200);
      expect(await studentsWith(['T1500001'])).toHaveLength(1);
    } finally {
      await other.close();
    }
    expect(await t.db.$count(pendingImports, eq(pendingImports.id, importId))).toBe(0);

    const late = (await preview(book([HEAD, ['仓二', 'T1500002', '', '男', '', '', '一年级', '一年级1班']]))).json().data.importId;
    t.clock.advance(PEOPLE_IMPORT_TTL_MS + 1000);
    try {
      const res = await commit(late);
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe('导入文件已过期或已处理，请重新上传');
      const storage = await createStorage(parseEnv({ NODE_ENV: 'test' }));
      expect((await sweepFiles(t.db, storage, t.clock.now())).expiredImports).toBeGreaterThanOrEqual(1);
      expect(await t.db.$count(pendingImports, eq(pendingImports.id, late))).toBe(0);
      await storage.close();
    } finally {
      t.clock.advance(-(PEOPLE_IMPORT_TTL_MS + 1000));
    }
  });

  it('re-importing the same file updates instead of duplicating; a changed class moves the student', async () => {
    const rows = [HEAD, ['钱一', 'T3000001', '', '男', '', '', '一年级', '一年级1班', '钱父', '13912340011', '父亲'], ['钱二', 'T3000002', '', '女', '', '', '一年级', '一年级1班', '钱父', '13912340011', '父亲']];
    await importAll(book(rows));
    const again = await importAll(book(rows));
    // docs/product-rules.md#import-updates: rows that change nothing are skipped, not updated.
    expect(again.dry).toMatchObject({ create: 0, update: 0, unchanged: 2, rejected: 0, parentsCreate: 0, parentsUpdate: 0 });
    const [first] = await studentsWith(['T3000001']);
    expect(first.version).toBe(1); // nothing changed: nothing written
    rows[1][7] = '一年级2班';
    await importAll(book(rows), { ...year, updateExisting: 'true' });
    const moved = await studentsWith(['T3000001', 'T3000002']);
    expect(moved).toHaveLength(2);
    expect(moved.find((s) => s.regNo === 'T3000001')!.version).toBe(2);
    expect(await t.db.$count(parents, and(eq(parents.orgId, k12Id), eq(parents.mobile, '13912340011')))).toBe(1);
  });

  it('reads headers by alias, full-width characters, numbers stored as text and typed dates', async () => {
    const file = book([
      ['全国学籍号', ' 姓 名 ', '性别', '出生年月', '民族', '年级', '班级名称', '家长电话', '与学生关系', '家长姓名'],
      ['Ｔ４０００００１', '孙一', 1, new Date(Date.UTC(2015, 4, 6)), '01', '１', '一年级1班', '１３９１２３４００２１', '母亲', '孙母'],
      ['T4000002', '孙二', '２', '2015/6/7', '回族', '一年级', '１', 13912340021, '母亲', '孙母'],
    ]);
    const { dry } = await importAll(file);
    expect(dry).toMatchObject({ create: 2, rejected: 0 });
    const got = await studentsWith(['T4000001', 'T4000002']);
    const one = got.find((s) => s.regNo === 'T4000001')!;
    expect(one).toMatchObject({ name: '孙一', gender: 'male', birthDate: '2015-05-06', ethnicity: '01' });
    expect(got.find((s) => s.regNo === 'T4000002')).toMatchObject({ gender: 'female', birthDate: '2015-06-07', ethnicity: '03' });
    const [mum] = await t.db.select().from(parents).where(and(eq(parents.orgId, k12Id), eq(parents.mobile, '13912340021')));
    expect(mum).toMatchObject({ name: '孙母', gender: 'female' });
  });

  it('refuses a 学籍号 that Excel stored as a number and lost digits of', async () => {
    const dry = await preview(book([HEAD, ['李一', 1.2345678901234568e17, '', '男', '', '', '一年级', '一年级1班']]));
    expect(dry.json().data.failures[0].reason).toContain('学籍号被Excel存成了数字');
  });

  it('commit is all or nothing: a failure on the last row leaves no row', async () => {
    const rows = [HEAD, ...Array.from({ length: 30 }, (_, i) => [`周${i}`, `T50000${String(i).padStart(2, '0')}`, '', '男', '', '', '一年级', '一年级1班'])];
    rows[30][0] = '末行';
    const dry = await preview(book(rows));
    expect(dry.json().data).toMatchObject({ create: 30, rejected: 0 });
    await t.db.execute(sql.raw(`create or replace function tiyu_test_fail() returns trigger language plpgsql as $$ begin if new.name = '末行' then raise exception 'simulated crash'; end if; return new; end $$`));
    await t.db.execute(sql.raw('create trigger tiyu_test_fail before insert on students for each row execute function tiyu_test_fail()'));
    // ALWAYS: the commit writes in replica mode (decision 066), where only such triggers fire.
    await t.db.execute(sql.raw('alter table students enable always trigger tiyu_test_fail'));
    try {
      const done = await commit(dry.json().data.importId);
      expect(done.statusCode).toBe(500);
    } finally {
      await t.db.execute(sql.raw('drop trigger tiyu_test_fail on students'));
    }
    expect(await studentsWith(rows.slice(1).map((r) => String(r[1])))).toHaveLength(0);
  });

  it('a parent mobile given two names in the file is reported', async () => {
    const dry = await preview(
      book([HEAD, ['吴一', 'T6000001', '', '男', '', '', '一年级', '一年级1班', '吴父', '13912340031', '父亲'], ['吴二', 'T6000002', '', '男', '', '', '一年级', '一年级1班', '别人', '13912340031', '父亲']]),
    );
    expect(dry.json().data.failures[0].reason).toBe('第3行，家长姓名：该家长手机号在第2行登记为“吴父”，同一手机号的家长姓名须一致');
  });

  it('needs the import permission', async () => {
    const res = await preview(book([HEAD]), { account: 'teacher01' });
    expect(res.statusCode).toBe(403);
  });
});

describe('existing records change only with 更新已存在的数据 (docs/product-rules.md#import-updates)', () => {
  const UPDATE = () => ({ ...year, updateExisting: 'true' });
  /** A seeded student of the school, with or without physique results, and another class of the same grade. */
  async function seeded(withResults: boolean) {
    const scored = t.db.selectDistinct({ id: physiqueResults.studentId }).from(physiqueResults);
    const recorded = t.db.selectDistinct({ id: testRecords.studentId }).from(testRecords);
    const [s] = await t.db
      .select({ id: students.id, regNo: students.regNo, name: students.name, studentNo: students.studentNo, birthDate: students.birthDate, ethnicity: students.ethnicity, gender: students.gender, classId: students.classId, className: classes.name, gradeId: classes.gradeId, gradeNo: grades.gradeNo, version: students.version })
      .from(students)
      .innerJoin(classes, eq(classes.id, students.classId))
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(
        and(
          eq(students.orgId, k12Id),
          eq(grades.graduated, false),
          withResults ? inArray(students.id, scored) : and(sql`${students.id} not in ${scored}`, sql`${students.id} not in ${recorded}`),
        ),
      )
      .limit(1);
    const [other] = await t.db.select({ id: classes.id, name: classes.name }).from(classes).where(and(eq(classes.gradeId, s.gradeId), sql`${classes.id} <> ${s.classId}`)).limit(1);
    return { ...s, other };
  }
  const rowOf = (s: Awaited<ReturnType<typeof seeded>>, over: { name?: string; gender?: string; className?: string } = {}) => [
    over.name ?? s.name,
    s.regNo,
    s.studentNo ?? '',
    over.gender ?? (s.gender === 'male' ? '男' : '女'),
    s.birthDate ?? '',
    s.ethnicity,
    String(s.gradeNo),
    over.className ?? s.className,
  ];
  const current = async (id: string) => (await t.db.select().from(students).where(eq(students.id, id)))[0];

  it('without the option, a row with an existing 学籍号 is refused and the student is untouched', async () => {
    const s = await seeded(true);
    const before = await current(s.id);
    const dry = await preview(book([HEAD, rowOf(s, { name: '重复学籍', gender: s.gender === 'male' ? '女' : '男', className: s.other.name })]));
    expect(dry.statusCode, dry.body).toBe(200);
    const data = dry.json().data;
    expect(data).toMatchObject({ create: 0, update: 0, rejected: 1, updates: [] });
    expect(data.failures[0].reason).toBe('第2行，学籍号：学籍号已注册；如需更新该学生，请勾选“更新已存在的数据”');
    const done = await commit(data.importId);
    expect(countsOf(done)).toEqual({ success: 0, failure: 1 });
    expect(await current(s.id)).toEqual(before);
  });

  it('with the option, the dry run lists the row and its changes before → after, and the commit applies them as a transfer', async () => {
    const s = await seeded(true);
    const dry = await preview(book([HEAD, ['新生甲', 'T8100001', '', '男', '', '', String(s.gradeNo), s.className], rowOf(s, { name: `${s.name}改`, className: s.other.name })]), { fields: UPDATE() });
    const data = dry.json().data;
    expect(data, dry.body).toMatchObject({ create: 1, update: 1, rejected: 0 });
    expect(data.updates).toEqual([
      {
        row: 3,
        who: `${s.name}（${s.regNo}）`,
        changes: [
          { field: 'name', label: '姓名', before: s.name, after: `${s.name}改` },
          { field: 'classId', label: '班级', before: s.className, after: s.other.name },
        ],
      },
    ]);
    // Nothing written by the dry run.
    expect((await current(s.id)).name).toBe(s.name);
    const en = (await preview(book([HEAD, rowOf(s, { name: `${s.name}改` })]), { fields: UPDATE(), lang: 'en-US' })).json().data;
    expect(en.updates[0].changes).toEqual([{ field: 'name', label: 'Name', before: s.name, after: `${s.name}改` }]);
    const done = await commit(data.importId);
    expect(countsOf(done)).toEqual({ success: 2, failure: 0 });
    const after = await current(s.id);
    expect(after).toMatchObject({ name: `${s.name}改`, classId: s.other.id, gender: s.gender, version: s.version + 1 });
    const history = await t.db.select().from(studentClassHistory).where(eq(studentClassHistory.studentId, s.id));
    expect(history.find((h) => h.until === null)).toMatchObject({ classId: s.other.id, reason: 'import' });
    // The audit keeps each updated student's before and after.
    const logs = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'student'), eq(auditLogs.action, 'import')));
    const log = logs.find((l) => (l.before as { updated?: { id: string }[] } | null)?.updated?.[0]?.id === s.id);
    expect(log?.before).toEqual({ updated: [{ id: s.id, regNo: s.regNo, name: s.name, classId: s.classId }] });
    expect(log?.after).toMatchObject({ created: 1, updated: [{ id: s.id, regNo: s.regNo, name: `${s.name}改`, classId: s.other.id }] });
  });

  it('refuses a gender change of a student with results, even with the option; allows it without results', async () => {
    const scored = await seeded(true);
    const plain = await seeded(false);
    const flip = (g: string) => (g === 'male' ? '女' : '男');
    const dry = await preview(book([HEAD, rowOf(scored, { gender: flip(scored.gender) }), rowOf(plain, { gender: flip(plain.gender) })]), { fields: UPDATE() });
    const data = dry.json().data;
    expect(data, dry.body).toMatchObject({ update: 1, rejected: 1 });
    expect(data.failures[0].reason).toBe('第2行，性别：该学生已有体测成绩或测试记录（按原性别评分），不能修改性别');
    expect(data.updates.map((u: { row: number }) => u.row)).toEqual([3]);
    expect(countsOf(await commit(data.importId))).toEqual({ success: 1, failure: 1 });
    expect((await current(scored.id)).gender).toBe(scored.gender);
    expect((await current(plain.id)).gender).not.toBe(plain.gender);
  });

  it('the commit writes what the dry run checked, and never overwrites a student created or changed in between', async () => {
    const s = await seeded(false);
    const dry = await preview(book([HEAD, ['后来者', 'T8200001', '', '男', '', '', String(s.gradeNo), s.className], rowOf(s, { name: '导入改名' })]), { fields: UPDATE() });
    expect(dry.json().data).toMatchObject({ create: 1, update: 1 });
    // Meanwhile: the new 学籍号 is registered by the form, and the existing student is edited.
    await t.db.insert(students).values({ orgId: k12Id, regNo: 'T8200001', name: '表单新增', classId: s.classId, gender: 'female' });
    await t.db.update(students).set({ name: '表单改名', version: sql`${students.version} + 1` }).where(eq(students.id, s.id));
    const done = await commit(dry.json().data.importId);
    expect(countsOf(done)).toEqual({ success: 0, failure: 2 });
    const failures = (await readXlsxRows(done.rawPayload)).rows.slice(1).map((r) => String(r.at(-1)));
    expect(failures).toEqual(['第2行，学籍号：检查后该记录已被新增或修改，本行未导入，请重新上传检查', '第3行，学籍号：检查后该记录已被新增或修改，本行未导入，请重新上传检查']);
    expect((await studentsWith(['T8200001']))[0]).toMatchObject({ name: '表单新增', gender: 'female' });
    expect((await current(s.id)).name).toBe('表单改名');
  });

  it('a class removed after the dry run: its rows are refused at the commit, the others written and counted in the roster', async () => {
    const [one] = await t.db
      .select({ id: classes.id, gradeId: classes.gradeId })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(classes.orgId, k12Id), eq(classes.name, '一年级1班'), eq(grades.graduated, false)));
    const [gone] = await t.db.insert(classes).values({ orgId: k12Id, gradeId: one.gradeId, code: 97, name: '一年级97班' }).returning({ id: classes.id });
    const rosterOf = async () => (await t.db.select({ n: dcRoster.students }).from(dcRoster).where(and(eq(dcRoster.classId, one.id), eq(dcRoster.gender, 'male'))))[0]?.n ?? 0;
    const before = await rosterOf();
    const dry = await preview(book([HEAD, ['撤班生', 'T8250001', '', '男', '', '', '一年级', '一年级97班'], ['留班生', 'T8250002', '', '男', '', '', '一年级', '一年级1班']]));
    expect(dry.json().data).toMatchObject({ create: 2, rejected: 0 });
    // Meanwhile the class is removed (it had no students yet).
    await t.db.delete(classes).where(eq(classes.id, gone.id));
    const done = await commit(dry.json().data.importId);
    expect(done.statusCode, done.body).toBe(200);
    expect(countsOf(done)).toEqual({ success: 1, failure: 1 });
    const failures = (await readXlsxRows(done.rawPayload)).rows.slice(1).map((r) => String(r.at(-1)));
    expect(failures).toEqual(['第2行，班级：检查后该记录已被新增或修改，本行未导入，请重新上传检查']);
    expect((await studentsWith(['T8250001', 'T8250002'])).map((x) => x.name)).toEqual(['留班生']);
    // The views' roster follows the students the import wrote.
    expect(await rosterOf()).toBe(before + 1);
  });

  it('the commit does not read the file again: the kept plan is what the dry run checked', async () => {
    const dry = await preview(book([HEAD, ['计划甲', 'T8300001', '', '男', '', '', '一年级', '一年级1班']]));
    const [kept] = await t.db.select().from(pendingImports).where(eq(pendingImports.id, dry.json().data.importId));
    expect(kept.context).toMatchObject({ checkedPlan: '1' });
    expect(countsOf(await commit(dry.json().data.importId))).toEqual({ success: 1, failure: 0 });
  });

  it('an existing parent keeps its name unless the option is ticked', async () => {
    await importAll(book([HEAD, ['褚一', 'T8400001', '', '男', '', '', '一年级', '一年级1班', '褚父', '13912348401', '父亲']]));
    const row = ['褚二', 'T8400002', '', '男', '', '', '一年级', '一年级1班', '别名', '13912348401', '父亲'];
    const dry = (await preview(book([HEAD, row]))).json().data;
    expect(dry.failures[0].reason).toBe('第2行，家长姓名：该手机号已登记为家长“褚父”；如需修改家长信息，请勾选“更新已存在的数据”');
    const ok = (await preview(book([HEAD, row]), { fields: UPDATE() })).json().data;
    expect(ok).toMatchObject({ create: 1, parentsUpdate: 1 });
    expect(ok.updates[0].changes).toEqual([{ field: 'parentName', label: '家长姓名（13912348401）', before: '褚父', after: '别名' }]);
  });
});

describe('crafted files are refused with a message and the server keeps serving', () => {
  const stillServing = async () => expect((await t.request({ url: `${STUDENT_API}/import/template`, token: tokens.school01 })).statusCode).toBe(200);

  it('a million empty rows', async () => {
    const rows = Array.from({ length: 1_000_000 }, (_, i) => `<row r="${i + 2}"/>`).join('');
    const file = xlsxPackage({ sheets: [{ name: 'S', sheetData: `<row r="1"><c r="A1" t="inlineStr"><is><t>姓名</t></is></c></row>${rows}` }] });
    const res = await preview(file);
    expect(res.statusCode).toBe(413);
    expect(res.json().msg).toBe('工作表超过100000行，请分成几个文件导入');
    await stillServing();
  });

  it('a zip bomb (a sheet that inflates beyond its limit)', async () => {
    const si = `<si><t>${'a'.repeat(1000)}</t></si>`;
    const file = xlsxPackage({ sheets: [{ name: 'S', sheetData: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' }], sharedStrings: Array<string>(70_000).fill(si), level: 9 });
    expect(file.length).toBeLessThan(1024 * 1024);
    const res = await preview(file);
    expect(res.statusCode).toBe(413);
    await stillServing();
  });

  it('formulas: their shown value is read, never evaluated', async () => {
    const cell = (ref: string, v: string) => `<c r="${ref}" t="inlineStr"><is><t>${v}</t></is></c>`;
    const head = `<row r="1">${HEAD.slice(0, 8).map((h, i) => cell(`${String.fromCharCode(65 + i)}1`, h)).join('')}</row>`;
    const row = `<row r="2"><c r="A2" t="str"><f>CONCAT("郑","一")</f><v>郑一</v></c>${cell('B2', 'T7000001')}${cell('D2', '男')}${cell('G2', '一年级')}${cell('H2', '一年级1班')}</row>`;
    const row3 = `<row r="3"><c r="A3" t="str"><f>HYPERLINK("http://x")</f></c>${cell('B3', 'T7000002')}${cell('D3', '男')}${cell('G3', '一年级')}${cell('H3', '一年级1班')}</row>`;
    const res = await preview(xlsxPackage({ sheets: [{ name: 'S', sheetData: head + row + row3 }] }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ create: 1, rejected: 1 });
    expect(res.json().data.failures[0].reason).toMatch(/^第3行，姓名：/);
  });
});

describe('staff and account imports', () => {
  const STAFF_API = '/api/busi/web/k12/user/teacher';
  const STAFF_HEAD = ['姓名', '登录账号', '初始密码', '角色', '手机号', '性别', '工号'];

  it('creates accounts that must change the first password, and a re-import updates them', async () => {
    const tpl = await t.request({ url: `${STAFF_API}/import/template`, token: tokens.school01 });
    const role = String((await readXlsxRows(tpl.rawPayload)).rows[1][3]);
    expect(role).toBeTruthy();
    const rows = [STAFF_HEAD, ['冯老师', 'fengls01', 'Tiyu2026', role, '13712340001', '女', 'W9001'], ['蒋老师', 'jiangls01', '', role, '', '男', '']];
    const dry = await preview(book(rows), { api: STAFF_API });
    expect(dry.json().data).toMatchObject({ create: 1, rejected: 1 });
    const done = await commit(dry.json().data.importId, 'school01', STAFF_API);
    expect(countsOf(done)).toEqual({ success: 1, failure: 1 });
    const [u] = await t.db.select().from(users).where(eq(users.accountNum, 'fengls01'));
    expect(u.mustChangePassword).toBe(true);
    expect(await t.db.$count(teachers, and(eq(teachers.orgId, k12Id), eq(teachers.userId, u.id)))).toBe(1);
    rows[1][0] = '冯丽';
    const again = await preview(book(rows.slice(0, 2)), { api: STAFF_API, fields: { updateExisting: 'true' } });
    expect(again.json().data).toMatchObject({ create: 0, update: 1, rejected: 0 });
    await commit(again.json().data.importId, 'school01', STAFF_API);
    const [teacher] = await t.db.select().from(teachers).where(eq(teachers.userId, u.id));
    expect(teacher.name).toBe('冯丽');
    expect(await t.db.$count(users, eq(users.accountNum, 'fengls01'))).toBe(1);
  });

  it('an existing account is refused without the option; with it the dry run lists the changes', async () => {
    const tpl = await t.request({ url: `${STAFF_API}/import/template`, token: tokens.school01 });
    const role = String((await readXlsxRows(tpl.rawPayload)).rows[1][3]);
    const rows = [STAFF_HEAD, ['卫老师', 'weils001', 'Tiyu2026', role, '13712348801', '女', 'W8801']];
    await commit((await preview(book(rows), { api: STAFF_API })).json().data.importId, 'school01', STAFF_API);
    rows[1][0] = '卫丽';
    rows[1][5] = '男';
    const dry = (await preview(book(rows), { api: STAFF_API })).json().data;
    expect(dry).toMatchObject({ create: 0, update: 0, rejected: 1 });
    expect(dry.failures[0].reason).toBe('第2行，登录账号：登录账号已存在；如需更新，请勾选“更新已存在的数据”');
    await commit(dry.importId, 'school01', STAFF_API);
    const [u] = await t.db.select().from(users).where(eq(users.accountNum, 'weils001'));
    expect((await t.db.select().from(teachers).where(eq(teachers.userId, u.id)))[0]).toMatchObject({ name: '卫老师', gender: 'female' });
    const ok = (await preview(book(rows), { api: STAFF_API, fields: { updateExisting: 'true' } })).json().data;
    expect(ok.updates).toEqual([
      {
        row: 2,
        who: '卫老师（weils001）',
        changes: [
          { field: 'name', label: '姓名', before: '卫老师', after: '卫丽' },
          { field: 'gender', label: '性别', before: '女', after: '男' },
        ],
      },
    ]);
    await commit(ok.importId, 'school01', STAFF_API);
    expect((await t.db.select().from(teachers).where(eq(teachers.userId, u.id)))[0]).toMatchObject({ name: '卫丽', gender: 'male' });
    const logs = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'teacher'), eq(auditLogs.action, 'import')));
    const log = logs.find((l) => (l.before as { updated?: { who: string }[] } | null)?.updated?.[0]?.who === '卫老师（weils001）');
    expect(log?.before).toEqual({ updated: [{ row: 2, who: '卫老师（weils001）', name: '卫老师', gender: '女' }] });
    expect(log?.after).toMatchObject({ updated: [{ row: 2, who: '卫老师（weils001）', name: '卫丽', gender: '男' }] });
  });

  it('the admin users screen imports and exports accounts', async () => {
    const api = '/api/busi/web/admin/user';
    const tpl = await t.request({ url: `${api}/import/template`, token: tokens.district02 });
    expect(tpl.statusCode).toBe(200);
    const role = String((await readXlsxRows(tpl.rawPayload)).rows[1][3]);
    const dry = await preview(book([['姓名', '登录账号', '初始密码', '角色', '手机号'], ['韩一', 'hanyi001', 'Tiyu2026', role, '']]), { api, account: 'district02' });
    expect(dry.json().data, dry.body).toMatchObject({ create: 1, rejected: 0 });
    expect(countsOf(await commit(dry.json().data.importId, 'district02', api))).toEqual({ success: 1, failure: 0 });
    const exported = await t.request({ url: `${api}/export`, token: tokens.district02 });
    expect(exported.statusCode).toBe(200);
    const rows = (await readXlsxRows(exported.rawPayload)).rows;
    expect(rows.some((r) => r[1] === 'hanyi001')).toBe(true);
  });
});

describe('student export', () => {
  it('streams the filtered students as a workbook that imports again', async () => {
    const res = await t.request({ url: `${STUDENT_API}/export?keyword=T3000001`, token: tokens.school01 });
    expect(res.statusCode).toBe(200);
    const { rows } = await readXlsxRows(res.rawPayload);
    expect(rows[0].slice(0, 2)).toEqual(['姓名', '学籍号']);
    expect(rows).toHaveLength(2);
    expect(rows[1].slice(0, 2)).toEqual(['钱一', 'T3000001']);
    expect(rows[1][8]).toBe('钱父');
    const again = await preview(res.rawPayload);
    expect(again.json().data).toMatchObject({ create: 0, update: 0, unchanged: 1, rejected: 0 });
  });

  it('exports every student of a large school in one file', async () => {
    const res = await t.request({ url: `${STUDENT_API}/export`, token: tokens.school01 });
    const { rows } = await readXlsxRows(res.rawPayload);
    expect(rows.length - 1).toBe(await t.db.$count(students, eq(students.orgId, k12Id)));
  });
});
