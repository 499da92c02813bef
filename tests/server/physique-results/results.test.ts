import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { NATIONAL_COLUMNS } from '@/domain/physique/national-template';
import { scoreItem, scoreStudent } from '@/domain/physique/score';
import type { Gender, Grade } from '@/domain/physique/standard';
import type { ChangedCount, ResultDetail, ScoreSearchPage, StudentReport } from '@/domain/physique-results/types';
import { engineInputOf } from '@/domain/physique-results/wide-row';
import { physiqueResults } from '../../../server/db/schema/physique';
import { schoolYears } from '../../../server/db/schema/school';
import { testPlans } from '../../../server/db/schema/test-plans';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { rawOf } from '../../../server/modules/physique-results/physique-results.sql';
import { waitForJob } from '../../support/jobs';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';
import { demoOrgs } from './physique-fixtures';

let t: TestApp;
const tokens: Record<string, string> = {};
let org: { bureau: string; k12: string; uni: string };
let years: Record<string, string>;
let currentPlan: string;

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  for (const account of ['school01', 'teacher01', 'college01', 'district01']) tokens[account] = (await t.login(account)).access_token;
  org = await demoOrgs(t.db);
  const rows = await t.db.select().from(schoolYears).where(eq(schoolYears.orgId, org.k12));
  years = Object.fromEntries(rows.map((y) => [y.academicYear, y.id]));
  const [plan] = await t.db.select().from(testPlans).where(and(eq(testPlans.orgId, org.k12), eq(testPlans.schoolYearId, years['2026-2027'])));
  currentPlan = plan.id;
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
const post = (path: string, payload: unknown, account = 'school01', family = 'k12') =>
  t.request({ method: 'POST', url: api(path, family), token: tokens[account], payload: payload as Record<string, unknown> });

/** Starts the score export (a job, docs/product-rules.md#jobs), waits for it and downloads its workbook. */
async function exportJob(filter: Record<string, unknown>) {
  const start = await post('organizeTest/scoreSearch/export', filter);
  expect(start.statusCode, start.body).toBe(200);
  const { id } = start.json<Envelope<{ id: string }>>().data;
  const job = (await waitForJob(t, tokens.school01, id)).at(-1)!;
  expect(job.state, job.error ?? '').toBe('done');
  return { job, file: await t.request({ url: `/api/busi/web/jobs/${id}/download`, token: tokens.school01 }) };
}

describe('score search', () => {
  it('pages the seeded results of a school year with filters, invalid rows flagged', async () => {
    const page = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?schoolYearId=${years['2025-2026']}&size=20`);
    const n = await t.db.$count(
      physiqueResults,
      sql`${physiqueResults.orgId} = ${org.k12} and ${physiqueResults.planId} in (select id from test_plans where school_year_id = ${years['2025-2026']})`,
    );
    expect(page.total).toBe(n);
    expect(page.records).toHaveLength(20);
    expect(page.records.every((r) => r.academicYear === '2025-2026' && r.orgId === org.k12)).toBe(true);
    const second = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?schoolYearId=${years['2025-2026']}&size=20&current=2`);
    expect(second.records[0].id).not.toBe(page.records[0].id);

    const r = page.records[0];
    const filtered = await get<ScoreSearchPage>(
      `organizeTest/scoreSearch/page?planId=${r.planId}&gradeNo=${r.gradeNo}&classId=${r.classId}&gender=${r.gender}&keyword=${encodeURIComponent(r.regNo)}`,
    );
    expect(filtered.records.map((x) => x.id)).toEqual([r.id]);
    const byName = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?keyword=${encodeURIComponent(r.name)}&planId=${r.planId}`);
    expect(byName.records.map((x) => x.id)).toContain(r.id);

    const fails = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?level=fail&size=50`);
    expect(fails.total).toBeGreaterThan(0);
    expect(fails.records.every((x) => x.level === 'fail' && (x.total ?? 100) < 60)).toBe(true);
    const incomplete = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?level=incomplete&size=50`);
    expect(incomplete.total).toBeGreaterThan(0);
    expect(incomplete.records.every((x) => !x.complete && x.total === null)).toBe(true);
    const invalid = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?invalid=true&size=50`);
    expect(invalid.total).toBeGreaterThan(0);
    expect(invalid.records.every((x) => x.invalid && x.invalidAt !== null)).toBe(true);
  });

  it('aggregates only valid results (summary), the levels spread like a real school', async () => {
    const page = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?schoolYearId=${years['2024-2025']}`);
    const [row] = await t.db
      .select({
        valid: sql<number>`count(*) filter (where not invalid)::int`,
        avg: sql<number>`round(avg(total) filter (where not invalid and complete)::numeric, 1)::float8`,
      })
      .from(physiqueResults)
      .where(sql`${physiqueResults.orgId} = ${org.k12} and ${physiqueResults.planId} in (select id from test_plans where school_year_id = ${years['2024-2025']})`);
    expect(page.summary.valid).toBe(row.valid);
    expect(page.summary.matched).toBe(page.total);
    expect(page.summary.matched).toBeGreaterThan(page.summary.valid);
    expect(page.summary.averageTotal).toBe(row.avg);
    const l = page.summary.levels;
    const all = l.excellent + l.good + l.pass + l.fail;
    expect(all).toBe(page.summary.complete);
    // Demo data aims at ≈ 15 / 35 / 40 / 10 %.
    expect(l.excellent / all).toBeGreaterThan(0.08);
    expect(l.fail / all).toBeLessThan(0.2);
    expect(l.pass / all).toBeGreaterThan(0.25);
  });

  it('exports in the national score-export layout', async () => {
    const { file: res } = await exportJob({ schoolYearId: years['2025-2026'], gradeNo: 3 });
    expect(res.statusCode).toBe(200);
    const { rows } = await readXlsxRows(res.rawPayload);
    const header = rows[0] as string[];
    expect(header.slice(0, 8)).toEqual(['年级编号', '班级编号', '班级名称', '学籍号', '民族代码', '姓名', '性别', '出生日期']);
    const at = (h: string) => header.indexOf(h);
    // After each item its score and level, and bonus where the item earns one.
    expect(header.slice(at('体重指数（BMI）'), at('体重指数（BMI）') + 3)).toEqual(['体重指数（BMI）', '体重指数（BMI）评分', '体重指数（BMI）等级']);
    expect(header.slice(at('1分钟跳绳'), at('1分钟跳绳') + 4)).toEqual(['1分钟跳绳', '1分钟跳绳评分', '1分钟跳绳等级', '1分钟跳绳附加分']);
    expect(header.slice(at('1000米跑'), at('1000米跑') + 4)).toEqual(['1000米跑', '1000米跑评分', '1000米跑等级', '1000米跑附加分']);
    expect(header.slice(-5)).toEqual(['标准分', '附加分', '总分', '总分等级', '有效性']);
    const page = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?schoolYearId=${years['2025-2026']}&gradeNo=3`);
    expect(rows.length - 1).toBe(page.total);
    expect(rows.slice(1).every((r) => r[0] === 13)).toBe(true);
  });

  it('exports every row of the list in the list\'s order (streamed in batches of whole classes)', async () => {
    // More rows than one batch (1,000).
    const filter = `schoolYearId=${years['2025-2026']}`;
    const { job, file: res } = await exportJob({ schoolYearId: years['2025-2026'] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/\.xlsx/);
    // The bar counted the rows written, batch by batch, up to all of them.
    expect(job).toMatchObject({ done: job.total, result: { counts: { rows: job.total }, message: `已导出${job.total}条成绩` } });
    const { rows } = await readXlsxRows(res.rawPayload);
    const listed: string[] = [];
    for (let current = 1; ; current++) {
      const page = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?${filter}&size=80&current=${current}`);
      if (page.records.length === 0) break;
      listed.push(...page.records.map((r) => r.regNo));
    }
    expect(listed.length).toBeGreaterThan(1000);
    expect(job.total).toBe(listed.length);
    const regNo = (rows[0] as string[]).indexOf('学籍号');
    expect(rows.slice(1).map((r) => String(r[regNo]))).toEqual(listed);
  });

  it('pages follow one another in list order, with filters and with ties across plans', async () => {
    // Every plan of the school starts the same day, so a grade's classes of one code in different years tie on plan
    // start date, grade and class code, and their students interleave by registration number.
    const plans = await t.db.select({ id: testPlans.id, startDate: testPlans.startDate }).from(testPlans).where(eq(testPlans.orgId, org.k12));
    await t.db.update(testPlans).set({ startDate: plans[0].startDate }).where(eq(testPlans.orgId, org.k12));
    try {
      for (const filter of ['gradeNo=3', 'gradeNo=3&gender=female']) {
        const gender = filter.includes('female') ? sql`and r.gender = 'female'` : sql``;
        const { rows: expected } = await t.db.execute<{ id: string; plan_id: string; code: number }>(
          sql`select r.id, r.plan_id, c.code from physique_results r join students s on s.id = r.student_id join classes c on c.id = r.class_id
join test_plans tp on tp.id = r.plan_id where r.org_id = ${org.k12} and r.grade_no = 3 ${gender} and tp.deleted_at is null
order by tp.start_date, r.grade_no, c.code, s.reg_no, r.id`,
        );
        const interleaved = expected.filter((r, i) => i > 0 && r.code === expected[i - 1].code && r.plan_id !== expected[i - 1].plan_id).length;
        expect(interleaved).toBeGreaterThan(10);
        const seen: string[] = [];
        for (let current = 1; ; current++) {
          const page = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?${filter}&size=20&current=${current}`);
          expect(page.total).toBe(expected.length);
          if (page.records.length === 0) break;
          seen.push(...page.records.map((r) => r.id));
        }
        expect(seen).toEqual(expected.map((r) => r.id));
      }
    } finally {
      for (const p of plans) await t.db.update(testPlans).set({ startDate: p.startDate }).where(eq(testPlans.id, p.id));
    }
  });

  it('opens the bureau\'s list on the current school year, which allYears lifts', async () => {
    const [current] = await t.db.select().from(schoolYears).where(and(eq(schoolYears.orgId, org.k12), eq(schoolYears.current, true)));
    const opened = await get<ScoreSearchPage>('organizeTest/scoreSearch/page?size=20', 'district01', 'admin');
    expect(opened.defaultYear).toEqual({ id: expect.any(String), academicYear: current.academicYear });
    const named = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?size=20&schoolYearId=${current.id}`, 'district01', 'admin');
    expect(named.defaultYear).toBeUndefined();
    expect(opened.total).toBe(named.total);
    expect(opened.summary).toEqual(named.summary);
    expect(opened.records.map((r) => r.id)).toEqual(named.records.map((r) => r.id));
    expect(opened.records.every((r) => r.academicYear === current.academicYear)).toBe(true);
    const every = await get<ScoreSearchPage>('organizeTest/scoreSearch/page?size=20&allYears=true', 'district01', 'admin');
    expect(every.defaultYear).toBeUndefined();
    expect(every.total).toBeGreaterThan(opened.total);
    // A school's list is what it names: its screen sends its current year itself.
    const school = await get<ScoreSearchPage>('organizeTest/scoreSearch/page?size=20');
    expect(school.defaultYear).toBeUndefined();
  });

  it('lets the bureau read (not change) its schools’ results', async () => {
    const page = await get<ScoreSearchPage>('organizeTest/scoreSearch/page?size=80', 'district01', 'admin');
    const all = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?size=10&orgId=${org.uni}`, 'district01', 'admin');
    expect(page.total).toBeGreaterThan(all.total);
    expect(all.records.every((r) => r.orgId === org.uni)).toBe(true);
    expect((await post('organizeTest/scoreSearch/invalid', { ids: [page.records[0].id] }, 'district01', 'admin')).statusCode).toBe(404);
    // A school never sees another school's results.
    const k12 = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?orgId=${org.uni}`);
    expect(k12.total).toBe(0);
  });
});

describe('results, editing and invalid/restore', () => {
  const firstResult = async (where = sql`true`) => {
    const [row] = await t.db
      .select()
      .from(physiqueResults)
      .where(and(eq(physiqueResults.planId, currentPlan), eq(physiqueResults.invalid, false), eq(physiqueResults.complete, true), where))
      .orderBy(asc(physiqueResults.id))
      .limit(1);
    return row;
  };

  it('edits one raw value: parsed as typed, rescored with the engine, who/when logged', async () => {
    const row = await firstResult(sql`${physiqueResults.gradeNo} between 7 and 12`);
    const grade = row.gradeNo as Grade;
    const gender = row.gender as Gender;
    const res = await post(`physiqueManage/testResult/editUpReport/${row.id}`, { field: 'standingLongJump', value: '1米85' });
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json<Envelope<ResultDetail>>().data;
    expect(detail.items.standingLongJump?.raw).toBe(185);
    expect(detail.items.standingLongJump?.score).toBe(scoreItem({ grade, gender, item: 'standingLongJump', raw: 185 }).score);
    const [stored] = await t.db.select().from(physiqueResults).where(eq(physiqueResults.id, row.id));
    const expected = scoreStudent({ grade, gender, results: engineInputOf(rawOf(stored)) });
    expect(detail.total).toBe(expected.total);
    expect(stored.total).toBe(expected.total);
    expect(stored.updatedAt.getTime()).toBe(t.clock.now().getTime());
    expect(detail.logs[0]).toMatchObject({ action: 'edit', field: 'standingLongJump', oldValue: String(row.standingLongJump), newValue: '185', byName: '陈丽华' });

    // A long run as min'sec; clearing a value leaves the result incomplete, never scored 0.
    const run = gender === 'male' ? 'run1000m' : 'run800m';
    const timed = (await post(`physiqueManage/testResult/editUpReport/${row.id}`, { field: run, value: "3'58\"" })).json<Envelope<ResultDetail>>().data;
    expect(timed.items[run]?.raw).toBe(238);
    const cleared = (await post(`physiqueManage/testResult/editUpReport/${row.id}`, { field: 'vitalCapacity', value: '' })).json<Envelope<ResultDetail>>().data;
    expect(cleared.complete).toBe(false);
    expect(cleared.total).toBeNull();
    expect(cleared.missing).toEqual(['vitalCapacity']);
  });

  it('refuses unparsable values and items outside the plan, with translated messages', async () => {
    const row = await firstResult(sql`${physiqueResults.gradeNo} between 7 and 9 and ${physiqueResults.gender} = 'female'`);
    const bad = await post(`physiqueManage/testResult/editUpReport/${row.id}`, { field: 'run50m', value: '八秒' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('请填写秒数，例如 8.5');
    const notTested = await post(`physiqueManage/testResult/editUpReport/${row.id}`, { field: 'pullUp', value: '5' });
    expect(notTested.statusCode).toBe(400);
    expect(notTested.json().msg).toBe('该项目不在本次测试计划中');
    // Another school's result: 404; the gx family has no results screen at all.
    expect((await post(`physiqueManage/testResult/editUpReport/${row.id}`, { field: 'run50m', value: '9' }, 'college01', 'gx')).statusCode).toBe(404);
  });

  it('sets a result invalid: kept and flagged, excluded from class averages and search aggregates; restore brings it back', async () => {
    const row = await firstResult();
    const report = await get<StudentReport>(`physique/report/${row.studentId}?schoolYearId=${years['2026-2027']}`);
    expect(report.result?.id).toBe(row.id);
    const classmates = await t.db
      .select({ id: physiqueResults.id, studentId: physiqueResults.studentId, score: physiqueResults.run50mScore, total: physiqueResults.total })
      .from(physiqueResults)
      .where(and(eq(physiqueResults.planId, currentPlan), eq(physiqueResults.classId, row.classId), eq(physiqueResults.invalid, false)));
    const other = classmates.find((c) => c.studentId !== row.studentId && c.score !== null)!;
    const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10;
    const scores = classmates.filter((c) => c.score !== null).map((c) => c.score!);
    const before = report.result!.items.find((i) => i.item === 'run50m');
    if (before) expect(before.classAverage).toBe(mean(scores));
    const search = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?planId=${currentPlan}&classId=${row.classId}&size=80`);

    const off = await post('organizeTest/scoreSearch/invalid', { ids: [other.id] });
    expect(off.json<Envelope<ChangedCount>>().data).toEqual({ changed: 1 });
    // Twice is a no-op.
    expect((await post('organizeTest/scoreSearch/invalid', { ids: [other.id] })).json<Envelope<ChangedCount>>().data).toEqual({ changed: 0 });
    const after = await get<StudentReport>(`physique/report/${row.studentId}?schoolYearId=${years['2026-2027']}`);
    const without = classmates.filter((c) => c.id !== other.id && c.score !== null).map((c) => c.score!);
    if (before) expect(after.result!.items.find((i) => i.item === 'run50m')!.classAverage).toBe(mean(without));
    const searchAfter = await get<ScoreSearchPage>(`organizeTest/scoreSearch/page?planId=${currentPlan}&classId=${row.classId}&size=80`);
    expect(searchAfter.total).toBe(search.total);
    expect(searchAfter.summary.valid).toBe(search.summary.valid - 1);
    expect(searchAfter.records.find((r) => r.id === other.id)?.invalid).toBe(true);
    const detail = await get<ResultDetail>(`physiqueManage/testResult/${other.id}`);
    expect(detail.logs[0]).toMatchObject({ action: 'invalid', byName: '陈丽华' });

    t.clock.advance(60_000);
    const on = await post('physiqueManage/testResult/valid', { ids: [other.id] });
    expect(on.json<Envelope<ChangedCount>>().data).toEqual({ changed: 1 });
    const restored = await get<StudentReport>(`physique/report/${row.studentId}?schoolYearId=${years['2026-2027']}`);
    expect(restored.result!.items).toEqual(report.result!.items);
    expect((await get<ResultDetail>(`physiqueManage/testResult/${other.id}`)).logs[0]).toMatchObject({ action: 'restore' });
    // Another school's ids are ignored.
    expect((await post('organizeTest/scoreSearch/invalid', { ids: [other.id] }, 'college01', 'gx')).json<Envelope<ChangedCount>>().data).toEqual({ changed: 0 });
  });

  it('exports the national upload file: template layout, valid results only, one row per student', async () => {
    const res = await t.request({ url: api(`physiqueManage/testResult/export?schoolYearId=${years['2026-2027']}&gradeNo=7`), token: tokens.school01 });
    expect(res.statusCode).toBe(200);
    const { rows } = await readXlsxRows(res.rawPayload);
    expect(rows[0]).toEqual(NATIONAL_COLUMNS.map((c) => c.header));
    const n = await t.db.$count(physiqueResults, and(eq(physiqueResults.planId, currentPlan), eq(physiqueResults.gradeNo, 7), eq(physiqueResults.invalid, false)));
    expect(rows.length - 1).toBe(n);
    const data = rows.slice(1);
    expect(data.every((r) => r[0] === 21 && (r[6] === 1 || r[6] === 2))).toBe(true);
    // Long runs as minutes.seconds text.
    const runCol = NATIONAL_COLUMNS.findIndex((c) => c.key === 'run1000m');
    expect(data.map((r) => r[runCol]).find((v) => v != null)).toMatch(/^\d\.\d\d$/);
  });

  it('reports a student: items against the class, history over the years, items to improve; scoped to the school', async () => {
    const [row] = await t.db
      .select()
      .from(physiqueResults)
      .where(and(eq(physiqueResults.orgId, org.k12), eq(physiqueResults.gradeNo, 9), eq(physiqueResults.invalid, false)))
      .limit(1);
    const report = await get<StudentReport>(`physique/report/${row.studentId}`);
    expect(report.student.id).toBe(row.studentId);
    expect(report.years.length).toBeGreaterThanOrEqual(1);
    expect(report.schoolYearId).toBe(report.years[0].schoolYearId);
    expect(report.result).not.toBeNull();
    const r = report.result!;
    expect(r.items.map((i) => i.item)).toContain('bmi');
    expect(r.items.reduce((a, i) => a + i.weight, 0)).toBeCloseTo(1, 5);
    expect(r.items.every((i) => i.classAverage === null || (i.classAverage >= 0 && i.classAverage <= 100))).toBe(true);
    expect(report.history.length).toBeGreaterThanOrEqual(1);
    expect(report.history.map((h) => h.startDate)).toEqual([...report.history.map((h) => h.startDate)].sort());
    for (const item of report.improve) expect(r.items.find((i) => i.item === item)!.score!).toBeLessThan(80);
    // The teacher reads it too; a university account and a made-up id do not.
    expect((await t.request({ url: api(`physique/report/${row.studentId}`), token: tokens.teacher01 })).statusCode).toBe(200);
    expect((await t.request({ url: api(`physique/report/${row.studentId}`, 'gx'), token: tokens.college01 })).statusCode).toBe(404);
    expect((await t.request({ url: api('physique/report/nope'), token: tokens.school01 })).statusCode).toBe(404);
  });
});
