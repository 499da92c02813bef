/**
 * Lesson-load reports on a year of stored lessons for a district (docs/product-rules.md#lesson-load: reports): the
 * demo's people (district01, school01, …) on a fresh PGlite, then `--schools` more schools under the district with
 * `--per-day` lessons a school day for `--days` school days (100 × 20 × 180 ≈ 360,000 lesson_loads rows, one lesson
 * each), generated in SQL. school01 gets the same and each student's figures of its lessons (lesson_load_students,
 * what the persistently-below/above rules read); the generated schools' lessons have none (no report of theirs reads them here).
 *
 * Timed through the signed-in routes (app.inject), computed (the kept answers retired before each call by a
 * no-row statement, as a write would) and from memory (the read cache), beside the floor measured in
 * the same run: one scan of the term's rows of the same organisations (count and means, no grouping).
 * Targets (docs/performance.md, dashboard rows): district comparison computed p95 ≤ 400 ms (the whole-district view's
 * target); a school's term summary computed p95 ≤ 50 ms on PGlite (the school view's).
 *
 *   npm run bench -- lesson-load-reports [--schools 100] [--per-day 20] [--days 180] [--iterations 20] [--keep]
 *
 * Seeding takes ≈ 10 minutes on a loaded machine: `--keep` keeps the database in data/bench/ and reuses it.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Envelope } from '@/domain/api';
import type { TokenData } from '@/domain/auth/types';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { LoadDistrict, LoadSummary } from '@/domain/lesson-load/reports';
import { buildApp } from '../../server/app';
import { migrateDb, openDb, type DbHandle } from '../../server/db/client';
import { parseEnv } from '../../server/env';
import { sha256Hex } from '../../server/lib/password';
import { rebuildLessonLoadRollups } from '../../server/modules/lesson-load/lesson-load.store';
import { loadDistrict, loadSummary } from '../../server/modules/lesson-load/summary.service';
import type { Actor } from '../../server/plugins/tenant';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed/demo';
import { percentile } from './lib/timing';

const { values: args } = parseArgs({
  options: {
    schools: { type: 'string', default: '100' },
    'per-day': { type: 'string', default: '20' },
    days: { type: 'string', default: '180' },
    iterations: { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
  },
});
const SCHOOLS = Number(args.schools);
const PER_DAY = Number(args['per-day']);
const DAYS = Number(args.days);
const ITERATIONS = Number(args.iterations);
/** The school year the rows fall in: autumn from 1 September, spring from 20 February (calendar terms). */
const YEAR = 2025;
const TARGETS = { district: 400, school: 50 };

async function login(app: FastifyInstance, account: string): Promise<string> {
  const randomStr = `bench${Date.now()}${account}`;
  await app.inject({ url: `/api/code?randomStr=${randomStr}` });
  const res = await app.inject({ method: 'POST', url: '/api/sso/login', payload: { accountNum: account, password: sha256Hex(DEMO_PASSWORD), code: '1234', randomStr } });
  if (res.statusCode !== 200) throw new Error(`login ${account}: ${res.statusCode} ${res.body}`);
  return res.json<Envelope<TokenData>>().data.access_token;
}

const orgOf = (account: string) => sql`(select m.org_id from memberships m join users u on u.id = m.user_id where u.account_num = ${account} order by m.created_at limit 1)`;

/** School days of the year: `DAYS` weekdays from 1 September, skipping February's first three weeks (the break). */
const schoolDays = sql`(select d::date as day from generate_series(${`${YEAR}-09-01`}::date, ${`${YEAR + 1}-07-15`}::date, interval '1 day') d
  where extract(isodow from d) < 6 and not (d >= ${`${YEAR + 1}-01-20`}::date and d < ${`${YEAR + 1}-02-20`}::date) order by d limit ${DAYS})`;

async function seed(handle: DbHandle): Promise<void> {
  const started = performance.now();
  const db = handle.db;
  const district = orgOf('district01');
  // Schools under the district, each with 6 grades × 5 classes.
  await db.execute(sql`insert into orgs (parent_id, type, code, name) select ${district}, 21, 'L' || lpad(g::text, 3, '0'), '负荷学校' || g from generate_series(1, ${SCHOOLS}) g`);
  await db.execute(sql`insert into grades (org_id, stage, enrol_year, grade_no) select o.id, 'primary', ${YEAR} - n + 1, n from orgs o cross join generate_series(1, 6) n where o.code like 'L%' and o.parent_id = ${district}`);
  await db.execute(sql`insert into classes (org_id, grade_id, code, name) select g.org_id, g.id, c, g.grade_no || '年级' || c || '班' from grades g join orgs o on o.id = g.org_id and o.code like 'L%' cross join generate_series(1, 5) c`);
  // One lesson row per school, day and slot (a class of the school by slot), then its stored figures.
  const lessonsOf = (orgFilter: SQL) => sql`
    with cls as (select c.org_id, c.id, row_number() over (partition by c.org_id order by c.id) - 1 as k, count(*) over (partition by c.org_id) as n from classes c where ${orgFilter}),
    slots as (select sd.day, s from ${schoolDays} sd cross join generate_series(0, ${PER_DAY - 1}) s)
    insert into lessons (org_id, type, class_id, client_id, items, started_at, ended_at)
    select cls.org_id, 'practise', cls.id, 'bench-' || slots.day || '-' || slots.s, array['run'],
           (slots.day + time '08:00' + (slots.s % 8) * interval '50 minutes') at time zone ${ORG_TIME_ZONE},
           (slots.day + time '08:40' + (slots.s % 8) * interval '50 minutes') at time zone ${ORG_TIME_ZONE}
      from slots join cls on cls.k = slots.s % cls.n`;
  await db.execute(lessonsOf(sql`c.org_id in (select id from orgs where code like 'L%' and parent_id = ${district})`));
  await db.execute(lessonsOf(sql`c.org_id = ${orgOf('school01')}`));
  // Figures spread around the targets (deterministic per lesson); school01's lessons have each student's figures
  // (lesson_load_students, what the persistently-below/above lists read), the generated schools' none.
  await db.execute(sql`
    insert into lesson_loads (lesson_id, org_id, class_id, started_at, minutes, student_count, main_mean_bpm, peak_bpm, recovery_bpm, group_density, individual_density, target_share, meets_targets)
    select l.id, l.org_id, l.class_id, l.started_at, 40, 40, 125 + (h % 40), 170 + (h % 30), 20 + (h % 15), 0.55 + (h % 40) / 100.0, 0.35 + (h % 35) / 100.0, 0.3 + (h % 50) / 100.0,
           (125 + (h % 40)) between 140 and 160 and 0.55 + (h % 40) / 100.0 >= 0.75 and 0.35 + (h % 35) / 100.0 >= 0.5
      from (select l.*, abs(hashtext(l.id::text)) as h from lessons l where l.client_id like 'bench-%') l`);
  await db.execute(sql`
    insert into lesson_load_students (lesson_id, student_id, org_id, class_id, started_at, measured, mean_bpm, main_mean_bpm, peak_bpm, density, zone_rest, zone_moderate, zone_target, zone_high, zone_danger)
    select l.id, s.id, l.org_id, l.class_id, l.started_at, 1800, 130, 140 + (hashtext(s.id::text || l.id::text) & 15), 160 + (hashtext(s.id::text || l.id::text) & 31),
           ((hashtext(s.id::text) & 7) + (hashtext(l.id::text) & 3)) / 10.0, 300, 400, 700, 300, 100
      from lessons l join students s on s.class_id = l.class_id
     where l.client_id like 'bench-%' and l.org_id = ${orgOf('school01')}`);
  // Rows written in bulk: their terms and the reports' rollups at once, as storeLessonLoad keeps them lesson by lesson.
  await rebuildLessonLoadRollups(db);
  await db.execute(sql`analyze`);
  const [{ n }] = (await db.execute<{ n: number }>(sql`select count(*)::int as n from lesson_loads`)).rows;
  console.log(`  seeded ${SCHOOLS} schools + school01: ${n.toLocaleString('en')} lesson_loads rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function timeRequests(app: FastifyInstance, handle: DbHandle, token: string, url: string, computed: boolean) {
  const call = async () => {
    const res = await app.inject({ url, headers: { authorization: `bearer ${token}` } });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return res.headers['x-read-cache'];
  };
  for (let i = 0; i < 3; i++) await call();
  const ms: number[] = [];
  const seen = new Set<unknown>();
  for (let i = 0; i < ITERATIONS; i++) {
    // A statement on a table without organisation that every report reads (teacher_classes, through the data
    // scope) retires the kept answers even when it changes no row (tests/server/read-cache.test.ts does the same).
    if (computed) await handle.db.execute(sql`update teacher_classes set class_id = class_id where false`);
    const t = performance.now();
    seen.add(await call());
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), cache: [...seen].join('/') };
}

async function timeFloor(handle: DbHandle, q: SQL) {
  const ms: number[] = [];
  for (let i = 0; i < 3 + ITERATIONS; i++) {
    const t = performance.now();
    await handle.db.execute(q);
    if (i >= 3) ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95) };
}

/**
 * The same report from the rollups and from every row (the computation before decision 051's rollups), called on the
 * service without HTTP, alternated call by call so both see the same machine load. Answers p50/p95 of each.
 */
async function timeAlternated(fromRollups: () => Promise<unknown>, fromRows: () => Promise<unknown>) {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < 2 + ITERATIONS; i++) {
    let t = performance.now();
    await fromRollups();
    if (i >= 2) a.push(performance.now() - t);
    t = performance.now();
    await fromRows();
    if (i >= 2) b.push(performance.now() - t);
  }
  a.sort((x, y) => x - y);
  b.sort((x, y) => x - y);
  return { rollups: { p50: percentile(a, 50), p95: percentile(a, 95) }, rows: { p50: percentile(b, 50), p95: percentile(b, 95) } };
}

/** The machine's load as `uptime` prints it (1, 5, 15 minutes): figures are compared only within one run. */
const uptime = () => `load average ${loadavg().map((n) => n.toFixed(2)).join(', ')}`;

async function main(): Promise<void> {
  console.log(`lesson-load reports bench: PGlite, ${SCHOOLS} schools × ${PER_DAY} lessons × ${DAYS} school days; ${ITERATIONS} iterations after 3 warm-ups`);
  console.log(`  start: ${uptime()}`);
  const kept = join(import.meta.dirname, '../../data/bench', `lesson-load-${SCHOOLS}-${PER_DAY}-${DAYS}`);
  const reuse = args.keep && existsSync(join(kept, '.seeded'));
  const dir = args.keep ? kept : await mkdtemp(join(tmpdir(), 'tiyu-bench-load-'));
  if (args.keep) await mkdir(dir, { recursive: true });
  const handle = await openDb({ pgliteDir: dir });
  try {
    await migrateDb(handle);
    if (reuse) console.log(`  reusing ${dir}`);
    else {
      await seedDemo(handle.db, { scope: 'people' });
      await seed(handle);
      if (args.keep) await writeFile(join(dir, '.seeded'), new Date().toISOString());
    }
    const env = parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: '1234', WEB_DIST: '/nonexistent-tiyu-dist' });
    const app = await buildApp({ db: handle.db, env, rateLimits: { captchaPerMinute: 1e6, loginPerMinute: 1e6 } });
    try {
      const term = `schoolYear=${YEAR}&semester=13`;
      const districtUrl = `/api/busi/web/admin/class/load/schools?${term}`;
      const schoolUrl = `/api/busi/web/k12/class/load/summary?${term}`;
      const tokens = { district: await login(app, 'district01'), school: await login(app, 'school01') };
      const d = (await app.inject({ url: districtUrl, headers: { authorization: `bearer ${tokens.district}` } })).json<Envelope<LoadDistrict>>().data;
      const s = (await app.inject({ url: schoolUrl, headers: { authorization: `bearer ${tokens.school}` } })).json<Envelope<LoadSummary>>().data;
      console.log(`  autumn ${YEAR}: district ${d.schools.length} schools, ${d.total.lessons.toLocaleString('en')} lessons; school01 ${s.total.lessons} lessons, ${s.rows.length} classes, ${s.weeks.length} weeks, ${s.below.length} below / ${s.above.length} above`);
      const bounds = sql`started_at >= (${`${YEAR}-08-01`}::date)::timestamp at time zone ${ORG_TIME_ZONE} and started_at < (${`${YEAR + 1}-02-01`}::date)::timestamp at time zone ${ORG_TIME_ZONE}`;
      const cases: [string, () => Promise<{ p50: number; p95: number; cache?: string }>, number | null][] = [
        ["floor: the district's term rows read once (count, means)", () => timeFloor(handle, sql`select count(*), avg(main_mean_bpm), avg(group_density) from lesson_loads where org_id in (select id from orgs where parent_id = ${orgOf('district01')}) and ${bounds}`), null],
        ['district comparison, computed', () => timeRequests(app, handle, tokens.district, districtUrl, true), TARGETS.district],
        ['district comparison, from memory', () => timeRequests(app, handle, tokens.district, districtUrl, false), null],
        ["floor: school01's term rows read once (count, means)", () => timeFloor(handle, sql`select count(*), avg(main_mean_bpm) from lesson_loads where org_id = ${orgOf('school01')} and ${bounds}`), null],
        // The direct computation reads each lesson's students: school01's per-student rows of the term read once.
        ["floor: school01's term per-student rows read once (count, mean)", () => timeFloor(handle, sql`select count(*), avg(density) from lesson_load_students where org_id = ${orgOf('school01')} and ${bounds} and measured > 0`), null],
        // What the summary reads now (decision 051): the term's class-week and student-term rollup rows, read once.
        ["floor: school01's term rollup rows read once (counts, sums)", () => timeFloor(handle, sql`select (select sum(lessons) from lesson_load_class_weeks where org_id = ${orgOf('school01')} and school_year = ${YEAR} and semester = 13),
          (select sum(lessons) + sum(below) from lesson_load_student_terms where org_id = ${orgOf('school01')} and school_year = ${YEAR} and semester = 13)`), null],
        ['school summary by class, computed', () => timeRequests(app, handle, tokens.school, schoolUrl, true), TARGETS.school],
        ['school summary by teacher, computed', () => timeRequests(app, handle, tokens.school, `${schoolUrl}&group=teacher`, true), TARGETS.school],
        ['school summary by grade, computed', () => timeRequests(app, handle, tokens.school, `${schoolUrl}&group=grade`, true), TARGETS.school],
        ['school summary, from memory', () => timeRequests(app, handle, tokens.school, schoolUrl, false), null],
      ];
      // Rollups against the rows they replace, same run, alternated (service calls: no HTTP, no read cache).
      const orgIdOf = async (account: string) => (await handle.db.execute<{ id: string }>(sql`select ${orgOf(account)} as id`)).rows[0].id;
      const actorOf = async (account: string) => ({ tenantOrgId: await orgIdOf(account), dataScope: 'org' }) as unknown as Actor;
      const [districtActor, schoolActor] = [await actorOf('district01'), await actorOf('school01')];
      const q = { schoolYear: YEAR, semester: 13 } as const;
      const now = new Date();
      for (const [name, r] of [
        ['district comparison (service)', await timeAlternated(() => loadDistrict(handle.db, districtActor, q, now), () => loadDistrict(handle.db, districtActor, q, now, 'rows'))],
        ['school summary by class (service)', await timeAlternated(() => loadSummary(handle.db, schoolActor, q, now), () => loadSummary(handle.db, schoolActor, q, now, 'rows'))],
      ] as const) {
        console.log(`  ${name}: rollups p50 ${r.rollups.p50.toFixed(1)} / p95 ${r.rollups.p95.toFixed(1)} ms; every row p50 ${r.rows.p50.toFixed(1)} / p95 ${r.rows.p95.toFixed(1)} ms (${(r.rows.p50 / r.rollups.p50).toFixed(1)}× faster)`);
      }
      let floor = 0;
      for (const [name, run, target] of cases) {
        const r = await run();
        if (name.startsWith('floor')) floor = r.p50;
        const ratio = name.startsWith('floor') ? '' : `  ${(r.p50 / floor).toFixed(1)}× floor`;
        const verdict = target === null ? '' : `  target p95 ≤ ${target} ms: ${r.p95 <= target ? 'met' : 'MISSED'}`;
        console.log(`  ${name.padEnd(64)} p50 ${r.p50.toFixed(1).padStart(7)} ms  p95 ${r.p95.toFixed(1).padStart(7)} ms${r.cache ? `  [${r.cache}]` : ''}${ratio}${verdict}`);
      }
      console.log(`  end: ${uptime()}`);
    } finally {
      await app.close();
    }
  } finally {
    await handle.close();
    if (!args.keep) await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
