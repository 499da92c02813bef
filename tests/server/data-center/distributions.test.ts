import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import { SCORE_BUCKET_WIDTH } from '@/domain/data-center/filters';
import type { Distribution, GradeView } from '@/domain/data-center/types';
import { orgs } from '../../../server/db/schema/orgs';
import { physiqueResults } from '../../../server/db/schema/physique';
import { classes, grades, students } from '../../../server/db/schema/school';
import { testPlans } from '../../../server/db/schema/test-plans';
import { resolvePeriod, scopePlans } from '../../../server/modules/data-center/data-center.scope';
import { WHOLE_ORG } from '../../../server/lib/data-scope';
import { distributionQuery, distributionsOf, distributionsOfRow, storedDistributionQuery, storedDistributions } from '../../../server/modules/data-center/data-center.service';
import { DISTRIBUTION_COLUMNS, ITEM_SQL, periodResults, type AggRow, type PlanRef, type ResultFilters } from '../../../server/modules/data-center/data-center.sql';
import { addPlanWithResults } from '../../../server/seed/scale';
import { createTestApp, type TestApp } from '../../support/server-app';
import { importJob } from '../../support/jobs';
import { createPlan, multipartBody, someStudents, templateFor, xlsxOf, type FixtureStudent } from '../physique-results/physique-fixtures';

/**
 * The grade view's distributions (five numbers and histograms) from the statement that replaced 144 FILTER aggregates
 * equal, figure for figure, those of the statement it replaced (kept below as it was), on the demo data and on edge
 * cases: an empty grade, one student, invalid and exempt results, a gender, two plans in one year, a district. The
 * distributions stored per plan × grade × gender (dc_grade_distributions, kept by triggers) equal the computed ones
 * after imports, edits, invalidations, deletes and a student's grade and gender change.
 */

const BOX = [0, 0.25, 0.5, 0.75, 1];

/** The distributions' statement before (server/modules/data-center/data-center.service.ts until this change). */
function previousQuery(src: SQL): SQL {
  const w = String(SCORE_BUCKET_WIDTH);
  const box = `array[${BOX.join(', ')}]::float8[]`;
  const columns = [...ITEM_SQL.map((c) => ({ item: c.item as string, score: `r.${c.score}::float8`, raw: `r.${c.raw}::float8` })), { item: 'total', score: 'r.total::float8', raw: null }].flatMap(
    ({ item, score, raw }, k) => {
      const last = item === 'total' ? 11 : 9;
      const buckets = Array.from({ length: 12 }, (_, i) => `(count(*) filter (where ${score} is not null and least(floor(${score} / ${w})::int, ${last}) = ${i}))::int as "h${i}_${k}"`);
      return [
        `count(${score})::int as "n_${k}"`,
        `percentile_cont(${box}) within group (order by ${score}) as "s_${k}"`,
        raw ? `percentile_cont(${box}) within group (order by ${raw}) filter (where ${score} is not null) as "r_${k}"` : `null::float8[] as "r_${k}"`,
        ...buckets,
      ];
    },
  );
  return sql`with r as (${src}) select ${sql.raw(columns.join(',\n  '))} from r`;
}

/** The previous mapping of that statement's row to the view's distributions. */
function previousDistributions(row: AggRow | undefined): Distribution[] {
  if (!row) return [];
  const items = [...ITEM_SQL.map((c) => c.item as string), 'total'];
  return distributionsOf(
    items.flatMap((item, k) => {
      if (!Number(row[`n_${k}`])) return [];
      const out: AggRow = { item, n: row[`n_${k}`], score5: row[`s_${k}`], raw5: row[`r_${k}`] };
      for (let i = 0; i < 12; i++) out[`h${i}`] = row[`h${i}_${k}`];
      return [out];
    }),
  );
}

let t: TestApp;
let token: string;
let k12Id: string;
let bureauId: string;
const plans: Record<string, PlanRef> = {};

async function planRef(id: string, schoolYear: number): Promise<PlanRef> {
  const [p] = await t.db.select({ id: testPlans.id, orgId: testPlans.orgId, startDate: testPlans.startDate }).from(testPlans).where(eq(testPlans.id, id));
  return { id: p.id, orgId: p.orgId, startDate: String(p.startDate).slice(0, 10), schoolYear };
}

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  token = (await t.login('school01')).access_token;
  const rows = await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs);
  k12Id = rows.find((o) => o.type === ORG_TYPE.k12)!.id;
  bureauId = rows.find((o) => o.type === ORG_TYPE.management)!.id;
  plans.autumn = await planRef((await addPlanWithResults(t.db, { orgId: k12Id, schoolYear: 2026, seed: 11, invalid: 0.05 })).planId, 2026);
  const someClasses = (await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, k12Id)).limit(3)).map((c) => c.id);
  plans.spring = await planRef((await addPlanWithResults(t.db, { orgId: k12Id, schoolYear: 2026, semesterCode: 11, classIds: someClasses, seed: 12, invalid: 0 })).planId, 2026);
  // Exempt results (docs/product-rules.md#physique-year, "Exemptions") count nowhere, like invalid ones.
  const some = await t.db.select({ id: physiqueResults.id }).from(physiqueResults).where(eq(physiqueResults.planId, plans.autumn.id)).limit(40);
  await t.db.update(physiqueResults).set({ exempt: true }).where(inArray(physiqueResults.id, some.filter((_, i) => i % 3 === 0).map((r) => r.id)));
});
afterAll(async () => {
  await t?.close();
});

async function both(opts: { orgIds: string[]; plans: PlanRef[]; filters?: ResultFilters; extra?: SQL[] }): Promise<{ now: Distribution[]; before: Distribution[] }> {
  const src = periodResults({ ...opts, columns: DISTRIBUTION_COLUMNS });
  const [now] = (await t.db.execute<AggRow>(distributionQuery(src))).rows;
  const [before] = (await t.db.execute<AggRow>(previousQuery(src))).rows;
  return { now: distributionsOfRow(now), before: previousDistributions(before) };
}

describe('grade distributions', () => {
  it('equal the previous statement in every grade and gender of the school, with invalid and exempt results present', async () => {
    const [{ invalid, exempt }] = (
      await t.db.execute<{ invalid: number; exempt: number }>(
        sql`select count(*) filter (where invalid)::int as invalid, count(*) filter (where exempt)::int as exempt from physique_results where plan_id = ${plans.autumn.id}::uuid`,
      )
    ).rows;
    expect(invalid).toBeGreaterThan(0);
    expect(exempt).toBeGreaterThan(0);
    let seen = 0;
    for (let gradeNo = 1; gradeNo <= 12; gradeNo++) {
      for (const gender of [undefined, 'male', 'female'] as const) {
        const { now, before } = await both({ orgIds: [k12Id], plans: [plans.autumn], filters: { gradeNo, gender } });
        expect(now, `grade ${gradeNo} ${gender ?? 'all'}`).toEqual(before);
        seen += now.length;
      }
    }
    expect(seen).toBeGreaterThan(20);
  });

  it('equal the previous statement for an empty grade, one student, two plans in a year and a district', async () => {
    const empty = await both({ orgIds: [k12Id], plans: [plans.autumn], filters: { gradeNo: 15 } });
    expect(empty.now).toEqual([]);
    expect(empty.before).toEqual([]);
    const [one] = (await t.db.execute<{ student_id: string }>(sql`select student_id from physique_results where plan_id = ${plans.autumn.id}::uuid and not invalid and not exempt and total is not null limit 1`)).rows;
    const single = await both({ orgIds: [k12Id], plans: [plans.autumn], extra: [sql`physique_results.student_id = ${one.student_id}::uuid`] });
    expect(single.now.find((d) => d.item === 'total')?.n).toBe(1);
    expect(single.now).toEqual(single.before);
    const twoPlans = await both({ orgIds: [k12Id], plans: [plans.autumn, plans.spring] });
    expect(twoPlans.now.length).toBeGreaterThan(3);
    expect(twoPlans.now).toEqual(twoPlans.before);
    const schools = (await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.parentId, bureauId))).map((o) => o.id);
    const district = await both({ orgIds: schools, plans: [plans.autumn] });
    expect(district.now).toEqual(district.before);
  });

  it("the grade view answers the previous statement's distributions", async () => {
    const res = await t.request({ url: '/api/busi/web/k12/dataCenter/grade?gradeNo=4', token });
    expect(res.statusCode).toBe(200);
    const v = res.json<Envelope<GradeView>>().data;
    // The view's period as the view resolves it: the latest school year, every plan of it with results.
    const period = resolvePeriod(await scopePlans(t.db, [k12Id], WHOLE_ORG), {});
    expect(period.plans.map((p) => p.id)).toContain(plans.spring.id);
    const { before } = await both({ orgIds: [k12Id], plans: period.plans, filters: { gradeNo: 4 } });
    expect(before.length).toBeGreaterThan(3);
    expect(v.distributions).toEqual(before);
  });
});

/** The stored distributions of `plan` equal the computed ones in every grade (and no others), per gender and for both. */
async function expectStoredEqual(step: string, orgId: string, plan: PlanRef): Promise<number> {
  const computedGrades = (
    await t.db.execute<{ g: number }>(
      sql`select distinct grade_no::int as g from physique_results where plan_id = ${plan.id}::uuid and school_year = ${plan.schoolYear} and not invalid and not exempt order by 1`,
    )
  ).rows.map((r) => r.g);
  const storedGrades = (await t.db.execute<{ g: number }>(sql`select distinct grade_no::int as g from dc_grade_distributions where plan_id = ${plan.id}::uuid order by 1`)).rows.map((r) => r.g);
  expect(storedGrades, `${step}: grades`).toEqual(computedGrades);
  let seen = 0;
  for (const gradeNo of computedGrades) {
    for (const gender of [undefined, 'male', 'female'] as const) {
      const filters: ResultFilters = { gradeNo, gender };
      const query = storedDistributionQuery([orgId], [plan], filters)!;
      const stored = storedDistributions((await t.db.execute<AggRow>(query)).rows);
      const src = periodResults({ orgIds: [orgId], plans: [plan], filters, columns: DISTRIBUTION_COLUMNS });
      const [row] = (await t.db.execute<AggRow>(distributionQuery(src))).rows;
      expect(stored, `${step}: grade ${gradeNo} ${gender ?? 'all'}`).toEqual(distributionsOfRow(row));
      seen += stored.length;
    }
  }
  return seen;
}

describe('stored grade distributions', () => {
  let plan: PlanRef;
  let pupils: FixtureStudent[];
  const upload = async (rows: unknown[][]) => {
    const body = multipartBody(xlsxOf(rows), 'scores.xlsx');
    const start = await t.request({ method: 'POST', url: `/api/busi/web/k12/organizeTest/testManage/import/${plan.id}`, token, payload: body.payload, headers: body.headers });
    const res = await importJob(t, token, start);
    expect(res.statusCode, res.body).toBe(200);
  };
  const post = (path: string, payload: Record<string, unknown>) => t.request({ method: 'POST', url: `/api/busi/web/k12/${path}`, token, payload });

  it('equal the computed ones after the seed, in every plan', async () => {
    expect(await expectStoredEqual('seed', k12Id, plans.autumn)).toBeGreaterThan(20);
    expect(await expectStoredEqual('seed', k12Id, plans.spring)).toBeGreaterThan(3);
  });

  it('equal the computed ones after imports, edits, invalidations, deletes and a student changing grade and gender', async () => {
    const planId = await createPlan(t.db, k12Id);
    const year = (await t.db.execute<{ y: number }>(sql`select sy.start_year::int as y from test_plans tp join school_years sy on sy.id = tp.school_year_id where tp.id = ${planId}::uuid`)).rows[0].y;
    plan = await planRef(planId, year);
    pupils = await someStudents(t.db, k12Id, [1, 2, 5, 9], 12);
    // A first import (COPY into an empty plan, replica mode where the role may: docs/decisions/028-score-import-at-copy-speed.md).
    await upload(templateFor(pupils, 31));
    expect(await expectStoredEqual('first import', k12Id, plan)).toBeGreaterThan(20);
    // A second import over stored results (merge), part of the students with other values.
    await upload(templateFor(pupils.slice(0, 20), 47));
    await expectStoredEqual('second import', k12Id, plan);

    const rows = await t.db.select().from(physiqueResults).where(eq(physiqueResults.planId, plan.id));
    const row = rows.find((r) => r.standingLongJump != null)!;
    const edit = await post(`physiqueManage/testResult/editUpReport/${row.id}`, { field: 'standingLongJump', value: String(Math.round(row.standingLongJump! * 1.05)) });
    expect(edit.statusCode, edit.body).toBe(200);
    await expectStoredEqual('edit', k12Id, plan);
    const invalid = await post('organizeTest/scoreSearch/invalid', { ids: [rows[1].id, rows[2].id].filter((id) => id !== row.id) });
    expect(invalid.statusCode, invalid.body).toBe(200);
    await expectStoredEqual('invalid', k12Id, plan);
    const valid = await post('organizeTest/scoreSearch/valid', { ids: [rows[1].id] });
    expect(valid.statusCode, valid.body).toBe(200);
    await expectStoredEqual('restore', k12Id, plan);

    // Every result of one grade deleted: its stored rows go with them.
    const [gone] = (await t.db.execute<{ g: number }>(sql`select min(grade_no)::int as g from physique_results where plan_id = ${plan.id}::uuid`)).rows;
    await t.db.delete(physiqueResults).where(and(eq(physiqueResults.planId, plan.id), eq(physiqueResults.gradeNo, gone.g)));
    await expectStoredEqual('grade deleted', k12Id, plan);
    expect((await t.db.execute(sql`select 1 from dc_grade_distributions where plan_id = ${plan.id}::uuid and grade_no = ${gone.g}`)).rows).toHaveLength(0);
    await t.db.delete(physiqueResults).where(eq(physiqueResults.id, rows[3].id));
    await expectStoredEqual('one deleted', k12Id, plan);

    // A student moves to a class of another grade and their gender is corrected; the next import writes the result
    // with the new grade and gender, so it leaves one group for another.
    const mover = pupils.find((p) => p.grade === 9 && p.id !== rows[3].studentId)!;
    const [target] = await t.db
      .select({ id: classes.id, name: classes.name, classNo: classes.classNo, gradeNo: grades.gradeNo })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(classes.orgId, k12Id), eq(grades.gradeNo, 5)))
      .limit(1);
    const gender = mover.gender === 'male' ? 'female' : 'male';
    await t.db.update(students).set({ classId: target.id, gender }).where(eq(students.id, mover.id));
    const moved: FixtureStudent = { ...mover, classId: target.id, className: target.name, classNo: target.classNo, grade: 5, gender };
    await upload(templateFor([moved], 53));
    const [after] = await t.db.select().from(physiqueResults).where(and(eq(physiqueResults.planId, plan.id), eq(physiqueResults.studentId, mover.id)));
    expect([after.gradeNo, after.gender]).toEqual([5, gender]);
    await expectStoredEqual('grade and gender change', k12Id, plan);
  }, 300_000);

  it('the grade view of one plan answers the stored distributions', async () => {
    for (const gender of [undefined, 'female'] as const) {
      const res = await t.request({ url: `/api/busi/web/k12/dataCenter/grade?planId=${plans.autumn.id}&gradeNo=4${gender ? `&gender=${gender}` : ''}`, token });
      expect(res.statusCode, res.body).toBe(200);
      const v = res.json<Envelope<GradeView>>().data;
      const { before } = await both({ orgIds: [k12Id], plans: [plans.autumn], filters: { gradeNo: 4, gender } });
      expect(before.length).toBeGreaterThan(3);
      expect(v.distributions).toEqual(before);
    }
  });
});
