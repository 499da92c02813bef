import { inArray, sql, type SQL } from 'drizzle-orm';
import { ACTIVITY_ITEMS } from '@/domain/activities/items';
import { type PlanStatus } from '@/domain/test-plans/status';
import { ORG_TIME_ZONE } from '@/domain/dates';
import { inClassScope, type ClassScope } from '../../lib/data-scope';

/**
 * SQL shared by homework and special training (docs/product-rules.md#homework): a task row aliased `h` with
 * `cycle`, `start_date`, `end_date`, `ended_at`; periods, what is due at a day, whether a value reaches its target.
 * The same rules as periodIndex / periodsDue / reachesTarget in src/domain/homework/homework.ts.
 */

/** The calendar day in China of an instant column. */
export const localDay = (instant: SQL): SQL => sql`(${instant} at time zone ${ORG_TIME_ZONE})::date`;

/** Period index (0 = first) of a day within the task `h`. */
export const periodOfDay = (day: SQL): SQL =>
  sql`(case h.cycle when 'once' then 0 when 'daily' then (${day} - h.start_date) else (${day} - h.start_date) / 7 end)`;

/** Periods of `h` due at `today` (YYYY-MM-DD): through today, the last day or the early end, whichever is first. */
export const periodsDueSql = (today: string): SQL => {
  const last = sql`least(${today}::date, h.end_date, coalesce(${localDay(sql`h.ended_at`)}, h.end_date))`;
  return sql`(case when ${last} < h.start_date then 0 else ${periodOfDay(last)} + 1 end)`;
};

const lowerIsBetter = [...ACTIVITY_ITEMS.values()].filter((i) => i.lowerIsBetter).map((i) => i.key);

/** The value of record `r` reaches target `target` of its item (times: at most the target). */
export const reachesSql = (target: SQL): SQL =>
  sql`(case when r.item in (${sql.join(
    lowerIsBetter.map((k) => sql`${k}`),
    sql`, `,
  )}) then r.value <= ${target} else r.value >= ${target} end)`;

/** Status condition of `h` at `today`: the same rule as planStatus. */
export function statusSql(status: PlanStatus, today: string): SQL {
  if (status === 'ended') return sql`(h.ended_at is not null or h.end_date < ${today}::date)`;
  if (status === 'notStarted') return sql`(h.ended_at is null and h.start_date > ${today}::date)`;
  return sql`(h.ended_at is null and h.start_date <= ${today}::date and h.end_date >= ${today}::date)`;
}

/** The class-scope condition inside a raw-SQL statement (`true` when unlimited): data-scope's one rule. */
export const classScopeSql = (scope: ClassScope, column: SQL): SQL => inClassScope(scope, column) ?? sql`true`;

/** `in (…)` of uuids, `false` when empty. */
export const inIds = (column: SQL, ids: readonly string[]): SQL => (ids.length === 0 ? sql`false` : inArray(column, [...ids]));
