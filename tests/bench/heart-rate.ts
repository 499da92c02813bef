/**
 * Sustained heart-rate ingest (docs/product-rules.md#lesson-load, issue 30's capture target): `--lessons` lessons in
 * progress, each with `--bands` bands at 1 Hz relayed by a hub that posts every `--every` seconds (a batch =
 * bands × every samples), for `--seconds` seconds of lesson time, posted through the real route
 * (app.inject → POST /api/v1/device/lessons/:id/heart-rate: device authentication, zod validation of every sample,
 * window, bindings, consent seam, drop rules, raw rows + per-minute aggregates in one transaction) with `--concurrency`
 * batches in flight. Beside it, in the same run and in alternating rounds, the floor: the same rows by COPY into
 * heart_rate_samples (raw rows only, same day partition, under another lesson id, one transaction per batch, same
 * concurrency). Prints samples/s of each, their ratio, and this process's RSS sampled every 100 ms (start / peak / end:
 * PGlite runs in this process; PostgreSQL's own memory is its server's). Targets: ≥ 10,000 samples/s on PGlite,
 * ≥ 40,000 on PostgreSQL. Asserts nothing.
 *
 *   npm run bench -- heart-rate [--lessons 10] [--bands 40] [--seconds 600] [--every 60] [--rounds 2] [--concurrency 4 PGlite, 8 PostgreSQL]
 *   bash scripts/with-postgres.sh npm run bench -- heart-rate      (PostgreSQL too: DATABASE_URL; its database is dropped after)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { buildApp } from '../../server/app';
import { createDatabase, dropDatabase, withDatabase } from '../../server/db/admin';
import { migrateDb, openDb, type DbHandle } from '../../server/db/client';
import { orgs } from '../../server/db/schema/orgs';
import { classes, students } from '../../server/db/schema/school';
import { devices } from '../../server/db/schema/venue';
import { parseEnv } from '../../server/env';
import { hashSecret } from '../../server/lib/tokens';
import { copyLines, withBulkTransaction } from '../../server/modules/physique-results/bulk-session';
import { seedDemo } from '../../server/seed/demo';

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    lessons: { type: 'string', default: '10' },
    bands: { type: 'string', default: '40' },
    seconds: { type: 'string', default: '600' },
    every: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '' },
    engines: { type: 'string', default: 'pglite,postgres' },
  },
  strict: false,
});
const LESSONS = Number(args.lessons);
const BANDS = Number(args.bands);
const SECONDS = Number(args.seconds);
const EVERY = Number(args.every);
const ROUNDS = Number(args.rounds);
const SECRET = 'bench-secret';
const line = (label: string, value: string) => console.log(`  ${label.padEnd(62)} ${value}`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
/** CPU time of this process (PGlite runs in it; PostgreSQL's work is in its server's processes). */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;

interface Lesson {
  id: string;
  /** The bands' serials and students, in order. */
  bands: { serial: string; studentId: string }[];
}

/** Runs `tasks` with at most `n` at once. */
async function pool(n: number, tasks: (() => Promise<void>)[]): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, tasks.length) }, async () => {
    while (next < tasks.length) await tasks[next++]();
  }));
}

/** RSS sampled every 100 ms while `fn` runs. */
async function withRss<T>(fn: () => Promise<T>): Promise<{ result: T; start: number; peak: number; end: number }> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  try {
    const result = await fn();
    const end = process.memoryUsage().rss;
    return { result, start, peak: Math.max(peak, end), end };
  } finally {
    clearInterval(timer);
  }
}

/** HR_PROFILE=<file>: a CPU profile of the timed part only (node:inspector), for finding where the time goes. */
async function profiler(): Promise<(() => Promise<void>) | null> {
  const file = process.env.HR_PROFILE;
  if (!file) return null;
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}

async function bench(engine: 'pglite' | 'postgres', handle: DbHandle, concurrency: number): Promise<void> {
  const db = handle.db;
  await migrateDb(handle);
  await seedDemo(db, { scope: 'people' });
  const [org] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).limit(1);
  // The school's largest classes, one lesson each (a class's students wear its lesson's bands).
  const cls = await db
    .select({ id: classes.id, n: sql<number>`count(${students.id})::int` })
    .from(classes)
    .innerJoin(students, and(eq(students.classId, classes.id), eq(students.status, 'studying')))
    .where(eq(classes.orgId, org.id))
    .groupBy(classes.id)
    .orderBy(desc(sql`count(${students.id})`))
    .limit(LESSONS);
  const device = (serialNo: string, kind: 'terminal' | 'hub' | 'band') => ({ orgId: org.id, name: serialNo, serialNo, kind, status: 'online' as const, activatedAt: new Date(), secretHash: hashSecret(SECRET) });
  const app = await buildApp({ db, env: parseEnv({ NODE_ENV: 'test', WEB_DIST: '/nonexistent' }) });
  try {
    // One hub per lesson, as on a field.
    await db.insert(devices).values([device('HRB-TERM', 'terminal'), ...cls.map((_, l) => device(`HRB-HUB-${l}`, 'hub'))]);
    const headers = (serial: string) => ({ authorization: `Basic ${Buffer.from(`${serial}:${SECRET}`).toString('base64')}` });
    const start = Math.floor((Date.now() - (SECONDS + EVERY + 120) * 1000) / 60_000) * 60_000;
    const lessons: Lesson[] = [];
    for (const [l, c] of cls.entries()) {
      const roster = await db.select({ id: students.id }).from(students).where(and(eq(students.classId, c.id), eq(students.status, 'studying'))).limit(BANDS);
      const serials = roster.map((_, b) => `HRB-${l}-${b}`);
      await db.insert(devices).values(serials.map((s) => device(s, 'band')));
      const opened = await app.inject({ method: 'POST', url: '/api/v1/device/lessons', headers: headers('HRB-TERM'), payload: { clientId: `bench-${l}`, type: 'practise', classId: c.id, items: ['rope1min'], startedAt: new Date(start).toISOString() } });
      const id = opened.json<{ data: { id: string } }>().data.id;
      const bands = roster.map((s, b) => ({ serial: serials[b], studentId: s.id }));
      const lent = await app.inject({ method: 'PUT', url: `/api/v1/device/lessons/${id}/bands`, headers: headers(`HRB-HUB-${l}`), payload: { bindings: bands.map((b) => ({ band: b.serial, studentId: b.studentId })) } });
      if (lent.statusCode !== 200) throw new Error(`lending bands: ${lent.statusCode} ${lent.body.slice(0, 200)}`);
      lessons.push({ id, bands });
    }
    const bandCount = lessons.reduce((n, l) => n + l.bands.length, 0);
    // A smooth curve per band: at most ≈ 1 bpm/s, so no sample is a jump.
    const bpm = (b: number, s: number) => Math.round(125 + 30 * Math.sin((s + b * 37) / 40));
    /** One hub post: `EVERY` seconds of every band of a lesson from second `from`. */
    const batchOf = (lesson: Lesson, l: number, from: number) => {
      const samples: { band: string; at: string; bpm: number }[] = [];
      for (let s = from; s < from + EVERY; s++) for (const [b, band] of lesson.bands.entries()) samples.push({ band: band.serial, at: new Date(start + s * 1000).toISOString(), bpm: bpm(l * 100 + b, s) });
      return samples;
    };
    const floorLesson = randomUUID();
    let apiMs = 0;
    let copyMs = 0;
    let apiCpu = 0;
    let copyCpu = 0;
    let accepted = 0;
    let sent = 0;
    let copied = 0;
    const perRound = Math.ceil(SECONDS / EVERY / ROUNDS) * EVERY;
    /** The timed seconds start after the warm-up's. */
    const WARM = EVERY;
    // Warm-up (partition of the day, prepared statements, JIT): one batch outside the timing, then resent and not counted.
    await app.inject({ method: 'POST', url: `/api/v1/device/lessons/${lessons[0].id}/heart-rate`, headers: headers('HRB-HUB-0'), payload: { samples: batchOf(lessons[0], 0, 0) } });
    const profile = await profiler();
    const memory = await withRss(async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const batches: { lesson: Lesson; l: number; from: number }[] = [];
        for (let from = WARM + round * perRound; from < WARM + Math.min(SECONDS, (round + 1) * perRound); from += EVERY) for (const [l, lesson] of lessons.entries()) batches.push({ lesson, l, from });
        let t = performance.now();
        let c = cpuMs();
        await pool(
          concurrency,
          batches.map(({ lesson, l, from }) => async () => {
            const samples = batchOf(lesson, l, from);
            const res = await app.inject({ method: 'POST', url: `/api/v1/device/lessons/${lesson.id}/heart-rate`, headers: headers(`HRB-HUB-${l}`), payload: { samples } });
            if (res.statusCode !== 200) throw new Error(`batch: ${res.statusCode} ${res.body.slice(0, 300)}`);
            const answer = res.json<{ data: { accepted: number; dropped: Record<string, number> } }>().data;
            if (Object.keys(answer.dropped).length > 0) throw new Error(`dropped: ${JSON.stringify(answer.dropped)}`);
            accepted += answer.accepted;
            sent += samples.length;
          }),
        );
        apiMs += performance.now() - t;
        apiCpu += cpuMs() - c;
        t = performance.now();
        c = cpuMs();
        await pool(
          concurrency,
          batches.map(({ lesson, l, from }) => async () => {
            const rows = batchOf(lesson, l, from);
            const student = new Map(lesson.bands.map((b) => [b.serial, b.studentId]));
            await withBulkTransaction(db, (session) =>
              session.copyIn('heart_rate_samples', ['lesson_id', 'student_id', 'at', 'bpm', 'intensity'], copyLines(rows, (r) => [floorLesson, student.get(r.band), r.at, r.bpm, null])),
            );
            copied += rows.length;
          }),
        );
        copyMs += performance.now() - t;
        copyCpu += cpuMs() - c;
      }
    });
    await profile?.();
    const [check] = (
      await db.execute<{ raw: number; minutes: number }>(sql`select (select count(*)::int from heart_rate_samples where lesson_id <> ${floorLesson}) as raw,
        (select coalesce(sum(samples), 0)::int from heart_rate_minutes) as minutes`)
    ).rows;
    const target = engine === 'pglite' ? 10_000 : 40_000;
    console.log(`  ${engine}: ${lessons.length} lessons × ≈ ${Math.round(bandCount / lessons.length)} bands = ${bandCount} bands, ${SECONDS} s of lesson, a post every ${EVERY} s (${fmt(sent / Math.max(1, (SECONDS / EVERY) * lessons.length))} samples a batch), ${concurrency} in flight, ${ROUNDS} rounds`);
    line(`${engine}: POST …/heart-rate (new samples)`, `${fmt((accepted / apiMs) * 1000)} samples/s  (${(apiMs / 1000).toFixed(1)} s, ${fmt(accepted)} of ${fmt(sent)} accepted; ${((apiCpu / accepted) * 1000).toFixed(0)} ms CPU per 1,000 here; target ≥ ${fmt(target)}/s)`);
    line(`${engine}: floor, COPY of the same raw rows`, `${fmt((copied / copyMs) * 1000)} samples/s  (${(copyMs / 1000).toFixed(1)} s, ${((copyCpu / copied) * 1000).toFixed(0)} ms CPU per 1,000 here)`);
    line(`${engine}: API ÷ floor (time per sample)`, `${(apiMs / accepted / (copyMs / copied)).toFixed(2)}×`);
    line(`${engine}: stored raw rows / samples in the minutes`, `${fmt(check.raw)} / ${fmt(check.minutes)}`);
    line(`${engine}: RSS start / peak / end`, `${mib(memory.start)} / ${mib(memory.peak)} / ${mib(memory.end)}`);
  } finally {
    await app.close();
  }
}

async function main() {
  console.log(`heart-rate ingest benchmark: load ${(await import('node:os')).loadavg().map((n) => n.toFixed(1)).join(' ')}`);
  const engines = String(args.engines).split(',');
  if (engines.includes('pglite')) {
    const dir = await mkdtemp(join(tmpdir(), 'tiyu-bench-hr-'));
    const handle = await openDb({ pgliteDir: join(dir, 'pglite') });
    try {
      await bench('pglite', handle, Number(args.concurrency || 4));
    } finally {
      await handle.close();
      await rm(dir, { recursive: true, force: true });
    }
  }
  const url = process.env.DATABASE_URL;
  if (!engines.includes('postgres')) return;
  if (!url) return console.log('  PostgreSQL: skipped (no DATABASE_URL; bash scripts/with-postgres.sh npm run bench -- heart-rate)');
  const name = 'tiyu_bench_heart_rate';
  await dropDatabase(url, name);
  await createDatabase(url, name);
  const concurrency = Number(args.concurrency || 8);
  const handle = await openDb({ databaseUrl: withDatabase(url, name), poolMax: concurrency + 2 });
  try {
    await bench('postgres', handle, concurrency);
  } finally {
    await handle.close();
    await dropDatabase(url, name);
  }
}

await main();
