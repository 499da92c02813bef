import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/**
 * The day partitions of heart_rate_samples (migration 0045, docs/decisions/047-heart-rate-storage.md) and their
 * retention: the ingest makes sure a day's partition exists before it writes the day, and the retention job drops the
 * days past TIYU_HEART_RATE_RAW_DAYS. Per-minute aggregates (heart_rate_minutes) and lesson figures (lesson_loads)
 * stay for good.
 */

/** One advisory lock for every change to the partitions (creating, dropping), so instances never race on them. */
const PARTITION_LOCK = 7_461_302_047;
const DAY_MS = 86_400_000;

/** The UTC day (YYYY-MM-DD) of an instant: partitions are UTC days. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Days whose partition this process made sure of, per database (tests run many databases in one process). */
const ensured = new WeakMap<Db, Set<string>>();

/**
 * Makes sure the days' partitions exist (once per day per process; committed before the caller writes, so a rolled
 * back batch never leaves a day believed partitioned). A day whose rows already sit in the DEFAULT partition (written
 * before its partition existed) keeps them there: creating the partition would fail on them; retention deletes them
 * from the default partition by time.
 */
export async function ensureDayPartitions(db: Db, days: Iterable<string>): Promise<void> {
  let known = ensured.get(db);
  if (!known) ensured.set(db, (known = new Set()));
  const missing = [...new Set(days)].filter((d) => !known.has(d)).sort();
  if (missing.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`);
    for (const day of missing) {
      await tx.execute(sql`
        select heart_rate_partition(${day}::date)
         where not exists (select 1 from heart_rate_samples_default
                            where at >= (${day}::date)::timestamp at time zone 'UTC' and at < (${day}::date + 1)::timestamp at time zone 'UTC')`);
    }
  });
  for (const d of missing) known.add(d);
}

export interface HeartRateRetentionResult {
  /** The day partitions dropped (heart_rate_samples_YYYYMMDD). */
  partitions: string[];
  /** Rows deleted from the default partition (days that had no partition of their own). */
  defaultRows: number;
  /** Dropped-sample keys deleted (heart_rate_dropped, kept as long as raw samples). */
  droppedKeys: number;
  /** The oldest instant still kept. */
  cutoff: string;
}

/**
 * Removes raw heart-rate samples older than `rawDays` days before `now`: whole day partitions that ended before the
 * cutoff, the default partition's older rows and the dropped-sample keys. Also makes today's and tomorrow's partitions
 * ahead of the first batch (creating one takes a brief lock on the table; better at night than at 08:00 in China,
 * which is UTC midnight). Safe on every instance at once (one advisory lock).
 */
export async function pruneHeartRateSamples(db: Db, now: Date, rawDays: number): Promise<HeartRateRetentionResult> {
  const cutoffMs = now.getTime() - rawDays * DAY_MS;
  const cutoff = new Date(cutoffMs);
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`);
    const { rows } = await tx.execute<{ name: string }>(sql`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
       where i.inhparent = 'heart_rate_samples'::regclass and c.relname ~ '^heart_rate_samples_[0-9]{8}$'`);
    const cutoffDay = utcDay(cutoffMs).replaceAll('-', '');
    // A partition holds one UTC day; it goes when its whole day is before the cutoff's day.
    const partitions = rows.map((r) => r.name).filter((name) => name.slice(-8) < cutoffDay).sort();
    for (const name of partitions) await tx.execute(sql.raw(`drop table if exists "${name}"`));
    const gone = await tx.execute<{ n: number }>(sql`with d as (delete from heart_rate_samples_default where at < ${cutoff.toISOString()}::timestamptz returning 1) select count(*)::int as n from d`);
    const keys = await tx.execute<{ n: number }>(sql`with d as (delete from heart_rate_dropped where at < ${cutoff.toISOString()}::timestamptz returning 1) select count(*)::int as n from d`);
    return { partitions, defaultRows: Number(gone.rows[0].n), droppedKeys: Number(keys.rows[0].n), cutoff: cutoff.toISOString() };
  });
  const known = ensured.get(db);
  for (const name of result.partitions) known?.delete(`${name.slice(-8, -4)}-${name.slice(-4, -2)}-${name.slice(-2)}`);
  await ensureDayPartitions(db, [utcDay(now.getTime()), utcDay(now.getTime() + DAY_MS)]);
  return result;
}
