import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Envelope } from '@/domain/api';
import type { ResultDetail } from '@/domain/physique-results/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapHeaders, parseTemplateRow, type NationalResults } from '@/domain/physique/national-template';
import { scoreStudent } from '@/domain/physique/score';
import { fileNameFromContentDisposition, parseImportCounts } from '@/domain/uploads/import-result';
import { engineInputOf } from '@/domain/physique-results/wide-row';
import { auditLogs } from '../../../server/db/schema/audit';
import { users } from '../../../server/db/schema/auth';
import { physiqueResultLogs, physiqueResults } from '../../../server/db/schema/physique';
import { students } from '../../../server/db/schema/school';
import { planJobs } from '../../../server/db/schema/test-plans';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { loadPlanContext, stagedImport, writeResults } from '../../../server/modules/physique-results/physique-write';
import { rawOf } from '../../../server/modules/physique-results/physique-results.sql';
import { getPlanInScope } from '../../../server/modules/test-plans/test-plans.service';
import { createTestApp, type TestApp } from '../../support/server-app';
import { liveJob } from '../test-plans/plan-fixtures';
import {
  createPlan,
  demoOrgs,
  failWritesFor,
  getCell,
  multipartBody,
  setCell,
  someStudents,
  templateFor,
  xlsxOf,
  type FixtureStudent,
} from './physique-fixtures';
import { importJob } from '../../support/jobs';

let t: TestApp;
const tokens: Record<string, string> = {};
let org: { bureau: string; k12: string; uni: string };
let pupils: FixtureStudent[];

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  for (const account of ['school01', 'teacher01', 'college01']) tokens[account] = (await t.login(account)).access_token;
  org = await demoOrgs(t.db);
  pupils = await someStudents(t.db, org.k12, [1, 5, 7, 8, 11], 6);
});
afterAll(async () => {
  await t?.close();
});

const upload = async (planId: string, file: Buffer, opts: { account?: string; fileName?: string; family?: string; lang?: string } = {}) => {
  const body = multipartBody(file, opts.fileName ?? 'scores.xlsx');
  const token = tokens[opts.account ?? 'school01'];
  const lang = opts.lang ?? 'zh-CN';
  const start = await t.request({
    method: 'POST',
    url: `/api/busi/web/${opts.family ?? 'k12'}/organizeTest/testManage/import/${planId}`,
    token,
    payload: body.payload,
    headers: { ...body.headers, 'accept-language': lang },
  });
  return importJob(t, token, start, lang);
};

const countsOf = (res: { headers: Record<string, unknown> }) => {
  const name = fileNameFromContentDisposition(String(res.headers['content-disposition']));
  return { name, counts: parseImportCounts(name ?? '') };
};

const resultsOf = (planId: string) => t.db.select().from(physiqueResults).where(eq(physiqueResults.planId, planId));

describe('score import', () => {
  it('imports a national template: counts in the file name, every row scored exactly like scoreStudent, one audit entry for the import', async () => {
    const planId = await createPlan(t.db, org.k12);
    const rows = templateFor(pupils);
    const res = await upload(planId, xlsxOf(rows));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const { name, counts } = countsOf(res);
    expect(counts).toEqual({ success: pupils.length, failure: 0 });
    // The counts (docs/product-rules.md#import-files) are the 2nd and 3rd parts of the name split by '_'.
    expect(name).toBe(`成绩导入结果_${pupils.length}_0.xlsx`);
    expect(res.headers['x-import-success']).toBe(String(pupils.length));

    // The failures workbook of a clean file: the header plus the reason column, no rows.
    const book = await readXlsxRows(res.rawPayload);
    expect(book.rows).toHaveLength(1);
    expect(book.rows[0].at(-1)).toBe('失败原因');

    const stored = await resultsOf(planId);
    expect(stored).toHaveLength(pupils.length);
    const mapping = mapHeaders(rows[0]);
    for (let i = 1; i < rows.length; i++) {
      const parsed = parseTemplateRow(rows[i], mapping, i + 1);
      if (!parsed.ok) throw new Error(`fixture row ${i + 1} invalid`);
      const student = pupils[i - 1];
      const expected = scoreStudent({ grade: student.grade, gender: student.gender, results: engineInputOf(parsed.row.results) });
      const got = stored.find((r) => r.studentId === student.id)!;
      expect(got, student.name).toBeDefined();
      expect({ total: got.total, standardScore: got.standardScore, bonus: got.bonus, level: got.level, complete: got.complete }).toEqual({
        total: expected.total,
        standardScore: expected.standardScore,
        bonus: expected.bonus,
        level: expected.level,
        complete: expected.complete,
      });
      for (const [item, s] of Object.entries(expected.items)) {
        expect(got[`${item}Score` as keyof typeof got], `${student.name} ${item}`).toBe(s.score);
        expect(got[`${item}Level` as keyof typeof got]).toBe(s.level);
      }
      expect(got.gradeNo).toBe(student.grade);
      expect(got.source).toBe('import');
    }
    // One audit entry for the whole import: every result it created, with no previous values.
    const entries = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'physiqueImport'), eq(auditLogs.entityId, planId)));
    expect(entries).toHaveLength(1);
    const [school01] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'school01'));
    expect(entries[0]).toMatchObject({ action: 'import', userId: school01.id, orgId: org.k12, after: { fileName: 'scores.xlsx', rows: pupils.length, changed: pupils.length } });
    expect(Object.keys(entries[0].before as object).sort()).toEqual(stored.map((r) => r.id).sort());
    expect(Object.values(entries[0].before as object).every((v) => v === null)).toBe(true);
    const perResult = await t.db.select({ n: sql<number>`count(*)::int` }).from(physiqueResultLogs).where(inArray(physiqueResultLogs.resultId, stored.map((r) => r.id)));
    expect(perResult[0].n).toBe(0);
    const [job] = await t.db.select().from(planJobs).where(eq(planJobs.planId, planId));
    expect(job).toMatchObject({ kind: 'import', status: 'done', successCount: pupils.length, failureCount: 0 });
  });

  it('reports failed rows with reasons (第N行，字段：…) in the failures workbook and imports the rest', async () => {
    const planId = await createPlan(t.db, org.k12);
    const list = pupils.slice(0, 8);
    const rows = templateFor(list, 11);
    // Row 2: unknown student (registration number and name both unknown).
    setCell(rows[1], 'regNo', 'G000000000000000000');
    setCell(rows[1], 'name', '查无此人');
    // Row 3: not a gender code.
    setCell(rows[2], 'gender', '3');
    // Row 4: matched by name + class when the registration number is wrong.
    setCell(rows[3], 'regNo', 'G999999999999999999');
    // Row 5: the grade code does not match the student's grade.
    setCell(rows[4], 'gradeNo', 33);
    // Row 10: the same student as row 6.
    rows.push([...rows[5]]);
    const res = await upload(planId, xlsxOf(rows));
    expect(res.statusCode, res.body).toBe(200);
    expect(countsOf(res).counts).toEqual({ success: 5, failure: 4 });

    const book = await readXlsxRows(res.rawPayload);
    expect(book.rows[0]).toEqual([...(rows[0] as string[]), '失败原因']);
    const failed = book.rows.slice(1);
    expect(failed.map((r) => getCell(r, 'name'))).toEqual(['查无此人', getCell(rows[2], 'name'), getCell(rows[4], 'name'), getCell(rows[5], 'name')]);
    const reasons = failed.map((r) => String(r.at(-1)));
    expect(reasons[0]).toBe('第2行，学籍号：本次测试范围内未找到该学生');
    expect(reasons[1]).toMatch(/^第3行，性别：/);
    expect(reasons[2]).toMatch(/^第5行，年级编号：与学生所在年级不符/);
    expect(reasons[3]).toBe('第10行，学籍号：与第6行是同一名学生');
    // The failed cells come back as uploaded.
    expect(getCell(failed[1], 'gender')).toBe('3');

    const stored = await resultsOf(planId);
    expect(stored.map((r) => r.studentId).sort()).toEqual([list[2], list[4], list[5], list[6], list[7]].map((s) => s.id).sort());
  });

  it('finds students by registration number whatever its case, else by name + class, and refuses a name two of them share', async () => {
    const planId = await createPlan(t.db, org.k12);
    // Grade 2: students no other test here uses, so renaming them changes nothing elsewhere.
    const list = await someStudents(t.db, org.k12, [2], 4);
    const rows = templateFor(list, 23);
    // Row 2: stored in lower case, written in upper case in the file.
    await t.db.update(students).set({ regNo: list[0].regNo.toLowerCase() }).where(eq(students.id, list[0].id));
    // Row 3: an unknown registration number, found by name + class.
    setCell(rows[2], 'regNo', 'G999999999999999998');
    // Rows 4 and 5: unknown registration numbers and a name two students of the class share.
    const shared = `同名${list[2].name}`;
    await t.db.update(students).set({ name: shared, classId: list[2].classId }).where(inArray(students.id, [list[2].id, list[3].id]));
    for (const row of [rows[3], rows[4]]) {
      setCell(row, 'regNo', 'G999999999999999997');
      setCell(row, 'name', shared);
      setCell(row, 'className', list[2].className);
      setCell(row, 'classNo', list[2].classNo ?? 'x');
    }
    // Row 6: row 2's student again, by name + class: the same student (found both ways), not two of one name.
    const again = [...rows[1]];
    setCell(again, 'regNo', 'G999999999999999996');
    rows.push(again);
    const res = await upload(planId, xlsxOf(rows));
    expect(res.statusCode, res.body).toBe(200);
    expect(countsOf(res).counts).toEqual({ success: 2, failure: 3 });
    const reasons = (await readXlsxRows(res.rawPayload)).rows.slice(1).map((r) => String(r.at(-1)));
    expect(reasons).toEqual([expect.stringMatching(/^第4行，姓名：/), expect.stringMatching(/^第5行，姓名：/), '第6行，学籍号：与第2行是同一名学生']);
    expect((await resultsOf(planId)).map((r) => r.studentId).sort()).toEqual([list[0].id, list[1].id].sort());
  });

  it('translates failure reasons into the request language', async () => {
    const planId = await createPlan(t.db, org.k12);
    const rows = templateFor(pupils.slice(0, 2), 13);
    setCell(rows[1], 'regNo', 'G000000000000000001');
    setCell(rows[1], 'name', 'Nobody');
    const res = await upload(planId, xlsxOf(rows), { lang: 'en-US' });
    expect(res.statusCode).toBe(200);
    const book = await readXlsxRows(res.rawPayload);
    expect(book.rows[0].at(-1)).toBe('Reason');
    expect(book.rows[1].at(-1)).toBe("Row 2, Registration number: No such student in this test plan's scope");
    expect(countsOf(res).name).toMatch(/^score-import_1_1\.xlsx$/);
  });

  it('re-importing updates the results instead of duplicating them; empty cells keep stored values', async () => {
    const planId = await createPlan(t.db, org.k12);
    const list = pupils.slice(6, 12);
    const rows = templateFor(list, 17);
    expect((await upload(planId, xlsxOf(rows))).statusCode).toBe(200);
    const first = await resultsOf(planId);

    const again = rows.map((r) => [...r]);
    setCell(again[1], 'weightKg', 99.9);
    setCell(again[2], 'vitalCapacity', null);
    t.clock.advance(60_000);
    const res = await upload(planId, xlsxOf(again));
    expect(countsOf(res).counts).toEqual({ success: list.length, failure: 0 });
    const second = await resultsOf(planId);
    expect(second).toHaveLength(list.length);
    expect(second.map((r) => r.id).sort()).toEqual(first.map((r) => r.id).sort());
    const s0 = second.find((r) => r.studentId === list[0].id)!;
    expect(s0.weightKg).toBe(99.9);
    expect(s0.bmi).not.toBe(first.find((r) => r.studentId === list[0].id)!.bmi);
    const s1 = second.find((r) => r.studentId === list[1].id)!;
    expect(s1.vitalCapacity).toBe(first.find((r) => r.studentId === list[1].id)!.vitalCapacity);
    // The result's history lists both imports, the second with the values it replaced; an unchanged row is not logged.
    const history = async (id: string) => {
      const res = await t.request({ url: `/api/busi/web/k12/physiqueManage/testResult/${id}`, token: tokens.school01 });
      return res.json<Envelope<ResultDetail>>().data.logs;
    };
    const before = first.find((r) => r.studentId === list[0].id)!;
    const s0Logs = await history(s0.id);
    expect(s0Logs.map((l) => [l.action, l.oldValue === null ? null : JSON.parse(l.oldValue)])).toEqual([
      ['import', expect.objectContaining({ weightKg: before.weightKg, heightCm: before.heightCm })],
      ['import', null],
    ]);
    expect(s0Logs[0].byName).toBeTruthy();
    expect((await history(s1.id)).map((l) => l.action)).toEqual(['import']);
    const [entry] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entity, 'physiqueImport'), eq(auditLogs.entityId, planId)))
      .orderBy(desc(auditLogs.at), desc(auditLogs.id))
      .limit(1);
    expect(Object.keys(entry.before as object)).toEqual([s0.id]);
  });

  it('a result edited while the file is being read keeps the edit: the row is merged again with the stored values', async () => {
    const planId = await createPlan(t.db, org.k12);
    const [a, b] = pupils.slice(0, 2);
    expect((await upload(planId, xlsxOf(templateFor([a, b], 21)))).statusCode).toBe(200);
    const [school01] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'school01'));
    const plan = await getPlanInScope(t.db, org.k12, planId);
    const ctx = await loadPlanContext(t.db, plan);
    const opts = { userId: school01.id, now: t.clock.now(), testedOn: plan.startDate, fileName: 'edit-race.xlsx' };
    const { written } = await stagedImport(t.db, ctx, opts, async (write) => {
      await write([a, b].map((s) => ({ studentId: s.id, classId: s.classId, grade: s.grade, gender: s.gender, results: { weightKg: 50.5 } })));
      // Someone edits A's 50 m run after the slice was staged (a plain write: the import holds no lock yet).
      await t.db.update(physiqueResults).set({ run50m: 9.9, updatedAt: t.clock.now() }).where(and(eq(physiqueResults.planId, planId), eq(physiqueResults.studentId, a.id)));
    });
    expect(written).toBe(2);
    const stored = await resultsOf(planId);
    const ra = stored.find((r) => r.studentId === a.id)!;
    expect(ra.weightKg).toBe(50.5);
    expect(ra.run50m).toBe(9.9);
    const expected = scoreStudent({ grade: a.grade, gender: a.gender, results: engineInputOf(rawOf(ra)) });
    expect(ra.run50mScore).toBe(expected.items.run50m?.score ?? null);
    expect(ra.total).toBe(expected.total);
    expect(stored.find((r) => r.studentId === b.id)!.weightKg).toBe(50.5);
  });

  it('a first import merges a result that appeared while the file was being read (its slices read no stored values)', async () => {
    const planId = await createPlan(t.db, org.k12);
    const [a, b] = pupils.slice(0, 2);
    const [school01] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'school01'));
    const plan = await getPlanInScope(t.db, org.k12, planId);
    const ctx = await loadPlanContext(t.db, plan);
    const opts = { userId: school01.id, now: t.clock.now(), testedOn: plan.startDate, fileName: 'first-race.xlsx' };
    const input = (s: (typeof pupils)[number], results: NationalResults) => ({ studentId: s.id, classId: s.classId, grade: s.grade, gender: s.gender, results });
    const { written } = await stagedImport(t.db, ctx, opts, async (write) => {
      await write([a, b].map((s) => input(s, { weightKg: 50.5 })));
      // A device sync writes A's 50 m run after the slice was staged: the plan had no results when the import began.
      await writeResults(t.db, ctx, [input(a, { run50m: 9.9 })], { source: 'sync', userId: school01.id, now: t.clock.now(), testedOn: plan.startDate });
    });
    expect(written).toBe(2);
    const stored = await resultsOf(planId);
    expect(stored).toHaveLength(2);
    const ra = stored.find((r) => r.studentId === a.id)!;
    expect(ra.weightKg).toBe(50.5);
    expect(ra.run50m).toBe(9.9);
    expect(ra.total).toBe(scoreStudent({ grade: a.grade, gender: a.gender, results: engineInputOf(rawOf(ra)) }).total);
  });

  it('a first import longer than the rows it may hold stages them and the rest, and writes the rows a direct write writes', async () => {
    const [school01] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'school01'));
    const written: (typeof physiqueResults.$inferSelect)[][] = [];
    for (const heldBytes of [undefined, 1]) {
      const plan = await getPlanInScope(t.db, org.k12, await createPlan(t.db, org.k12));
      const ctx = await loadPlanContext(t.db, plan);
      const opts = { userId: school01.id, now: t.clock.now(), testedOn: plan.startDate, fileName: 'long.xlsx', heldBytes };
      const input = (s: (typeof pupils)[number], results: NationalResults) => ({ studentId: s.id, classId: s.classId, grade: s.grade, gender: s.gender, results });
      const res = await stagedImport(t.db, ctx, opts, async (write) => {
        await write(pupils.slice(0, 3).map((s) => input(s, { weightKg: 50.5, heightCm: 150 })));
        await write(pupils.slice(3, 6).map((s) => input(s, { weightKg: 40.5 })));
      });
      expect(res.written).toBe(6);
      written.push(await resultsOf(plan.id));
    }
    const comparable = (r: typeof physiqueResults.$inferSelect) => ({ ...r, id: undefined, planId: undefined });
    const [direct, staged] = written.map((rows) => new Map(rows.map((r) => [r.studentId, comparable(r)])));
    expect(direct.size).toBe(6);
    expect(staged).toEqual(direct);
  });

  it('is all or nothing: a row the database refuses mid-write leaves every result as it was and releases the lock', async () => {
    const planId = await createPlan(t.db, org.k12);
    const list = pupils.slice(0, 10);
    const rows = templateFor(list, 19);
    expect((await upload(planId, xlsxOf(rows.slice(0, 4)))).statusCode).toBe(200);
    const before = await resultsOf(planId);
    expect(before).toHaveLength(3);

    const changed = rows.map((r) => [...r]);
    for (const r of changed.slice(1)) setCell(r, 'heightCm', 150);
    const restore = await failWritesFor(t.db, list[7].id);
    try {
      const res = await upload(planId, xlsxOf(changed));
      expect(res.statusCode).toBe(500);
      // The import's job failed and says so (docs/product-rules.md#jobs: nothing written).
      expect(res.json()).toEqual({ code: '500', data: null, msg: '任务执行失败，未写入任何数据，请重试或联系管理员。' });
    } finally {
      await restore();
    }
    const after = await resultsOf(planId);
    expect(after).toEqual(before);
    const jobs = await t.db.select().from(planJobs).where(eq(planJobs.planId, planId));
    expect(jobs.map((j) => j.status).sort()).toEqual(['done', 'failed']);
    // The lock is free again: the same file now imports.
    const ok = await upload(planId, xlsxOf(changed));
    expect(countsOf(ok).counts).toEqual({ success: list.length, failure: 0 });
  });

  it('a first import (COPYed straight into the results) writes the rows an import through the stage writes, and importing it again changes nothing', async () => {
    const list = pupils.slice(0, 12);
    const rows = templateFor(list, 23);
    // Plan B already has a result (another student's), so its import goes through the stage and its INSERT … SELECT.
    const [direct, staged] = [await createPlan(t.db, org.k12), await createPlan(t.db, org.k12)];
    expect((await upload(staged, xlsxOf(templateFor(pupils.slice(-1), 24)))).statusCode).toBe(200);
    expect(countsOf(await upload(direct, xlsxOf(rows))).counts).toEqual({ success: list.length, failure: 0 });
    expect(countsOf(await upload(staged, xlsxOf(rows))).counts).toEqual({ success: list.length, failure: 0 });

    const comparable = (r: typeof physiqueResults.$inferSelect) => ({ ...r, id: undefined, planId: undefined });
    const first = await resultsOf(direct);
    expect(first).toHaveLength(list.length);
    const viaStage = new Map((await resultsOf(staged)).map((r) => [r.studentId, r]));
    for (const r of first) expect(comparable(r), r.studentId).toEqual(comparable(viaStage.get(r.studentId)!));
    // Its audit entry: every result it created, without previous values, as the stage path writes it.
    const [entry] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'physiqueImport'), eq(auditLogs.entityId, direct)));
    expect(Object.keys(entry.before as object).sort()).toEqual(first.map((r) => r.id).sort());
    expect(Object.values(entry.before as object).every((v) => v === null)).toBe(true);
    expect(entry.after).toEqual({ fileName: 'scores.xlsx', rows: list.length, changed: list.length });

    t.clock.advance(60_000);
    expect(countsOf(await upload(direct, xlsxOf(rows))).counts).toEqual({ success: list.length, failure: 0 });
    const again = await resultsOf(direct);
    expect(new Map(again.map((r) => [r.id, r]))).toEqual(new Map(first.map((r) => [r.id, r])));
    const entries = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'physiqueImport'), eq(auditLogs.entityId, direct)));
    expect(entries).toHaveLength(1);
  });

  it('a first import that fails during its direct write leaves nothing: no result, no audit entry, its job failed', async () => {
    const planId = await createPlan(t.db, org.k12);
    const list = pupils.slice(0, 10);
    const rows = templateFor(list, 25);
    const restore = await failWritesFor(t.db, list[6].id);
    try {
      const res = await upload(planId, xlsxOf(rows));
      expect(res.statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await resultsOf(planId)).toEqual([]);
    expect(await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'physiqueImport'), eq(auditLogs.entityId, planId)))).toEqual([]);
    expect((await t.db.select().from(planJobs).where(eq(planJobs.planId, planId))).map((j) => j.status)).toEqual(['failed']);
    // Nothing half-written stands in the way: the same file imports in full.
    expect(countsOf(await upload(planId, xlsxOf(rows))).counts).toEqual({ success: list.length, failure: 0 });
    expect(await resultsOf(planId)).toHaveLength(list.length);
  });

  it('refuses anything but .xlsx', async () => {
    const planId = await createPlan(t.db, org.k12);
    const csv = await upload(planId, Buffer.from('年级编号,班级编号\n'), { fileName: 'scores.csv' });
    expect(csv.statusCode).toBe(400);
    expect(csv.json().msg).toBe('只能导入Excel文件（.xlsx）');
    const fake = await upload(planId, Buffer.from('not a workbook'), { fileName: 'scores.xlsx' });
    expect(fake.statusCode).toBe(400);
    expect(fake.json().msg).toBe('只能导入Excel文件（.xlsx）');
    const none = await t.request({ method: 'POST', url: `/api/busi/web/k12/organizeTest/testManage/import/${planId}`, token: tokens.school01, payload: {} });
    expect(none.statusCode).toBe(400);
    const noHeader = await upload(planId, xlsxOf([['a', 'b'], [1, 2]]));
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json().msg).toBe('未找到表头，请使用国家学生体质健康数据模板');
    expect(await t.db.$count(planJobs, and(eq(planJobs.planId, planId), eq(planJobs.status, 'running')))).toBe(0);
  });

  it('refuses an ended plan', async () => {
    const ended = await createPlan(t.db, org.k12, { startInDays: -60, endInDays: -1 });
    const early = await createPlan(t.db, org.k12, { endedAt: new Date() });
    for (const planId of [ended, early]) {
      const res = await upload(planId, xlsxOf(templateFor(pupils.slice(0, 1))));
      expect(res.statusCode).toBe(409);
    }
  });

  it('locks the plan across requests: no import while a sync runs, one of two simultaneous imports is refused', async () => {
    const planId = await createPlan(t.db, org.k12);
    const job = await liveJob(t.db, { orgId: org.k12, planId, kind: 'sync', startedAt: t.clock.now() });
    const busy = await upload(planId, xlsxOf(templateFor(pupils.slice(0, 2))));
    expect(busy.statusCode).toBe(409);
    await t.db.update(planJobs).set({ status: 'done', finishedAt: new Date() }).where(eq(planJobs.id, job.id));

    const file = xlsxOf(templateFor(pupils, 23));
    const [a, b] = await Promise.all([upload(planId, file), upload(planId, file)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    // And a sync while an import runs is refused too.
    await liveJob(t.db, { orgId: org.k12, planId, kind: 'import', startedAt: t.clock.now() });
    const sync = await t.request({ method: 'POST', url: `/api/busi/web/k12/organizeTest/testManage/sync/${planId}`, token: tokens.school01 });
    expect(sync.statusCode).toBe(409);
  });

  it('keeps to the caller’s organisation and permissions', async () => {
    const k12Plan = await createPlan(t.db, org.k12);
    const file = xlsxOf(templateFor(pupils.slice(0, 2)));
    // A university account cannot reach a K12 plan (404, not revealed) …
    expect((await upload(k12Plan, file, { account: 'college01', family: 'gx' })).statusCode).toBe(404);
    // … nor use the K12 family's routes (no permission there).
    expect((await upload(k12Plan, file, { account: 'college01', family: 'k12' })).statusCode).toBe(403);
    // A K12 plan's scope holds no university students: every row fails.
    const uniPlan = await createPlan(t.db, org.uni);
    const uniRes = await upload(uniPlan, file, { account: 'college01', family: 'gx' });
    expect(countsOf(uniRes).counts).toEqual({ success: 0, failure: 2 });
    // PE teachers import too.
    expect((await upload(k12Plan, file, { account: 'teacher01' })).statusCode).toBe(200);
    // Without a token: 401.
    expect((await t.request({ method: 'POST', url: `/api/busi/web/k12/organizeTest/testManage/import/${k12Plan}` })).statusCode).toBe(401);
  });

  it('downloads the national template, with or without a sample row', async () => {
    const res = await t.request({ url: '/api/busi/web/k12/organizeTest/testManage/import/template?sample=1', token: tokens.school01 });
    expect(res.statusCode).toBe(200);
    const book = await readXlsxRows(res.rawPayload);
    expect(book.rows[0].slice(0, 9)).toEqual(['年级编号', '班级编号', '班级名称', '学籍号', '民族代码', '姓名', '性别', '出生日期', '家庭住址']);
    expect(book.rows).toHaveLength(2);
    const plain = await t.request({ url: '/api/busi/web/gx/organizeTest/testManage/import/template', token: tokens.college01 });
    expect((await readXlsxRows(plain.rawPayload)).rows).toHaveLength(1);
    expect(fileNameFromContentDisposition(String(plain.headers['content-disposition']))).toBe('国家学生体质健康标准数据模板.xlsx');
  });
});
