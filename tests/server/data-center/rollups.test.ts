import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { physiqueResults } from '../../../server/db/schema/physique';
import { testPlans } from '../../../server/db/schema/test-plans';
import { purgeRecycleBin } from '../../../server/modules/test-plans/test-plans-manage.service';
import { createTestApp, type TestApp } from '../../support/server-app';
import { ITEMS, loadResults, type ResultRow } from './reference';

/**
 * The dashboard rollups (dc_rollups, kept by triggers on physique_results, and dc_school_rollups, kept by triggers on
 * dc_rollups) and the score list's physique_result_counts always equal a full recomputation from the per-student rows, whatever the writes: random edits, clears, invalidations, restores, a sync and a plan deletion,
 * all through the real HTTP routes.
 */

let t: TestApp;
let token: string;
let orgId: string;

beforeAll(async () => {
  t = await createTestApp();
  token = (await t.login('school01')).access_token;
  const [row] = await t.db.execute<{ org_id: string }>(sql`select m.org_id from memberships m join users u on u.id = m.user_id where u.account_num = 'school01'`).then((r) => r.rows);
  orgId = row.org_id;
});
afterAll(async () => {
  await t?.close();
});

const post = (path: string, payload?: Record<string, unknown>) =>
  t.request({ method: 'POST', url: `/api/busi/web/k12/${path}`, token, ...(payload ? { payload } : {}) });

const PREFIX: Record<(typeof ITEMS)[number], string> = {
  bmi: 'bmi',
  vitalCapacity: 'vital_capacity',
  run50m: 'run_50m',
  sitAndReach: 'sit_and_reach',
  rope1min: 'rope_1min',
  sitUp1min: 'sit_up_1min',
  shuttle50x8: 'shuttle_50x8',
  standingLongJump: 'standing_long_jump',
  pullUp: 'pull_up',
  run1000m: 'run_1000m',
  run800m: 'run_800m',
};
const BMI: Record<string, string> = { normal: 'bmi_normal', lowWeight: 'bmi_low_weight', overweight: 'bmi_overweight', obese: 'bmi_obese' };

/** The keys of the two rollup levels: plan × class × grade × gender, and plan × grade × gender (a plan is one school's). */
const LEVELS = {
  dc_rollups: { columns: ['plan_id', 'class_id', 'grade_no', 'gender'], of: (r: ResultRow) => `${r.planId}|${r.classId}|${r.gradeNo}|${r.gender}` },
  dc_school_rollups: { columns: ['plan_id', 'grade_no', 'gender'], of: (r: ResultRow) => `${r.planId}|${r.gradeNo}|${r.gender}` },
} as const;
type Level = keyof typeof LEVELS;

/** Every counter of every key of `level` with valid results, recomputed in JavaScript from the rows. */
function recompute(rows: readonly ResultRow[], level: Level): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) {
    if (r.invalid) continue;
    const key = LEVELS[level].of(r);
    let c = out.get(key);
    if (!c) out.set(key, (c = {}));
    const add = (name: string, by = 1) => (c[name] = (c[name] ?? 0) + by);
    add('tested');
    if (r.total != null) {
      add('assessed');
      add(`lv_${r.level}`);
      add('total_x10', Math.round(r.total * 10));
    }
    if (r.bmiLevel) add(BMI[r.bmiLevel]);
    for (const item of ITEMS) {
      const row = r as unknown as Record<string, number | string | null>;
      const score = row[`${item}Score`] as number | null;
      if (score != null) {
        add(`${PREFIX[item]}_n`);
        add(`${PREFIX[item]}_sum`, score);
      }
      if (row[`${item}Level`] === 'excellent') add(`${PREFIX[item]}_exc`);
      if (row[`${item}Level`] === 'fail') add(`${PREFIX[item]}_fail`);
    }
  }
  // A sum of zero scores is 0, which the tables (and rollups() below) leave out like any zero counter.
  for (const c of out.values()) for (const [k, v] of Object.entries(c)) if (v === 0) delete c[k];
  return out;
}

/** A rollup table in the same shape (zero counters left out, as the recomputation never creates them). */
async function rollups(level: Level): Promise<Map<string, Record<string, number>>> {
  const { columns } = LEVELS[level];
  const rows = (await t.db.execute<Record<string, unknown>>(sql`select * from ${sql.raw(level)}`)).rows;
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const c: Record<string, number> = {};
    for (const [k, v] of Object.entries(r)) {
      if ([...columns, 'org_id'].includes(k)) continue;
      if (Number(v) !== 0) c[k] = Number(v);
    }
    out.set(columns.map((k) => (k === 'grade_no' ? Number(r[k]) : String(r[k]))).join('|'), c);
  }
  return out;
}

/**
 * physique_result_counts (the score list's): every result, invalid ones too, counted per organisation, plan, class,
 * grade, gender, invalid, exempt, complete and level ('' for none), with Σ total × 10; as key → "n|total_x10".
 */
function recomputeCounts(rows: readonly ResultRow[]): Map<string, string> {
  const sums = new Map<string, [number, number]>();
  for (const r of rows) {
    const key = [r.orgId, r.planId, r.classId, r.gradeNo, r.gender, r.storedInvalid, r.exempt, r.complete, r.level ?? ''].join('|');
    const c = sums.get(key) ?? [0, 0];
    sums.set(key, [c[0] + 1, c[1] + (r.total == null ? 0 : Math.round(r.total * 10))]);
  }
  return new Map([...sums].map(([k, [n, x]]) => [k, `${n}|${x}`]));
}

async function counts(): Promise<Map<string, string>> {
  const rows = (await t.db.execute<Record<string, unknown>>(sql`select * from physique_result_counts`)).rows;
  return new Map(
    rows.map((r) => [
      [r.org_id, r.plan_id, r.class_id, Number(r.grade_no), r.gender, r.invalid, r.exempt, r.complete, r.level].map(String).join('|'),
      `${Number(r.n)}|${Number(r.total_x10)}`,
    ]),
  );
}

async function expectEqual(step: string): Promise<void> {
  const results = await loadResults(t.db);
  for (const level of Object.keys(LEVELS) as Level[]) {
    const want = recompute(results, level);
    const have = await rollups(level);
    expect([...have.keys()].sort(), `${step}, ${level}`).toEqual([...want.keys()].sort());
    for (const [key, counters] of want) expect(have.get(key), `${step}, ${level}: ${key}`).toEqual(counters);
  }
  expect([...(await counts())].sort(), `${step}, physique_result_counts`).toEqual([...recomputeCounts(results)].sort());
}

/** A small deterministic generator, so a failure replays. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => ((s = (s * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32);
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] };
}

/** dc_roster (students per class and gender, all and enabled) against a count of the students table. */
async function expectRosterEqual(): Promise<void> {
  const count = sql`select class_id::text, gender, org_id::text, count(*)::int as students, (count(*) filter (where enabled))::int as enabled from students group by class_id, gender, org_id`;
  const kept = sql`select class_id::text, gender, org_id::text, students, enabled from dc_roster`;
  const sort = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify([r.class_id, r.gender, r.org_id, Number(r.students), Number(r.enabled)])).sort();
  expect(sort((await t.db.execute<Record<string, unknown>>(kept)).rows)).toEqual(sort((await t.db.execute<Record<string, unknown>>(count)).rows));
  // dc_grade_roster: the same per grade (the class's grade now) and gender.
  const byGrade = sql`select c.grade_id::text as class_id, s.gender, s.org_id::text, count(*)::int as students, (count(*) filter (where s.enabled))::int as enabled
from students s join classes c on c.id = s.class_id group by c.grade_id, s.gender, s.org_id`;
  const keptByGrade = sql`select grade_id::text as class_id, gender, org_id::text, students, enabled from dc_grade_roster`;
  expect(sort((await t.db.execute<Record<string, unknown>>(keptByGrade)).rows)).toEqual(sort((await t.db.execute<Record<string, unknown>>(byGrade)).rows));
}

describe('dashboard rollups', () => {
  it('equal a recomputation after the seed', async () => {
    await expectEqual('seed');
    await expectRosterEqual();
  });

  it('keep the roster when students are disabled and moved, and when a class moves to another grade', async () => {
    const [a, b] = (await t.db.execute<{ id: string; class_id: string }>(sql`select id, class_id from students where org_id = ${orgId}::uuid order by id limit 2`)).rows;
    const [other] = (await t.db.execute<{ id: string }>(sql`select id from classes where org_id = ${orgId}::uuid and id <> ${a.class_id}::uuid limit 1`)).rows;
    await t.db.execute(sql`update students set enabled = false where id = ${a.id}::uuid`);
    await t.db.execute(sql`update students set class_id = ${other.id}::uuid, gender = case when gender = 'male' then 'female' else 'male' end where id = ${b.id}::uuid`);
    await expectRosterEqual();
    // A class moved to another grade of its school takes its students' counts along.
    const [grade] = (await t.db.execute<{ id: string }>(sql`select g.id from grades g where g.org_id = ${orgId}::uuid and g.id <> (select grade_id from classes where id = ${other.id}::uuid) limit 1`)).rows;
    await t.db.execute(sql`update classes set grade_id = ${grade.id}::uuid, code = (select coalesce(max(code), 0) + 1 from classes where grade_id = ${grade.id}::uuid) where id = ${other.id}::uuid`);
    await expectRosterEqual();
  });

  it('stay equal through random edits, clears, invalidations, restores, a sync and a plan deletion over HTTP', async () => {
    const rnd = random(20_260_401);
    const plans = await t.db.select({ id: testPlans.id, startDate: testPlans.startDate }).from(testPlans).where(eq(testPlans.orgId, orgId));
    expect(plans.length).toBeGreaterThan(1);
    const latest = [...plans].sort((a, b) => b.startDate.localeCompare(a.startDate))[0];
    const resultsOf = (planId: string) => t.db.select().from(physiqueResults).where(and(eq(physiqueResults.orgId, orgId), eq(physiqueResults.planId, planId)));
    let changed = 0;
    for (let step = 0; step < 16; step++) {
      const rows = await resultsOf(latest.id);
      const kind = rnd.pick(['edit', 'edit', 'clear', 'invalid', 'restore'] as const);
      if (kind === 'edit' || kind === 'clear') {
        const row = rnd.pick(rows);
        const fields = ITEMS.filter((i) => i !== 'bmi' && row[i] != null);
        if (!fields.length) continue;
        const field = rnd.pick(fields);
        const raw = row[field]!;
        // A value worse or better by up to a fifth: scores, levels, totals and bonus move.
        const value = kind === 'clear' ? '' : String(Math.round(raw * (0.8 + 0.4 * rnd.next()) * 10) / 10);
        const res = await post(`physiqueManage/testResult/editUpReport/${row.id}`, { field, value });
        // A value outside the item's plausible range is refused (400) and writes nothing; the check below still holds.
        expect([200, 400], res.body).toContain(res.statusCode);
        if (res.statusCode !== 200) continue;
      } else {
        const pool = rows.filter((r) => r.invalid === (kind === 'restore'));
        if (!pool.length) continue;
        const ids = Array.from({ length: 1 + rnd.int(4) }, () => rnd.pick(pool).id);
        const res = await post(`organizeTest/scoreSearch/${kind === 'invalid' ? 'invalid' : 'valid'}`, { ids: [...new Set(ids)] });
        expect(res.statusCode, res.body).toBe(200);
      }
      changed++;
      // Each comparison reloads every result row, so compare every few writes (and after the last).
      if (step % 4 === 3) await expectEqual(`step ${step} (${kind})`);
    }
    expect(changed).toBeGreaterThan(8);

    const sync = await post(`organizeTest/testManage/sync/${latest.id}`);
    expect([200, 400, 409]).toContain(sync.statusCode);
    await expectEqual('sync');

    // Deleting a past plan with results bins it (views leave binned plans out); purging it from the bin deletes its
    // results (cascade), and its rollup rows go with them.
    const past = plans.find((p) => p.id !== latest.id)!;
    const del = await post(`organizeTest/testManage/delete/${past.id}`);
    expect(del.statusCode, del.body).toBe(200);
    await expectEqual('plan binned');
    expect(await purgeRecycleBin(t.db, new Date(Date.now() + 31 * 24 * 3600_000))).toBeGreaterThanOrEqual(1);
    await expectEqual('plan purged');
    expect((await t.db.execute(sql`select 1 from dc_rollups where plan_id = ${past.id}::uuid`)).rows).toHaveLength(0);
    expect((await t.db.execute(sql`select 1 from dc_school_rollups where plan_id = ${past.id}::uuid`)).rows).toHaveLength(0);
  }, 300_000);
});
