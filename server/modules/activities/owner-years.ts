import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { CLOCK_SKEW_MS, INGEST_MAX_AGE_DAYS } from '@/domain/activities/ingest';
import { dayStart } from '@/domain/contests/contests';
import { ORG_TIME_ZONE } from '@/domain/dates';
import { schoolYearOf, schoolYearsSql } from '../../db/school-year-partitions';

/**
 * The school years an owner's records (`activity_records.ref_id`) can be in, so a read by owner names them and reads
 * only those partitions (docs/decisions/064-partitions-by-school-year.md). The ref checks accept a record only inside
 * its owner's dates as they were when it arrived (ref-checks.ts); a record arriving up to INGEST_MAX_AGE_DAYS late
 * (a device offline, an app submission) is still inside them. So:
 * - a contest, homework or training plan never edited: the years of its first to its last day (an early end only
 *   narrows the window, the planned last day still bounds what came before it);
 * - one whose dates were edited (a version beyond its creation and early end: only an owner not yet ended can be
 *   edited): records accepted under its former dates may lie outside its current ones, so from the earlier of its
 *   first day and INGEST_MAX_AGE_DAYS before its creation (no record arrived before the owner existed) on, every
 *   year after;
 * - a lesson: from its start less the clock skew on (its start never changes; a close, repeatable, can move its end
 *   before records already taken).
 * `to` null: no upper bound.
 */
export interface RecordYears {
  from: number;
  to: number | null;
}

export interface DatedOwner {
  startDate: string;
  endDate: string;
  endedAt: Date | string | null;
  createdAt: Date | string;
  version: number;
}

/** Versions a dated owner has without an edit: 1 at creation, one more for an early end. */
const editedSql = (o: string) => sql.raw(`(${o}.version > case when ${o}.ended_at is null then 1 else 2 end)`);
const AGE_MS = INGEST_MAX_AGE_DAYS * 86_400_000;

export function datedOwnerYears(o: DatedOwner): RecordYears {
  const first = schoolYearOf(dayStart(o.startDate).getTime());
  const last = schoolYearOf(dayStart(o.endDate).getTime());
  if (o.version <= (o.endedAt ? 2 : 1)) return { from: first, to: last };
  return { from: Math.min(first, schoolYearOf(new Date(o.createdAt).getTime() - AGE_MS)), to: null };
}

export function lessonYears(startedAt: Date): RecordYears {
  return { from: schoolYearOf(startedAt.getTime() - CLOCK_SKEW_MS), to: null };
}

/** The years of several owners at once (a page of them): from the first's first year to the last's last. */
export function yearsOfAll(owners: readonly RecordYears[]): RecordYears {
  return {
    from: Math.min(...owners.map((o) => o.from)),
    to: owners.some((o) => o.to === null) ? null : Math.max(...owners.map((o) => o.to ?? 0)),
  };
}

/** `column` in those years, as constants (pruned when the statement is planned). */
export const inRecordYears = (column: SQLWrapper, years: RecordYears): SQL => schoolYearsSql(column, years.from, years.to);

/** The school year of a date or instant in SQL: the same rule as `schoolYearOf` and the partitions' CHECK. */
const yearSql = (at: string) => `extract(year from (${at}) - interval '7 months')::int`;

/**
 * `column` in the years of the dated owner row `o` (an alias with start_date, end_date, ended_at, created_at, version)
 * of the outer query, for a per-row subquery (a list's counts): the same bounds as datedOwnerYears, from the row, so
 * PostgreSQL prunes per row when it runs the subquery.
 */
export function inDatedOwnerYearsSql(column: SQLWrapper, o: string): SQL {
  const edited = editedSql(o);
  const first = sql.raw(yearSql(`${o}.start_date`));
  const created = sql.raw(yearSql(`(${o}.created_at - interval '${INGEST_MAX_AGE_DAYS} days') at time zone '${ORG_TIME_ZONE}'`));
  const last = sql.raw(yearSql(`${o}.end_date`));
  return sql`${column} between (case when ${edited} then least(${first}, ${created}) else ${first} end) and (case when ${edited} then 32767 else ${last} end)`;
}

/** `column` in the years of the lesson row `o` of the outer query (see lessonYears). */
export function inLessonYearsSql(column: SQLWrapper, o: string): SQL {
  return sql`${column} >= ${sql.raw(yearSql(`(${o}.started_at - interval '${CLOCK_SKEW_MS / 1000} seconds') at time zone '${ORG_TIME_ZONE}'`))}`;
}
