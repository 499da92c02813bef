/**
 * What the change feed costs a bulk write (migrations 0035_changes and 0036_changes_by_org; docs/performance.md): a COPY
 * of `--rows` rows into three copies of one table with `org_id` (40 organisations under one bureau), side by side in
 * the same run, on PGlite and (with DATABASE_URL) PostgreSQL:
 *   no trigger            the floor: the same COPY into the bare table
 *   0035 statement        the plain statement trigger (one notification with the table's name)
 *   0036 by organisation  the per-event triggers with transition tables that notify the rows' organisations
 * and an UPDATE of every row. `--capturing` first gives every copy a trigger that already captures its new rows (a
 * no-op), as physique_results and students have for their rollups: the rows are captured once per statement whichever
 * triggers need them, so that shows what the feed adds to the score import. Median of `--runs`. Asserts nothing.
 *
 *   npx tsx tests/bench/change-feed.ts [--rows 50000] [--runs 5] [--capturing]
 *   npm run bench -- change-feed
 *   bash scripts/with-postgres.sh npm run bench -- change-feed        (PostgreSQL too)
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '50000' },
    runs: { type: 'string', default: '5' },
    capturing: { type: 'boolean', default: false },
  },
});
const N = Number(args.rows);
const RUNS = Number(args.runs);
const MIGRATIONS = resolve(import.meta.dirname, '../../server/db/migrations');
/** A migration's statements, without its call that adds triggers to every table of the schema. */
const statements = (file: string) =>
  readFileSync(join(MIGRATIONS, file), 'utf8')
    .split('--> statement-breakpoint')
    .filter((s) => !/SELECT tiyu_ensure_change_triggers/.test(s));
const orgs = Array.from({ length: 40 }, (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`);
// One school's import, with a few rows of another (as a bureau's import of several schools would have).
const csv = Array.from({ length: N }, (_, i) => `${crypto.randomUUID()},${orgs[i % 39 === 0 ? 2 : 1]},${i},${(i * 7) % 100},name ${i}`).join('\n') + '\n';
const TABLES = ['r_none', 'r_stmt', 'r_rows'] as const;

async function run(label: string, q: (s: string) => Promise<unknown>, copy: (table: string) => Promise<void>): Promise<void> {
  // A schema of its own: DATABASE_URL may name a database with the app's own tables and functions.
  await q(`drop schema if exists bench_change_feed cascade`);
  await q(`create schema bench_change_feed`);
  await q(`set search_path = bench_change_feed`);
  await q(`create table orgs (id uuid primary key, parent_id uuid)`);
  await q(`create index on orgs (parent_id)`);
  await q(`insert into orgs values ('${orgs[0]}', null)${orgs
    .slice(1)
    .map((o) => `, ('${o}', '${orgs[0]}')`)
    .join('')}`);
  for (const t of TABLES) await q(`create table ${t} (id uuid primary key, org_id uuid not null, n int, s int, name text)`);
  for (const s of statements('0035_changes.sql')) await q(s);
  await q(`create trigger tiyu_changed after insert or update or delete or truncate on r_stmt for each statement execute function tiyu_changed()`);
  for (const s of statements('0036_changes_by_org.sql')) await q(s);
  for (const ev of ['insert', 'update', 'delete']) {
    const ref = ev === 'insert' ? 'new table as tiyu_new' : ev === 'delete' ? 'old table as tiyu_old' : 'old table as tiyu_old new table as tiyu_new';
    await q(`create trigger tiyu_changed_${ev} after ${ev} on r_rows referencing ${ref} for each statement execute function tiyu_changed_rows()`);
  }
  if (args.capturing) {
    await q(`create function bench_noop() returns trigger language plpgsql as $f$ begin return null; end $f$`);
    for (const t of TABLES) await q(`create trigger keep_rollups after insert on ${t} referencing new table as new_rows for each statement execute function bench_noop()`);
  }
  const times: Record<string, number[]> = { r_none: [], r_stmt: [], r_rows: [] };
  for (let i = 0; i < RUNS; i++) {
    // Interleaved, so a change in the machine's load falls on all three alike.
    for (const t of TABLES) {
      await q(`truncate ${t}`);
      const start = performance.now();
      await copy(t);
      times[t].push(performance.now() - start);
    }
  }
  const update: Record<string, number> = {};
  for (const t of TABLES) {
    const start = performance.now();
    await q(`update ${t} set s = s + 1`);
    update[t] = performance.now() - start;
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const [none, stmt, rows] = TABLES.map((t) => median(times[t]));
  console.log(
    `  ${label.padEnd(10)} COPY ${N} rows${args.capturing ? ' (rows already captured)' : ''}, median of ${RUNS}: no trigger ${none.toFixed(0)} ms, 0035 statement ${stmt.toFixed(0)} ms (${(stmt / none).toFixed(2)}×), 0036 by organisation ${rows.toFixed(0)} ms (${(rows / none).toFixed(2)}×, ${(rows / stmt).toFixed(2)}× 0035); UPDATE of every row ${update.r_none.toFixed(0)} / ${update.r_stmt.toFixed(0)} / ${update.r_rows.toFixed(0)} ms`,
  );
}

async function main(): Promise<void> {
  console.log(`change-feed bench: ${N} rows, ${RUNS} runs`);
  const lite = new PGlite();
  try {
    await run('PGlite', (s) => lite.exec(s), async (t) => void (await lite.query(`copy ${t} from '/dev/blob' with (format csv)`, [], { blob: new Blob([csv]) })));
  } finally {
    await lite.close();
  }
  if (!process.env.DATABASE_URL) return console.log('  PostgreSQL: skipped (no DATABASE_URL; bash scripts/with-postgres.sh npm run bench -- change-feed)');
  const client = new pg.Client(process.env.DATABASE_URL);
  await client.connect();
  try {
    await run(
      'PostgreSQL',
      (s) => client.query(s),
      (t) =>
        new Promise<void>((ok, fail) => {
          const stream = client.query(copyFrom(`copy ${t} from stdin with (format csv)`));
          stream.on('finish', ok);
          stream.on('error', fail);
          stream.end(csv);
        }),
    );
  } finally {
    await client.query(`drop schema if exists bench_change_feed cascade`).catch(() => {});
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
