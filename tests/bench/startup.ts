/**
 * Start-up on an EXISTING database (docs/performance.md: serving in ≤ 2× the floor). In the same run, alternately:
 *   floor   a bare Fastify and PGlite opening a copy of the same database directory (tests/bench/lib/startup-floor.mjs)
 *   full    the built server, `node dist/server/main.js` as `npm start` runs it, on a copy of it (migration check, menus
 *           against the catalogue, every route, the plugins); built once first (scripts/build-server.ts)
 *   source  with --source also `node --import tsx server/main.ts` (`npm run dev`, the kill tests) on a copy
 * Each is a plain `node` child process; the time is from spawn to the first answer over HTTP (with the CPU time it
 * used to get there, all threads: under load from other work the wall time stretches, the CPU time much less), then
 * the RSS after `--rest` seconds at rest. The full start's own stage lines ("[ 1.2 s] …") are printed for its median run, so the rest
 * of the time is where it went. Asserts nothing; CI does not run it.
 *
 *   npm run bench -- startup [--runs 3] [--rest 5] [--dir <a PGlite data directory>] [--port 8213 or BENCH_PORT] [--source]
 *
 * Without --dir, the demo (TIYU_SIMULATE_DAYS=0) is seeded once into data/bench/startup-demo (a few minutes) and reused.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DIR_LOCK_FILE } from '../../server/db/dir-lock';

const ROOT = resolve(import.meta.dirname, '../..');
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    rest: { type: 'string', default: '5' },
    dir: { type: 'string' },
    // BENCH_PORT as the other benches take it (several benches may run at once on one machine).
    port: { type: 'string', default: process.env.BENCH_PORT ?? '8213' },
    source: { type: 'boolean', default: false },
  },
});
const runs = Number(args.runs);
const restMs = Number(args.rest) * 1000;
const port = Number(args.port);

const rssMiB = (pid: number): number => {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};
/** CPU seconds a process has used, all its threads (utime + stime of /proc/<pid>/stat, at 100 ticks a second). */
const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Run {
  ms: number;
  /** CPU seconds to the first answer: on a shared machine a load-independent view of the same start. */
  cpu: number;
  rss: number;
  output: string;
}

/** Spawns `args`, polls `url` until it answers 200: ms from spawn, RSS after the rest, its output. */
async function timeStart(argv: string[], env: Record<string, string>, url: string): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited before serving:\n${output}`);
      const ok = await fetch(url)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      await sleep(20);
    }
    const ms = performance.now() - started;
    const cpu = cpuSeconds(child.pid!);
    await sleep(restMs);
    return { ms, cpu, rss: rssMiB(child.pid!), output };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** The demo database to start on: --dir, or the cached seed. */
async function sourceDir(): Promise<string> {
  if (args.dir) return resolve(args.dir);
  const dir = join(ROOT, 'data/bench/startup-demo');
  if (existsSync(join(dir, 'PG_VERSION'))) return dir;
  console.log(`seeding the demo into ${dir} (once; a few minutes)`);
  const env = { PGLITE_DIR: dir, STORAGE_DIR: join(ROOT, 'data/bench/startup-demo-files'), TIYU_SIMULATE_DAYS: '0', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '' };
  await timeStart(['--import', 'tsx', 'server/main.ts'], env, `http://127.0.0.1:${port}/api/health`);
  return dir;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const source = await sourceDir();
// What `npm start` builds before it starts the server.
const builtBy = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { cwd: ROOT, stdio: 'inherit' });
if (builtBy.status !== 0) throw new Error('scripts/build-server.ts failed');
const scratch = await mkdtemp(join(tmpdir(), 'tiyu-startup-'));
const floor: Run[] = [];
const full: Run[] = [];
const fromSource: Run[] = [];
try {
  for (let i = 0; i < runs; i++) {
    // A fresh copy each time: both open the same database in the same state (a clean shut-down directory).
    const copy = async () => {
      const dir = join(scratch, `db-${i}-${Math.random().toString(36).slice(2, 8)}`);
      await cp(source, dir, { recursive: true });
      await rm(join(dir, DIR_LOCK_FILE), { force: true });
      return dir;
    };
    const serverEnv = async () => ({ PGLITE_DIR: await copy(), STORAGE_DIR: join(scratch, 'files'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production', DATABASE_URL: '' });
    // The floor gets Node's compile cache as the full start turns it on (server/main.ts; Node ≥ 22.1, none on 20).
    floor.push(await timeStart(['tests/bench/lib/startup-floor.mjs', await copy(), String(port)], { NODE_COMPILE_CACHE: join(tmpdir(), 'node-compile-cache') }, `http://127.0.0.1:${port}/`));
    full.push(await timeStart(['dist/server/main.js'], await serverEnv(), `http://127.0.0.1:${port}/api/health`));
    if (args.source) fromSource.push(await timeStart(['--import', 'tsx', 'server/main.ts'], await serverEnv(), `http://127.0.0.1:${port}/api/health`));
    const sourceNote = args.source ? `, source ${(fromSource[i].ms / 1000).toFixed(2)} s` : '';
    console.log(`run ${i + 1}/${runs}: floor ${(floor[i].ms / 1000).toFixed(2)} s, full ${(full[i].ms / 1000).toFixed(2)} s${sourceNote}`);
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}

const f = median(floor.map((r) => r.ms));
const s = median(full.map((r) => r.ms));
const mid = full.find((r) => r.ms === s)!;
console.log(`\nstart-up on an existing database (${source}), median of ${runs}, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}:`);
const fCpu = median(floor.map((r) => r.cpu));
const sCpu = median(full.map((r) => r.cpu));
console.log(`  floor (PGlite open + bare Fastify listen)  ${(f / 1000).toFixed(2)} s   CPU ${fCpu.toFixed(2)} s   RSS at rest ${median(floor.map((r) => r.rss)).toFixed(0)} MiB`);
console.log(`  full  (node dist/server/main.js)            ${(s / 1000).toFixed(2)} s   CPU ${sCpu.toFixed(2)} s   RSS at rest ${median(full.map((r) => r.rss)).toFixed(0)} MiB`);
console.log(`  ratio ${(s / f).toFixed(2)}× (target ≤ 2×); CPU to the first answer ${(sCpu / fCpu).toFixed(2)}×`);
if (args.source) {
  const src = median(fromSource.map((r) => r.ms));
  console.log(`  source (tsx server/main.ts)                ${(src / 1000).toFixed(2)} s   RSS at rest ${median(fromSource.map((r) => r.rss)).toFixed(0)} MiB   (${(src / f).toFixed(2)}× the floor)`);
}
console.log('\nthe median full start said (seconds since its process started):');
for (const line of mid.output.split('\n').filter((l) => /^\[\s*[\d.]+ s\]|tiyu is running/.test(l))) console.log(`  ${line}`);
