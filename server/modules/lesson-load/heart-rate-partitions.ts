import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { DAY_MS, DAY_PARTITION_LOCK, dayOf, dropDayPartition, dueDayPartitions, ensureDayPartitions as ensureTableDays, ensureDaysAhead } from '../../db/day-partitions';

/**
 * The day partitions of heart_rate_samples (migration 0045, docs/decisions/047-heart-rate-storage.md) and their
 * retention: the ingest makes sure a day's partition exists before it writes the day, and the retention job drops the
 * days past TIYU_HEART_RATE_RAW_DAYS. Per-minute aggregates (heart_rate_minutes) and lesson figures (lesson_loads)
 * stay for good.
 */

/** The UTC day (YYYY-MM-DD) of an instant: partitions are UTC days. */
export const utcDay = (ms: number) => dayOf('heart_rate_samples', ms);

/**
 * Makes sure the days' partitions exist before the ingest writes them (server/db/day-partitions.ts, shared with the
 * access log); a day whose rows already sit in the DEFAULT partition keeps them there.
 */
export const ensureDayPartitions = (db: Db, days: Iterable<string>): Promise<void> => ensureTableDays(db, 'heart_rate_samples', days);

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
    await tx.execute(sql`select pg_advisory_xact_lock(${DAY_PARTITION_LOCK})`);
    // A partition holds one UTC day; it goes when its whole day is before the cutoff.
    const due = await dueDayPartitions(tx, 'heart_rate_samples', cutoff);
    for (const p of due) await dropDayPartition(tx, db, 'heart_rate_samples', p.day);
    const gone = await tx.execute<{ n: number }>(sql`with d as (delete from heart_rate_samples_default where at < ${cutoff.toISOString()}::timestamptz returning 1) select count(*)::int as n from d`);
    const keys = await tx.execute<{ n: number }>(sql`with d as (delete from heart_rate_dropped where at < ${cutoff.toISOString()}::timestamptz returning 1) select count(*)::int as n from d`);
    return { partitions: due.map((p) => p.name), defaultRows: Number(gone.rows[0].n), droppedKeys: Number(keys.rows[0].n), cutoff: cutoff.toISOString() };
  });
  await ensureDaysAhead(db, now);
  return result;
}
