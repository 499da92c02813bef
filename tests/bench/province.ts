/**
 * A city on PostgreSQL (docs/deploy.md "Sizing"): `seedScale` with `--districts` builds a city bureau over district
 * bureaus over ≈ 450 K12 schools, ≥ 1,000,000 current students and three school years of results (≈ 2.9 M rows), on a
 * primary with a streaming replica (tests/bench/lib/pg-replica.ts; the replica streams the seed as it is written).
 * Through app.inject of a real, signed-in app, once reading from the primary and once with DATABASE_REPLICA_URL (reads
 * on the replica, server/plugins/replica.ts), it times:
 *   - the data-centre views computed from the rollups: a school's (its own account), a district's and the city's (the
 *     bureaus' accounts), each beside its floor: the view's period rollup rows read once on the same server, and the
 *     per-student rows of the period read once (what the views read before rollups);
 *   - the city bureau's lists: the score list page 1 and a later page, and the data centre's student list, beside the
 *     cheapest honest way to answer the same page: its total from the counts table and its 20 rows read by primary key
 *     (the score list), its total from the roster rollup (dc_grade_roster) and 20 students by key (the student list);
 *   - a school's score import (every current student of a school, a national-template workbook through the import route
 *     and its job), beside its floor: the same workbook parsed alone plus the same rows written back by one
 *     INSERT … SELECT into physique_results (same indexes and rollup triggers, rolled back); then the city view once
 *     more while that school has the import's second plan in the year (the rollups cannot answer it), and the
 *     imports' plans are removed again.
 * Each read is timed computed (a parameter the server ignores but the read cache keys by, so every call computes) and
 * from memory (the same URL again), with the read cache's hit rate over its runs. Prints `uptime`, the database's
 * size and the process's memory; asserts nothing.
 *
 *   npm run bench -- province [--students 1010000] [--districts 6] [--iterations 20] [--database tiyu_city]
 *     [--only <case text>] [--no-import] [--primary-only]
 *
 * Servers: DATABASE_URL and DATABASE_REPLICA_URL when both are set (their `--database` is used, seeded when it holds no
 * city), else a primary on PGPORT_TEST (default 54329) and its replica on the next port, kept in
 * data/bench/province-pg (≈ 2 × 10 GB) so the seeded city is reused; seeding it takes ≈ 15–30 minutes. With
 * `--primary-only`, DATABASE_URL alone (e.g. `TIYU_PG_DIR=<dir> bash scripts/with-postgres.sh`, which keeps the cluster):
 * no replica, the primary's half only.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Envelope } from '@/domain/api';
import type { TokenData } from '@/domain/auth/types';
import { SEMESTER } from '@/domain/constants';
import { gradeInYear } from '@/domain/data-center/roster';
import { isBlankRow, mapHeaders, NATIONAL_COLUMNS, nationalCodeFromGrade, parseTemplateRow } from '@/domain/physique/national-template';
import type { Gender, Grade, Stage } from '@/domain/physique/standard';
import { planItemsForGrade } from '@/domain/test-plans/items';
import { fileNameFromContentDisposition, parseImportCounts } from '@/domain/uploads/import-result';
import { buildApp } from '../../server/app';
import { createDatabase, withDatabase } from '../../server/db/admin';
import { migrateDb, openDb, type Db, type DbHandle } from '../../server/db/client';
import { SKIP_FK_TRIGGERS } from '../../server/db/replication-role';
import { parseEnv } from '../../server/env';
import { sha256Hex } from '../../server/lib/password';
import { openXlsx } from '../../server/lib/spreadsheet/xlsx-reader';
import { writeXlsx } from '../../server/lib/spreadsheet/xlsx-writer';
import { withBulkTransaction } from '../../server/modules/physique-results/bulk-session';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { SCALE_CITY_ACCOUNT, scaleDistrictAccount, scaleSchoolAccount, seedScale } from '../../server/seed/scale';
import { jobOutcome, jobSettled } from '../support/jobs';
import { nationalTemplateRows } from '../support/national-template-fixture';
import { startReplicaPair } from './lib/pg-replica';
import { timeRuns } from './lib/timing';

const { values: args } = parseArgs({
  options: {
    students: { type: 'string', default: '1010000' },
    districts: { type: 'string', default: '6' },
    iterations: { type: 'string', default: '20' },
    database: { type: 'string', default: 'tiyu_city' },
    /** Only the cases whose name contains this text. */
    only: { type: 'string' },
    /** Skip the imports (reads only). */
    'no-import': { type: 'boolean', default: false },
    /** Only the primary's half: DATABASE_URL alone, no replica started or read (a smaller city measured quickly). */
    'primary-only': { type: 'boolean', default: false },
  },
});
const ROOT = resolve(import.meta.dirname, '../..');
const iterations = Number(args.iterations);
/** Per case: 3 warm-ups, then the iterations, fewer (at least 5) once a case has taken this long. */
const BUDGET_MS = 12_000;
const SIZE = 20;

const uptime = () => execFileSync('uptime').toString().trim();
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024).toLocaleString('en-US')} MiB`;
const line = (label: string, value: string) => console.log(`  ${label.padEnd(60)} ${value}`);

async function login(app: FastifyInstance, account: string): Promise<string> {
  const randomStr = `bench${Date.now()}${randomBytes(3).toString('hex')}`;
  await app.inject({ url: `/api/code?randomStr=${randomStr}` });
  const res = await app.inject({ method: 'POST', url: '/api/sso/login', payload: { accountNum: account, password: sha256Hex(DEMO_PASSWORD), code: '1234', randomStr } });
  if (res.statusCode !== 200) throw new Error(`login ${account}: ${res.statusCode} ${res.body}`);
  return res.json<Envelope<TokenData>>().data.access_token;
}

/** The city's database on the primary: reused when it holds the city, else created and seeded. */
async function cityDatabase(baseUrl: string): Promise<string> {
  const url = withDatabase(baseUrl, args.database);
  const server = await openDb({ databaseUrl: baseUrl, poolMax: 1 });
  const exists = (await server.db.execute(sql`select 1 from pg_database where datname = ${args.database}`).finally(() => server.close())).rows.length > 0;
  if (exists) {
    const existing = await openDb({ databaseUrl: url, poolMax: 2 });
    const seeded = await existing.db.execute(sql`select 1 from users where account_num = ${SCALE_CITY_ACCOUNT}`).catch(() => ({ rows: [] }));
    if (seeded.rows.length > 0) {
      await migrateDb(existing);
      await existing.close();
      console.log(`  reusing the city in ${args.database}`);
      return url;
    }
    await existing.close();
  } else await createDatabase(baseUrl, args.database);
  const handle = await openDb({ databaseUrl: url, poolMax: 4 });
  try {
    await migrateDb(handle);
    const s = await seedScale(handle.db, { students: Number(args.students), districts: Number(args.districts), log: (m) => console.log(`  ${m}`) });
    console.log(`  seeded ${args.database}: ${s.schools} schools, ${s.students} students, ${s.results} results in ${(s.ms / 1000).toFixed(0)} s`);
    // Fresh tables have no visibility map yet; an installed database would have one from autovacuum.
    await handle.db.execute(sql.raw('vacuum analyze'));
  } finally {
    await handle.close();
  }
  return url;
}

interface City {
  cityId: string;
  districtId: string;
  schoolId: string;
  /** The school's current school year (the views' period). */
  year: number;
  yearId: string;
}

async function describe(db: Db): Promise<City> {
  const one = async <T>(q: SQL) => (await db.execute<T & Record<string, unknown>>(q)).rows[0];
  const org = (account: string) => sql`(select m.org_id from memberships m join users u on u.id = m.user_id where u.account_num = ${account} limit 1)`;
  const city = await one<{ city_id: string; district_id: string; school_id: string }>(
    sql`select ${org(SCALE_CITY_ACCOUNT)} as city_id, ${org(scaleDistrictAccount(0))} as district_id, ${org(scaleSchoolAccount(0))} as school_id`,
  );
  const year = await one<{ id: string; start_year: number }>(sql`select id, start_year from school_years where org_id = ${city.school_id} and current`);
  const counts = await one<{ schools: number; districts: number; students: number; graduates: number; results: number; rollups: number; school_rollups: number }>(
    sql`select (select count(*)::int from orgs where type <> (select type from orgs where id = ${city.city_id})) as schools,
  (select count(*)::int from orgs where parent_id = ${city.city_id}) as districts,
  (select count(*)::int from students s join classes c on c.id = s.class_id join grades g on g.id = c.grade_id where not g.graduated) as students,
  (select count(*)::int from students s join classes c on c.id = s.class_id join grades g on g.id = c.grade_id where g.graduated) as graduates,
  (select count(*)::int from physique_results) as results,
  (select count(*)::int from dc_rollups) as rollups,
  (select count(*)::int from dc_school_rollups) as school_rollups`,
  );
  line('the city', `${counts.districts} districts, ${counts.schools} schools, ${counts.students.toLocaleString('en-US')} current students (+ ${counts.graduates.toLocaleString('en-US')} graduated), ${counts.results.toLocaleString('en-US')} results`);
  line('rollups', `${counts.rollups.toLocaleString('en-US')} class rollup rows, ${counts.school_rollups.toLocaleString('en-US')} school rollup rows`);
  const size = await one<{ db: string; bytes: number }>(sql`select pg_size_pretty(pg_database_size(current_database())) as db, pg_database_size(current_database())::bigint as bytes`);
  line('database size', `${size.db} (${((Number(size.bytes) / counts.students) * 1e6 / 1024 ** 3).toFixed(1)} GiB per million current students)`);
  const tables = await db.execute<{ name: string; total: string; heap: string; indexes: string }>(
    sql`select c.relname as name, pg_size_pretty(pg_total_relation_size(c.oid)) as total, pg_size_pretty(pg_relation_size(c.oid)) as heap, pg_size_pretty(pg_indexes_size(c.oid)) as indexes
from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') order by pg_total_relation_size(c.oid) desc limit 6`,
  );
  line('largest tables (total = heap + indexes)', tables.rows.map((t) => `${t.name} ${t.total} (${t.heap} + ${t.indexes})`).join('; '));
  return { cityId: city.city_id, districtId: city.district_id, schoolId: city.school_id, year: Number(year.start_year), yearId: year.id };
}

interface Row {
  server: string;
  name: string;
  p50: number;
  p95: number;
  runs: number;
  /** CPU of this process (the app; the floors' statements run in the database) per call, ms. */
  cpu: number;
  hits: number;
  asked: number;
}

/**
 * The reads on one app: `app` reads from the primary, or from the replica when built with one; `floorDb` is the server
 * its reads go to, where the floors run.
 */
async function reads(server: string, app: FastifyInstance, floorDb: Db, city: City): Promise<Row[]> {
  const tokens = {
    school: await login(app, scaleSchoolAccount(0)),
    district: await login(app, scaleDistrictAccount(0)),
    city: await login(app, SCALE_CITY_ACCOUNT),
  };
  const schoolsOf = (orgId: string) => sql`with recursive t(id) as (select ${orgId}::uuid union all select o.id from orgs o join t on o.parent_id = t.id) select id from t`;
  const periodPlans = (orgId: string) =>
    sql`select tp.id from test_plans tp join school_years sy on sy.id = tp.school_year_id where tp.org_id in (${schoolsOf(orgId)}) and sy.start_year = ${city.year}`;
  const run = (q: SQL) => async () => void (await floorDb.execute(q));
  const rollupFloor = (orgId: string, table: 'dc_rollups' | 'dc_school_rollups') =>
    run(sql`select count(*), sum(tested) from ${sql.raw(table)} where plan_id in (${periodPlans(orgId)})`);
  const rowsFloor = (orgId: string) => run(sql`select count(*), sum(total) from physique_results where plan_id in (${periodPlans(orgId)}) and not invalid`);

  let bust = 0;
  const get =
    (token: string, url: string, cached: boolean) =>
    async (): Promise<unknown> => {
      const u = cached ? url : `${url}${url.includes('?') ? '&' : '?'}nocache=${bust++}`;
      const res = await app.inject({ url: u, headers: { authorization: `bearer ${token}` } });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res.json<Envelope<unknown>>().data;
    };
  const both = (name: string, token: string, url: string): [string, () => Promise<unknown>][] => [
    [`${name}, computed`, get(token, url, false)],
    [`${name}, from memory`, get(token, url, true)],
  ];

  // The lists' floors need their answers: the total and the rows of the pages asked for.
  const scoreUrl = '/api/busi/web/admin/organizeTest/scoreSearch/page';
  const first = (await get(tokens.city, `${scoreUrl}?current=1&size=${SIZE}`, false)()) as { total: number; records: { id: string }[] };
  const laterPage = Math.max(1, Math.floor(first.total / SIZE / 2));
  const later = (await get(tokens.city, `${scoreUrl}?current=${laterPage}&size=${SIZE}`, false)()) as { records: { id: string }[] };
  const studentUrl = '/api/busi/web/admin/dataCenter/student';
  const students = (await get(tokens.city, `${studentUrl}?current=1&size=${SIZE}`, false)()) as { total: number; records: { id?: string; studentId?: string }[] };
  const laterStudents = Math.max(1, Math.floor(Number(students.total) / SIZE / 2));
  line(
    `${server}: city score list`,
    `${first.total.toLocaleString('en-US')} results in the current year; later page ${laterPage}; student list ${Number(students.total).toLocaleString('en-US')} students, later page ${laterStudents}`,
  );
  const yearCounts = sql`select sum(n) from physique_result_counts where plan_id in (${periodPlans(city.cityId)})`;
  const idList = (ids: string[]) => sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `);
  const pageFloor = (ids: string[]) =>
    run(sql`select (${yearCounts}) as total, r.* from physique_results r join students s on s.id = r.student_id where r.id in (${idList(ids)})`);
  // The student list's total as the roster rollup keeps it (enabled students of the cohorts not graduated) and 20 rows by key.
  const studentsFloor = run(
    sql`select (select sum(r.enabled) from dc_grade_roster r join grades g on g.id = r.grade_id where r.org_id in (${schoolsOf(city.cityId)}) and not g.graduated) as total,
  s.* from (select * from students where org_id in (${schoolsOf(city.cityId)}) and enabled order by id limit ${SIZE}) s`,
  );


  const view = '/api/busi/web';
  const cases: [string, () => Promise<unknown>][] = [
    ["school view: floor, the period's class rollup rows read once", rollupFloor(city.schoolId, 'dc_rollups')],
    ["school view: reference, the period's per-student rows read once", rowsFloor(city.schoolId)],
    ...both('school view (scaleschool0001)', tokens.school, `${view}/k12/dataCenter/school`),
    ["district view: floor, the period's school rollup rows read once", rollupFloor(city.districtId, 'dc_school_rollups')],
    ["district view: reference, the period's per-student rows read once", rowsFloor(city.districtId)],
    ...both('district view (scaledistrict)', tokens.district, `${view}/admin/dataCenter/school`),
    ["city view: floor, the period's school rollup rows read once", rollupFloor(city.cityId, 'dc_school_rollups')],
    ["city view: reference, the period's per-student rows read once", rowsFloor(city.cityId)],
    ...both('city view (scalecity)', tokens.city, `${view}/admin/dataCenter/school`),
    ['score list page 1: floor, total from the counts + 20 rows by key', pageFloor(first.records.map((r) => r.id))],
    ...both('city score list page 1', tokens.city, `${scoreUrl}?current=1&size=${SIZE}`),
    [`score list page ${laterPage}: floor, same for its rows`, pageFloor(later.records.map((r) => r.id))],
    ...both(`city score list page ${laterPage}`, tokens.city, `${scoreUrl}?current=${laterPage}&size=${SIZE}`),
    ['student list page 1: floor, total from the roster rollup + 20 rows by key', studentsFloor],
    ...both('city student list page 1', tokens.city, `${studentUrl}?current=1&size=${SIZE}`),
    ...both(`city student list page ${laterStudents}`, tokens.city, `${studentUrl}?current=${laterStudents}&size=${SIZE}`),
  ];
  const rows: Row[] = [];
  for (const [name, fn] of cases.filter(([n]) => !args.only || n.includes(args.only))) {
    const before = { hits: app.readCache.hits, misses: app.readCache.misses };
    const cpu0 = process.cpuUsage();
    const { p50, p95, runs } = await timeRuns(fn, iterations, BUDGET_MS);
    const used = process.cpuUsage(cpu0);
    const cpu = (used.user + used.system) / 1000 / (runs + 3);
    const hits = app.readCache.hits - before.hits;
    const asked = hits + app.readCache.misses - before.misses;
    rows.push({ server, name, p50, p95, runs, cpu, hits, asked });
    // The hit rate counts the 3 warm-ups too: from memory, the first of them computes the answer.
    const rate = asked > 0 ? `  hits ${((100 * hits) / asked).toFixed(0)} %` : '';
    line(`${server}: ${name}`, `p50 ${p50.toFixed(1).padStart(8)} ms  p95 ${p95.toFixed(1).padStart(8)} ms  app CPU ${cpu.toFixed(1).padStart(6)} ms/call  (${runs} runs)${rate}`);
  }
  const named = (name: string) => rows.find((r) => r.name === name);
  const floorOf = (prefix: string) => rows.find((r) => r.name.startsWith(prefix));
  for (const [label, floorName] of [
    ['school view (scaleschool0001)', 'school view: floor'],
    ['district view (scaledistrict)', 'district view: floor'],
    ['city view (scalecity)', 'city view: floor'],
    ['city score list page 1', 'score list page 1: floor'],
    [`city score list page ${laterPage}`, `score list page ${laterPage}: floor`],
    ['city student list page 1', 'student list page 1: floor'],
    [`city student list page ${laterStudents}`, 'student list page 1: floor'],
  ] as const) {
    const computed = named(`${label}, computed`);
    const memory = named(`${label}, from memory`);
    const floor = floorOf(floorName);
    if (computed && floor) line(`${server}: ${label} ÷ its floor (p50)`, `computed ${(computed.p50 / floor.p50).toFixed(1)}×${memory ? `, from memory ${(memory.p50 / floor.p50).toFixed(2)}×` : ''}`);
  }
  return rows;
}

/** A new test plan for the school (its current grades, the 2014 items) and the national template of its current students. */
async function importSetup(db: Db, city: City, label: string): Promise<{ planId: string; file: Buffer; rows: number }> {
  const planId = crypto.randomUUID();
  const cohorts = (
    await db.execute<{ id: string; stage: Stage; enrol_year: number }>(sql`select id, stage, enrol_year from grades where org_id = ${city.schoolId} and not graduated`)
  ).rows.map((g) => ({ ...g, gradeNo: gradeInYear(g.stage, Number(g.enrol_year), city.year) as Grade }));
  const today = new Date();
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  await withBulkTransaction(db, async (tx) => {
    await tx.query(
      `insert into test_plans (id, org_id, name, school_year_id, semester_code, start_date, end_date, scope_type, standard_version) values ($1, $2, $3, $4, $5, $6, $7, 'grade', '2014')`,
      [planId, city.schoolId, `基准导入 ${label}`, city.yearId, SEMESTER.autumn, day(-5), day(60)],
    );
    for (const g of cohorts) {
      await tx.query(`insert into test_plan_scopes (plan_id, grade_id) values ($1, $2)`, [planId, g.id]);
      for (const item of planItemsForGrade(g.gradeNo, '2014')) await tx.query(`insert into test_plan_items (plan_id, grade_no, item) values ($1, $2, $3) on conflict do nothing`, [planId, g.gradeNo, item]);
    }
  });
  const list = (
    await db.execute<{ name: string; reg_no: string; gender: Gender; class_no: string; class_name: string; stage: Stage; enrol_year: number }>(
      sql`select s.name, s.reg_no, s.gender, c.class_no, c.name as class_name, g.stage, g.enrol_year from students s join classes c on c.id = s.class_id join grades g on g.id = c.grade_id
where s.org_id = ${city.schoolId} and not g.graduated and s.enabled order by c.class_no, s.student_no`,
    )
  ).rows;
  // Results drawn from the fixture's rows of the student's grade and gender; identities replaced by the student's.
  const col = new Map(NATIONAL_COLUMNS.map((c, i) => [c.key, i]));
  const pools = new Map<string, unknown[][]>();
  const rows: unknown[][] = [NATIONAL_COLUMNS.map((c) => c.header)];
  for (const st of list) {
    const grade = gradeInYear(st.stage, Number(st.enrol_year), city.year) as Grade;
    const code = st.gender === 'male' ? 1 : 2;
    const key = `${grade}:${code}`;
    let pool = pools.get(key);
    if (!pool || pool.length === 0) {
      pool = nationalTemplateRows({ rows: 2000, invalidShare: 0.01, seed: grade * 97 + code + rows.length, grades: [grade] })
        .rows.slice(1)
        .filter((r) => r[col.get('gender')!] === code);
      pools.set(key, pool);
    }
    const row = pool.pop()!;
    row[col.get('gradeNo')!] = nationalCodeFromGrade(grade);
    row[col.get('classNo')!] = st.class_no;
    row[col.get('className')!] = st.class_name;
    row[col.get('regNo')!] = st.reg_no;
    row[col.get('name')!] = st.name;
    rows.push(row);
  }
  return { planId, file: writeXlsx([{ name: '体测成绩', rows }]), rows: list.length };
}

/** The parse floor: our reader and the row validation over the same workbook. */
async function parseOnly(file: Buffer): Promise<number> {
  const t0 = performance.now();
  const source = await openXlsx(file);
  let mapping: ReturnType<typeof mapHeaders> | null = null;
  for await (const batch of source.batches()) {
    for (const { row, cells } of batch) {
      if (!mapping) mapping = mapHeaders(cells);
      else if (!isBlankRow(cells)) parseTemplateRow(cells, mapping, row);
    }
  }
  return performance.now() - t0;
}

/** The write floor: the plan's stored rows written again by one INSERT … SELECT (same indexes, rollup triggers; per-row FK checks skipped as the import skips them), rolled back; best of 2. */
async function writeFloor(db: Db, planId: string): Promise<number> {
  let best = Infinity;
  const rollback = new Error('rollback');
  for (let round = 0; round < 2; round++) {
    await withBulkTransaction(db, async (tx) => {
      await tx.query(SKIP_FK_TRIGGERS);
      await tx.query(`create temp table bench_rows on commit drop as select * from physique_results where plan_id = $1`, [planId]);
      await tx.query(`delete from physique_results where plan_id = $1`, [planId]);
      const t0 = performance.now();
      await tx.query(`insert into physique_results select * from bench_rows`);
      best = Math.min(best, performance.now() - t0);
      throw rollback;
    }).catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  }
  return best;
}

function multipart(file: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----tiyubench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  return { payload: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * A school's score import into the city through the route and its job, beside parse + write floors. Timed twice, each
 * into a new plan of the school without results: the process's first import (its code not yet compiled by V8, its
 * statements not yet prepared) and the next one, as every later import of a running server is; the floors are
 * measured warm, after both.
 */
async function importInto(server: string, app: FastifyInstance, db: Db, city: City, plans: string[]): Promise<void> {
  const token = await login(app, scaleSchoolAccount(0));
  const timed: { planId: string; file: Buffer; rows: number; ms: number; counts: ReturnType<typeof parseImportCounts> }[] = [];
  for (const round of ['first', 'next']) {
    const { planId, file, rows } = await importSetup(db, city, `${server} ${round}`);
    plans.push(planId);
    const body = multipart(file);
    const t0 = performance.now();
    const start = await app.inject({ method: 'POST', url: `/api/busi/web/k12/organizeTest/testManage/import/${planId}`, payload: body.payload, headers: { ...body.headers, authorization: `bearer ${token}` } });
    const res = await jobOutcome((url) => app.inject({ url, headers: { authorization: `bearer ${token}` } }), start, 'zh-CN', 1_800_000, jobSettled(db));
    const ms = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`import failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
    timed.push({ planId, file, rows, ms, counts: parseImportCounts(fileNameFromContentDisposition(String(res.headers['content-disposition'])) ?? '') });
  }
  const last = timed.at(-1)!;
  const parse = Math.min(await parseOnly(last.file), await parseOnly(last.file));
  const write = await writeFloor(db, last.planId);
  line(`${server}: import floor: parse ${(parse / 1000).toFixed(2)} s + write ${(write / 1000).toFixed(2)} s`, `${last.rows.toLocaleString('en-US')} rows (one school)`);
  for (const [i, { ms, counts }] of timed.entries()) {
    line(
      `${server}: score import, ${i === 0 ? "the process's first" : 'the next (warm)'}, end to end`,
      `${(ms / 1000).toFixed(2)} s (${counts?.success} written, ${counts?.failure} failed rows): ${(ms / (parse + write)).toFixed(2)}× the floor`,
    );
  }
}

/**
 * The city view once the import's plan is there: the school then has two plans in the school year, so the view can no
 * longer read the rollups (a student could have a result in each; population() in data-center.sql.ts) and reads every
 * per-student row of the city's period. Two calls, computed.
 */
async function cityViewWithSecondPlan(app: FastifyInstance): Promise<void> {
  const token = await login(app, SCALE_CITY_ACCOUNT);
  const ms: number[] = [];
  for (let i = 0; i < 2; i++) {
    const t0 = performance.now();
    const res = await app.inject({ url: `/api/busi/web/admin/dataCenter/school?nocache=second-plan-${i}-${Date.now()}`, headers: { authorization: `bearer ${token}` } });
    if (res.statusCode !== 200) throw new Error(`city view: ${res.statusCode} ${res.body.slice(0, 200)}`);
    ms.push(performance.now() - t0);
  }
  line('primary: city view, computed, one school with a second plan in the year', ms.map((m) => `${m.toFixed(0)} ms`).join(', '));
}

/** Removes the imports' plans (their results go with them, the rollups follow), so the city stays as seeded. */
async function dropPlans(db: Db, plans: string[]): Promise<void> {
  if (plans.length) await db.execute(sql`delete from test_plans where id in (${sql.join(plans.map((id) => sql`${id}::uuid`), sql`, `)})`);
}

async function measure(primaryUrl: string, replicaUrl: string | null): Promise<void> {
  const primary: DbHandle = await openDb({ databaseUrl: primaryUrl, poolMax: 10 });
  const replica: DbHandle | null = replicaUrl ? await openDb({ databaseUrl: replicaUrl, poolMax: 10 }) : null;
  const env = parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: '1234', WEB_DIST: '/nonexistent-tiyu-dist' });
  const limits = { captchaPerMinute: 1e6, loginPerMinute: 1e6 };
  try {
    const city = await describe(primary.db);
    const rssStart = process.memoryUsage().rss;
    const onPrimary = await buildApp({ db: primary.db, env, rateLimits: limits, jobWorker: true });
    const onReplica = replica ? await buildApp({ db: primary.db, replica: replica.db, env, rateLimits: limits, jobWorker: true }) : null;
    try {
      line('uptime before the reads', uptime());
      await reads('primary', onPrimary, primary.db, city);
      line('uptime', uptime());
      if (replica && onReplica) {
        const stat = async () =>
          Number((await replica.db.execute<{ n: string }>(sql`select tup_returned + tup_fetched as n from pg_stat_database where datname = current_database()`)).rows[0].n);
        const before = await stat();
        await reads('replica', onReplica, replica.db, city);
        line('replica: rows the replica read during its reads (pg_stat_database)', (((await stat()) - before) / 1e6).toFixed(1) + ' M tuples');
        line('uptime after the reads', uptime());
      }
      if (!args['no-import']) {
        const plans: string[] = [];
        try {
          await importInto('primary', onPrimary, primary.db, city, plans);
          if (onReplica) await importInto('replica', onReplica, primary.db, city, plans);
          line('uptime after the imports', uptime());
          await cityViewWithSecondPlan(onPrimary);
        } finally {
          await dropPlans(primary.db, plans);
        }
      }
      const m = process.memoryUsage();
      line('bench process (two apps + their read caches)', `RSS ${mib(m.rss)} (${mib(rssStart)} before the apps), JS heap ${mib(m.heapUsed)}`);
    } finally {
      await onPrimary.close();
      await onReplica?.close();
    }
  } finally {
    await primary.close();
    await replica?.close();
  }
}

async function main(): Promise<void> {
  console.log(`province bench: a city of ${Number(args.students).toLocaleString('en-US')} students in ${args.districts} districts on a PostgreSQL primary${args['primary-only'] ? ' alone' : ' and replica'}; ${iterations} iterations after 3 warm-ups`);
  line('uptime at start', uptime());
  let pair: ReturnType<typeof startReplicaPair> | null = null;
  let base = process.env.DATABASE_URL;
  let replicaBase = args['primary-only'] ? undefined : process.env.DATABASE_REPLICA_URL;
  if (args['primary-only'] && !base) throw new Error('--primary-only reads DATABASE_URL (e.g. bash scripts/with-postgres.sh)');
  if (!base || (!replicaBase && !args['primary-only'])) {
    pair = startReplicaPair(join(ROOT, 'data/bench/province-pg'), Number(process.env.PGPORT_TEST ?? 54329));
    base = pair.primaryUrl;
    replicaBase = pair.replicaUrl;
    console.log(`  primary ${base}, replica ${replicaBase} (kept in data/bench/province-pg)`);
  }
  try {
    const url = await cityDatabase(base);
    await measure(url, replicaBase ? withDatabase(replicaBase, args.database) : null);
  } finally {
    pair?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
