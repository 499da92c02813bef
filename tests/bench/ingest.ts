/**
 * Sustained ingestion through the device API (docs/product-rules.md#ingest) on PGlite: N batches of 1,000 records
 * (default 20) posted through the HTTP route (app.inject: authentication, validation, per-record checks, one
 * transaction per batch, the answer), each batch followed by a plain COPY of the same rows into activity_records (the
 * floor, one transaction per 1,000, foreign-key checks and triggers as the table has them), so both see the same load;
 * then the same batches again (every record a duplicate); then the same for contest entries (kind `contest` of a
 * running contest: the ref check per record and the contest_scores trigger per statement, on both sides). Prints
 * records/s and µs per record of each (target ≥ 10,000 records/s for new records), and the process's CPU time per
 * batch beside it (PGlite runs in this process, so that is the work itself, whatever else loads the machine). Run: npm run bench -- ingest
 * [batches=20]. Asserts nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { buildApp } from '../../server/app';
import { migrateDb, openDb, type Db } from '../../server/db/client';
import { schoolYearOf } from '../../server/db/school-year-partitions';
import { contestScores, contests } from '../../server/db/schema/contests';
import { orgs } from '../../server/db/schema/orgs';
import { students } from '../../server/db/schema/school';
import { devices } from '../../server/db/schema/venue';
import { seedDemo } from '../../server/seed/demo';
import { parseEnv } from '../../server/env';
import { hashSecret } from '../../server/lib/tokens';
import { copyLines, withBulkTransaction } from '../../server/modules/physique-results/bulk-session';

const BATCHES = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 20);
const PER_BATCH = 1000;
const line = (label: string, value: string) => console.log(`  ${label.padEnd(58)} ${value}`);
const rate = (n: number, ms: number) => `${Math.round((n / ms) * 1000).toLocaleString('en-US')} records/s  ${((ms * 1000) / n).toFixed(1)} µs/record  (${(ms / 1000).toFixed(2)} s)`;
/** CPU time of this process (PGlite runs in it), less swayed by other processes' load than the wall clock. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const ITEMS = ['ropeFree', 'running', 'jumpingJack', 'plank'] as const;
const COPY_COLUMNS = ['org_id', 'student_id', 'class_id', 'kind', 'ref_id', 'item', 'value', 'measured_at', 'school_year', 'source', 'device_id', 'client_id'];

interface Rec {
  clientId: string;
  studentId: string;
  kind: 'exercise' | 'contest';
  refId?: string;
  item: string;
  value: number;
  measuredAt: string;
}

async function main() {
  console.log(`ingest benchmark: ${BATCHES} batches × ${PER_BATCH} records (PGlite)`);
  const dir = await mkdtemp(join(tmpdir(), 'tiyu-bench-ingest-'));
  const handle = await openDb({ pgliteDir: join(dir, 'pglite') });
  try {
    await migrateDb(handle);
    await seedDemo(handle.db);
    const db: Db = handle.db;
    const [org] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).limit(1);
    const [device] = await db.select().from(devices).where(and(eq(devices.orgId, org.id), isNotNull(devices.activatedAt))).limit(1);
    await db.update(devices).set({ secretHash: hashSecret('bench-secret'), status: 'online' }).where(eq(devices.id, device.id));
    const roster = await db.select({ id: students.id, classId: students.classId }).from(students).where(and(eq(students.orgId, org.id), eq(students.status, 'studying'), eq(students.enabled, true)));
    const classOf = new Map(roster.map((s) => [s.id, s.classId]));
    const day = (msAgo: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(Date.now() - msAgo));
    const [contest] = await db
      .insert(contests)
      .values({ orgId: org.id, type: 'rank', name: '基准测试赛', startDate: day(7 * 86_400_000), endDate: day(0), items: ['rope1min'], rule: 'best' })
      .returning({ id: contests.id });
    const now = Date.now();
    const make = (prefix: string, kind: Rec['kind']) =>
      Array.from({ length: BATCHES }, (_, b) =>
        Array.from({ length: PER_BATCH }, (_, i): Rec => {
          const n = b * PER_BATCH + i;
          const student = roster[n % roster.length].id;
          const measuredAt = new Date(now - (n % 5000) * 60_000).toISOString();
          return kind === 'contest'
            ? { clientId: `${prefix}-${n}`, studentId: student, kind, refId: contest.id, item: 'rope1min', value: 60 + ((n * 7919) % 180), measuredAt }
            : { clientId: `${prefix}-${n}`, studentId: student, kind, item: ITEMS[n % ITEMS.length], value: 10 + (n % 500), measuredAt };
        }),
      );
    const app = await buildApp({ db, env: parseEnv({ NODE_ENV: 'test', WEB_DIST: '/nonexistent' }) });
    const authorization = `Basic ${Buffer.from(`${device.serialNo}:bench-secret`).toString('base64')}`;
    const post = async (records: readonly Rec[]) => {
      const res = await app.inject({ method: 'POST', url: '/api/v1/device/records', headers: { authorization }, payload: { records } });
      if (res.statusCode !== 200) throw new Error(`batch failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
      const data = res.json<{ data: { accepted: number; duplicate: number; rejected: number; results: { code?: string }[] } }>().data;
      if (data.rejected > 0) throw new Error(`records rejected: ${data.results.find((r) => r.code)?.code}`);
      return data;
    };
    // The floor: the same rows as plain COPY text (no HTTP, no checks of our own), with client ids of their own.
    const copy = (part: readonly Rec[]) =>
      withBulkTransaction(db, (session) =>
        session.copyIn(
          'activity_records',
          COPY_COLUMNS,
          copyLines(part, (r) => [org.id, r.studentId, classOf.get(r.studentId), r.kind, r.refId ?? null, r.item, r.value, r.measuredAt, schoolYearOf(Date.parse(r.measuredAt)), 'device', device.id, `copy-${r.clientId}`]),
        ),
      );
    /** Each batch through the API, then the same rows by COPY: the two share the machine's load batch by batch. */
    const interleaved = async (label: string, batches: Rec[][]) => {
      let apiMs = 0;
      let copyMs = 0;
      let apiCpu = 0;
      let copyCpu = 0;
      let accepted = 0;
      for (const b of batches) {
        let t = performance.now();
        let c = cpuMs();
        accepted += (await post(b)).accepted;
        apiMs += performance.now() - t;
        apiCpu += cpuMs() - c;
        t = performance.now();
        c = cpuMs();
        await copy(b);
        copyMs += performance.now() - t;
        copyCpu += cpuMs() - c;
      }
      const perBatch = (ms: number) => `${(ms / batches.length).toFixed(1)} ms CPU per 1,000`;
      line(`${label}: new records through POST /api/v1/device/records`, `${rate(accepted, apiMs)}  ${perBatch(apiCpu)}  (target ≥ 10,000/s)`);
      line(`${label}: floor, COPY of the same rows, one transaction per 1,000`, `${rate(batches.length * PER_BATCH, copyMs)}  ${perBatch(copyCpu)}`);
      line(`${label}: API ÷ floor (per record; CPU)`, `${(apiMs / copyMs).toFixed(2)}×; ${(apiCpu / copyCpu).toFixed(2)}×`);
    };
    try {
      await post([{ ...make('warm-up', 'exercise')[0][0] }]);
      const exercise = make('bench', 'exercise');
      await interleaved('exercise', exercise);
      const t0 = performance.now();
      let duplicate = 0;
      for (const b of exercise) duplicate += (await post(b)).duplicate;
      line('exercise: the same batches resent (all duplicates)', rate(duplicate, performance.now() - t0));

      await interleaved('contest', make('contest', 'contest'));
      // contest_scores must equal a recomputation from the entries (API and COPY rows alike).
      const [check] = await db.execute<{ stored: number; recomputed: number }>(sql`
        select (select sum(sessions)::int from ${contestScores} where contest_id = ${contest.id}) as stored,
          (select count(*)::int from activity_records where kind = 'contest' and ref_id = ${contest.id} and not invalid) as recomputed`).then((r) => r.rows);
      line('contest: sessions in contest_scores / entries stored', `${check.stored} / ${check.recomputed}`);
    } finally {
      await app.close();
    }
  } finally {
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
