import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from './client';

/**
 * Tables partitioned by day on their instant column `at` (docs/decisions/047-heart-rate-storage.md,
 * docs/decisions/062-access-log.md): one partition `<table>_YYYYMMDD` per day in the table's time zone, made ahead by
 * `tiyu_day_partition` (migration access_logs_day_partitions), plus `<table>_default` for anything before its day's
 * partition existed. Retention drops (or archives and drops) whole days.
 *
 * Raw heart-rate samples use UTC days (migration 0045); the access log uses China days, so an archived day is the day
 * an auditor names and the log's day filter reads one partition per day.
 */
export const DAY_PARTITIONED = {
  heart_rate_samples: { zone: 'UTC', offsetMs: 0 },
  // China keeps UTC+8 all year (ORG_TIME_ZONE, src/domain/dates.ts).
  access_logs: { zone: 'Asia/Shanghai', offsetMs: 8 * 3_600_000 },
} as const;
export type DayTable = keyof typeof DAY_PARTITIONED;

/** One advisory lock for every change to the day partitions (creating, dropping), so instances never race on them. */
export const DAY_PARTITION_LOCK = 7_461_302_047;
export const DAY_MS = 86_400_000;

/** The day (YYYY-MM-DD) of an instant in the table's time zone. */
export const dayOf = (table: DayTable, ms: number) => new Date(ms + DAY_PARTITIONED[table].offsetMs).toISOString().slice(0, 10);

/** The instants a day's partition covers: [from, to). */
export function dayBounds(table: DayTable, day: string): { from: Date; to: Date } {
  const from = Date.parse(`${day}T00:00:00Z`) - DAY_PARTITIONED[table].offsetMs;
  return { from: new Date(from), to: new Date(from + DAY_MS) };
}

/** A day's partition name. */
export const dayPartitionName = (table: DayTable, day: string) => `${table}_${day.replaceAll('-', '')}`;

/** Days whose partition this process made sure of, per database and table (tests run many databases in one process). */
const ensured = new WeakMap<Db, Map<DayTable, Set<string>>>();
const knownOf = (db: Db, table: DayTable) => {
  let tables = ensured.get(db);
  if (!tables) ensured.set(db, (tables = new Map()));
  let known = tables.get(table);
  if (!known) tables.set(table, (known = new Set()));
  return known;
};

/**
 * Makes sure the days' partitions exist (once per day per process; committed before the caller writes, so a rolled
 * back batch never leaves a day believed partitioned). A day whose rows already sit in the DEFAULT partition (written
 * before its partition existed) keeps them there: its partition is not made (retention removes them by time).
 */
export async function ensureDayPartitions(db: Db, table: DayTable, days: Iterable<string>): Promise<void> {
  const known = knownOf(db, table);
  const missing = [...new Set(days)].filter((d) => !known.has(d)).sort();
  if (missing.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DAY_PARTITION_LOCK})`);
    for (const day of missing) await tx.execute(sql`select tiyu_day_partition(${table}, ${day}::date, ${DAY_PARTITIONED[table].zone})`);
  });
  for (const d of missing) known.add(d);
}

/** Makes today's and tomorrow's partitions of every day-partitioned table (the hourly job, the retention run). */
export async function ensureDaysAhead(db: Db, now: Date): Promise<void> {
  for (const table of Object.keys(DAY_PARTITIONED) as DayTable[]) {
    await ensureDayPartitions(db, table, [dayOf(table, now.getTime()), dayOf(table, now.getTime() + DAY_MS)]);
  }
}

/** A table's day partitions, oldest first: name and day (YYYY-MM-DD). */
export async function dayPartitions(db: DbOrTx, table: DayTable): Promise<{ name: string; day: string }[]> {
  const { rows } = await db.execute<{ name: string }>(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = ${table}::regclass and c.relname ~ ${`^${table}_[0-9]{8}$`} order by c.relname`);
  return rows.map(({ name }) => ({ name, day: `${name.slice(-8, -4)}-${name.slice(-4, -2)}-${name.slice(-2)}` }));
}

/** The partitions whose whole day ended at or before `cutoff` (nothing of a day younger than the cutoff), oldest first. */
export async function dueDayPartitions(db: DbOrTx, table: DayTable, cutoff: Date): Promise<{ name: string; day: string }[]> {
  return (await dayPartitions(db, table)).filter((p) => dayBounds(table, p.day).to.getTime() <= cutoff.getTime());
}

/** Drops a day's partition (the caller holds DAY_PARTITION_LOCK in its transaction) and forgets it was made. */
export async function dropDayPartition(tx: DbOrTx, db: Db, table: DayTable, day: string): Promise<void> {
  await tx.execute(sql.raw(`drop table if exists "${dayPartitionName(table, day)}"`));
  knownOf(db, table).delete(day);
}
