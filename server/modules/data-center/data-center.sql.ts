import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { BmiCounts, Indicators, ItemStats, LevelCounts } from '@/domain/data-center/types';
import type { ScoreLevel } from '@/domain/physique/level';
import type { BmiBand, ItemKey } from '@/domain/physique/standard';
import { ITEM_COLUMNS } from '@/domain/physique-results/wide-row';
import { dcRollups } from '../../db/schema/data-center';
import { physiqueResults } from '../../db/schema/physique';
import { onServer, type DbOrTx, type DbRawResult } from '../../db/client';
import { sha256Hex } from '../../lib/password';
import { countsInAggregates } from '../physique-results/physique-results.sql';

/**
 * SQL building blocks of the data-centre views: the period's results (one row per student: their latest valid
 * result) and the aggregate columns every population (school, grade, class, gender, year) is described by. Column
 * names come from the Drizzle table, so a renamed column breaks the type check instead of a dashboard.
 */

const COLS = getTableColumns(physiqueResults);
const name = (key: keyof typeof COLS): string => COLS[key].name;

export interface ItemSql {
  item: ItemKey;
  raw: string;
  score: string;
  level: string;
  bonus: string | null;
}
export const ITEM_SQL: readonly ItemSql[] = ITEM_COLUMNS.map((c) => ({
  item: c.item,
  raw: name(c.raw),
  score: name(c.score),
  level: name(c.level),
  bonus: c.bonus ? name(c.bonus) : null,
}));

export const LEVELS: readonly ScoreLevel[] = ['excellent', 'good', 'pass', 'fail'];
export const BMI_BANDS: readonly BmiBand[] = ['normal', 'lowWeight', 'overweight', 'obese'];

/** Every column of physique_results the views read (all of them but bookkeeping). */
const RESULT_COLUMNS: readonly string[] = [
  'id',
  'org_id',
  'plan_id',
  'student_id',
  'class_id',
  'grade_no',
  'gender',
  'tested_on',
  'height_cm',
  'weight_kg',
  ...ITEM_SQL.flatMap((c) => [c.raw, c.score, c.level, ...(c.bonus ? [c.bonus] : [])]),
  'standard_score',
  'bonus',
  'total',
  'level',
  'complete',
];
/**
 * What the distributions (five numbers and histograms) read: every item's score and raw value and the total. These
 * columns, with the keys of periodResults, are the INCLUDE list of physique_results_org_grade_idx, so a grade's
 * distributions are an index-only read of that grade's entries instead of its heap rows (migration 0012; the index also
 * includes `exempt`, which countsInAggregates reads: migration custom SQL exemption_rollups).
 */
export const DISTRIBUTION_COLUMNS: readonly string[] = ['student_id', 'class_id', 'gender', 'grade_no', ...ITEM_SQL.flatMap((c) => [c.raw, c.score]), 'total'];
// Fail at start-up (not in a dashboard) if the table and these lists drift apart.
for (const c of [...RESULT_COLUMNS, ...DISTRIBUTION_COLUMNS]) if (!Object.values(COLS).some((col) => col.name === c)) throw new Error(`physique_results has no column ${c}`);

/** A plan of the period: id, school year (start year) and start date (the latest plan wins for a student). */
export interface PlanRef {
  id: string;
  orgId: string;
  schoolYear: number;
  startDate: string;
}

/** Filters that narrow the results themselves (the period is given by the plans). */
export interface ResultFilters {
  gradeNo?: number;
  classId?: string;
  gender?: 'male' | 'female';
  collegeId?: string;
  majorId?: string;
  /** The viewer's data scope (docs/product-rules.md#data-scopes): only these classes; empty matches nothing. */
  classIds?: readonly string[];
}

const dialect = new PgDialect();

/**
 * The name a view's statement is prepared under on PostgreSQL: one per text. node-postgres prepares a named statement
 * once per connection and then sends only its name and parameters; PostgreSQL keeps its parse tree and, after five
 * runs, a generic plan. The k12 school view so took about half the backend CPU (docs/decisions/008-dashboards-from-rollups.md). The texts are few: one per view, filter combination and number of plans or classes. On PGlite the
 * client prepares every statement itself (server/db/pglite-statements.ts), so there they run as they are.
 */
export const statementName = (text: string): string => `dc_${sha256Hex(text).slice(0, 32)}`;

/** The rows of a view's statement, named on PostgreSQL (statementName). */
export async function viewRows<T = AggRow>(db: DbOrTx, query: SQL): Promise<T[]> {
  if (!onServer(db)) return (await db.execute<T & Record<string, unknown>>(query)).rows;
  const q = dialect.sqlToQuery(query);
  const prepared = db._.session.prepareQuery<{ execute: DbRawResult<T>; all: unknown; values: unknown }>(q, undefined, statementName(q.sql), false);
  return (await prepared.execute()).rows;
}

/**
 * The rows of several statements of a view in one statement and one round trip: each part's rows as a json array (a
 * missing part: none). Fields come back as the drivers read them from text (json carries every number in the same
 * text as the row protocol), so callers read them as they read viewRows' rows. A view's statements of one school take
 * ≈ 1 ms each in PostgreSQL; sending each on its own connection cost more than running them (a socket write and a
 * backend woken each, their rows decoded one field at a time: docs/decisions/008-dashboards-from-rollups.md).
 */
export async function viewParts<K extends string>(db: DbOrTx, parts: Record<K, SQL | null>): Promise<Record<K, AggRow[]>> {
  const keys = Object.keys(parts) as K[];
  const present = keys.filter((k) => parts[k] !== null);
  const out = Object.fromEntries(keys.map((k) => [k, [] as AggRow[]])) as Record<K, AggRow[]>;
  if (!present.length) return out;
  const columns = present.map((k) => sql`(select coalesce(json_agg(x), '[]'::json) from (${parts[k]}) x) as ${sql.identifier(k)}`);
  const [row] = await viewRows<Record<K, unknown>>(db, sql`select ${sql.join(columns, sql`, `)}`);
  for (const k of present) {
    const v = row?.[k];
    out[k] = (typeof v === 'string' ? JSON.parse(v) : (v ?? [])) as AggRow[];
  }
  return out;
}

/** A query builder's rows, named on PostgreSQL like viewRows. */
export async function viewSelect<T>(db: DbOrTx, query: PromiseLike<T[]> & { toSQL(): { sql: string }; prepare(name: string): { execute(): Promise<T[]> } }): Promise<T[]> {
  return onServer(db) ? query.prepare(statementName(query.toSQL().sql)).execute() : query;
}

export const idList = (ids: readonly string[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/** Whether some organisation has two plans in one group (so a student could have two results there). */
export function needsDedupe(plans: readonly PlanRef[], byYear: boolean): boolean {
  const seen = new Set<string>();
  for (const p of plans) {
    const key = byYear ? `${p.orgId}:${p.schoolYear}` : p.orgId;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** Conditions on the columns of `table` (physique_results or dc_rollups: same names for class, grade and gender). */
export function resultFilterSql(f: ResultFilters, table = 'physique_results'): SQL[] {
  const t = sql.raw(table);
  const out: SQL[] = [];
  if (f.gradeNo !== undefined) out.push(sql`${t}.grade_no = ${f.gradeNo}`);
  if (f.classId) out.push(sql`${t}.class_id = ${f.classId}::uuid`);
  if (f.gender) out.push(sql`${t}.gender = ${f.gender}`);
  if (f.collegeId) out.push(sql`${t}.class_id in (select id from classes where college_id = ${f.collegeId}::uuid)`);
  if (f.majorId) out.push(sql`${t}.class_id in (select id from classes where major_id = ${f.majorId}::uuid)`);
  if (f.classIds) out.push(f.classIds.length ? sql`${t}.class_id in (${idList(f.classIds)})` : sql`false`);
  return out;
}

/**
 * `select …` of the valid results of `plans` in `orgIds` matching the filters, one row per student (per student and
 * school year with `perYear`): their latest result. Adds `school_year` and `plan_start` columns. Only when an
 * organisation has several plans in a group is DISTINCT ON needed; otherwise every student has one row already.
 */
export function periodResults(opts: {
  orgIds: readonly string[];
  plans: readonly PlanRef[];
  filters?: ResultFilters;
  perYear?: boolean;
  extra?: SQL[];
  /** The columns to read (default: RESULT_COLUMNS); fewer let a covering index answer alone. */
  columns?: readonly string[];
}): SQL {
  const { orgIds, plans, perYear = false } = opts;
  if (plans.length === 0 || orgIds.length === 0) throw new Error('periodResults: no plans');
  const values = sql.join(
    plans.map((p) => sql`(${p.id}::uuid, ${p.schoolYear}::int, ${p.startDate}::date)`),
    sql`, `,
  );
  // Dates as text: drivers would turn them into Date objects at a time zone's midnight.
  const columns = sql.raw((opts.columns ?? RESULT_COLUMNS).map((c) => (c === 'tested_on' ? 'physique_results.tested_on::text as tested_on' : `physique_results.${c}`)).join(', '));
  // The plans' school years as constants: the planner reads only those years' partitions (docs/decisions/064-partitions-by-school-year.md).
  const years = sql.raw([...new Set(plans.map((p) => Number(p.schoolYear)))].join(', '));
  const where = sql.join(
    [sql`physique_results.org_id in (${idList(orgIds)})`, sql`physique_results.school_year in (${years})`, countsInAggregates, ...resultFilterSql(opts.filters ?? {}), ...(opts.extra ?? [])],
    sql` and `,
  );
  const from = sql`from physique_results join (values ${values}) as p(id, school_year, plan_start) on p.id = physique_results.plan_id where ${where}`;
  if (!needsDedupe(plans, perYear)) return sql`select ${columns}, p.school_year, p.plan_start ${from}`;
  return perYear
    ? sql`select distinct on (physique_results.student_id, p.school_year) ${columns}, p.school_year, p.plan_start ${from} order by physique_results.student_id, p.school_year, p.plan_start desc, p.id desc`
    : sql`select distinct on (physique_results.student_id) ${columns}, p.school_year, p.plan_start ${from} order by physique_results.student_id, p.plan_start desc, p.id desc`;
}

const q = (alias: string) => `"${alias}"`;

/** The aggregate columns describing a population of rows `r` (one per student). */
export function aggregateColumns(r = 'r'): SQL {
  return sql.raw(aggregateColumnList(r).join(',\n  '));
}

function aggregateColumnList(r: string): string[] {
  const parts: string[] = [
    `count(*)::int as tested`,
    `count(${r}.total)::int as assessed`,
    ...LEVELS.map((l) => `(count(*) filter (where ${r}.level = '${l}'))::int as ${q(`lv_${l}`)}`),
    `avg(${r}.total)::float8 as mean_total`,
    ...BMI_BANDS.map((b) => `(count(*) filter (where ${r}.bmi_level = '${b}'))::int as ${q(`bmi_${b}`)}`),
  ];
  for (const c of ITEM_SQL) {
    parts.push(
      `count(${r}.${c.score})::int as ${q(`${c.item}_n`)}`,
      `avg(${r}.${c.score})::float8 as ${q(`${c.item}_mean`)}`,
      `(count(*) filter (where ${r}.${c.level} = 'excellent'))::int as ${q(`${c.item}_exc`)}`,
      `(count(*) filter (where ${r}.${c.level} = 'fail'))::int as ${q(`${c.item}_fail`)}`,
    );
  }
  return parts;
}

/** The aggregate columns rankFields() reads; the others (BMI bands, per-item figures) are DETAIL_COLUMNS. */
export const RANK_COLUMNS: readonly string[] = ['tested', 'assessed', ...LEVELS.map((l) => `lv_${l}`), 'mean_total'];
export const DETAIL_COLUMNS: readonly string[] = [...BMI_BANDS.map((b) => `bmi_${b}`), ...ITEM_SQL.flatMap((c) => ['n', 'mean', 'exc', 'fail'].map((k) => `${c.item}_${k}`))];

export type AggRow = Record<string, unknown>;

const int = (v: unknown): number => (v == null ? 0 : Number(v));
const float = (v: unknown): number | null => (v == null ? null : Number(v));
/** Means of scores and totals: one decimal (docs/product-rules.md#physique-scoring: totals to one decimal). */
export const round1 = (v: number | null): number | null => (v == null || !Number.isFinite(v) ? null : Math.round(v * 10) / 10);
/** Rates: fractions with 4 decimals. */
export const rate = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

export function emptyIndicators(students: number | null): Indicators {
  return indicatorsOf({}, students);
}

/** Indicators of an aggregate row; `students` is the roster (null where none is defined). */
export function indicatorsOf(row: AggRow, students: number | null): Indicators {
  const tested = int(row.tested);
  const assessed = int(row.assessed);
  const levels = Object.fromEntries(LEVELS.map((l) => [l, int(row[`lv_${l}`])])) as LevelCounts;
  const bmi = Object.fromEntries(BMI_BANDS.map((b) => [b, int(row[`bmi_${b}`])])) as BmiCounts;
  return {
    students,
    tested,
    assessed,
    participationRate: students == null ? null : rate(tested, students),
    levels,
    levelRates: Object.fromEntries(LEVELS.map((l) => [l, rate(levels[l], assessed)])) as Record<ScoreLevel, number | null>,
    ...headlineRates(levels.excellent, levels.good, levels.fail, assessed),
    meanTotal: round1(float(row.mean_total)),
    bmi,
  };
}

/** 优秀率, 优良率 and 及格率 of `assessed` students (docs/product-rules.md#physique-scoring). */
function headlineRates(excellent: number, good: number, fail: number, assessed: number): { excellentRate: number | null; goodRate: number | null; passRate: number | null } {
  return { excellentRate: rate(excellent, assessed), goodRate: rate(excellent + good, assessed), passRate: rate(assessed - fail, assessed) };
}

export function itemStatsOf(row: AggRow): ItemStats {
  const out: ItemStats = {};
  for (const c of ITEM_SQL) {
    const n = int(row[`${c.item}_n`]);
    if (n === 0) continue;
    const isBmi = c.item === 'bmi';
    out[c.item] = {
      n,
      meanScore: round1(float(row[`${c.item}_mean`])),
      excellentRate: isBmi ? null : rate(int(row[`${c.item}_exc`]), n),
      failRate: isBmi ? null : rate(int(row[`${c.item}_fail`]), n),
    };
  }
  return out;
}

/** `aggregate row → figures` helpers for answers that rank units. */
export function rankFields(row: AggRow): { tested: number; assessed: number; meanTotal: number | null; excellentRate: number | null; goodRate: number | null; passRate: number | null } {
  // Read straight from the row, not through indicatorsOf: a school's hundreds of class rows need none of its level,
  // BMI and level-rate objects.
  const assessed = int(row.assessed);
  return {
    tested: int(row.tested),
    assessed,
    meanTotal: round1(float(row.mean_total)),
    ...headlineRates(int(row.lv_excellent), int(row.lv_good), int(row.lv_fail), assessed),
  };
}

/** Ranks rows by mean total, best first; rows without a mean come last, unranked. Ties share a rank. */
export function assignRanks<T extends { meanTotal: number | null; rank: number | null; name: string }>(rows: T[]): T[] {
  rows.sort((a, b) => (b.meanTotal ?? -1) - (a.meanTotal ?? -1) || a.name.localeCompare(b.name, 'zh'));
  let prev: number | null = null;
  let rank = 0;
  rows.forEach((r, i) => {
    if (r.meanTotal == null) {
      r.rank = null;
      return;
    }
    if (r.meanTotal !== prev) rank = i + 1;
    prev = r.meanTotal;
    r.rank = rank;
  });
  return rows;
}

/** A population of the views as rows `r` and the aggregate columns that describe it. */
export interface Population {
  src: SQL;
  agg: SQL;
  /** From the rollups: the counter columns (every aggregate of `agg` is a sum of them), so rows can be added up first. */
  counters?: readonly string[];
  /** population(): the plans read from the per-student rows (the others from their rollups). */
  rowPlanIds?: readonly string[];
}

/** The counter columns of dc_rollups: everything but the key and the organisation. */
const ROLLUP_COUNTERS: readonly string[] = Object.values(getTableColumns(dcRollups))
  .map((c) => c.name)
  .filter((n) => !['plan_id', 'class_id', 'grade_no', 'gender', 'org_id'].includes(n));

/** Filters only the class rollups can apply (they name classes). */
export const namesClasses = (f: ResultFilters): boolean => f.classId !== undefined || f.classIds !== undefined || f.collegeId !== undefined || f.majorId !== undefined;

/**
 * The plans whose students may have two results in the period: those of an organisation with two plans in one group
 * (the organisation, or the organisation and school year with `byYear`). Every other plan is its organisation's only
 * one in its group, so each of its students has one result there and its rollups are exact.
 */
export function plansNeedingRows(plans: readonly PlanRef[], byYear: boolean): Set<string> {
  const groups = new Map<string, PlanRef[]>();
  for (const p of plans) {
    const key = byYear ? `${p.orgId}:${p.schoolYear}` : p.orgId;
    const list = groups.get(key);
    if (list) list.push(p);
    else groups.set(key, [p]);
  }
  return new Set([...groups.values()].filter((list) => list.length > 1).flatMap((list) => list.map((p) => p.id)));
}

/**
 * The period's population for aggregates, chosen per plan group: the plans of an organisation with two plans in one
 * group (a student could have a result in each) are read from the per-student rows (only they can keep each student's
 * latest result); every other plan from its rollups. When both kinds are present, the deduplicated rows are added up
 * into rollup rows with the triggers' counters (rowsAsRollups) and read with the rollup rows, so one school's second
 * plan costs that school's rows, not every school's. With `bySchool` (the caller neither groups nor filters by class)
 * and no class filter, the rollups are dc_school_rollups (per plan × grade × gender, ≈ 4× fewer rows than dc_rollups'
 * per class); else dc_rollups. `where` adds conditions on the columns the sources share (class_id, grade_no, gender),
 * given the source's table name; it keeps the class rollups.
 */
export function population(opts: {
  orgIds: readonly string[];
  plans: readonly PlanRef[];
  filters?: ResultFilters;
  perYear?: boolean;
  bySchool?: boolean;
  where?: (table: string) => SQL[];
}): Population {
  const { orgIds, plans, perYear = false } = opts;
  const filters = opts.filters ?? {};
  const needRows = plansNeedingRows(plans, perYear);
  const rowPlans = plans.filter((p) => needRows.has(p.id));
  const rollupPlans = plans.filter((p) => !needRows.has(p.id));
  const rows = () => periodResults({ orgIds, plans: rowPlans, filters, perYear, extra: opts.where?.('physique_results'), columns: ROLLUP_SOURCE_COLUMNS });
  if (rollupPlans.length === 0) {
    return { src: periodResults({ orgIds, plans, filters, perYear, extra: opts.where?.('physique_results') }), agg: aggregateColumns(), rowPlanIds: plans.map((p) => p.id) };
  }
  const table = opts.bySchool && !opts.where && !namesClasses(filters) ? 'dc_school_rollups' : 'dc_rollups';
  const rollups = rollupRows(table, orgIds, rollupPlans, [...resultFilterSql(filters, table), ...(opts.where?.(table) ?? [])]);
  return {
    src: rowPlans.length ? sql`${rollups} union all ${rowsAsRollups(table, rows())}` : rollups,
    agg: rollupAggregateColumns(),
    counters: ROLLUP_COUNTERS,
    rowPlanIds: rowPlans.map((p) => p.id),
  };
}

/** The key columns of a rollup table's rows in population(): what the callers group and filter by. */
const rollupKeys = (table: 'dc_rollups' | 'dc_school_rollups'): string[] => (table === 'dc_rollups' ? ['plan_id', 'class_id', 'grade_no', 'gender', 'org_id'] : ['plan_id', 'grade_no', 'gender', 'org_id']);

/** Rollup rows (of dc_rollups or dc_school_rollups) of `plans` in `orgIds` with the plan's `school_year` and `plan_start`. */
function rollupRows(table: 'dc_rollups' | 'dc_school_rollups', orgIds: readonly string[], plans: readonly PlanRef[], conds: SQL[]): SQL {
  if (plans.length === 0 || orgIds.length === 0) throw new Error('rollupRows: no plans');
  const values = sql.join(
    plans.map((p) => sql`(${p.id}::uuid, ${p.schoolYear}::int, ${p.startDate}::date)`),
    sql`, `,
  );
  const t = sql.raw(table);
  // The plan ids as a list too, so the planner walks the primary key (plan_id first) to exactly the period's rows.
  const where = sql.join([sql`${t}.plan_id in (${idList(plans.map((p) => p.id))})`, sql`${t}.org_id in (${idList(orgIds)})`, ...conds], sql` and `);
  // Named columns (not *), in the order rowsAsRollups gives them, so the two can be one union.
  const columns = sql.raw([...rollupKeys(table), ...ROLLUP_COUNTERS].map((c) => `${table}.${c}`).join(', '));
  return sql`select ${columns}, p.school_year, p.plan_start from ${t} join (values ${values}) as p(id, school_year, plan_start) on p.id = ${t}.plan_id where ${where}`;
}

/** What rowsAsRollups reads of each result: the rollup keys and what the counters count. */
const ROLLUP_SOURCE_COLUMNS: readonly string[] = ['plan_id', 'class_id', 'grade_no', 'gender', 'org_id', 'total', 'level', ...ITEM_SQL.flatMap((c) => [c.score, c.level])];

/**
 * Each counter of dc_rollups as an aggregate of result rows `d`, as the triggers count them (migration custom SQL
 * exemption_rollups, dc_rollup_insert): results left out (invalid, exempt) are not among the rows already.
 */
function rollupCounterOf(counter: string): string {
  const level = LEVELS.find((l) => counter === `lv_${l}`);
  if (level) return `count(*) filter (where d.level = '${level}')`;
  const band = BMI_BANDS.find((b) => BMI_COLUMN[b] === counter);
  if (band) return `count(*) filter (where d.bmi_level = '${band}')`;
  if (counter === 'tested') return 'count(*)';
  if (counter === 'assessed') return 'count(d.total)';
  if (counter === 'total_x10') return 'coalesce(sum(round(d.total * 10)::bigint), 0)';
  for (const c of ITEM_SQL) {
    const p = rollupPrefix(c);
    if (counter === `${p}_n`) return `count(d.${c.score})`;
    if (counter === `${p}_sum`) return `coalesce(sum(d.${c.score}), 0)`;
    if (counter === `${p}_exc`) return `count(*) filter (where d.${c.level} = 'excellent')`;
    if (counter === `${p}_fail`) return `count(*) filter (where d.${c.level} = 'fail')`;
  }
  throw new Error(`dc_rollups counter ${counter} has no definition from the results`);
}

/**
 * Per-student result rows `results` (periodResults, one a student) added up into rows shaped like `table`'s in
 * rollupRows (same columns, types and order), keyed by their plan, so they join a union with rollup rows.
 */
function rowsAsRollups(table: 'dc_rollups' | 'dc_school_rollups', results: SQL): SQL {
  const keys = [...rollupKeys(table), 'school_year', 'plan_start'];
  const counters = ROLLUP_COUNTERS.map((c) => `(${rollupCounterOf(c)})::${c === 'total_x10' ? 'bigint' : 'int'} as ${c}`);
  const select = [...rollupKeys(table).map((k) => `d.${k}`), ...counters, 'd.school_year', 'd.plan_start'].join(', ');
  return sql`select ${sql.raw(select)} from (${results}) d group by ${sql.raw(keys.map((k) => `d.${k}`).join(', '))}`;
}

/** Item column prefix in dc_rollups (`run_50m` of `run_50m_score`). */
const rollupPrefix = (c: ItemSql): string => c.score.slice(0, -'_score'.length);
const BMI_COLUMN: Record<BmiBand, string> = { normal: 'bmi_normal', lowWeight: 'bmi_low_weight', overweight: 'bmi_overweight', obese: 'bmi_obese' };

/** The columns of aggregateColumns() (same names, same meaning) as sums of rollup rows `r`. */
export function rollupAggregateColumns(r = 'r'): SQL {
  return sql.raw(rollupAggregateColumnList(r).join(',\n  '));
}

function rollupAggregateColumnList(r: string): string[] {
  const parts: string[] = [
    `coalesce(sum(${r}.tested), 0)::int as tested`,
    `coalesce(sum(${r}.assessed), 0)::int as assessed`,
    ...LEVELS.map((l) => `coalesce(sum(${r}.lv_${l}), 0)::int as ${q(`lv_${l}`)}`),
    // Σ(total × 10) is exact, so the mean is one correctly rounded division.
    `(sum(${r}.total_x10)::float8 / nullif(10 * sum(${r}.assessed), 0)) as mean_total`,
    ...BMI_BANDS.map((b) => `coalesce(sum(${r}.${BMI_COLUMN[b]}), 0)::int as ${q(`bmi_${b}`)}`),
  ];
  for (const c of ITEM_SQL) {
    const p = rollupPrefix(c);
    parts.push(
      `coalesce(sum(${r}.${p}_n), 0)::int as ${q(`${c.item}_n`)}`,
      `(sum(${r}.${p}_sum)::float8 / nullif(sum(${r}.${p}_n), 0)) as ${q(`${c.item}_mean`)}`,
      `coalesce(sum(${r}.${p}_exc), 0)::int as ${q(`${c.item}_exc`)}`,
      `coalesce(sum(${r}.${p}_fail), 0)::int as ${q(`${c.item}_fail`)}`,
    );
  }
  return parts;
}

// Fail at start-up (not in a ranking) if the aggregate columns and RANK_COLUMNS + DETAIL_COLUMNS drift apart.
for (const list of [aggregateColumnList('r'), rollupAggregateColumnList('r')]) {
  const names = list.map((part) => /as "?([a-z0-9_]+)"?$/i.exec(part)?.[1]).sort();
  if (names.join() !== [...RANK_COLUMNS, ...DETAIL_COLUMNS].sort().join()) throw new Error('data-centre aggregate columns differ from RANK_COLUMNS + DETAIL_COLUMNS');
}

// Fail at start-up (not in a dashboard) if a rollup counter has no definition from the results, or the results lack a
// column it reads.
for (const c of ROLLUP_COUNTERS) rollupCounterOf(c);
for (const c of ROLLUP_SOURCE_COLUMNS) if (!Object.values(COLS).some((col) => col.name === c)) throw new Error(`physique_results has no column ${c}`);
