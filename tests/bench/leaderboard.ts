/**
 * Contest leaderboard latency (docs/product-rules.md#contests): a contest with `--records` entries (1,000,000 by
 * default) from every student of the demo's K12 school, on PGlite and on PostgreSQL; p50/p95 of the student and the
 * class leaderboard (the service call the route makes: one SQL statement over contest_scores), each beside a floor
 * measured in the same run — reading the contest's roll-up rows once by its primary key — and beside the same board
 * aggregated from the raw entries (what the roll-up saves). Prints numbers; asserts nothing.
 *
 *   npx tsx tests/bench/leaderboard.ts [--records 1000000] [--engines pglite,postgres] [--iterations 40]
 *   bash scripts/with-postgres.sh npx tsx tests/bench/leaderboard.ts --engines postgres
 *
 * PostgreSQL runs only with DATABASE_URL (a database `tiyu_bench_leaderboard` is created and dropped).
 * Targets: p95 < 50 ms on PostgreSQL and < 150 ms on PGlite at 1,000,000 entries.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { and, eq, sql } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { createDatabase, dropDatabase, withDatabase } from '../../server/db/admin';
import { migrateDb, openDb, type Db, type DbHandle } from '../../server/db/client';
import { contestScores, contests } from '../../server/db/schema/contests';
import { orgs } from '../../server/db/schema/orgs';
import { users } from '../../server/db/schema/auth';
import { seedDemo } from '../../server/seed/demo';
import { classLeaderboard, studentLeaderboard, type ContestReader } from '../../server/modules/contests/contests.service';
import type { Actor } from '../../server/plugins/tenant';
import { timeRuns } from './lib/timing';

type Engine = 'pglite' | 'postgres';
const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: process.env.BENCH_QUICK === '1' ? '100000' : '1000000' },
    engines: { type: 'string', default: 'pglite,postgres' },
    iterations: { type: 'string', default: '40' },
    quick: { type: 'boolean', default: false },
  },
});
const records = args.quick ? 100_000 : Number(args.records);
const iterations = Number(args.iterations);


/** The demo, a running contest of the K12 school, and `n` entries spread over its students and two weeks (one INSERT … SELECT, so the roll-up trigger runs set-wise). */
async function prepare(db: Db, n: number): Promise<{ contestId: string; reader: ContestReader }> {
  await seedDemo(db);
  const [school] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).limit(1);
  const [user] = await db.select({ id: users.id }).from(users).limit(1);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  const start = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(Date.now() - 14 * 86_400_000));
  const [c] = await db
    .insert(contests)
    .values({ orgId: school.id, type: 'rank', name: '基准测试赛', startDate: start, endDate: today, items: ['rope1min'], rule: 'best' })
    .returning({ id: contests.id });
  // Seeded in SQL (generate_series), in slices of 200,000 so no statement's transition table holds all entries. The
  // students are picked from one array by position: a join on `i = g % n` cannot hash and ran as a nested loop
  // (100,000 entries took 270 s on PGlite). Replica mode skips the per-row foreign-key checks (the rows name
  // existing students, classes and the user); the contest_scores triggers are ENABLE ALWAYS and run per slice.
  const t = performance.now();
  const SLICE = 200_000;
  for (let from = 0; from < n; from += SLICE) {
    const to = Math.min(n, from + SLICE) - 1;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('session_replication_role', 'replica', true) where current_setting('is_superuser') = 'on'`);
      await tx.execute(sql`
        with s as (select array_agg(id order by id) as ids, array_agg(class_id order by id) as classes, count(*)::int as n from students where org_id = ${school.id})
        insert into activity_records (org_id, student_id, class_id, kind, ref_id, item, value, measured_at, school_year, source, submitted_by, client_id, invalid)
        select ${school.id}, s.ids[g % s.n + 1], s.classes[g % s.n + 1], 'contest', ${c.id}, 'rope1min', 60 + (g::bigint * 7919) % 180,
          t.at, extract(year from (t.at at time zone 'Asia/Shanghai') - interval '7 months')::int, 'app', ${user.id}, 'bench-' || g, g % 97 = 0
        from s, generate_series(${from}::int, ${to}::int) g, lateral (select now() - ((g % 1209600) || ' seconds')::interval as at) t`);
    });
  }
  console.log(`  ${n.toLocaleString('en')} entries inserted (roll-up by trigger) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await db.execute(sql`analyze activity_records`);
  await db.execute(sql`analyze contest_scores`);
  const actor = { tenantOrgId: school.id, userId: user.id } as Actor;
  return { contestId: c.id, reader: { actor, family: 'k12', now: new Date(), classScope: { all: true } } };
}

async function run(engine: Engine, handle: DbHandle): Promise<void> {
  const { db } = handle;
  await migrateDb(handle);
  const { contestId, reader } = await prepare(db, records);
  const [{ participants }] = await db.select({ participants: sql<number>`count(*)::int` }).from(contestScores).where(eq(contestScores.contestId, contestId));
  const cases: [string, () => Promise<unknown>][] = [
    ['leaderboard by student (top 200)', () => studentLeaderboard(db, reader, contestId, { by: 'student', item: undefined })],
    ['leaderboard by class', () => classLeaderboard(db, reader, contestId, { by: 'class', item: undefined })],
    ['floor: read the roll-up rows once', () => db.select({ v: contestScores.maxValue }).from(contestScores).where(and(eq(contestScores.contestId, contestId), eq(contestScores.item, 'rope1min')))],
    [
      'before: best per student from the raw entries',
      () =>
        db.execute(
          sql`select student_id, max(value) as best, rank() over (order by max(value) desc) from activity_records where kind = 'contest' and ref_id = ${contestId} and item = 'rope1min' and not invalid group by student_id order by 3 limit 200`,
        ),
    ],
  ];
  console.log(`\n${engine}: ${records.toLocaleString('en')} entries, ${participants} participants`);
  for (const [name, fn] of cases) {
    const r = await timeRuns(fn, iterations);
    console.log(`  ${name.padEnd(50)} p50 ${r.p50.toFixed(1).padStart(7)} ms   p95 ${r.p95.toFixed(1).padStart(7)} ms`);
  }
}

for (const engine of args.engines.split(',') as Engine[]) {
  if (engine === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), 'tiyu-bench-leaderboard-'));
    const handle = await openDb({ pgliteDir: dir });
    try {
      await run(engine, handle);
    } finally {
      await handle.close();
      await rm(dir, { recursive: true, force: true });
    }
  } else {
    const base = process.env.DATABASE_URL;
    if (!base) {
      console.log('\npostgres: skipped (no DATABASE_URL; run through scripts/with-postgres.sh)');
      continue;
    }
    const name = 'tiyu_bench_leaderboard';
    await dropDatabase(base, name);
    await createDatabase(base, name);
    const handle = await openDb({ databaseUrl: withDatabase(base, name), poolMax: 4 });
    try {
      await run(engine, handle);
    } finally {
      await handle.close();
      await dropDatabase(base, name);
    }
  }
}
