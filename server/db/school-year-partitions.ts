import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { INGEST_MAX_AGE_DAYS } from '@/domain/activities/ingest';
import { releaseAuditPartition, sealAuditChains } from '../lib/audit-chain';
import type { Db, Tx } from './client';

/**
 * Tables partitioned by school year (docs/decisions/064-partitions-by-school-year.md): one partition
 * `<table>_sy<start year>` per school year and a `<table>_default` partition for rows outside them. The operation log
 * is keyed by its instant (1 August in China to the next 1 August, the product's school year,
 * docs/product-rules.md#school-years), the physique results by their plan's school year (`school_year`, its start
 * year), the activity records by the school year of their `measured_at` (`school_year`, its start year). The
 * partitions of the current and next school year are made ahead (here, by the scheduled job); an ended year can be
 * detached for archive (`npm run db:detach-school-year`).
 */
export const SCHOOL_YEAR_PARTITIONED = ['audit_logs', 'physique_results', 'activity_records'] as const;
export type SchoolYearTable = (typeof SCHOOL_YEAR_PARTITIONED)[number];

/** One advisory lock for every change to these partitions (creating, detaching), so instances never race on them. */
const PARTITION_LOCK = 7_461_302_064;
/** China keeps UTC+8 all year. */
const CHINA_OFFSET_MS = 8 * 3_600_000;

/** The start year of the school year an instant falls in (2026 for 2026-2027: 1 Aug 2026 to 31 Jul 2027, China days). */
export function schoolYearOf(ms: number): number {
  const local = new Date(ms + CHINA_OFFSET_MS);
  return local.getUTCMonth() >= 7 ? local.getUTCFullYear() : local.getUTCFullYear() - 1;
}

/** The start years of the school years from one instant to another (both included), oldest first. */
export function schoolYearsBetween(fromMs: number, toMs: number): number[] {
  const years: number[] = [];
  for (let y = schoolYearOf(fromMs); y <= schoolYearOf(toMs); y += 1) years.push(y);
  return years;
}

/**
 * `column` within school years `from`..`to` (`to` null: from `from` on) as constants in the statement, so PostgreSQL
 * prunes the other years' partitions when it plans it (docs/decisions/064-partitions-by-school-year.md): `= year`,
 * `in (…)` or `>= year`.
 */
export function schoolYearsSql(column: SQLWrapper, from: number, to: number | null): SQL {
  if (!Number.isInteger(from) || (to !== null && !Number.isInteger(to))) throw new Error(`school years ${from}..${to}`);
  if (to === null) return sql`${column} >= ${sql.raw(String(from))}`;
  if (to <= from) return sql`${column} = ${sql.raw(String(from))}`;
  return sql`${column} in (${sql.raw(schoolYearsBetween(Date.UTC(from, 8), Date.UTC(to, 8)).join(', '))})`;
}

/** The partition of one school year. */
export const partitionName = (table: SchoolYearTable, startYear: number) => `${table}_sy${startYear}`;

/**
 * Makes sure the partitions of the current school year and the next exist for every table (a year ahead, so the turn
 * of the year never writes into the default partition). A year whose rows already sit in the default partition keeps
 * them there (the partition could not be attached over them): answered as null. Safe on every instance at once.
 */
export async function ensureSchoolYearPartitions(db: Db, now: Date): Promise<{ table: SchoolYearTable; startYear: number; partition: string | null }[]> {
  const year = schoolYearOf(now.getTime());
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`);
    const made: { table: SchoolYearTable; startYear: number; partition: string | null }[] = [];
    for (const table of SCHOOL_YEAR_PARTITIONED) {
      for (const startYear of [year, year + 1]) {
        const { rows } = await tx.execute<{ name: string | null }>(sql`select tiyu_school_year_partition(${table}, ${startYear}::int) as name`);
        made.push({ table, startYear, partition: rows[0].name });
      }
    }
    return made;
  });
}

/** A table's school-year partitions, oldest first, with their row counts. */
export async function schoolYearPartitions(db: Db, table: SchoolYearTable): Promise<{ partition: string; startYear: number; rows: number }[]> {
  const { rows } = await db.execute<{ name: string }>(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = ${table}::regclass and c.relname ~ ${`^${table}_sy[0-9]{4}$`} order by c.relname`);
  const out: { partition: string; startYear: number; rows: number }[] = [];
  for (const { name } of rows) {
    const n = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(name)}`);
    out.push({ partition: name, startYear: Number(name.slice(-4)), rows: Number(n.rows[0].n) });
  }
  return out;
}

/**
 * Detaches an ended school year's partition for archive: the rows leave the table the product reads (every other year
 * stays as it was) and stay in a plain table of the same name, to be dumped (`pg_dump -t`) and dropped by the operator
 * (docs/deploy.md, "Partitions by school year"). The current and next school years cannot be detached (the product
 * writes there). For the operation log, the year's rows must be the oldest of each chain and sealed; each chain then
 * starts after them (as after a retention purge, docs/decisions/061-retention-and-data-requests.md), so verification
 * stays intact. For the physique results, their logs go with them (`physique_result_logs_sy<year>`, same rows of
 * `physique_result_logs`), and the year's plans leave the rollups the data centre and the score list read, so every
 * figure agrees with the rows that remain. Answers the detached table and its rows.
 */
export async function detachSchoolYear(db: Db, table: SchoolYearTable, startYear: number, now: Date): Promise<{ partition: string; rows: number }> {
  if (startYear >= schoolYearOf(now.getTime())) throw new Error(`school year ${startYear}-${startYear + 1} has not ended`);
  // The ingest still accepts records measured up to INGEST_MAX_AGE_DAYS ago: their year stays attached until then, or
  // they would land in the default partition.
  if (table === 'activity_records' && startYear >= schoolYearOf(now.getTime() - INGEST_MAX_AGE_DAYS * 86_400_000)) {
    throw new Error(`school year ${startYear}-${startYear + 1} still takes records (${INGEST_MAX_AGE_DAYS} days after its end)`);
  }
  const partition = partitionName(table, startYear);
  if (table === 'audit_logs') await sealAuditChains(db);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`);
    const { rows: found } = await tx.execute<{ ok: boolean }>(sql`
      select true as ok from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass and c.relname = ${partition}`);
    if (found.length === 0) throw new Error(`${partition} is not a partition of ${table}`);
    if (table === 'audit_logs') await releaseAuditPartition(tx, partition);
    if (table === 'physique_results') await releasePhysiquePartition(tx, partition, startYear);
    if (table === 'activity_records') await releaseActivityPartition(tx, startYear);
    const n = await tx.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(partition)}`);
    const contests =
      table === 'activity_records'
        ? (
            await tx.execute<{ keys: string | null }>(sql`
              select jsonb_agg(jsonb_build_object('c', ref_id, 'i', item, 's', student_id))::text as keys
                from (select distinct ref_id, item, student_id from ${sql.identifier(partition)} where kind = 'contest' and ref_id is not null) k`)
          ).rows[0].keys
        : null;
    await tx.execute(sql`alter table ${sql.identifier(table)} detach partition ${sql.identifier(partition)}`);
    // The contest boards the year's entries fed, recomputed from the entries that remain (what deleting them would do).
    if (contests) await tx.execute(sql`select contest_scores_recompute(${contests}::jsonb)`);
    // A detach fires no row trigger: the read caches hear of it from here (the whole table changed).
    if (table !== 'audit_logs') await tx.execute(sql`select pg_notify('tiyu_changes', ${table})`);
    return { partition, rows: Number(n.rows[0].n) };
  });
}

/**
 * What must go before a year of activity records is detached: the homework reviews of its records (the reference would
 * refuse the detach) into `homework_reviews_sy<year>` for the same dump, and the year out of the participation counts
 * (the district overview), as deleting the rows would have done; the contest boards are recomputed after the detach.
 */
async function releaseActivityPartition(tx: Tx, startYear: number): Promise<void> {
  const reviews = `homework_reviews_sy${startYear}`;
  await tx.execute(sql`create table ${sql.identifier(reviews)} as select * from homework_reviews where school_year = ${startYear}`);
  await tx.execute(sql`delete from homework_reviews where school_year = ${startYear}`);
  await tx.execute(sql`delete from activity_participation where school_year = ${startYear}`);
  await tx.execute(sql`delete from activity_participation_counts where school_year = ${startYear}`);
}

/**
 * What must go before a year of physique results is detached: their logs (the reference would refuse the detach) into
 * `physique_result_logs_sy<year>` for the same dump, and the year's plans out of the rollups (dc_rollups, whose
 * triggers follow into the school rollups, the grade distributions and the score list's counts), as deleting the rows
 * would have done.
 */
async function releasePhysiquePartition(tx: Tx, partition: string, startYear: number): Promise<void> {
  const logs = `physique_result_logs_sy${startYear}`;
  await tx.execute(sql`create table ${sql.identifier(logs)} as select * from physique_result_logs where school_year = ${startYear}`);
  await tx.execute(sql`delete from physique_result_logs where school_year = ${startYear}`);
  const plans = sql`select distinct plan_id from ${sql.identifier(partition)}`;
  await tx.execute(sql`delete from dc_rollups where plan_id in (${plans})`);
  await tx.execute(sql`delete from dc_grade_distributions where plan_id in (${plans})`);
  await tx.execute(sql`delete from physique_result_counts where plan_id in (${plans})`);
}
