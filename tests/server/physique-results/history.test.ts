import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { NATIONAL_COLUMNS, nationalCodeFromGrade } from '@/domain/physique/national-template';
import type { ScoreSearchPage, StudentReport, SyncPreview, SyncSummary } from '@/domain/physique-results/types';
import { SOURCE_FIELDS } from '@/domain/physique-results/value-source';
import { physiqueResults, testRecords } from '../../../server/db/schema/physique';
import { classes, schoolYears, students } from '../../../server/db/schema/school';
import { testPlans } from '../../../server/db/schema/test-plans';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { jobFile } from '../../support/jobs';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';
import { createPlan, demoOrgs, multipartBody, setCell, someStudents, templateFor, xlsxOf, type FixtureStudent } from './physique-fixtures';
import { importJob } from '../../support/jobs';

let t: TestApp;
const tokens: Record<string, string> = {};
let org: { bureau: string; k12: string; uni: string };

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  for (const account of ['school01', 'teacher01', 'district01']) tokens[account] = (await t.login(account)).access_token;
  org = await demoOrgs(t.db);
});
afterAll(async () => {
  await t?.close();
});

const api = (path: string, family = 'k12') => `/api/busi/web/${family}/${path}`;
const get = async <T>(path: string, account = 'school01', family = 'k12') => {
  const res = await t.request({ url: api(path, family), token: tokens[account] });
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json<Envelope<T>>().data;
};
const post = (path: string, payload?: unknown, account = 'school01') =>
  t.request({ method: 'POST', url: api(path), token: tokens[account], payload: payload as Record<string, unknown> | undefined });
const upload = (planId: string, file: Buffer) => {
  const body = multipartBody(file, 'scores.xlsx');
  return t.request({ method: 'POST', url: api(`organizeTest/testManage/import/${planId}`), token: tokens.school01, payload: body.payload, headers: body.headers }).then((start) => importJob(t, tokens.school01, start));
};
const resultOf = async (planId: string, studentId: string) =>
  (await t.db.select().from(physiqueResults).where(and(eq(physiqueResults.planId, planId), eq(physiqueResults.studentId, studentId))))[0];

/** Imports one template row per student with `set` applied to each row. */
async function importRows(planId: string, list: readonly FixtureStudent[], set: (row: unknown[]) => void = () => {}) {
  const rows = templateFor(list);
  for (const row of rows.slice(1)) set(row);
  const res = await upload(planId, xlsxOf(rows));
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['x-import-failure']).toBe('0');
}

describe('the report names the result clicked', () => {
  it('shows the plan asked for when a school year has two plans, names it, and lists the year’s plans', async () => {
    const [pupil] = await someStudents(t.db, org.k12, [7], 1);
    const first = await createPlan(t.db, org.k12, { name: '第一次测试', startInDays: -20 });
    const second = await createPlan(t.db, org.k12, { name: '第二次测试', startInDays: -5 });
    await importRows(first, [pupil], (row) => setCell(row, 'run50m', 7.2));
    await importRows(second, [pupil], (row) => setCell(row, 'run50m', 11.9));
    const a = await resultOf(first, pupil.id);
    const b = await resultOf(second, pupil.id);
    expect(a.run50mScore).not.toBe(b.run50mScore);

    const asked = await get<StudentReport>(`physique/report/${pupil.id}?planId=${first}`);
    expect(asked.result).toMatchObject({ id: a.id, planId: first, planName: '第一次测试' });
    expect(asked.result!.items.find((i) => i.item === 'run50m')!.raw).toBe(7.2);
    expect(asked.plans.map((p) => p.planId)).toEqual(expect.arrayContaining([first, second]));
    const other = await get<StudentReport>(`physique/report/${pupil.id}?planId=${second}`);
    expect(other.result).toMatchObject({ id: b.id, planName: '第二次测试' });
    // A plan the student has no result in is not found.
    const [anyPlan] = await t.db.select({ id: testPlans.id }).from(testPlans).where(eq(testPlans.orgId, org.uni)).limit(1);
    expect((await t.request({ url: api(`physique/report/${pupil.id}?planId=${anyPlan.id}`), token: tokens.school01 })).statusCode).toBe(404);
  });

  it('puts the history on test dates, oldest first', async () => {
    const [row] = await t.db
      .select()
      .from(physiqueResults)
      .where(and(eq(physiqueResults.orgId, org.k12), eq(physiqueResults.gradeNo, 9), eq(physiqueResults.invalid, false)))
      .limit(1);
    const report = await get<StudentReport>(`physique/report/${row.studentId}`);
    const stored = await t.db.select().from(physiqueResults).where(and(eq(physiqueResults.studentId, row.studentId), eq(physiqueResults.invalid, false)));
    const testDays = stored.map((r) => r.testedOn).sort();
    expect(report.history.map((h) => h.testedOn)).toEqual(testDays);
  });
});

describe('results keep the class they were tested in', () => {
  it('shows a 2024-2025 result with the class name of that year in search, the report and both exports', async () => {
    const [year] = await t.db.select().from(schoolYears).where(and(eq(schoolYears.orgId, org.k12), eq(schoolYears.academicYear, '2024-2025')));
    // A pupil now in grade 3 was in grade 1 in 2024-2025: "三年级2班" then was "一年级2班".
    const [old] = await t.db
      .select({ id: physiqueResults.id, studentId: physiqueResults.studentId, className: physiqueResults.className, now: classes.name })
      .from(physiqueResults)
      .innerJoin(testPlans, eq(testPlans.id, physiqueResults.planId))
      .innerJoin(classes, eq(classes.id, physiqueResults.classId))
      .where(and(eq(testPlans.schoolYearId, year.id), eq(physiqueResults.gradeNo, 1), eq(physiqueResults.invalid, false)))
      .limit(1);
    expect(old.now).toMatch(/^三年级\d班$/);
    expect(old.className).toBe(old.now.replace('三年级', '一年级'));

    const [who] = await t.db.select({ regNo: students.regNo }).from(students).where(eq(students.id, old.studentId));
    const page = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?current=1&size=80&schoolYearId=${year.id}&keyword=${who.regNo}`);
    expect(page.records.find((r) => r.id === old.id)).toMatchObject({ className: old.className, gradeNo: 1 });
    const grade1 = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?current=1&size=80&schoolYearId=${year.id}&gradeNo=1`);
    expect(grade1.records.every((r) => r.className.startsWith('一年级'))).toBe(true);

    const report = await get<StudentReport>(`physique/report/${old.studentId}?schoolYearId=${year.id}`);
    expect(report.result?.className).toBe(old.className);

    const classCol = NATIONAL_COLUMNS.findIndex((c) => c.key === 'className');
    // The score export is a job (docs/product-rules.md#jobs); the upload file answers at once.
    const scoreExport = () => t.request({ method: 'POST', url: api('organizeTest/scoreSearch/export'), token: tokens.school01, payload: { schoolYearId: year.id, gradeNo: 1 } });
    for (const path of ['organizeTest/scoreSearch/export', `physiqueManage/testResult/export?schoolYearId=${year.id}&gradeNo=1`]) {
      const res = path.startsWith('organizeTest') ? await jobFile(t, tokens.school01, await scoreExport()) : await t.request({ url: api(path), token: tokens.school01 });
      expect(res.statusCode, path).toBe(200);
      const rows = (await readXlsxRows(res.rawPayload)).rows.slice(1);
      expect(rows.length, path).toBeGreaterThan(0);
      expect(rows.every((r) => String(r[classCol]).startsWith('一年级')), path).toBe(true);
    }
  });

  it('keeps the name a class had when its result was written, after the class is renamed', async () => {
    const planId = await createPlan(t.db, org.k12);
    const [pupil] = await someStudents(t.db, org.k12, [4], 1);
    await importRows(planId, [pupil]);
    expect((await resultOf(planId, pupil.id)).className).toBe(pupil.className);
    await t.db.update(classes).set({ name: '五年级特色班' }).where(eq(classes.id, pupil.classId));
    try {
      const page = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?current=1&size=10&planId=${planId}`);
      expect(page.records[0].className).toBe(pupil.className);
      // A hand edit keeps it too.
      const id = page.records[0].id;
      expect((await post(`physiqueManage/testResult/editUpReport/${id}`, { field: 'run50m', value: '9.1' })).statusCode).toBe(200);
      expect((await resultOf(planId, pupil.id)).className).toBe(pupil.className);
    } finally {
      await t.db.update(classes).set({ name: pupil.className }).where(eq(classes.id, pupil.classId));
    }
  });

  it('backfills older rows in the migration: class names of the test year and value sources', async () => {
    const before = await t.db.execute<{ id: string; class_name: string }>(sql`select id, class_name from physique_results order by id`);
    const file = readFileSync('server/db/migrations/0005_physique-history.sql', 'utf8');
    const custom = file.slice(file.indexOf('\n', file.indexOf('-- custom:')));
    const statements = custom
      .split('--> statement-breakpoint')
      .map((s) => s.replace(/^--.*$/gm, '').trim())
      .filter(Boolean);
    // The backfill names bits by field: the same positions as the domain's list.
    const bits = [...custom.matchAll(/\('(\w+)',(\d+)\)/g)].map((m) => [m[1], Number(m[2])]);
    expect(bits).toEqual(SOURCE_FIELDS.map((f, i) => [f, 1 << i]));

    await t.db.execute(sql`update physique_results set class_name = '', imported_fields = 0, edited_fields = 0`);
    for (const s of statements) await t.db.execute(sql.raw(s));
    const after = await t.db.execute<{ id: string; class_name: string }>(sql`select id, class_name from physique_results order by id`);
    expect(after.rows).toEqual(before.rows);
    // Seeded results were imported: every stored value counts as imported.
    const [row] = await t.db.select().from(physiqueResults).where(and(eq(physiqueResults.source, 'import'), sql`${physiqueResults.run50m} is not null`)).limit(1);
    expect(row.importedFields & (1 << SOURCE_FIELDS.indexOf('run50m'))).not.toBe(0);
  });
});

describe('import preparation', () => {
  it('downloads the template pre-filled with the plan’s students and a notes sheet explaining the codes', async () => {
    const planId = await createPlan(t.db, org.k12, { name: '秋季体测' });
    const res = await t.request({ url: api(`organizeTest/testManage/import/template?planId=${planId}`), token: tokens.school01 });
    expect(res.statusCode, res.body).toBe(200);
    const book = await readXlsxRows(res.rawPayload);
    expect(book.sheetNames).toEqual(['体测成绩', '填写说明']);
    const col = (key: string) => NATIONAL_COLUMNS.findIndex((c) => c.key === key);
    const [pupil] = await someStudents(t.db, org.k12, [8], 1);
    const row = book.rows.find((r) => r[col('regNo')] === pupil.regNo)!;
    expect(row).toBeDefined();
    expect(row[col('name')]).toBe(pupil.name);
    expect(row[col('gender')]).toBe(pupil.gender === 'male' ? 1 : 2);
    expect(row[col('gradeNo')]).toBe(nationalCodeFromGrade(pupil.grade));
    expect(row[col('className')]).toBe(pupil.className);
    expect(row[col('classNo')]).toBe(pupil.classNo);
    expect(row[col('birthDate')]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(row[col('run50m')] ?? null).toBeNull();
    const signUps = await get<{ total: number }>(`organizeTest/testManage/signUp/${planId}?current=1&size=10`);
    expect(book.rows.length - 1).toBe(signUps.total);

    const notes = (await readXlsxRows(res.rawPayload, { sheet: 1 })).rows.map((r) => r.map((c) => (c == null ? '' : String(c))).join('|'));
    expect(notes).toContain('性别代码');
    expect(notes).toContain('1|男');
    expect(notes).toContain('2|女');
    expect(notes).toContain(`${nationalCodeFromGrade(pupil.grade)}|八年级`);
    expect(notes).toContain(`${pupil.classNo}|${pupil.className}`);
    expect(notes).toContain('01|汉族');

    // The pre-filled file imports as it is once results are typed in.
    const filled = book.rows.slice(0, 3).map((r, i) => (i === 0 ? r : NATIONAL_COLUMNS.map((c, j) => (c.key === 'run50m' ? 9.5 : (r[j] ?? null)))));
    const imported = await upload(planId, xlsxOf(filled));
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.headers['x-import-success']).toBe('2');
  });

  it('exports the plan’s sign-up list with each student’s status', async () => {
    const planId = await createPlan(t.db, org.k12);
    const [pupil] = await someStudents(t.db, org.k12, [5], 1);
    await importRows(planId, [pupil]);
    const res = await t.request({ url: api(`organizeTest/testManage/signUp/export/${planId}`), token: tokens.school01 });
    expect(res.statusCode, res.body).toBe(200);
    const rows = (await readXlsxRows(res.rawPayload)).rows;
    expect(rows[0].slice(0, 3)).toEqual(['姓名', '学籍号', '性别']);
    const mine = rows.find((r) => r[1] === pupil.regNo)!;
    expect(mine[0]).toBe(pupil.name);
    expect(['已完成', '未完成']).toContain(mine[5]);
    expect(rows.filter((r) => r[5] === '未测试').length).toBe(rows.length - 2);
  });
});

describe('sync preview and imported values', () => {
  it('lists old → new before writing and leaves imported and hand-edited values unless allowed', async () => {
    const planId = await createPlan(t.db, org.k12, { startInDays: -10 });
    const [a, b, c] = await someStudents(t.db, org.k12, [9], 3);
    await importRows(planId, [a, b], (row) => setCell(row, 'run50m', 12.1));
    const resultB = await resultOf(planId, b.id);
    expect((await post(`physiqueManage/testResult/editUpReport/${resultB.id}`, { field: 'run50m', value: '8.8' })).statusCode).toBe(200);
    const at = new Date(Date.now() - 86_400_000);
    await t.db.insert(testRecords).values([
      { orgId: org.k12, studentId: a.id, classId: a.classId, item: 'run50m', raw: 13.5, source: 'device', testedAt: at },
      { orgId: org.k12, studentId: b.id, classId: b.classId, item: 'run50m', raw: 9.4, source: 'device', testedAt: at },
      { orgId: org.k12, studentId: c.id, classId: c.classId, item: 'run50m', raw: 8.3, source: 'device', testedAt: at },
    ]);

    const res = await post(`organizeTest/testManage/sync/${planId}/preview`);
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json<Envelope<SyncPreview>>().data;
    const change = (id: string) => preview.changes.find((x) => x.studentId === id && x.field === 'run50m');
    expect(change(a.id)).toMatchObject({ name: a.name, oldValue: 12.1, newValue: 13.5, oldSource: 'import', manual: true });
    expect(change(b.id)).toMatchObject({ oldValue: 8.8, newValue: 9.4, oldSource: 'manual', manual: true });
    expect(change(c.id)).toMatchObject({ oldValue: null, newValue: 8.3, oldSource: null, manual: false });
    expect(preview.manual).toBeGreaterThanOrEqual(2);
    // The preview writes nothing.
    expect((await resultOf(planId, a.id)).run50m).toBe(12.1);
    expect(await resultOf(planId, c.id)).toBeUndefined();

    // Default: device records fill what is empty and leave imported and hand-edited values.
    const kept = await post(`organizeTest/testManage/sync/${planId}`, {});
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await resultOf(planId, a.id)).run50m).toBe(12.1);
    expect((await resultOf(planId, b.id)).run50m).toBe(8.8);
    expect((await resultOf(planId, c.id)).run50m).toBe(8.3);

    // Allowed: they replace them, and the values now count as device values.
    const replaced = await post(`organizeTest/testManage/sync/${planId}`, { replaceManual: true });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json<Envelope<SyncSummary>>().data.students).toBeGreaterThanOrEqual(2);
    expect((await resultOf(planId, a.id)).run50m).toBe(13.5);
    expect((await resultOf(planId, b.id)).run50m).toBe(9.4);
    const again = (await post(`organizeTest/testManage/sync/${planId}/preview`)).json<Envelope<SyncPreview>>().data;
    expect(again.changes.filter((x) => [a.id, b.id, c.id].includes(x.studentId))).toEqual([]);

    expect((await post(`organizeTest/testManage/sync/${planId}`, { replaceManual: 'yes' })).statusCode).toBe(400);
  });
});
