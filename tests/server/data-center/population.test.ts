import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { DistrictOverview } from '@/domain/data-center/district';
import type { SchoolView } from '@/domain/data-center/types';
import { users } from '../../../server/db/schema/auth';
import { orgs } from '../../../server/db/schema/orgs';
import { classes } from '../../../server/db/schema/school';
import { WHOLE_ORG } from '../../../server/lib/data-scope';
import { resolvePeriod, scopePlans, type PlanInfo } from '../../../server/modules/data-center/data-center.scope';
import { groupedQuery, splitGroups } from '../../../server/modules/data-center/data-center.service';
import { aggregateColumns, indicatorsOf, itemStatsOf, periodResults, population, rankFields, type AggRow } from '../../../server/modules/data-center/data-center.sql';
import { addPlanWithResults } from '../../../server/seed/scale';
import { createTestApp, type TestApp } from '../../support/server-app';

/**
 * The data centre's choice of source per school (population() in server/modules/data-center/data-center.sql.ts): in
 * a bureau of two schools where one school has a second test plan in the school year, that school's figures come
 * from its per-student rows (a student tested twice counts once, with the later result) and the other school's from
 * its rollups, and the bureau's views equal, figure for figure, the all-rows computation (every student's latest
 * result of the period read from physique_results, as the views computed it for every school before).
 */

let t: TestApp;
let token: string;
let bureauId: string;
/** Two plans in the year (A) and one (B). */
let schoolA: string;
let schoolB: string;
let year: number;
let period: PlanInfo[];

beforeAll(async () => {
  t = await createTestApp();
  token = (await t.login('district01')).access_token;
  const [tenant] = await t.db.execute<{ org_id: string }>(sql`select m.org_id from memberships m join ${users} u on u.id = m.user_id where u.account_num = 'district01'`).then((r) => r.rows);
  bureauId = tenant.org_id;
  // Two of the bureau's K12 schools, both with results in the latest school year (one is given its autumn test if it
  // has none); every other school goes to another bureau, so the bureau has exactly two.
  const schools = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.parentId, bureauId));
  const all = await scopePlans(
    t.db,
    schools.map((s) => s.id),
    WHOLE_ORG,
  );
  const latest = Math.max(...all.filter((p) => p.hasResults).map((p) => p.schoolYear));
  const k12 = new Set((await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12))).map((o) => o.id));
  const withYear = new Set((await t.db.execute<{ org_id: string }>(sql`select org_id from school_years where start_year = ${latest}`)).rows.map((r) => r.org_id));
  const candidates = schools.map((s) => s.id).filter((id) => k12.has(id) && withYear.has(id));
  const tested = new Set(all.filter((p) => p.hasResults && p.schoolYear === latest).map((p) => p.orgId));
  candidates.sort((a, b) => Number(tested.has(b)) - Number(tested.has(a)));
  [schoolA, schoolB] = candidates;
  expect(schoolB, 'two K12 schools with the latest school year').toBeDefined();
  if (!tested.has(schoolB)) await addPlanWithResults(t.db, { orgId: schoolB, schoolYear: latest, seed: 26, invalid: 0.03 });
  const [other] = await t.db.insert(orgs).values({ type: ORG_TYPE.management, code: 'population-other', name: '另一教育局' }).returning({ id: orgs.id });
  const others = schools.map((s) => s.id).filter((id) => id !== schoolA && id !== schoolB);
  if (others.length) await t.db.update(orgs).set({ parentId: other.id }).where(inArray(orgs.id, others));
  // School A's second plan of the year: a spring test of some of its classes (their students are tested twice).
  const someClasses = (await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, schoolA)).limit(6)).map((c) => c.id);
  await addPlanWithResults(t.db, { orgId: schoolA, schoolYear: latest, semesterCode: 11, classIds: someClasses, seed: 27, invalid: 0.03 });
  const resolved = resolvePeriod(await scopePlans(t.db, [bureauId, schoolA, schoolB], WHOLE_ORG), {});
  year = resolved.period.schoolYear!;
  period = resolved.plans;
  expect(year).toBe(latest);
});
afterAll(async () => {
  await t?.close();
});

const orgIds = () => [bureauId, schoolA, schoolB];

async function get<T>(url: string): Promise<T> {
  const res = await t.request({ url: `/api/busi/web/admin/dataCenter/${url}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<T>>().data;
}

/** The all-rows computation: every student's latest valid result of the period, grouped as the views group. */
async function allRows(dims: ('grade_no' | 'gender' | 'org_id')[]): Promise<ReturnType<typeof splitGroups>> {
  const src = periodResults({ orgIds: orgIds(), plans: period });
  const rows = (await t.db.execute<AggRow>(groupedQuery({ src, agg: aggregateColumns() }, dims, true))).rows;
  return splitGroups(rows, dims);
}

/** Students tested twice in the period (so rollups alone would count them twice). */
async function testedTwice(orgId: string): Promise<number> {
  const ids = sql.join(
    period.map((p) => sql`${p.id}::uuid`),
    sql`, `,
  );
  const [{ n }] = (
    await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from (select student_id from physique_results where org_id = ${orgId}::uuid and plan_id in (${ids}) and not invalid and not exempt group by student_id having count(*) > 1) x`,
    )
  ).rows;
  return n;
}

const figures = (row: AggRow | undefined) => {
  const i = indicatorsOf(row ?? {}, null);
  return { tested: i.tested, assessed: i.assessed, levels: i.levels, excellentRate: i.excellentRate, goodRate: i.goodRate, passRate: i.passRate, meanTotal: i.meanTotal, items: itemStatsOf(row ?? {}) };
};

describe('population per school', () => {
  it('reads the school with a second plan from its rows and the other school from its rollups', () => {
    const aPlans = period.filter((p) => p.orgId === schoolA).map((p) => p.id);
    expect(aPlans).toHaveLength(2);
    expect(period.filter((p) => p.orgId === schoolB)).toHaveLength(1);
    for (const bySchool of [true, false]) {
      const pop = population({ orgIds: orgIds(), plans: period, bySchool });
      expect([...(pop.rowPlanIds ?? [])].sort(), `bySchool ${bySchool}`).toEqual([...aPlans].sort());
      expect(pop.counters, 'added up as rollup rows').toBeDefined();
    }
  });

  it("the bureau's school view equals the all-rows computation, overall, per grade, gender and school", async () => {
    expect(await testedTwice(schoolA)).toBeGreaterThan(0);
    const v = await get<SchoolView>('school');
    expect(v.period.schoolYear).toBe(year);
    const ref = await allRows(['grade_no', 'gender', 'org_id']);
    expect(v.overview).toEqual(indicatorsOf(ref.all!, v.overview.students));
    expect(v.items).toEqual(itemStatsOf(ref.all!));
    expect(v.byGrade.map((g) => g.gradeNo)).toEqual(ref.by.grade_no.map((r) => Number(r.grade_no)).sort((a, b) => a - b));
    for (const g of v.byGrade) {
      const row = ref.by.grade_no.find((r) => Number(r.grade_no) === g.gradeNo)!;
      expect(g.indicators, `grade ${g.gradeNo}`).toEqual(indicatorsOf(row, g.indicators.students));
      expect(g.items, `grade ${g.gradeNo}`).toEqual(itemStatsOf(row));
    }
    expect(v.byGender).toHaveLength(ref.by.gender.length);
    for (const g of v.byGender) {
      const row = ref.by.gender.find((r) => r.gender === g.gender)!;
      expect(g.indicators, g.gender).toEqual(indicatorsOf(row, g.indicators.students));
      expect(g.items, g.gender).toEqual(itemStatsOf(row));
    }
    expect(v.ranking.rows.map((r) => r.id).sort()).toEqual([schoolA, schoolB].sort());
    for (const r of v.ranking.rows) {
      const row = ref.by.org_id.find((x) => x.org_id === r.id)!;
      expect({ tested: r.tested, assessed: r.assessed, meanTotal: r.meanTotal, excellentRate: r.excellentRate, goodRate: r.goodRate, passRate: r.passRate }, r.name).toEqual(rankFields(row));
    }
  });

  it("the district overview and its trend's year equal the all-rows computation", async () => {
    const v = await get<DistrictOverview>('overview');
    expect(v.period.schoolYear).toBe(year);
    const ref = await allRows(['org_id']);
    const pick = (r: DistrictOverview['total']) => ({ tested: r.tested, assessed: r.assessed, levels: r.levels, excellentRate: r.excellentRate, goodRate: r.goodRate, passRate: r.passRate, meanTotal: r.meanTotal, items: r.items });
    expect(pick(v.total)).toEqual(figures(ref.all!));
    for (const id of [schoolA, schoolB]) {
      const row = v.schools.find((s) => s.orgId === id)!;
      expect(pick(row), id === schoolA ? 'school A' : 'school B').toEqual(figures(ref.by.org_id.find((r) => r.org_id === id)));
    }
    const point = v.trend.find((p) => p.schoolYear === year)!;
    expect(point.indicators).toEqual(indicatorsOf(ref.all!, null));
    expect(point.items).toEqual(itemStatsOf(ref.all!));
  });

  it("serves the one-plan school from its rollups: a change to them shows in its figures, a change to the other school's does not", async () => {
    const before = await get<DistrictOverview>('overview');
    const testedOf = (v: DistrictOverview, id: string) => v.schools.find((s) => s.orgId === id)!.tested;
    // One school-rollup row of each school's period plans gets 1,000 more tested students (a rollup that says so).
    const bump = async (orgId: string, by: number) => {
      const plan = period.find((p) => p.orgId === orgId)!.id;
      const [row] = (await t.db.execute<{ grade_no: number; gender: string }>(sql`select grade_no, gender from dc_school_rollups where plan_id = ${plan}::uuid order by grade_no, gender limit 1`)).rows;
      await t.db.execute(sql`update dc_school_rollups set tested = tested + ${by} where plan_id = ${plan}::uuid and grade_no = ${row.grade_no} and gender = ${row.gender}`);
    };
    await bump(schoolA, 1000);
    await bump(schoolB, 1000);
    try {
      const after = await get<DistrictOverview>('overview');
      expect(testedOf(after, schoolB), 'school B, one plan: from its rollups').toBe(testedOf(before, schoolB) + 1000);
      expect(testedOf(after, schoolA), 'school A, two plans: from its rows').toBe(testedOf(before, schoolA));
      expect(after.total.tested).toBe(before.total.tested + 1000);
    } finally {
      await bump(schoolA, -1000);
      await bump(schoolB, -1000);
    }
    const restored = await get<DistrictOverview>('overview');
    expect(restored.total.tested).toBe(before.total.tested);
  });
});
