/**
 * Dashboard latency: districts of three years of results (server/seed/scale.ts) whose first school has
 * `--school-sizes` students, on PGlite and on PostgreSQL: the p50 and p95 of each data-centre endpoint through
 * app.inject of a real, signed-in app, each beside a floor measured in the same run — the rows the view describes read
 * once by an index scan (one school's period rows; the district's period rows) — and the aggregate statement the views
 * ran before rollups (the same GROUPING SETS over the per-student rows). Prints numbers; asserts nothing.
 * Each view is timed twice: computed (every call's URL carries a parameter the server ignores but the read cache keys
 * by, so no answer comes from memory: what a user whose answer nobody asked for yet waits) and from memory (the same
 * URL again and again, as the read cache serves a repeated request), each with the read cache's hit rate over its runs.
 * The targets and the ratios to the floors are taken on the computed figures.
 *
 *   npx tsx tests/bench/dashboard.ts [--quick] [--sizes 345000] [--school-sizes 9000] [--engines pglite,postgres] [--iterations 30] [--only 'k12 grade,floor']
 *   npm run bench -- dashboard --quick        (quick: 20,000 students only)
 *
 * 345,000 students make ≈ 1,000,000 result rows. PGlite databases are built once into data/bench/ (tests/bench/scale-db.ts).
 * PostgreSQL: DATABASE_URL when set (its database is dropped afterwards), else a server whose cluster is kept in
 * data/bench/postgres (PGPORT_TEST, default 54329), where the seeded district is reused while seed and migrations are unchanged.
 * Targets at ≈ 1,000,000 rows with a ≈ 9,000-student school: school view p95 ≤ 25 ms on PostgreSQL and ≤ 50 ms on
 * PGlite; the whole-district view ≤ 400 ms on both.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Envelope } from '@/domain/api';
import type { TokenData } from '@/domain/auth/types';
import { buildApp } from '../../server/app';
import { openDb, type DbHandle } from '../../server/db/client';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { resolvePeriod, resolveScope, rosterGroups, scopePlans } from '../../server/modules/data-center/data-center.scope';
import { distributionQuery, groupedQuery, storedDistributionQuery } from '../../server/modules/data-center/data-center.service';
import { aggregateColumns, DISTRIBUTION_COLUMNS, periodResults, population, type PlanRef } from '../../server/modules/data-center/data-center.sql';
import { WHOLE_ORG } from '../../server/lib/data-scope';
import { parseEnv } from '../../server/env';
import { sha256Hex } from '../../server/lib/password';
import { setOperatorTwoFactorRequired } from '../../server/modules/security/two-factor.service';
import { benchUnderPostgres, scaleDbDir, scalePgDatabase } from './scale-db';
import { timeRuns } from './lib/timing';

type Engine = 'pglite' | 'postgres';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: process.env.BENCH_QUICK === '1' },
    sizes: { type: 'string' },
    'school-sizes': { type: 'string', default: '9000' },
    engines: { type: 'string', default: 'pglite,postgres' },
    iterations: { type: 'string', default: '30' },
    /** Only the cases whose name contains one of these texts, comma-separated (floors and before-rows included by name too). */
    only: { type: 'string' },
  },
});
const sizes = (args.sizes ?? (args.quick ? '20000' : '345000')).split(',').map(Number);
const schoolSizes = args['school-sizes'] ? args['school-sizes'].split(',').map(Number) : [];
const engines = args.engines.split(',') as Engine[];
const iterations = Number(args.iterations);

async function pgliteFor(students: number): Promise<DbHandle> {
  return openDb({ pgliteDir: await scaleDbDir(students, fit(students)) });
}

async function postgresFor(baseUrl: string, students: number): Promise<{ handle: DbHandle; drop(): Promise<void> }> {
  const { url, drop } = await scalePgDatabase(baseUrl, students, fit(students));
  return { handle: await openDb({ databaseUrl: url, poolMax: 10 }), drop };
}

/** The large schools that fit in a district of `students`. */
const fit = (students: number) => schoolSizes.filter((n) => n <= students / 2);

async function login(app: FastifyInstance, account: string): Promise<string> {
  const randomStr = `bench${Date.now()}${Math.random().toString(36).slice(2, 8)}`;
  await app.inject({ url: `/api/code?randomStr=${randomStr}` });
  const res = await app.inject({ method: 'POST', url: '/api/sso/login', payload: { accountNum: account, password: sha256Hex(DEMO_PASSWORD), code: '1234', randomStr } });
  if (res.statusCode !== 200) throw new Error(`login ${account}: ${res.statusCode} ${res.body}`);
  return res.json<Envelope<TokenData>>().data.access_token;
}

/** Per endpoint: 3 warm-ups, then `--iterations` runs, fewer (at least 5) when they would take longer than this. */
const BUDGET_MS = 15_000;

interface Row {
  engine: Engine;
  students: number;
  endpoint: string;
  p50: number;
  p95: number;
  /** Hits ÷ requests of the read cache over the case's runs (NaN: not an HTTP case). */
  hitRate: number;
}

async function measure(engine: Engine, students: number, handle: DbHandle): Promise<Row[]> {
  const env = parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: '1234', WEB_DIST: '/nonexistent-tiyu-dist' });
  const app = await buildApp({ db: handle.db, env, rateLimits: { captchaPerMinute: 1e6, loginPerMinute: 1e6 } });
  try {
    const one = async <T>(q: SQL) => (await handle.db.execute<T & Record<string, unknown>>(q)).rows[0];
    // The largest school by current students, and the accounts of that school and of the bureau, looked up.
    const largest = await one<{ org_id: string; n: number; account: string }>(
      sql`select s.org_id, count(*)::int as n, (select u.account_num from memberships m join users u on u.id = m.user_id where m.org_id = s.org_id order by u.account_num limit 1) as account
from students s join classes c on c.id = s.class_id join grades g on g.id = c.grade_id where not g.graduated and s.enabled group by s.org_id order by n desc limit 1`,
    );
    const district = await one<{ id: string; account: string }>(
      sql`select o.id, u.account_num as account from orgs o join memberships m on m.org_id = o.id join users u on u.id = m.user_id where o.id = (select parent_id from orgs where id = ${largest.org_id}::uuid) order by u.account_num limit 1`,
    );
    // The bureau's account is an operator's: the scale seed leaves two-factor sign-in required of operators, which
    // would answer 428 until enrolment; the demo seed and the test fixture turn it off, so does the bench.
    await setOperatorTwoFactorRequired(handle.db, false);
    const schoolToken = await login(app, largest.account);
    const districtToken = await login(app, district.account);
    // A current (not graduated) class of that school with the most results in its latest plan.
    const cls = await one<{ class_id: string; grade_no: number; plan_id: string }>(
      sql`select r.class_id, g.grade_no, r.plan_id from physique_results r join classes c on c.id = r.class_id join grades g on g.id = c.grade_id
where r.plan_id = (select tp.id from test_plans tp where tp.org_id = ${largest.org_id}::uuid order by tp.start_date desc limit 1) and not g.graduated
group by r.class_id, g.grade_no, r.plan_id order by count(*) desc limit 1`,
    );
    const student = await one<{ student_id: string }>(sql`select student_id from physique_results where class_id = ${cls.class_id}::uuid and plan_id = ${cls.plan_id}::uuid limit 1`);
    // The plans each view's period covers: the latest school year with plans (what the views default to).
    const periodPlans = (orgIds: SQL) => sql`select tp.id from test_plans tp join school_years sy on sy.id = tp.school_year_id
where tp.org_id in (${orgIds}) and sy.start_year = (select max(sy2.start_year) from test_plans t2 join school_years sy2 on sy2.id = t2.school_year_id where t2.org_id in (${orgIds}))`;
    const schoolOrgs = sql`${largest.org_id}::uuid`;
    const districtOrgs = sql`select id from orgs where parent_id = ${district.id}::uuid`;
    /** The floor: the population's valid rows of the period read once (index scan on plan), one figure summed. */
    const readOnce = (orgIds: SQL) => async () =>
      void (await handle.db.execute(sql`select count(*), sum(total) from physique_results where plan_id in (${periodPlans(orgIds)}) and not invalid`));
    /** Before rollups: the school view's main statement, GROUPING SETS over the per-student rows of the period. */
    const rawGrouped = (orgIds: SQL, unit: 'class_id' | 'org_id') => async () =>
      void (await handle.db.execute(sql`with r as (select physique_results.* from physique_results where plan_id in (${periodPlans(orgIds)}) and not invalid)
select grouping(r.grade_no), grouping(r.gender), grouping(r.${sql.raw(unit)}), r.grade_no, r.gender, r.${sql.raw(unit)}, ${aggregateColumns()}
from r group by grouping sets ((), (r.grade_no), (r.gender), (r.${sql.raw(unit)}))`));

    /**
     * The district view's aggregate statement as it runs now (dc_school_rollups, added up per school, grade and gender
     * before the grouping sets) and as it ran before: over the class rollups (dc_rollups) added up per school first,
     * and grouping sets over every class's rollup rows; same plans, same run.
     */
    const districtPlans = (
      await handle.db.execute<{ id: string; org_id: string; school_year: number; start_date: string }>(
        sql`select tp.id, tp.org_id, sy.start_year as school_year, tp.start_date::text as start_date from test_plans tp join school_years sy on sy.id = tp.school_year_id where tp.id in (${periodPlans(districtOrgs)})`,
      )
    ).rows.map((p): PlanRef => ({ id: p.id, orgId: p.org_id, schoolYear: Number(p.school_year), startDate: p.start_date }));
    const districtOrgIds = [...new Set(districtPlans.map((p) => p.orgId))];
    const districtStatement = (how: 'class rows' | 'class rows added up' | 'school rollups') => async () => {
      const pop = population({ orgIds: districtOrgIds, plans: districtPlans, bySchool: how === 'school rollups' });
      void (await handle.db.execute(groupedQuery(how === 'class rows' ? { src: pop.src, agg: pop.agg } : pop, ['grade_no', 'gender', 'org_id'], true, { rankOnly: 'org_id' })));
    };
    /**
     * The whole-district view's statements one by one, as the service runs them (on PGlite one after another): the
     * scope (organisation tree), its plans, the aggregate, the trend over the other school years, the roster.
     */
    const viewer = { tenantOrgId: district.id, classScope: WHOLE_ORG };
    const scope = await resolveScope(handle.db, 'admin', viewer);
    const { plans: viewPlans, trendPlans, period } = resolvePeriod(await scopePlans(handle.db, scope.orgIds, scope.classScope), {});
    const otherYears = trendPlans.filter((p) => p.schoolYear !== period.schoolYear);
    const trendPop = population({ orgIds: scope.orgIds, plans: otherYears, perYear: true, bySchool: true });
    const split: [string, () => Promise<void>][] = [
      ['district split: scope (organisation tree)', async () => void (await resolveScope(handle.db, 'admin', viewer))],
      ['district split: plans of the scope', async () => void (await scopePlans(handle.db, scope.orgIds, scope.classScope))],
      [
        'district split: aggregate',
        async () =>
          void (await handle.db.execute(groupedQuery(population({ orgIds: scope.orgIds, plans: viewPlans, bySchool: true }), ['grade_no', 'gender', 'org_id'], true, { rankOnly: 'org_id' }))),
      ],
      [
        `district split: trend (${otherYears.length} plans)`,
        async () => void (await handle.db.execute(sql`with r as (${trendPop.src}) select r.school_year::int as school_year, ${trendPop.agg} from r group by r.school_year`)),
      ],
      ['district split: roster', async () => void (await rosterGroups(handle.db, scope.orgIds, {}))],
    ];

    let bust = 0;
    /** An HTTP case: computed (a new URL each call, so the read cache misses) or from memory (the same URL). */
    const get =
      (token: string, url: string, cached = false) =>
      async () => {
        const u = cached ? url : `${url}${url.includes('?') ? '&' : '?'}nocache=${bust++}`;
        const res = await app.inject({ url: u, headers: { authorization: `bearer ${token}` } });
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      };
    /** The grade view's floor: that grade's period rows of the school read once by an index scan. */
    const gradeOnce = async () =>
      void (await handle.db.execute(
        sql`select count(*), sum(total) from physique_results where plan_id in (${periodPlans(schoolOrgs)}) and org_id = ${largest.org_id}::uuid and grade_no = ${cls.grade_no} and not invalid`,
      ));
    /** The grade view's distributions statement alone (five numbers and histograms of every item), as the view runs it. */
    const schoolPeriod = resolvePeriod(await scopePlans(handle.db, [largest.org_id], WHOLE_ORG), {});
    const gradeDistributions = async () =>
      void (await handle.db.execute(distributionQuery(periodResults({ orgIds: [largest.org_id], plans: schoolPeriod.plans, filters: { gradeNo: cls.grade_no }, columns: DISTRIBUTION_COLUMNS }))));
    /** The same distributions as the view reads them when the period is one plan: stored per plan × grade × gender (null: not one plan). */
    const storedQuery = storedDistributionQuery([largest.org_id], schoolPeriod.plans, { gradeNo: cls.grade_no });
    const storedDist = async () => void (storedQuery && (await handle.db.execute(storedQuery)));
    const k12 = '/api/busi/web/k12/dataCenter';
    const admin = '/api/busi/web/admin/dataCenter';
    /** Both figures of an HTTP case: computed, then from memory. */
    const both = (name: string, token: string, url: string): [string, () => Promise<void>][] => [
      [name, get(token, url)],
      [`${name} (from memory)`, get(token, url, true)],
    ];
    const cases: [string, () => Promise<void>][] = [
      [`floor: one school's period rows read once (${Number(largest.n)} students)`, readOnce(schoolOrgs)],
      ['before: raw GROUPING SETS of the school view', rawGrouped(schoolOrgs, 'class_id')],
      ...both(`k12 school (${Number(largest.n)} students)`, schoolToken, `${k12}/school`),
      ['floor: the grade\'s period rows read once', gradeOnce],
      ['grade statement: distributions (five numbers, histograms)', gradeDistributions],
      [`grade statement: stored distributions (${schoolPeriod.plans.length} plan${schoolPeriod.plans.length === 1 ? ', read by the view' : 's, not read'})`, storedDist],
      ...both('k12 grade', schoolToken, `${k12}/grade?gradeNo=${cls.grade_no}`),
      ...both('k12 class list', schoolToken, `${k12}/class`),
      ...both('k12 class detail', schoolToken, `${k12}/class/${cls.class_id}`),
      ...both('k12 student list (20)', schoolToken, `${k12}/student?size=20`),
      ...both('k12 student detail', schoolToken, `${k12}/student/${student.student_id}`),
      ...both('k12 filters', schoolToken, `${k12}/filters`),
      ["floor: the district's period rows read once", readOnce(districtOrgs)],
      ['before: raw GROUPING SETS of the district view', rawGrouped(districtOrgs, 'org_id')],
      ['district statement: grouping sets over class rollups', districtStatement('class rows')],
      ['district statement: class rollups added up per school', districtStatement('class rows added up')],
      ['district statement: school rollups (now)', districtStatement('school rollups')],
      ...both(`admin school (district, ${students} students)`, districtToken, `${admin}/school`),
      ...split,
      ...both('admin grade (district)', districtToken, `${admin}/grade?gradeNo=${cls.grade_no}`),
      ...both('admin school (one school)', districtToken, `${admin}/school?orgId=${largest.org_id}`),
    ];
    const rows: Row[] = [];
    for (const [endpoint, fn] of cases.filter(([name]) => !args.only || args.only.split(',').some((part) => name.includes(part)))) {
      const before = { ...app.readCache };
      // The process's CPU a call (3 warm-ups included): what a loaded machine stretches least. On PostgreSQL the
      // server's own is not in it; PGlite runs in this process, so there it is.
      const cpuBefore = process.cpuUsage();
      const { p50, p95, runs } = await timeRuns(fn, iterations, BUDGET_MS);
      const cpu = process.cpuUsage(cpuBefore);
      const cpuMs = (cpu.user + cpu.system) / 1000 / (runs + 3);
      const hits = app.readCache.hits - before.hits;
      const asked = hits + app.readCache.misses - before.misses;
      rows.push({ engine, students, endpoint, p50, p95, hitRate: hits / asked });
      const rate = asked > 0 ? `  cache hits ${((100 * hits) / asked).toFixed(0)} %` : '';
      console.log(`  ${engine.padEnd(8)} ${String(students).padStart(7)}  ${endpoint.padEnd(56)} p50 ${p50.toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms  (${runs} runs)  CPU ${cpuMs.toFixed(1)} ms a call${rate}  load ${loadavg()[0].toFixed(1)}`);
    }
    const of = (prefix: string) => rows.find((r) => r.endpoint.startsWith(prefix));
    const ratio = (view: string, floor: string, label: string) => {
      const v = of(view);
      const f = of(floor);
      if (v && f) console.log(`  ${engine.padEnd(8)} ${String(students).padStart(7)}  ${label}: computed p50 ${(v.p50 / f.p50).toFixed(1)}× its floor, i.e. ${(1000 / v.p50).toFixed(0)} req/s one at a time`);
    };
    ratio('k12 school', "floor: one school's", 'school view');
    ratio('k12 grade', "floor: the grade's", 'grade view (target ≤ 2×)');
    return rows;
  } finally {
    await app.close();
  }
}

function target(rows: Row[]): void {
  const check = (engine: Engine, view: string, prefix: string, limit: number) => {
    for (const r of rows.filter((x) => x.engine === engine && x.endpoint.startsWith(prefix) && !x.endpoint.endsWith('(from memory)'))) {
      console.log(`  target ${engine} ${r.students}: ${view} computed p95 ${r.p95.toFixed(1)} ms (≤ ${limit} ms at ≈ 1 M rows) ${r.p95 <= limit ? 'met' : 'MISSED'}`);
    }
  };
  check('postgres', 'school view', 'k12 school', 25);
  check('pglite', 'school view', 'k12 school', 50);
  check('postgres', 'district view', 'admin school (district', 400);
  check('pglite', 'district view', 'admin school (district', 400);
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  console.log(`dashboard bench: sizes ${sizes.join(', ')}; engines ${engines.join(', ')}; ${iterations} iterations after 3 warm-ups`);
  if (engines.includes('pglite')) {
    for (const n of sizes) {
      const handle = await pgliteFor(n);
      try {
        rows.push(...(await measure('pglite', n, handle)));
      } finally {
        await handle.close();
      }
    }
  }
  if (engines.includes('postgres')) {
    const url = process.env.DATABASE_URL;
    if (url) {
      for (const n of sizes) {
        const { handle, drop } = await postgresFor(url, n);
        try {
          rows.push(...(await measure('postgres', n, handle)));
        } finally {
          await handle.close();
          await drop();
        }
      }
    } else if (existsSync('/usr/lib/postgresql')) {
      // No server given: run the PostgreSQL half in a child under the bench's kept server.
      benchUnderPostgres(import.meta.filename, ['--engines', 'postgres', '--sizes', sizes.join(','), '--school-sizes', schoolSizes.join(','), '--iterations', String(iterations), ...(args.only ? ['--only', args.only] : [])]);
    } else console.log('  PostgreSQL: skipped (no DATABASE_URL and no local server binaries)');
  }
  target(rows);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
