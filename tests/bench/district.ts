/**
 * District overview at scale (docs/product-rules.md#district-overview): a 200,000-student district
 * (server/seed/scale.ts) with a school year of homework and contest records and devices, on PostgreSQL; the p50 and
 * p95 of the whole signed-in request `GET …/admin/dataCenter/overview` (the table and every chart of the district
 * view: schools compared, levels and items per school, the trend over school years) through app.inject, each beside
 * floors measured in the same run: a plain count(*) over the district's enabled students, the period's rollup rows
 * read once, every school year's school rollup rows read once (the trend's input), and the school year's activity
 * rows read once. Prints numbers and the ratio to the floor; asserts nothing.
 * Target: p95 under 400 ms.
 *
 *   npm run bench -- district [--students 200000] [--iterations 30] [--keep]
 *
 * PostgreSQL: DATABASE_URL when set, else a throw-away server via scripts/with-postgres.sh. `--keep` leaves the seeded
 * database in place and reuses it on the next run against the same server (seeding takes minutes).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Envelope } from '@/domain/api';
import type { TokenData } from '@/domain/auth/types';
import type { DistrictOverview } from '@/domain/data-center/district';
import { ORG_TIME_ZONE } from '@/domain/dates';
import { buildApp } from '../../server/app';
import { createDatabase, dropDatabase, withDatabase } from '../../server/db/admin';
import { migrateDb, openDb, type DbHandle } from '../../server/db/client';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { SCALE_DISTRICT_ACCOUNT, seedScale } from '../../server/seed/scale';
import { parseEnv } from '../../server/env';
import { sha256Hex } from '../../server/lib/password';
import { timeRuns } from './lib/timing';

const { values: args } = parseArgs({
  options: {
    students: { type: 'string', default: '200000' },
    iterations: { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
  },
});
const students = Number(args.students);
const iterations = Number(args.iterations);
const ROOT = resolve(import.meta.dirname, '../..');
const TARGET_MS = 400;
/** Activity records per current student in the school year: homework, contest entries, exercise (not counted). */
const PER_STUDENT = { homework: 4, contest: 1, exercise: 2 } as const;


async function login(app: FastifyInstance, account: string): Promise<string> {
  const randomStr = `bench${Date.now()}`;
  await app.inject({ url: `/api/code?randomStr=${randomStr}` });
  const res = await app.inject({ method: 'POST', url: '/api/sso/login', payload: { accountNum: account, password: sha256Hex(DEMO_PASSWORD), code: '1234', randomStr } });
  if (res.statusCode !== 200) throw new Error(`login ${account}: ${res.statusCode} ${res.body}`);
  return res.json<Envelope<TokenData>>().data.access_token;
}

/** The current school year's homework and contest records (and exercise, which the overview skips) and a few devices per school. */
async function seedActivity(handle: DbHandle, schoolYear: number): Promise<void> {
  const started = performance.now();
  const from = `${schoolYear}-09-01`;
  for (const [kind, n] of Object.entries(PER_STUDENT)) {
    // One statement per kind; a record's day spreads over September to June, its sender is the school's first account.
    await handle.db.execute(sql`insert into activity_records (org_id, student_id, class_id, kind, item, value, measured_at, school_year, source, submitted_by, client_id, invalid)
select s.org_id, s.id, s.class_id, ${kind}, 'ropeSkip', 100 + (g % 50), t.at, extract(year from (t.at at time zone ${ORG_TIME_ZONE}) - interval '7 months')::int,
  'app', u.user_id, ${kind} || '-' || s.id || '-' || g, (hashtext(s.id::text) + g) % 50 = 0
from students s
join classes c on c.id = s.class_id
join grades gr on gr.id = c.grade_id and not gr.graduated
join lateral (select m.user_id from memberships m where m.org_id = s.org_id order by m.user_id limit 1) u on true
cross join generate_series(1, ${n}) g
cross join lateral (select (${from}::date + ((g * 7 + hashtext(s.id::text)) & 255) % 280)::timestamp at time zone ${ORG_TIME_ZONE} + interval '10 hours' as at) t
where s.enabled`);
  }
  await handle.db.execute(sql`insert into devices (org_id, name, serial_no, status)
select o.id, 'bench ' || g, 'BENCH-' || o.id || '-' || g, case when g % 3 = 0 then 'offline' else 'online' end
from orgs o cross join generate_series(1, 6) g where o.parent_id is not null`);
  await handle.db.execute(sql`analyze`);
  const [{ n }] = (await handle.db.execute<{ n: number }>(sql`select count(*)::int as n from activity_records`)).rows;
  console.log(`  seeded ${n} activity records and 6 devices per school in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function prepare(baseUrl: string): Promise<{ handle: DbHandle; done(): Promise<void> }> {
  const name = `tiyu_bench_district_${students}`;
  const url = withDatabase(baseUrl, name);
  if (args.keep) {
    const reused = await openDb({ databaseUrl: url, poolMax: 10 }).catch(() => null);
    if (reused) {
      const seeded = await reused.db.execute(sql`select 1 from users where account_num = ${SCALE_DISTRICT_ACCOUNT}`).catch(() => ({ rows: [] }));
      if (seeded.rows.length > 0) {
        console.log(`  reusing ${name} (migrating it to the current schema)`);
        await migrateDb(reused);
        return { handle: reused, done: () => reused.close() };
      }
      await reused.close();
    }
  }
  await dropDatabase(baseUrl, name);
  await createDatabase(baseUrl, name);
  const handle = await openDb({ databaseUrl: url, poolMax: 10 });
  await migrateDb(handle);
  const s = await seedScale(handle.db, { students, log: (m) => console.log(`  ${m}`) });
  console.log(`  seeded PostgreSQL ${name}: ${s.schools} schools, ${s.students} students, ${s.results} results in ${(s.ms / 1000).toFixed(1)} s`);
  const [{ year }] = (await handle.db.execute<{ year: number }>(sql`select max(start_year)::int as year from school_years`)).rows;
  await seedActivity(handle, year);
  return {
    handle,
    done: async () => {
      await handle.close();
      if (!args.keep) await dropDatabase(baseUrl, name);
    },
  };
}

async function measure(handle: DbHandle): Promise<void> {
  const env = parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: '1234', WEB_DIST: '/nonexistent-tiyu-dist' });
  const app = await buildApp({ db: handle.db, env, rateLimits: { captchaPerMinute: 1e6, loginPerMinute: 1e6 } });
  try {
    const token = await login(app, SCALE_DISTRICT_ACCOUNT);
    const url = '/api/busi/web/admin/dataCenter/overview';
    const overview = async (query = '') => {
      const res = await app.inject({ url: url + query, headers: { authorization: `bearer ${token}` } });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res.json<Envelope<DistrictOverview>>().data;
    };
    const first = await overview();
    const year = first.period.schoolYear ?? 0;
    console.log(`  district: ${first.schools.length} schools, ${first.total.students} enabled students, ${first.total.tested} tested in ${year}, homework ${first.total.homeworkStudents}, contest ${first.total.contestStudents}`);
    console.log(`  charts: ${first.trend.length} school years in the trend, ${first.weakestItems.length} items, answer ${(JSON.stringify(first).length / 1024).toFixed(0)} KiB`);
    const schools = sql`select id from orgs where parent_id = (select m.org_id from memberships m join users u on u.id = m.user_id where u.account_num = ${SCALE_DISTRICT_ACCOUNT} limit 1)`;
    const count = (q: SQL) => async () => void (await handle.db.execute(q));
    const window = sql`measured_at >= (${`${year}-08-01`}::date::timestamp at time zone ${ORG_TIME_ZONE}) and measured_at < (${`${year + 1}-08-01`}::date::timestamp at time zone ${ORG_TIME_ZONE})`;
    const cases: [string, () => Promise<unknown>][] = [
      ["floor: count(*) of the district's enabled students", count(sql`select count(*) from students where org_id in (${schools}) and enabled`)],
      ["floor: the period's rollup rows read once", count(sql`select count(*), sum(tested) from dc_rollups r join test_plans tp on tp.id = r.plan_id join school_years sy on sy.id = tp.school_year_id where r.org_id in (${schools}) and sy.start_year = ${year}`)],
      ["floor: every year's school rollup rows read once", count(sql`select count(*), sum(tested) from dc_school_rollups r where r.org_id in (${schools})`)],
      ["floor: the school year's activity rows read once", count(sql`select count(*) from activity_records where org_id in (${schools}) and ${window}`)],
      ['overview (whole signed-in request)', () => overview()],
      ['overview, girls only', () => overview('?gender=female')],
    ];
    const rows: { name: string; p50: number; p95: number }[] = [];
    for (const [name, fn] of cases) {
      const r = await timeRuns(fn, iterations);
      rows.push({ name, ...r });
      console.log(`  ${name.padEnd(52)} p50 ${r.p50.toFixed(1).padStart(7)} ms   p95 ${r.p95.toFixed(1).padStart(7)} ms  (${r.runs} runs)`);
    }
    const floor = rows[0];
    for (const r of rows.filter((x) => x.name.startsWith('overview'))) {
      console.log(`  target: ${r.name} p95 ${r.p95.toFixed(1)} ms (< ${TARGET_MS} ms) ${r.p95 < TARGET_MS ? 'met' : 'MISSED'}; ${(r.p50 / floor.p50).toFixed(1)}× the students floor at p50`);
    }
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  console.log(`district overview bench: ${students} students on PostgreSQL; ${iterations} iterations after 3 warm-ups`);
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    if (!existsSync('/usr/lib/postgresql')) return console.log('  PostgreSQL: skipped (no DATABASE_URL and no local server binaries)');
    const child = spawnSync('bash', [join(ROOT, 'scripts/with-postgres.sh'), process.execPath, '--import', 'tsx', import.meta.filename, ...process.argv.slice(2)], { stdio: 'inherit', cwd: ROOT });
    if (child.status !== 0) throw new Error(`PostgreSQL bench exited with ${child.status}`);
    return;
  }
  const { handle, done } = await prepare(baseUrl);
  try {
    await measure(handle);
  } finally {
    await done();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
