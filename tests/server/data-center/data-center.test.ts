import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { ClassListView, ClassView, DataCenterOptions, GradeView, Indicators, SchoolView, StudentListPage, StudentView } from '@/domain/data-center/types';
import { physiqueResults } from '../../../server/db/schema/physique';
import { orgs } from '../../../server/db/schema/orgs';
import { classes } from '../../../server/db/schema/school';
import { testPlans } from '../../../server/db/schema/test-plans';
import { DISTRIBUTION_COLUMNS, periodResults } from '../../../server/modules/data-center/data-center.sql';
import { addPlanWithResults } from '../../../server/seed/scale';
import { createTestApp, type TestApp } from '../../support/server-app';
import { indicators, itemMeans, latestPerStudent, loadResults, loadStudents, near, percentileCont, roster, type RefIndicators, type ResultRow, type StudentRef } from './reference';

let t: TestApp;
const tokens: Record<string, string> = {};
let k12Id: string;
let uniId: string;
let bureauId: string;
/** Every school of the district (the demo's second school has students but no tests yet). */
let schoolIds: string[];
const plans: Record<string, string> = {};
let results: ResultRow[];
let studentList: StudentRef[];

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['school01', 'teacher01', 'college01', 'district01']) tokens[account] = (await t.login(account)).access_token;
  const rows = await t.db.select({ id: orgs.id, type: orgs.type, parentId: orgs.parentId }).from(orgs);
  k12Id = rows.find((o) => o.type === ORG_TYPE.k12)!.id;
  uniId = rows.find((o) => o.type === ORG_TYPE.university)!.id;
  bureauId = rows.find((o) => o.type === ORG_TYPE.management)!.id;
  schoolIds = rows.filter((o) => o.parentId === bureauId).map((o) => o.id);
  // Two years of autumn plans for the K12 school, a spring retest of a few classes (a student tested twice in one
  // year counts once, with the later result), and one plan for the university.
  plans.k12y1 = (await addPlanWithResults(t.db, { orgId: k12Id, schoolYear: 2025, seed: 1, invalid: 0.01 })).planId;
  plans.k12y2 = (await addPlanWithResults(t.db, { orgId: k12Id, schoolYear: 2026, seed: 2, invalid: 0.01 })).planId;
  const someClasses = (await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, k12Id)).limit(3)).map((c) => c.id);
  plans.k12spring = (await addPlanWithResults(t.db, { orgId: k12Id, schoolYear: 2026, semesterCode: 11, classIds: someClasses, seed: 3, invalid: 0 })).planId;
  plans.uni = (await addPlanWithResults(t.db, { orgId: uniId, schoolYear: 2026, seed: 4 })).planId;
  results = await loadResults(t.db);
  studentList = await loadStudents(t.db);
});
afterAll(async () => {
  await t?.close();
});

async function view<T>(url: string, account: string, headers: Record<string, string> = {}): Promise<T> {
  const res = await t.request({ url: `/api/busi/web/${url}`, token: tokens[account], headers });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  return res.json<Envelope<T>>().data;
}

/** The service's indicators equal the reference (counts and rates exactly, means to the rounding). */
function expectIndicators(actual: Indicators, expected: RefIndicators, students: number | null) {
  expect(actual.tested).toBe(expected.tested);
  expect(actual.assessed).toBe(expected.assessed);
  expect(actual.levels).toEqual(expected.levels);
  expect(actual.bmi).toEqual(expected.bmi);
  expect(actual.excellentRate).toBe(expected.excellentRate);
  expect(actual.goodRate).toBe(expected.goodRate);
  expect(actual.passRate).toBe(expected.passRate);
  expect(near(actual.meanTotal, expected.meanTotal), `mean ${actual.meanTotal} vs ${expected.meanTotal}`).toBe(true);
  expect(actual.students).toBe(students);
  expect(actual.participationRate).toBe(expected.participationRate);
}

function expectItems(actual: SchoolView['items'], rows: ResultRow[]) {
  const ref = itemMeans(rows);
  expect(Object.keys(actual).sort()).toEqual(Object.keys(ref).sort());
  for (const [item, r] of Object.entries(ref)) {
    const a = actual[item as keyof typeof actual]!;
    expect(a.n, item).toBe(r.n);
    expect(near(a.meanScore, r.mean), `${item} ${a.meanScore} vs ${r.mean}`).toBe(true);
    expect(a.failRate, item).toBe(r.failRate);
  }
}

describe('school view', () => {
  it('equals a direct computation over the seeded rows (latest school year by default)', async () => {
    const v = await view<SchoolView>('k12/dataCenter/school', 'school01');
    expect(v.period).toMatchObject({ schoolYear: 2026, academicYear: '2026-2027', planId: null });
    expect(v.scope).toMatchObject({ orgId: k12Id, schools: 1 });
    const rows = latestPerStudent(results, { orgIds: [k12Id], year: 2026 });
    const students = roster(studentList, [k12Id], 2026);
    expectIndicators(v.overview, indicators(rows, students), students);
    expectItems(v.items, rows);

    const grades = [...new Set(rows.map((r) => r.gradeNo))].sort((a, b) => a - b);
    expect(v.byGrade.map((g) => g.gradeNo)).toEqual(grades);
    for (const g of v.byGrade) {
      const gr = rows.filter((r) => r.gradeNo === g.gradeNo);
      const n = roster(studentList, [k12Id], 2026, { gradeNo: g.gradeNo });
      expectIndicators(g.indicators, indicators(gr, n), n);
      expectItems(g.items, gr);
    }
    for (const g of v.byGender) {
      const gr = rows.filter((r) => r.gender === g.gender);
      const n = roster(studentList, [k12Id], 2026, { gender: g.gender });
      expectIndicators(g.indicators, indicators(gr, n), n);
    }
    // Class ranking: every class with results, by mean total.
    expect(v.ranking.unit).toBe('class');
    const classIds = new Set(rows.map((r) => r.classId));
    expect(v.ranking.rows).toHaveLength(classIds.size);
    for (const row of v.ranking.rows) {
      const ref = indicators(
        rows.filter((r) => r.classId === row.id),
        null,
      );
      expect(row.tested).toBe(ref.tested);
      expect(row.passRate).toBe(ref.passRate);
      expect(row.excellentRate).toBe(ref.excellentRate);
      expect(near(row.meanTotal, ref.meanTotal)).toBe(true);
    }
    const means = v.ranking.rows.map((r) => r.meanTotal ?? -1);
    expect(means).toEqual([...means].sort((a, b) => b - a));
    expect(v.ranking.rows[0].rank).toBe(1);
    // Weakest items: lowest mean first, BMI left out.
    const weak = v.weakestItems.map((w) => w.meanScore);
    expect(weak).toEqual([...weak].sort((a, b) => a - b));
    expect(v.weakestItems.some((w) => w.item === 'bmi')).toBe(false);
  });

  it('a student tested twice in one year counts once, with the later result', async () => {
    const twice = results.filter((r) => r.planId === plans.k12spring && !r.invalid);
    expect(twice.length).toBeGreaterThan(0);
    const rows = latestPerStudent(results, { orgIds: [k12Id], year: 2026 });
    const picked = new Map(rows.map((r) => [r.studentId, r.planId]));
    for (const r of twice) expect(picked.get(r.studentId)).toBe(plans.k12spring);
    const v = await view<SchoolView>('k12/dataCenter/school', 'school01');
    expect(v.overview.tested).toBe(new Set(results.filter((r) => r.orgId === k12Id && r.schoolYear === 2026 && !r.invalid).map((r) => r.studentId)).size);
  });

  it('has the year-on-year trend of the same indicators', async () => {
    const v = await view<SchoolView>('k12/dataCenter/school?gender=female', 'school01');
    const years = [...new Set(results.filter((r) => r.orgId === k12Id && !r.invalid).map((r) => r.schoolYear))].sort();
    expect(years.length).toBeGreaterThanOrEqual(2);
    expect(v.trend.map((p) => p.schoolYear)).toEqual(years);
    for (const p of v.trend) {
      const rows = latestPerStudent(results, { orgIds: [k12Id], year: p.schoolYear, gender: 'female' });
      const n = roster(studentList, [k12Id], p.schoolYear, { gender: 'female' });
      expectIndicators(p.indicators, indicators(rows, n), n);
      expectItems(p.items, rows);
    }
  });

  it('filters change the figures: school year, semester, plan, grade, class, gender', async () => {
    const cls = results.find((r) => r.planId === plans.k12y2)!.classId;
    const cases: [string, Parameters<typeof latestPerStudent>[1]][] = [
      ['schoolYear=2025', { orgIds: [k12Id], year: 2025 }],
      ['schoolYear=2024', { orgIds: [k12Id], year: 2024 }],
      ['schoolYear=2026&semesterCode=13', { orgIds: [k12Id], year: 2026, semesterCode: 13 }],
      [`planId=${plans.k12spring}`, { orgIds: [k12Id], year: 2026, planId: plans.k12spring }],
      ['gradeNo=8', { orgIds: [k12Id], year: 2026, gradeNo: 8 }],
      [`classId=${cls}`, { orgIds: [k12Id], year: 2026, classId: cls }],
      ['gender=male&gradeNo=3', { orgIds: [k12Id], year: 2026, gender: 'male', gradeNo: 3 }],
    ];
    const all = (await view<SchoolView>('k12/dataCenter/school', 'school01')).overview;
    for (const [query, pick] of cases) {
      const v = await view<SchoolView>(`k12/dataCenter/school?${query}`, 'school01');
      const rows = latestPerStudent(results, pick);
      const ref = indicators(rows, v.overview.students);
      expect(v.overview.tested, query).toBe(ref.tested);
      expect(v.overview.levels, query).toEqual(ref.levels);
      expect(near(v.overview.meanTotal, ref.meanTotal), query).toBe(true);
      if (!query.startsWith('schoolYear')) expect(v.overview.tested, query).not.toBe(all.tested);
    }
  });

  it('rejects invalid filters with a translated message', async () => {
    const res = await t.request({ url: '/api/busi/web/k12/dataCenter/school?gradeNo=17', token: tokens.school01, headers: { 'accept-language': 'en-US' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('The grade must be between 1 and 16.');
    expect((await t.request({ url: '/api/busi/web/k12/dataCenter/school?semesterCode=12', token: tokens.school01 })).json().msg).toBe('学期只能是春季或秋季');
    // '' means no filter.
    expect((await t.request({ url: '/api/busi/web/k12/dataCenter/school?gradeNo=&classId=', token: tokens.school01 })).statusCode).toBe(200);
  });
});

describe('invalid results', () => {
  it('never count, and marking some invalid changes the figures accordingly', async () => {
    const before = await view<SchoolView>('k12/dataCenter/school?gradeNo=5', 'school01');
    const victims = latestPerStudent(results, { orgIds: [k12Id], year: 2026, gradeNo: 5 })
      .filter((r) => r.total != null)
      .slice(0, 7);
    await t.db.update(physiqueResults).set({ invalid: true }).where(inArray(physiqueResults.id, victims.map((r) => r.id)));
    try {
      const fresh = await loadResults(t.db);
      const after = await view<SchoolView>('k12/dataCenter/school?gradeNo=5', 'school01');
      const rows = latestPerStudent(fresh, { orgIds: [k12Id], year: 2026, gradeNo: 5 });
      expectIndicators(after.overview, indicators(rows, after.overview.students), after.overview.students);
      // A student drops out unless another valid 2026 result of grade 5 (another plan) takes the place of the invalid one.
      const still = new Map(rows.map((r) => [r.studentId, r.id]));
      const lost = victims.filter((v) => !still.has(v.studentId)).length;
      expect(after.overview.tested).toBe(before.overview.tested - lost);
      for (const v of victims) expect(still.get(v.studentId)).not.toBe(v.id);
      // The class table never shows the invalid result.
      const cls = await view<ClassView>(`k12/dataCenter/class/${victims[0].classId}`, 'school01');
      const row = cls.students.find((s) => s.studentId === victims[0].studentId)!;
      expect(row.resultId).toBe(still.get(victims[0].studentId) ?? null);
      // The student's history leaves the invalid result out.
      const st = await view<StudentView>(`k12/dataCenter/student/${victims[0].studentId}`, 'school01');
      expect(st.history.map((h) => h.resultId)).not.toContain(victims[0].id);
    } finally {
      await t.db.update(physiqueResults).set({ invalid: false }).where(inArray(physiqueResults.id, victims.map((r) => r.id)));
    }
  });
});

describe('grade view', () => {
  it('classes side by side and distributions equal a direct computation', async () => {
    const v = await view<GradeView>('k12/dataCenter/grade?gradeNo=4', 'school01');
    expect(v.gradeNo).toBe(4);
    const rows = latestPerStudent(results, { orgIds: [k12Id], year: 2026, gradeNo: 4 });
    const n = roster(studentList, [k12Id], 2026, { gradeNo: 4 });
    expectIndicators(v.overview, indicators(rows, n), n);
    expect(v.units.unit).toBe('class');
    expect(v.units.rows.map((u) => u.id).sort()).toEqual([...new Set(rows.map((r) => r.classId))].sort());
    for (const u of v.units.rows) {
      const ref = indicators(
        rows.filter((r) => r.classId === u.id),
        null,
      );
      expect(u.tested).toBe(ref.tested);
      expect(u.levels).toEqual(ref.levels);
      expect(u.gradeNo).toBe(4);
    }
    const total = v.distributions.find((d) => d.item === 'total')!;
    const totals = rows.filter((r) => r.total != null).map((r) => r.total!).sort((a, b) => a - b);
    expect(total.n).toBe(totals.length);
    expect(total.histogram.reduce((s, b) => s + b.count, 0)).toBe(totals.length);
    expect(total.histogram).toHaveLength(12);
    expect(near(total.score!.median, percentileCont(totals, 0.5), 2)).toBe(true);
    expect(near(total.score!.q1, percentileCont(totals, 0.25), 2)).toBe(true);
    expect(total.score!.min).toBe(totals[0]);
    expect(total.score!.max).toBe(totals.at(-1));
    const run = v.distributions.find((d) => d.item === 'run50m')!;
    const raws = rows.filter((r) => r.run50m != null).map((r) => r.run50m!).sort((a, b) => a - b);
    expect(near(run.raw!.q3, percentileCont(raws, 0.75), 2)).toBe(true);
    expect(run.histogram).toHaveLength(10);
    expect(run.histogram.filter((b) => b.from >= 60).reduce((s, b) => s + b.count, 0)).toBe(rows.filter((r) => (r.run50mScore ?? -1) >= 60).length);
  });

  it("every item's five numbers (scores and raw values) equal a direct computation, for a gender too, read from the covering index alone", async () => {
    for (const gender of [undefined, 'female'] as const) {
      const v = await view<GradeView>(`k12/dataCenter/grade?gradeNo=5${gender ? `&gender=${gender}` : ''}`, 'school01');
      const rows = latestPerStudent(results, { orgIds: [k12Id], year: 2026, gradeNo: 5 }).filter((r) => !gender || r.gender === gender);
      expect(v.distributions.length).toBeGreaterThan(3);
      for (const d of v.distributions) {
        const scored = rows.filter((r) => (d.item === 'total' ? r.total : r[`${d.item}Score`]) != null);
        const five = (values: number[]) => {
          const sorted = [...values].sort((a, b) => a - b);
          return [0, 0.25, 0.5, 0.75, 1].map((p) => percentileCont(sorted, p));
        };
        const expectFive = (got: { min: number; q1: number; median: number; q3: number; max: number } | null, values: number[], what: string) => {
          const want = five(values);
          const actual = [got!.min, got!.q1, got!.median, got!.q3, got!.max];
          actual.forEach((a, i) => expect(near(a, want[i], 2), `${gender ?? 'all'} ${d.item} ${what} ${i}: ${a} vs ${want[i]}`).toBe(true));
        };
        expect(d.n).toBe(scored.length);
        expectFive(d.score, scored.map((r) => (d.item === 'total' ? r.total! : (r[`${d.item}Score`] as number))), 'score');
        if (d.item !== 'total') expectFive(d.raw, scored.map((r) => r[d.item] as number), 'raw');
      }
    }
    // The read behind them touches only physique_results_org_grade_idx (no heap columns it lacks): on the partitioned
    // table, its copy on the year's partition (named by PostgreSQL after the partition and the index's columns).
    const planRefs = (await t.db.select({ id: testPlans.id, orgId: testPlans.orgId, startDate: testPlans.startDate }).from(testPlans).where(inArray(testPlans.id, [plans.k12y2, plans.k12spring]))).map((p) => ({
      ...p,
      schoolYear: 2026,
    }));
    const src = periodResults({ orgIds: [k12Id], plans: planRefs, filters: { gradeNo: 5, gender: 'female' }, columns: DISTRIBUTION_COLUMNS });
    const plan = await t.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`);
      return (await tx.execute<{ 'QUERY PLAN': string }>(sql`explain ${src}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Only Scan (Backward )?using physique_results_sy2026_org_id_grade_no_plan_id_\w*idx on physique_results_sy2026/);
    expect(plan).not.toMatch(/physique_results_(sy(?!2026)\d{4}|default)/);
  });

  it('defaults to the lowest grade with results', async () => {
    const v = await view<GradeView>('k12/dataCenter/grade', 'school01');
    expect(v.gradeNo).toBe(Math.min(...latestPerStudent(results, { orgIds: [k12Id], year: 2026 }).map((r) => r.gradeNo)));
  });
});

describe('class view', () => {
  it('lists every student with every item, compares with the grade and flags students to watch', async () => {
    const cls = results.find((r) => r.planId === plans.k12spring)!.classId;
    const v = await view<ClassView>(`k12/dataCenter/class/${cls}`, 'school01');
    const enrolled = studentList.filter((s) => s.classId === cls && s.enabled);
    expect(v.students).toHaveLength(enrolled.length);
    const rows = latestPerStudent(results, { orgIds: [k12Id], year: 2026 }).filter((r) => enrolled.some((s) => s.id === r.studentId));
    expect(v.students.filter((s) => s.resultId).length).toBe(rows.length);
    for (const r of rows) {
      const s = v.students.find((x) => x.studentId === r.studentId)!;
      expect(s.resultId).toBe(r.id);
      expect(s.total).toBe(r.total);
      expect(s.testedOn).toBe(r.testedOn);
      expect(s.items.run50m?.raw ?? null).toBe(r.run50m);
      expect(s.items.bmi?.level ?? null).toBe(r.bmiLevel);
      expect(s.watch.includes('failing')).toBe(r.level === 'fail');
      expect(s.watch.includes('obese')).toBe(r.bmiLevel === 'obese');
    }
    // Previous result: the spring retest's students have their autumn total as the previous one.
    const retested = v.students.find((s) => s.planId === plans.k12spring && s.total != null);
    if (retested) {
      const autumn = results.find((r) => r.studentId === retested.studentId && r.planId === plans.k12y2 && !r.invalid && r.total != null);
      if (autumn) expect(retested.previousTotal).toBe(autumn.total);
    }
    expectIndicators(v.overview, indicators(latestPerStudent(results, { orgIds: [k12Id], year: 2026, classId: cls }), enrolled.length), enrolled.length);
    const grade = v.class.testGradeNo!;
    const gradeRows = latestPerStudent(results, { orgIds: [k12Id], year: 2026, gradeNo: grade });
    const n = roster(studentList, [k12Id], 2026, { gradeNo: grade });
    expectIndicators(v.gradeOverview, indicators(gradeRows, n), n);
    expect(v.watch.every((w) => w.reasons.length > 0)).toBe(true);
  });

  it('the class list has the classes of the filters', async () => {
    const v = await view<ClassListView>('k12/dataCenter/class?gradeNo=2', 'school01');
    const rows = latestPerStudent(results, { orgIds: [k12Id], year: 2026, gradeNo: 2 });
    expect(v.rows.map((r) => r.id).sort()).toEqual([...new Set(rows.map((r) => r.classId))].sort());
  });
});

describe('student view and list', () => {
  it('history across years and plans, oldest first, with the class average', async () => {
    const r = results.find((x) => x.planId === plans.k12spring && !x.invalid && x.total != null)!;
    const v = await view<StudentView>(`k12/dataCenter/student/${r.studentId}`, 'school01');
    const mine = results.filter((x) => x.studentId === r.studentId && !x.invalid);
    expect(v.history).toHaveLength(mine.length);
    expect(v.history.map((h) => h.planStartDate)).toEqual([...v.history.map((h) => h.planStartDate)].sort());
    expect(v.history.at(-1)!.planId).toBe(plans.k12spring);
    const classRows = results.filter((x) => x.planId === plans.k12spring && x.classId === r.classId && !x.invalid && x.total != null);
    const mean = classRows.reduce((s, x) => s + x.total!, 0) / classRows.length;
    expect(near(v.classAverage!.meanTotal, mean)).toBe(true);
  });

  it('pages students with their latest result of the period', async () => {
    const page = await view<StudentListPage>('k12/dataCenter/student?size=20&gradeNo=7', 'school01');
    expect(page.records).toHaveLength(20);
    expect(page.total).toBe(studentList.filter((s) => s.orgId === k12Id && s.enabled && s.stage === 'junior' && s.enrolYear === 2026).length);
    const rows = latestPerStudent(results, { orgIds: [k12Id], year: 2026 });
    for (const s of page.records) expect(s.resultId).toBe(rows.find((r) => r.studentId === s.studentId)?.id ?? null);
  });
});

describe('scope', () => {
  it("another organisation's data is never included", async () => {
    const k12 = await view<SchoolView>('k12/dataCenter/school', 'school01');
    expect(k12.overview.tested).toBe(latestPerStudent(results, { orgIds: [k12Id], year: 2026 }).length);
    const uniClass = results.find((r) => r.orgId === uniId)!;
    expect((await t.request({ url: `/api/busi/web/k12/dataCenter/class/${uniClass.classId}`, token: tokens.school01 })).statusCode).toBe(404);
    expect((await t.request({ url: `/api/busi/web/k12/dataCenter/student/${uniClass.studentId}`, token: tokens.school01 })).statusCode).toBe(404);
    // A plan of another school is not found either (never its figures).
    expect((await t.request({ url: `/api/busi/web/k12/dataCenter/school?planId=${plans.uni}`, token: tokens.school01 })).statusCode).toBe(404);
    // The orgId header cannot move a school account to another school.
    const moved = await view<SchoolView>('k12/dataCenter/school', 'school01', { orgid: uniId });
    expect(moved.scope.orgId).toBe(k12Id);
  });

  it("a bureau's year with one plan per school (from the rollups, added up per school first) equals a direct computation", async () => {
    const v = await view<SchoolView>('admin/dataCenter/school?schoolYear=2025', 'district01');
    const rows = latestPerStudent(results, { orgIds: [k12Id, uniId], year: 2025 });
    expect(rows.length).toBeGreaterThan(0);
    const students = roster(studentList, [...schoolIds, bureauId], 2025);
    expectIndicators(v.overview, indicators(rows, students), students);
    expectItems(v.items, rows);
    for (const g of v.byGrade) {
      const gr = rows.filter((r) => r.gradeNo === g.gradeNo);
      const n = roster(studentList, [...schoolIds, bureauId], 2025, { gradeNo: g.gradeNo });
      expectIndicators(g.indicators, indicators(gr, n), n);
      expectItems(g.items, gr);
    }
    for (const g of v.byGender) {
      const gr = rows.filter((r) => r.gender === g.gender);
      const n = roster(studentList, [...schoolIds, bureauId], 2025, { gender: g.gender });
      expectIndicators(g.indicators, indicators(gr, n), n);
    }
    expect(v.ranking.unit).toBe('school');
    expect(v.ranking.rows.map((r) => r.id).sort()).toEqual([...new Set(rows.map((r) => r.orgId))].sort());
    for (const row of v.ranking.rows) {
      const ref = indicators(rows.filter((r) => r.orgId === row.id), null);
      expect(row).toMatchObject({ tested: ref.tested, assessed: ref.assessed, excellentRate: ref.excellentRate, goodRate: ref.goodRate, passRate: ref.passRate });
      expect(near(row.meanTotal, ref.meanTotal)).toBe(true);
    }
  });

  it('a bureau sees its schools, ranked by school, and one school with orgId', async () => {
    const v = await view<SchoolView>('admin/dataCenter/school', 'district01');
    expect(v.scope).toMatchObject({ orgId: bureauId, schools: schoolIds.length });
    const rows = latestPerStudent(results, { orgIds: [k12Id, uniId], year: 2026 });
    expectIndicators(v.overview, indicators(rows, roster(studentList, [...schoolIds, bureauId], 2026)), roster(studentList, [...schoolIds, bureauId], 2026));
    expect(v.ranking.unit).toBe('school');
    expect(v.ranking.rows.map((r) => r.id).sort()).toEqual([k12Id, uniId].sort());
    const one = await view<SchoolView>(`admin/dataCenter/school?orgId=${uniId}`, 'district01');
    expect(one.scope.orgId).toBe(uniId);
    expect(one.overview.tested).toBe(latestPerStudent(results, { orgIds: [uniId], year: 2026 }).length);
    expect(one.ranking.unit).toBe('class');
    const outside = await t.request({ url: `/api/busi/web/admin/dataCenter/school?orgId=00000000-0000-4000-8000-000000000000`, token: tokens.district01 });
    expect(outside.statusCode).toBe(404);
  });

  it('universities use the same views with grades 13–16', async () => {
    const v = await view<SchoolView>('gx/dataCenter/school', 'college01');
    const rows = latestPerStudent(results, { orgIds: [uniId], year: 2026 });
    const n = roster(studentList, [uniId], 2026);
    expectIndicators(v.overview, indicators(rows, n), n);
    expect(v.byGrade.map((g) => g.gradeNo)).toEqual([13, 14, 15, 16]);
    const options = await view<DataCenterOptions>('gx/dataCenter/filters', 'college01');
    expect(options.colleges.length).toBeGreaterThan(0);
    const college = options.colleges[0].id;
    const byCollege = await view<SchoolView>(`gx/dataCenter/school?collegeId=${college}`, 'college01');
    const collegeClasses = new Set((await t.db.select({ id: classes.id }).from(classes).where(and(eq(classes.orgId, uniId), eq(classes.collegeId, college)))).map((c) => c.id));
    expect(byCollege.overview.tested).toBe(rows.filter((r) => collegeClasses.has(r.classId)).length);
  });

  it('the filter options list the years, plans, grades and classes of the scope', async () => {
    const o = await view<DataCenterOptions>('k12/dataCenter/filters', 'school01');
    expect(o.schoolYears.map((y) => y.schoolYear)).toEqual([...new Set(results.filter((r) => r.orgId === k12Id && !r.invalid).map((r) => r.schoolYear))].sort().reverse());
    expect(o.plans.map((p) => p.id)).toEqual(expect.arrayContaining([plans.k12y1, plans.k12y2, plans.k12spring]));
    expect(o.plans.map((p) => p.id)).not.toContain(plans.uni);
    expect(o.grades).toEqual([...new Set(results.filter((r) => r.orgId === k12Id && !r.invalid).map((r) => r.gradeNo))].sort((a, b) => a - b));
    expect(o.classes.every((c) => c.orgId === k12Id)).toBe(true);
    const a = await view<DataCenterOptions>('admin/dataCenter/filters', 'district01');
    expect(a.schools.map((s) => s.id).sort()).toEqual([...schoolIds].sort());
  });
});

describe('permissions', () => {
  it('answers 403 without the catalogue code, in the caller’s language', async () => {
    const res = await t.request({ url: '/api/busi/web/k12/dataCenter/school', token: tokens.college01 });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: '403', data: null, msg: '没有该操作的权限' });
    expect((await t.request({ url: '/api/busi/web/gx/dataCenter/school', token: tokens.school01 })).statusCode).toBe(403);
    expect((await t.request({ url: '/api/busi/web/admin/dataCenter/school', token: tokens.school01 })).statusCode).toBe(403);
    // A PE teacher sees the dashboards.
    expect((await t.request({ url: '/api/busi/web/k12/dataCenter/school', token: tokens.teacher01 })).statusCode).toBe(200);
    expect((await t.request({ url: '/api/busi/web/k12/dataCenter/school' })).statusCode).toBe(401);
  });
});
