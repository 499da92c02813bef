/**
 * Load: many signed-in sessions at once against a real server over loopback, on PGlite and on PostgreSQL. A district
 * from server/seed/scale.ts is served by a child process (its RSS is sampled); `--sessions` sessions (distinct
 * tokens, signed in through the captcha and login routes, spread over the `--schools` largest schools' accounts) each
 * hold one keep-alive connection and drive, one case after another for `--duration` seconds each:
 *   floor       a trivial authenticated list (the school's school years: auth, scope, permission, one tiny query)
 *   score list  the score search's first page for the current school year, as the screen opens it
 *   school view the k12 data-centre school view
 * The score list and the school view are kept by the read cache (server/plugins/read-cache.ts) after their first answer
 * per account while nothing they read changes, as in the product; the floor is not, so it shows a request that is
 * computed every time.
 * It prints requests/s, p50/p95/p99/max, errors (non-2xx and timeouts), the server's peak RSS and how many answers
 * each connection got (min/p10/p50/max: fair queueing gives every connection about the same). Asserts nothing;
 * CI never runs it.
 * By default every session sends its next request as soon as the last one answered (autocannon, zero think time, as
 * the issue measured): a closed loop whose mean wait is sessions ÷ throughput (Little's law), whatever a request costs.
 * `--writes 2` has the largest school's administrator change a result twice a second meanwhile (each change retires the
 * kept answers of that school), to show what the cache is worth while data changes.
 * `--think 5` instead has each session wait a random time averaging 5 s after each answer (exponential, so arrivals
 * are Poisson-like), as people reading a screen do: that shows the latency 200 users see at the load they make.
 * `--realistic` measures what users get rather than what the read cache holds: each session is one school's account
 * with its own grade, class, plan and student (drawn from the district), opens one of the screens below at random with
 * the filters such a person sets (its plan, grade, class, gender, page 1–3), and waits 2–10 s (uniform) between
 * screens; `--writes N` then changes N results a second, each in a school drawn at random, through the API. Its cases:
 *   floor       the trivial list, with the same think time
 *   realistic   the mix: score list, school, grade and class views, student list and student detail
 * `--uncached` is the closed loop (no think time) on the school view, the grade view and the score list with a
 * parameter the server ignores but the cache keys by, so every answer is computed: uncached throughput, beside the
 * floor in the same run.
 * Every case prints the read cache's hit rate over the case (from the server's counters; an answer shared with a
 * computation under way counts as a hit there) and, where each answer is seen (think-time modes), p50/p95 of the
 * answers kept in memory and of those computed (or waited for while another request computed them), apart.
 *
 *   npx tsx tests/bench/load.ts [--duration 60] [--sessions 200] [--students 20000] [--school-sizes 9000]
 *       [--schools 10] [--writes 0] [--engines pglite,postgres] [--pool 10] [--port 5214] [--only list] [--cpu-prof <dir>]
 *   npm run bench -- load --duration 20
 *
 * Districts are built once and reused (tests/bench/scale-db.ts): PGlite ones in data/bench/; PostgreSQL ones on
 * DATABASE_URL when set (dropped afterwards), else on a server whose cluster is kept in data/bench/postgres.
 * Targets on the 2-core machine: 0 errors and fair queueing on both engines (no request waiting many times the
 * median); PostgreSQL p95 < 200 ms for the score list and < 300 ms for the school view; PGlite p95 < 1 s (closed
 * loop); realistic with 2 writes/s: p95 < 300 ms on PostgreSQL, < 1.5 s on PGlite, 0 errors,
 * whatever the hit rate. Latest figures: docs/performance.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { Envelope } from '@/domain/api';
import type { TokenData } from '@/domain/auth/types';
import { buildApp } from '../../server/app';
import { migrateDb, openDb, type DbHandle } from '../../server/db/client';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { parseEnv } from '../../server/env';
import { sha256Hex } from '../../server/lib/password';
import { benchUnderPostgres, scaleDbDir, scalePgDatabase } from './scale-db';
import { percentile } from './lib/timing';

type Engine = 'pglite' | 'postgres';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    /** Mean think time per session in seconds (0: closed loop through autocannon). */
    think: { type: 'string', default: '0' },
    sessions: { type: 'string', default: '200' },
    students: { type: 'string', default: '20000' },
    'school-sizes': { type: 'string', default: '9000' },
    schools: { type: 'string', default: '10' },
    engines: { type: 'string', default: 'pglite,postgres' },
    pool: { type: 'string' },
    port: { type: 'string', default: process.env.PORT ?? '5214' },
    /** Only the cases whose name contains this text. */
    only: { type: 'string' },
    /**
     * Writes a second while the sessions read: the largest school's administrator marks one of its results invalid and
     * valid again through the API, so the answers the read cache keeps for that school (and the bureau) go stale.
     */
    writes: { type: 'string', default: '0' },
    /** Sessions with their own school, grade, class, plan, student and filters, thinking 2–10 s (see above). */
    realistic: { type: 'boolean', default: false },
    /** Closed loop on computed answers only (see above). */
    uncached: { type: 'boolean', default: false },
    /** A directory where each server child writes a V8 CPU profile when it stops (to see where a case's time goes). */
    'cpu-prof': { type: 'string' },
    /** Internal: run as the server child. */
    serve: { type: 'boolean', default: false },
    'pglite-dir': { type: 'string' },
  },
});
const ROOT = resolve(import.meta.dirname, '../..');
const students = Number(args.students);
const schoolSizes = args['school-sizes'] ? args['school-sizes'].split(',').map(Number).filter((n) => n <= students / 2) : [];
const port = Number(args.port);

// ---- the server child -----------------------------------------------------------------------------------------------

async function serve(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const handle = databaseUrl
    ? await openDb({ databaseUrl, poolMax: args.pool ? Number(args.pool) : undefined })
    : await openDb({ pgliteDir: args['pglite-dir'] });
  await migrateDb(handle);
  const env = parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: '1234', WEB_DIST: '/nonexistent-tiyu-dist', PORT: String(port) });
  const app = await buildApp({ db: handle.db, env, rateLimits: { captchaPerMinute: 1e6, loginPerMinute: 1e6 } });
  await app.listen({ port, host: '127.0.0.1' });
  // The parent asks for the read cache's counters before and after each case (its hit rate).
  process.on('message', () => process.send?.({ hits: app.readCache.hits, misses: app.readCache.misses }));
  process.stdout.write('ready\n');
  process.on('SIGTERM', () => void app.close().finally(() => handle.close().finally(() => process.exit(0))));
}

// ---- the load -------------------------------------------------------------------------------------------------------

interface AutocannonResult {
  errors: number;
  timeouts: number;
  non2xx: number;
  requests: { average: number; total: number };
}
interface AutocannonClient {
  setHeaders(headers: Record<string, string>): void;
  /** Ours: the session (connection) index, to count answers per connection. */
  session?: number;
}
interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(event: 'response', listener: (client: AutocannonClient, statusCode: number, bytes: number, ms: number) => void): void;
}
type Autocannon = (opts: Record<string, unknown>) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const base = `http://127.0.0.1:${port}`;

async function json<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(base + path, init);
  if (!res.ok) throw new Error(`${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return ((await res.json()) as Envelope<T>).data;
}

async function login(account: string): Promise<string> {
  const randomStr = `load${Date.now()}${Math.random().toString(36).slice(2, 10)}`;
  await fetch(`${base}/api/code?randomStr=${randomStr}`).then((r) => r.arrayBuffer());
  const body = JSON.stringify({ accountNum: account, password: sha256Hex(DEMO_PASSWORD), code: '1234', randomStr });
  return (await json<TokenData>('/api/sso/login', { method: 'POST', body, headers: { 'content-type': 'application/json' } })).access_token;
}

/** Resident set size of a process in MiB (Linux). */
function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}


interface Row {
  engine: Engine;
  name: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  errors: number;
  rss: number;
  /** Answers per connection: min, p10, p50, max. */
  perConnection: [number, number, number, number];
  /** The read cache's hits ÷ (hits + misses) over the case (NaN: no cacheable request). */
  hitRate: number;
  /** p50/p95 of answers served from memory and of those computed (think-time modes; NaN when none or not seen). */
  cached: [number, number];
  computed: [number, number];
}

/** Latencies of one case: all answers, and those the server marked as served from memory or computed. */
interface Samples {
  ms: number[];
  hit: number[];
  miss: number[];
}

interface CacheStats {
  hits: number;
  misses: number;
}
const cacheStats = (server: ChildProcess) =>
  new Promise<CacheStats>((ok) => {
    server.once('message', (m) => ok(m as CacheStats));
    server.send('stats');
  });

/**
 * Sessions that think: each sends a request, waits for its answer, then waits an exponentially distributed time of
 * mean `think` seconds, until `seconds` are over. Sessions start spread over one think time.
 */
async function thinkingSessions(tokens: readonly string[], pathOf: (i: number) => string, seconds: number, thinkOf: () => number, think: number, samples: Samples, answers: number[]): Promise<{ errors: number; timeouts: number }> {
  const end = performance.now() + seconds * 1000;
  const { ms } = samples;
  let errors = 0;
  let timeouts = 0;
  const pause = (s: number) => new Promise((ok) => setTimeout(ok, s * 1000));
  await Promise.all(
    tokens.map(async (token, i) => {
      await pause(Math.random() * think);
      while (performance.now() < end) {
        const t = performance.now();
        try {
          const res = await fetch(base + pathOf(i), { headers: { authorization: `bearer ${token}` }, signal: AbortSignal.timeout(Math.max(60, seconds) * 1000) });
          await res.arrayBuffer();
          if (res.ok) {
            const took = performance.now() - t;
            ms.push(took);
            const cache = res.headers.get('x-read-cache');
            // 'shared': the answer of a computation under way when the request came, so it waited as long: computed.
            if (cache === 'hit') samples.hit.push(took);
            else if (cache === 'miss' || cache === 'shared') samples.miss.push(took);
            answers[i]!++;
          } else errors++;
        } catch {
          timeouts++;
        }
        await pause(thinkOf());
      }
    }),
  );
  return { errors: errors + timeouts, timeouts };
}

/** Think time: 2–10 s uniform in the realistic mode, else exponential of mean `--think`. */
const thinkOf = (): number => (args.realistic ? 2 + Math.random() * 8 : -Math.log(1 - Math.random()) * Number(args.think));

async function drive(engine: Engine, name: string, tokens: readonly string[], pathOf: (i: number) => string, server: ChildProcess): Promise<Row> {
  const seconds = Number(args.duration);
  const think = args.realistic ? 6 : Number(args.think);
  const samples: Samples = { ms: [], hit: [], miss: [] };
  const { ms } = samples;
  let next = 0;
  let peak = rssMiB(server.pid!);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(server.pid!))), 250);
  const answers = new Array<number>(tokens.length).fill(0);
  const before = await cacheStats(server);
  if (think > 0) {
    const r = await thinkingSessions(tokens, pathOf, seconds, thinkOf, think, samples, answers);
    clearInterval(sampler);
    return report(engine, name, seconds, samples, answers, r.errors, r.timeouts, peak, before, await cacheStats(server));
  }
  const instance = autocannon({
    url: base,
    connections: tokens.length,
    duration: seconds,
    // Long enough that a request queued behind others shows up as latency, not as a dropped connection.
    timeout: Math.max(60, seconds),
    // Each connection is one session: its own token and its own school's URL. Uncached: a parameter the server ignores
    // but the read cache keys by makes every URL new.
    setupClient: (client: AutocannonClient & { setRequests(r: unknown[]): void }) => {
      const i = next++ % tokens.length;
      client.session = i;
      let n = 0;
      const path = pathOf(i);
      const bust = args.uncached ? (req: { path: string }) => ({ ...req, path: `${path}${path.includes('?') ? '&' : '?'}nocache=${i}.${n++}` }) : undefined;
      client.setRequests([{ method: 'GET', path, headers: { authorization: `bearer ${tokens[i]}` }, ...(bust ? { setupRequest: bust } : {}) }]);
    },
  });
  // Fair queueing shows as every connection getting about the same number of answers.
  instance.on('response', (client, _status, _bytes, t) => {
    ms.push(t);
    if (client.session !== undefined) answers[client.session]!++;
  });
  const r = await instance;
  clearInterval(sampler);
  return report(engine, name, seconds, samples, answers, r.errors + r.non2xx, r.timeouts, peak, before, await cacheStats(server));
}

function report(engine: Engine, name: string, seconds: number, samples: Samples, answers: number[], errors: number, timeouts: number, peak: number, before: CacheStats, after: CacheStats): Row {
  const { ms } = samples;
  answers.sort((a, b) => a - b);
  for (const list of [ms, samples.hit, samples.miss]) list.sort((a, b) => a - b);
  const hits = after.hits - before.hits;
  const misses = after.misses - before.misses;
  const row: Row = {
    engine,
    name,
    rps: ms.length / seconds,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
    max: ms.at(-1) ?? NaN,
    errors,
    rss: peak,
    perConnection: [answers[0] ?? 0, percentile(answers, 10), percentile(answers, 50), answers.at(-1) ?? 0],
    hitRate: hits / (hits + misses),
    cached: [percentile(samples.hit, 50), percentile(samples.hit, 95)],
    computed: [percentile(samples.miss, 50), percentile(samples.miss, 95)],
  };
  const f = (n: number) => (Number.isNaN(n) ? '—' : n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(0)} ms`).padStart(8);
  const split = samples.hit.length + samples.miss.length > 0 ? `  from memory p50/p95 ${f(row.cached[0])}/${f(row.cached[1])}, computed ${f(row.computed[0])}/${f(row.computed[1])}` : '';
  console.log(
    `  ${engine.padEnd(8)} ${name.padEnd(12)} ${row.rps.toFixed(1).padStart(7)} req/s  p50 ${f(row.p50)}  p95 ${f(row.p95)}  p99 ${f(row.p99)}  max ${f(row.max)}  errors ${String(row.errors).padStart(4)} (timeouts ${timeouts})  cache hits ${hits + misses > 0 ? `${((100 * hits) / (hits + misses)).toFixed(1)} % (${hits}/${hits + misses})` : '—'}${split}  RSS ${row.rss.toFixed(0)} MiB  answers per connection min/p10/p50/max ${row.perConnection.join('/')}`,
  );
  return row;
}

/**
 * Waits until the server has worked off what the last case left queued (requests whose connection closed at the end
 * may still run), so each case starts on an idle server: one request at a time until one answers within 300 ms.
 */
async function settle(path: string, token: string): Promise<void> {
  const until = performance.now() + 120_000;
  while (performance.now() < until) {
    const t = performance.now();
    await json(path, { headers: { authorization: `bearer ${token}` } });
    if (performance.now() - t < 300) return;
  }
}

async function startServer(env: NodeJS.ProcessEnv, extra: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${resolve(args['cpu-prof'])}`] : []), '--import', 'tsx', join(import.meta.dirname, 'load.ts'), '--serve', '--port', String(port), ...extra], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  await new Promise<void>((ok, fail) => {
    child.stdout!.on('data', (b: Buffer) => b.toString().includes('ready') && ok());
    child.on('exit', (code) => fail(new Error(`server exited with ${code}`)));
  });
  return child;
}

interface School {
  org_id: string;
  account: string;
  year_id: string;
  n: number;
}

/** What a realistic session of a school picks its screens and filters from. */
interface SchoolDetail {
  startYear: number;
  plans: string[];
  /** Grade number, class id, a few student ids of the class. */
  classes: { gradeNo: number; id: string; students: string[] }[];
  /** Result ids of the school, to change. */
  results: string[];
}

async function schoolDetails(handle: DbHandle, schools: readonly School[]): Promise<SchoolDetail[]> {
  const out: SchoolDetail[] = [];
  for (const s of schools) {
    const [year] = (await handle.db.execute<{ y: number }>(sql`select start_year as y from school_years where id = ${s.year_id}`)).rows;
    const plans = (await handle.db.execute<{ id: string }>(sql`select id from test_plans where org_id = ${s.org_id} and school_year_id = ${s.year_id} and deleted_at is null`)).rows.map((r) => r.id);
    const classes = (
      await handle.db.execute<{ grade_no: number; id: string; students: string[] }>(sql`
        select g.grade_no, c.id, (select array_agg(st.id) from (select id from students where class_id = c.id and enabled limit 5) st) as students
        from classes c join grades g on g.id = c.grade_id where c.org_id = ${s.org_id} and not g.graduated and c.enabled`)
    ).rows.filter((c) => c.students?.length);
    const results = (await handle.db.execute<{ id: string }>(sql`select id from physique_results where org_id = ${s.org_id} and plan_id = any(${`{${plans.join(',')}}`}::uuid[]) limit 20`)).rows.map((r) => r.id);
    out.push({ startYear: year?.y ?? new Date().getFullYear(), plans, classes: classes.map((c) => ({ gradeNo: c.grade_no, id: c.id, students: c.students })), results });
  }
  return out;
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const maybe = (p: number) => Math.random() < p;

/**
 * A realistic session's next screen: its school's score list (its plan, grade or class, a gender, page 1–3), the
 * school, grade and class views, the student list of its class, or one of its class's students.
 */
function realisticPath(school: School, d: SchoolDetail, mine: { plan?: string; cls: SchoolDetail['classes'][number]; student: string }): string {
  const k12 = '/api/busi/web/k12';
  const q = (o: Record<string, string | number | undefined>) =>
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join('&');
  const plan = mine.plan && maybe(0.5) ? mine.plan : undefined;
  const gender = maybe(0.2) ? pick(['male', 'female']) : undefined;
  switch (Math.floor(Math.random() * 6)) {
    case 0: {
      const narrow = Math.random();
      return `${k12}/organizeTest/scoreSearch/page?${q({ schoolYearId: school.year_id, planId: plan, gradeNo: narrow < 0.3 ? mine.cls.gradeNo : undefined, classId: narrow >= 0.3 && narrow < 0.6 ? mine.cls.id : undefined, gender, current: 1 + Math.floor(Math.random() * 3), size: 20 })}`;
    }
    case 1:
      return `${k12}/dataCenter/school?${q({ schoolYear: d.startYear, planId: plan, gender })}`;
    case 2:
      return `${k12}/dataCenter/grade?${q({ schoolYear: d.startYear, gradeNo: mine.cls.gradeNo, planId: plan, gender })}`;
    case 3:
      return `${k12}/dataCenter/class/${mine.cls.id}?${q({ schoolYear: d.startYear, planId: plan })}`;
    case 4:
      return `${k12}/dataCenter/student?${q({ schoolYear: d.startYear, classId: mine.cls.id, gender, current: 1, size: 20 })}`;
    default:
      return `${k12}/dataCenter/student/${mine.student}`;
  }
}

/** The largest schools by current students, each with its account and its current school year. */
async function largestSchools(handle: DbHandle): Promise<School[]> {
  const { rows } = await handle.db.execute<School & Record<string, unknown>>(
    sql`select s.org_id, count(*)::int as n,
  (select u.account_num from memberships m join users u on u.id = m.user_id where m.org_id = s.org_id order by u.account_num limit 1) as account,
  (select sy.id from school_years sy where sy.org_id = s.org_id and sy.current) as year_id
from students s join classes c on c.id = s.class_id join grades g on g.id = c.grade_id where not g.graduated and s.enabled
group by s.org_id order by n desc limit ${Number(args.schools)}`,
  );
  return rows;
}

async function measure(engine: Engine, schools: readonly School[], details: readonly SchoolDetail[], server: ChildProcess): Promise<Row[]> {
  const sessions = Number(args.sessions);
  const signIn = performance.now();
  const tokens: string[] = [];
  const accountOf = (i: number) => schools[i % schools.length];
  for (let i = 0; i < sessions; i += 10) {
    tokens.push(...(await Promise.all(Array.from({ length: Math.min(10, sessions - i) }, (_, k) => login(accountOf(i + k).account)))));
  }
  console.log(
    `  ${engine}: ${tokens.length} sessions signed in over ${schools.length} schools (${schools.map((s) => s.n).join(', ')} students) in ${((performance.now() - signIn) / 1000).toFixed(1)} s`,
  );
  const k12 = '/api/busi/web/k12';
  // Each realistic session: its school's account, and its own plan, class (so grade) and student.
  const mine = tokens.map((_, i) => {
    const d = details[i % schools.length]!;
    const cls = pick(d.classes);
    return { plan: d.plans.length ? pick(d.plans) : undefined, cls, student: pick(cls.students) };
  });
  const cases: [string, (i: number) => string][] = args.realistic
    ? [
        ['floor', () => `${k12}/org/acayear/page?size=20`],
        ['realistic', (i) => realisticPath(accountOf(i), details[i % schools.length]!, mine[i]!)],
      ]
    : [
        ['floor', () => `${k12}/org/acayear/page?size=20`],
        ['score list', (i) => `${k12}/organizeTest/scoreSearch/page?schoolYearId=${accountOf(i).year_id}&current=1&size=20`],
        ['school view', () => `${k12}/dataCenter/school`],
        ...(args.uncached ? ([['grade view', (i: number) => `${k12}/dataCenter/grade?gradeNo=${mine[i]!.cls.gradeNo}`]] as [string, (i: number) => string][]) : []),
      ];
  const rows: Row[] = [];
  const writes = Number(args.writes);
  // Realistic: each write changes a result of a school drawn at random, as that school's administrator (the first
  // session of the school); otherwise a result of the largest school (session 0).
  const writers = schools.map((_, s) => s).filter((s) => s < tokens.length && (args.realistic || s === 0) && details[s]!.results.length > 0);
  let flips = 0;
  const flip = async () => {
    const s = pick(writers);
    const path = `${k12}/organizeTest/scoreSearch/${flips++ % 2 === 0 ? 'invalid' : 'valid'}`;
    const auth = { authorization: `bearer ${tokens[s]}`, 'content-type': 'application/json' };
    await json(path, { method: 'POST', headers: auth, body: JSON.stringify({ ids: [pick(details[s]!.results)] }) });
  };
  for (const [name, pathOf] of cases.filter(([n]) => !args.only || n.includes(args.only))) {
    // One request first, so a wrong URL fails loudly instead of as thousands of errors.
    await json(pathOf(0), { headers: { authorization: `bearer ${tokens[0]}` } });
    const writer = writes > 0 ? setInterval(() => void flip().catch((e: unknown) => console.error(`  write failed: ${String(e)}`)), 1000 / writes) : undefined;
    rows.push(await drive(engine, name, tokens, pathOf, server));
    clearInterval(writer);
    if (writes > 0) console.log(`    (${flips} writes so far)`);
    await settle(`${k12}/org/acayear/page?size=20`, tokens[0]);
  }
  return rows;
}

async function stop(server: ChildProcess): Promise<void> {
  server.kill('SIGTERM');
  await new Promise((ok) => server.once('exit', ok));
}

async function runEngine(engine: Engine): Promise<Row[]> {
  if (engine === 'pglite') {
    const dir = await scaleDbDir(students, schoolSizes);
    // PGlite allows one process per data directory: read what the bench needs before the server holds it.
    const handle = await openDb({ pgliteDir: dir });
    const schools = await largestSchools(handle);
    const details = await schoolDetails(handle, schools).finally(() => handle.close());
    const server = await startServer(process.env, ['--pglite-dir', dir]);
    try {
      return await measure(engine, schools, details, server);
    } finally {
      await stop(server);
    }
  }
  const { url: dbUrl, drop } = await scalePgDatabase(process.env.DATABASE_URL!, students, schoolSizes);
  try {
    const handle = await openDb({ databaseUrl: dbUrl, poolMax: 2 });
    const schools = await largestSchools(handle);
    const details = await schoolDetails(handle, schools).finally(() => handle.close());
    const server = await startServer({ ...process.env, DATABASE_URL: dbUrl }, args.pool ? ['--pool', args.pool] : []);
    try {
      return await measure(engine, schools, details, server);
    } finally {
      await stop(server);
    }
  } finally {
    await drop();
  }
}

async function main(): Promise<void> {
  if (args.serve) return serve();
  const engines = args.engines.split(',') as Engine[];
  const mode = args.realistic ? 'realistic: own school, grade, class, plan, student and filters; thinking 2–10 s' : args.uncached ? 'closed loop, every answer computed' : Number(args.think) > 0 ? `thinking ${args.think} s on average between requests` : 'closed loop, no think time';
  console.log(`load bench: ${args.sessions} sessions (${mode}${Number(args.writes) > 0 ? `, ${args.writes} writes/s` : ''}), ${args.duration} s per case, ${students} students (large schools ${schoolSizes.join(', ') || 'none'}); engines ${engines.join(', ')}`);
  const rows: Row[] = [];
  if (engines.includes('pglite')) {
    rows.push(...(await runEngine('pglite')));
  }
  if (engines.includes('postgres')) {
    if (process.env.DATABASE_URL) rows.push(...(await runEngine('postgres')));
    else if (existsSync('/usr/lib/postgresql')) {
      const passOn = ['--duration', args.duration, '--think', args.think, '--writes', args.writes, '--sessions', args.sessions, '--students', args.students, '--school-sizes', args['school-sizes'], '--schools', args.schools, '--port', String(port)];
      if (args.pool) passOn.push('--pool', args.pool);
      if (args.only) passOn.push('--only', args.only);
      if (args.realistic) passOn.push('--realistic');
      if (args.uncached) passOn.push('--uncached');
      if (args['cpu-prof']) passOn.push('--cpu-prof', resolve(args['cpu-prof']));
      // Not the default port: other checkouts on this machine run their own servers.
      benchUnderPostgres(import.meta.filename, ['--engines', 'postgres', ...passOn], { ...process.env, PGPORT_TEST: process.env.PGPORT_TEST ?? String(50_000 + (port % 10_000)) });
    } else console.log('  PostgreSQL: skipped (no DATABASE_URL and no local server binaries)');
  }
  for (const r of rows) {
    if (args.uncached) {
      const floor = rows.find((f) => f.engine === r.engine && f.name === 'floor');
      if (r.name !== 'floor' && floor) console.log(`  ${r.engine} ${r.name} computed: ${r.rps.toFixed(1)} req/s, ${(floor.rps / r.rps).toFixed(1)}× below the trivial GET floor (${floor.rps.toFixed(1)} req/s)${r.name === 'school view' && r.engine === 'postgres' ? `; target ≥ 200 req/s ${r.rps >= 200 ? 'met' : 'MISSED'}` : ''}`);
      continue;
    }
    // With think time (realistic; docs/performance.md), p95 < 300 ms on PostgreSQL and < 1.5 s on PGlite, whatever the hit rate.
    const limit = args.realistic
      ? r.name === 'realistic' ? (r.engine === 'postgres' ? 300 : 1500) : null
      : r.engine === 'postgres' ? (r.name === 'score list' ? 200 : r.name === 'school view' ? 300 : null) : r.name === 'floor' ? null : 1000;
    if (limit !== null) console.log(`  target ${r.engine} ${r.name}: p95 ${r.p95.toFixed(0)} ms (< ${limit} ms), errors ${r.errors} (0), cache hits ${(100 * r.hitRate).toFixed(1)} % ${r.p95 < limit && r.errors === 0 ? 'met' : 'MISSED'}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
