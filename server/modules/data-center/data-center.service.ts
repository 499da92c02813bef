import { sql, type SQL } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { FALLING_TREND_MIN_DROP, SCORE_BUCKET_WIDTH, type DataCenterFilter, type StudentListQuery } from '@/domain/data-center/filters';
import { gradeInYear, rosterSize, type RosterGroup } from '@/domain/data-center/roster';
import type {
  ClassListView,
  ClassStudentRow,
  ClassView,
  DataCenterOptions,
  Distribution,
  FiveNumbers,
  GenderBreakdown,
  GradeBreakdown,
  GradeView,
  HistogramBucket,
  ItemStats,
  Period,
  RankRow,
  SchoolView,
  StudentHistoryRow,
  StudentListPage,
  StudentView,
  TrendPoint,
  UnitRow,
  ViewScope,
  WatchReason,
  WeakItem,
} from '@/domain/data-center/types';
import { ERR } from '@/domain/errors';
import type { ScoreLevel } from '@/domain/physique/level';
import type { Gender, ItemKey } from '@/domain/physique/standard';
import type { ItemResult } from '@/domain/physique-results/types';
import type { ItemLevel } from '@/domain/physique-results/wide-row';
import { onServer, type DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { containsPattern } from '../../lib/query';
import type { Family } from '@/domain/menus/access';
import { countsInAggregates } from '../physique-results/physique-results.sql';
import {
  academicYearOf,
  classInScope,
  resolvePeriod,
  resolveScope,
  resultFilters,
  rosterGroupsOf,
  rosterGroups,
  rosterQuery,
  schoolScopeAndPlans,
  scopePlans,
  type DcScope,
  type PlanInfo,
  type Viewer,
} from './data-center.scope';
import { scopedClassIds } from '../../lib/data-scope';
import {
  assignRanks,
  emptyIndicators,
  idList,
  indicatorsOf,
  namesClasses,
  ITEM_SQL,
  itemStatsOf,
  periodResults,
  DISTRIBUTION_COLUMNS,
  population,
  rankFields,
  RANK_COLUMNS,
  DETAIL_COLUMNS,
  resultFilterSql,
  round1,
  rollupAggregateColumns,
  type AggRow,
  type PlanRef,
  type Population,
  type ResultFilters,
  viewParts,
  viewRows as rows,
} from './data-center.sql';

/**
 * The data-centre views (docs/product-rules.md#data-centre: conventions): each answers one screen with a handful of set-based statements; a school's
 * school and grade views send them as two (scope and plans, then the rest: viewStatements), a district's run side by
 * side where the driver can. Aggregates add up the rollup rows (dc_rollups, per plan × class × grade × gender); only lists
 * of students, percentiles and a student's history read the per-student physique_results rows.
 */

const notFound = () => new AppError(404, ERR.notFound);

export type Dim = 'grade_no' | 'gender' | 'class_id' | 'org_id';

/**
 * A bureau-wide aggregate on PostgreSQL: in its own transaction without JIT (compiling these wide aggregates costs
 * more than it saves: ≈ 150 ms of a 500 ms statement at 200k students) and with room to sort grouping sets in memory.
 * PGlite has no JIT and runs one statement at a time, so there it is a plain statement.
 */
export async function heavyRows(db: DbOrTx, query: SQL): Promise<AggRow[]> {
  if (!onServer(db)) return rows(db, query);
  // Unnamed: a district's statements plan once per run, with the organisations and plans they are for.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('jit', 'off', true), set_config('work_mem', '32MB', true)`);
    return (await tx.execute<AggRow>(query)).rows;
  });
}

/**
 * Aggregates of a population over all of it (optional) and each dimension on its own, in one scan. With `rankOnly`,
 * the rows of that dimension carry only RANK_COLUMNS, and every other row carries its DETAIL_COLUMNS packed in one
 * float8[] `detail` (splitGroups unpacks it): PGlite copies and decodes every field of a result on its own (≈ 1 µs
 * each, a null included), and a school's hundreds of class rows need only their ranking figures, so the result is
 * ≈ 17 fields a row instead of ≈ 64 (docs/decisions/008-dashboards-from-rollups.md).
 */
export function groupedQuery({ src, agg, counters }: Population, dims: readonly Dim[], withTotal: boolean, opts: { rankOnly?: Dim } = {}): SQL {
  const sets = [...(withTotal ? ['()'] : []), ...dims.map((d) => `(r.${d})`)].join(', ');
  const select = [...dims.map((d) => `grouping(r.${d})::int as "g_${d}"`), ...dims.map((d) => `r.${d}`), 'min(r.grade_no)::int as unit_grade'].join(', ');
  const classJoin = dims.includes('class_id');
  const { rankOnly } = opts;
  const out = rankOnly
    ? [
        ...[...dims.map((d) => `g_${d}`), ...dims, 'unit_grade', ...RANK_COLUMNS].map((c) => `a."${c}"`),
        `case when a."g_${rankOnly}" = 0 then null else array[${DETAIL_COLUMNS.map((c) => `a."${c}"`).join(', ')}]::float8[] end as detail`,
      ].join(', ')
    : 'a.*';
  // Rollup rows are added up per combination of the dimensions first (a district's ≈ 15,000 class rows become one
  // per school, grade and gender), so the grouping sets sort a few thousand rows instead of every class's. Class
  // rollup rows are one per class, grade and gender already.
  const keys = [...new Set([...dims, 'grade_no'])];
  const rows = counters && !dims.includes('class_id')
    ? sql`r0 as (${src}), r as (select ${sql.raw([...keys, ...counters.map((c) => `sum(${c})::bigint as ${c}`)].join(', '))} from r0 group by ${sql.raw(keys.join(', '))})`
    : sql`r as (${src})`;
  return sql`with ${rows},
a as (select ${sql.raw(select)}, ${agg} from r group by grouping sets (${sql.raw(sets)}))
select ${sql.raw(out)}${sql.raw(classJoin ? ', c.name as class_name, c.org_id as class_org_id' : '')} from a${sql.raw(classJoin ? ' left join classes c on c.id = a.class_id' : '')}`;
}

interface Grouped {
  all: AggRow | null;
  by: Record<Dim, AggRow[]>;
}

/** Rows of groupedQuery by grouping set, a packed `detail` spread back into its DETAIL_COLUMNS. */
export function splitGroups(list: readonly AggRow[], dims: readonly Dim[]): Grouped {
  const out: Grouped = { all: null, by: { grade_no: [], gender: [], class_id: [], org_id: [] } };
  for (const row of list) {
    const detail = parseFloatArray(row.detail);
    if (detail) DETAIL_COLUMNS.forEach((c, i) => (row[c] = detail[i]));
    const dim = dims.find((d) => Number(row[`g_${d}`]) === 0);
    if (dim) out.by[dim].push(row);
    else out.all = row;
  }
  return out;
}

/** The same indicators per school year (same filters, every year), oldest first. */
function trendQuery(orgIds: readonly string[], plans: readonly PlanInfo[], filters: ResultFilters): SQL {
  const { src, agg } = population({ orgIds, plans, filters, perYear: true, bySchool: true });
  return sql`with r as (${src})
select r.school_year::int as school_year, ${agg} from r group by r.school_year order by r.school_year`;
}

function trendOf(list: readonly AggRow[], plans: readonly PlanInfo[], roster: readonly RosterGroup[], f: ResultFilters): TrendPoint[] {
  return list.map((row) => {
    const year = Number(row.school_year);
    return {
      schoolYear: year,
      academicYear: plans.find((p) => p.schoolYear === year)?.academicYear ?? academicYearOf(year),
      indicators: indicatorsOf(row, rosterSize(roster, year, { gradeNo: f.gradeNo, gender: f.gender })),
      items: itemStatsOf(row),
    };
  });
}

/** Items by mean score, weakest first (BMI is reported by its bands instead). */
export function weakestOf(items: ItemStats): WeakItem[] {
  const out: WeakItem[] = [];
  for (const [item, s] of Object.entries(items) as [ItemKey, NonNullable<ItemStats[ItemKey]>][]) {
    if (item === 'bmi' || s.meanScore == null) continue;
    out.push({ item, n: s.n, meanScore: s.meanScore, failRate: s.failRate });
  }
  return out.sort((a, b) => a.meanScore - b.meanScore || (b.failRate ?? 0) - (a.failRate ?? 0));
}

export function viewScope(scope: DcScope): ViewScope {
  return { orgId: scope.org.id, orgName: scope.org.name, schools: scope.schools };
}

export function appliedFilters(f: DataCenterFilter, scope: DcScope, period: Period): DataCenterFilter {
  return { ...f, orgId: scope.family === 'admin' ? f.orgId : undefined, schoolYear: period.schoolYear ?? undefined, semesterCode: f.planId ? undefined : f.semesterCode };
}

function unitRowOf(row: AggRow, dim: 'class_id' | 'org_id', scope: DcScope): RankRow {
  const isClass = dim === 'class_id';
  const id = String(row[dim]);
  const orgId = isClass ? String(row.class_org_id) : id;
  const orgName = scope.orgs.get(orgId)?.name ?? '';
  return {
    id,
    name: isClass ? String(row.class_name ?? '') : orgName,
    orgId,
    orgName,
    gradeNo: isClass && row.unit_grade != null ? Number(row.unit_grade) : null,
    ...rankFields(row),
    rank: null,
  };
}

function withDetail(row: AggRow, base: RankRow): UnitRow {
  const i = indicatorsOf(row, null);
  return { ...base, levels: i.levels, items: itemStatsOf(row) };
}

interface ViewContext {
  scope: DcScope;
  all: PlanInfo[];
  period: Period;
  plans: PlanInfo[];
  trendPlans: PlanInfo[];
}

export async function context(db: DbOrTx, family: Family, viewer: Viewer, f: DataCenterFilter): Promise<ViewContext> {
  if (family !== 'admin') {
    // A school's scope is its own organisation, known before it is read: its plans are read with it, in one statement.
    const { scope, all } = await schoolScopeAndPlans(db, family, viewer);
    return { scope, all, ...resolvePeriod(all, f) };
  }
  const scope = await resolveScope(db, family, viewer, f.orgId);
  const all = await scopePlans(db, scope.orgIds, scope.classScope);
  return { scope, all, ...resolvePeriod(all, f) };
}

const asOf = () => new Date().toISOString();

/**
 * A view's statements after its scope and period: one school's in one statement (viewParts: one round trip, the rows
 * as json); a district's each on its own (heavyRows: without JIT, on PostgreSQL side by side on the pool's connections,
 * where each reads thousands of rollup rows). The roster's few rows always go with the others.
 */
async function viewStatements<K extends string>(db: DbOrTx, scope: DcScope, parts: Record<K, SQL | null> & { roster: SQL }): Promise<Record<K | 'roster', AggRow[]>> {
  if (!scope.multiSchool) return viewParts(db, parts);
  const keys = Object.keys(parts) as K[];
  const heavy = keys.filter((k) => k !== 'roster');
  const [light, ...lists] = await Promise.all([viewParts(db, { roster: parts.roster }), ...heavy.map((k) => (parts[k] ? heavyRows(db, parts[k]) : Promise.resolve([])))]);
  return Object.fromEntries([...heavy.map((k, i) => [k, lists[i]]), ['roster', light.roster]]) as Record<K | 'roster', AggRow[]>;
}

/** `<alias>.<column> in (the viewer's classes)` when the viewer's data scope is limited (docs/product-rules.md#data-scopes). */
function inViewerClasses(scope: DcScope, alias: string, column = 'class_id'): SQL[] {
  const classIds = scopedClassIds(scope.classScope);
  if (!classIds) return [];
  return [classIds.length ? sql`${sql.raw(`${alias}.${column}`)} in (${idList(classIds)})` : sql`false`];
}

/** GET …/dataCenter/school: headline figures, by grade, by gender, trend, weakest items and the class (school) ranking. */
export async function schoolView(db: DbOrTx, family: Family, viewer: Viewer, f: DataCenterFilter): Promise<SchoolView> {
  const { scope, period, plans, trendPlans } = await context(db, family, viewer, f);
  const rf = resultFilters(f, scope);
  const unitDim: 'class_id' | 'org_id' = scope.multiSchool ? 'org_id' : 'class_id';
  const dims: Dim[] = ['grade_no', 'gender', unitDim];
  // The period's own year of the trend is the overview itself (same plans, same filters) unless one plan is chosen.
  const otherYears = period.planId ? trendPlans : trendPlans.filter((p) => p.schoolYear !== period.schoolYear);
  // The units (classes, or schools) only need their ranking figures.
  const { grouped, trend: trendRows, roster: rosterRows } = await viewStatements(db, scope, {
    grouped: plans.length ? groupedQuery(population({ orgIds: scope.orgIds, plans, filters: rf, bySchool: unitDim === 'org_id' }), dims, true, { rankOnly: unitDim }) : null,
    trend: otherYears.length ? trendQuery(scope.orgIds, otherYears, rf) : null,
    roster: rosterQuery(scope.orgIds, rf),
  });
  const roster = rosterGroupsOf(rosterRows);
  const g = splitGroups(grouped, dims);
  const year = period.schoolYear;
  if (!period.planId && year != null && g.all) {
    trendRows.push({ ...g.all, school_year: year });
    trendRows.sort((a, b) => Number(a.school_year) - Number(b.school_year));
  }
  const rosterOf = (opts: { gradeNo?: number; gender?: Gender }) =>
    year == null ? null : rosterSize(roster, year, { gradeNo: opts.gradeNo ?? rf.gradeNo, gender: opts.gender ?? rf.gender });
  const items = g.all ? itemStatsOf(g.all) : {};
  const byGrade: GradeBreakdown[] = g.by.grade_no
    .map((row) => ({ gradeNo: Number(row.grade_no), indicators: indicatorsOf(row, rosterOf({ gradeNo: Number(row.grade_no) })), items: itemStatsOf(row) }))
    .sort((a, b) => a.gradeNo - b.gradeNo);
  const byGender: GenderBreakdown[] = g.by.gender
    .map((row) => ({ gender: row.gender as Gender, indicators: indicatorsOf(row, rosterOf({ gender: row.gender as Gender })), items: itemStatsOf(row) }))
    .sort((a, b) => (a.gender === b.gender ? 0 : a.gender === 'male' ? -1 : 1));
  return {
    scope: viewScope(scope),
    period,
    filters: appliedFilters(f, scope, period),
    asOf: asOf(),
    overview: g.all ? indicatorsOf(g.all, rosterOf({})) : emptyIndicators(rosterOf({})),
    items,
    byGrade,
    byGender,
    trend: trendOf(trendRows, trendPlans, roster, rf),
    weakestItems: weakestOf(items),
    ranking: { unit: unitDim === 'org_id' ? 'school' : 'class', rows: assignRanks(g.by[unitDim].map((row) => unitRowOf(row, unitDim, scope))) },
  };
}

const BOX = [0, 0.25, 0.5, 0.75, 1];

/**
 * Five numbers and histogram of every item's scores (and of totals) in the population `src`, in one row: per item `k`,
 * n_k, the five numbers s_k (scores) and r_k (raw values of the scored results), and h_k, the counts of buckets 0…11.
 * The rows are read once; each item's scores are ordered once per five numbers (percentile_cont), and its histogram
 * is its bucket numbers collected in that pass (array_agg) and counted in a subquery. Counting each bucket with its own
 * FILTER aggregate (12 per item, 144 in all) evaluated 144 filters per row: ≈ 60 % of the statement (EXPLAIN ANALYZE,
 * docs/performance.md, grade view); exploding each result into a row per item cost ≈ 15× reading the rows. A bucket
 * is the same expression as before, so every count is the same.
 */
export function distributionQuery(src: SQL): SQL {
  const w = String(SCORE_BUCKET_WIDTH);
  const box = `array[${BOX.join(', ')}]::float8[]`;
  const items = [...ITEM_SQL.map((c) => ({ item: c.item as string, score: `r.${c.score}::float8`, raw: `r.${c.raw}::float8` })), { item: 'total', score: 'r.total::float8', raw: null }];
  const aggregates = items.flatMap(({ item, score, raw }, k) => {
    const last = item === 'total' ? 11 : 9;
    return [
      `count(${score})::int as "n_${k}"`,
      `percentile_cont(${box}) within group (order by ${score}) as "s_${k}"`,
      raw ? `percentile_cont(${box}) within group (order by ${raw}) filter (where ${score} is not null) as "r_${k}"` : `null::float8[] as "r_${k}"`,
      // least() skips nulls: a result without this score must not land in the last bucket (the filter leaves it out).
      `array_agg(least(floor(${score} / ${w})::int, ${last})) filter (where ${score} is not null) as "b_${k}"`,
    ];
  });
  // Buckets 0…11 in order, 0 where none (a bucket below 0 or above 11 is counted nowhere, as before).
  const columns = items.map(
    (_, k) =>
      `a."n_${k}", a."s_${k}", a."r_${k}", (select array_agg(coalesce(h.c, 0) order by i.i) from generate_series(0, 11) as i(i) left join (select b, count(*)::int as c from unnest(a."b_${k}") as u(b) group by b) h on h.b = i.i) as "h_${k}"`,
  );
  return sql`with r as (${src}), a as (select ${sql.raw(aggregates.join(',\n  '))} from r) select ${sql.raw(columns.join(',\n  '))} from a`;
}

/** The one row of `distributionQuery` as one row per item with scores: item, n, score5, raw5, h0…h11. */
function distributionRows(row: AggRow | undefined): AggRow[] {
  if (!row) return [];
  const items = [...ITEM_SQL.map((c) => c.item as string), 'total'];
  return items.flatMap((item, k) => {
    if (!Number(row[`n_${k}`])) return [];
    const out: AggRow = { item, n: row[`n_${k}`], score5: row[`s_${k}`], raw5: row[`r_${k}`] };
    const h = parseFloatArray(row[`h_${k}`]) ?? [];
    for (let i = 0; i < 12; i++) out[`h${i}`] = h[i] ?? 0;
    return [out];
  });
}

/** The distributions of a row of `distributionQuery` (none without one). */
export const distributionsOfRow = (row: AggRow | undefined): Distribution[] => distributionsOf(distributionRows(row));

/**
 * The stored distributions of the period's grade (dc_grade_distributions, kept by triggers: docs/decisions/008-dashboards-from-rollups.md),
 * one row per item, where they are the view's own: one plan, of a school in the scope, a grade, and no class filter (a
 * gender, or both). Else null: the view computes them from the rows (distributionQuery). With one plan every student
 * has one result in the period, so the plan's counted results are the period's.
 */
export function storedDistributionQuery(orgIds: readonly string[], plans: readonly PlanRef[], f: ResultFilters): SQL | null {
  if (plans.length !== 1 || f.gradeNo === undefined || namesClasses(f) || !orgIds.includes(plans[0].orgId)) return null;
  return sql`select item, n, score5, raw5, histogram from dc_grade_distributions where plan_id = ${plans[0].id}::uuid and grade_no = ${f.gradeNo} and gender = ${f.gender ?? 'all'}`;
}

/** The rows of storedDistributionQuery in distributionsOf's shape. */
export function storedDistributions(list: readonly AggRow[]): Distribution[] {
  return distributionsOf(
    list.map((row) => {
      const h = parseFloatArray(row.histogram) ?? [];
      const out: AggRow = { item: row.item, n: row.n, score5: row.score5, raw5: row.raw5 };
      for (let i = 0; i < 12; i++) out[`h${i}`] = h[i] ?? 0;
      return out;
    }),
  );
}

function fiveOf(v: unknown): FiveNumbers | null {
  const a = parseFloatArray(v);
  if (!a || a.length !== 5 || a.some((x) => x == null)) return null;
  const r = (x: number) => Math.round(x * 100) / 100;
  return { min: r(a[0]!), q1: r(a[1]!), median: r(a[2]!), q3: r(a[3]!), max: r(a[4]!) };
}

/** float8[] as either driver returns it (an array, or PostgreSQL's text form `{1,2,NULL}`). */
function parseFloatArray(v: unknown): (number | null)[] | null {
  if (v == null) return null;
  if (Array.isArray(v)) return v.map((x) => (x == null ? null : Number(x)));
  if (typeof v === 'string') {
    return v
      .replace(/^\{|\}$/g, '')
      .split(',')
      .filter((s) => s !== '')
      .map((s) => (s === 'NULL' ? null : Number(s)));
  }
  return null;
}

export function distributionsOf(list: readonly AggRow[]): Distribution[] {
  const order = [...ITEM_SQL.map((c) => c.item as ItemKey | 'total'), 'total' as const];
  return list
    .map((row) => {
      const item = row.item as ItemKey | 'total';
      const n = Number(row.n);
      const count = item === 'total' ? 12 : 10;
      const histogram: HistogramBucket[] = Array.from({ length: count }, (_, i) => ({
        from: i * SCORE_BUCKET_WIDTH,
        to: i === count - 1 ? (item === 'total' ? 120 : 100) : (i + 1) * SCORE_BUCKET_WIDTH,
        count: Number(row[`h${i}`] ?? 0),
      }));
      return { item, n, score: fiveOf(row.score5), raw: item === 'total' ? null : fiveOf(row.raw5), histogram };
    })
    .sort((a, b) => order.indexOf(a.item) - order.indexOf(b.item));
}

/** GET …/dataCenter/grade: one grade (default: the lowest with results), classes side by side, distributions. */
export async function gradeView(db: DbOrTx, family: Family, viewer: Viewer, f: DataCenterFilter): Promise<GradeView> {
  const ctx = await context(db, family, viewer, f);
  const { scope, period, plans, trendPlans } = ctx;
  let gradeNo: number | undefined = f.gradeNo;
  // A university's college (or major) page shows every year of study of it unless a year is chosen.
  const wholeUnit = family === 'gx' && !!(f.collegeId || f.majorId);
  if (gradeNo === undefined && plans.length && !wholeUnit) {
    const [first] = await rows<{ g: number | null }>(db, sql`with r as (${population({ orgIds: scope.orgIds, plans, filters: resultFilters(f, scope), bySchool: true }).src}) select min(r.grade_no)::int as g from r`);
    gradeNo = first?.g ?? undefined;
  }
  const rf: ResultFilters = { ...resultFilters(f, scope), gradeNo };
  const unitDim: 'class_id' | 'org_id' = scope.multiSchool ? 'org_id' : 'class_id';
  const dims: Dim[] = ['gender', unitDim];
  const has = plans.length > 0 && (gradeNo !== undefined || wholeUnit);
  // Percentiles need the per-student values: stored per plan × grade × gender where they apply, else read from the
  // covering index alone; every other figure comes from rollups.
  const stored = has ? storedDistributionQuery(scope.orgIds, plans, rf) : null;
  const src = has && !stored ? periodResults({ orgIds: scope.orgIds, plans, filters: rf, columns: DISTRIBUTION_COLUMNS }) : null;
  const pop = has ? population({ orgIds: scope.orgIds, plans, filters: rf, bySchool: unitDim === 'org_id' }) : null;
  const otherYears = period.planId ? trendPlans : trendPlans.filter((p) => p.schoolYear !== period.schoolYear);
  const {
    grouped,
    dist,
    trend: trendRows,
    roster: rosterRows,
  } = await viewStatements(db, scope, {
    grouped: pop ? groupedQuery(pop, dims, true) : null,
    dist: stored ?? (src ? distributionQuery(src) : null),
    trend: otherYears.length && (gradeNo !== undefined || wholeUnit) ? trendQuery(scope.orgIds, otherYears, rf) : null,
    roster: rosterQuery(scope.orgIds, rf),
  });
  const roster = rosterGroupsOf(rosterRows);
  const g = splitGroups(grouped, dims);
  const year = period.schoolYear;
  if (!period.planId && year != null && g.all) {
    trendRows.push({ ...g.all, school_year: year });
    trendRows.sort((a, b) => Number(a.school_year) - Number(b.school_year));
  }
  const rosterOf = (gender?: Gender) =>
    year == null || (gradeNo === undefined && !wholeUnit) ? null : rosterSize(roster, year, { gradeNo, gender: gender ?? rf.gender });
  const items = g.all ? itemStatsOf(g.all) : {};
  const units = g.by[unitDim].map((row) => withDetail(row, unitRowOf(row, unitDim, scope)));
  return {
    scope: viewScope(scope),
    period,
    filters: { ...appliedFilters(f, scope, period), gradeNo },
    asOf: asOf(),
    gradeNo: gradeNo ?? null,
    overview: g.all ? indicatorsOf(g.all, rosterOf()) : emptyIndicators(rosterOf()),
    items,
    byGender: g.by.gender
      .map((row) => ({ gender: row.gender as Gender, indicators: indicatorsOf(row, rosterOf(row.gender as Gender)), items: itemStatsOf(row) }))
      .sort((a, b) => (a.gender === b.gender ? 0 : a.gender === 'male' ? -1 : 1)),
    trend: trendOf(trendRows, trendPlans, roster, rf),
    weakestItems: weakestOf(items),
    units: { unit: unitDim === 'org_id' ? 'school' : 'class', rows: assignRanks(units) },
    distributions: stored ? storedDistributions(dist) : distributionsOfRow(dist[0]),
  };
}

/** GET …/dataCenter/class: the classes (or, bureau-wide, the schools) of the filters with their figures. */
export async function classList(db: DbOrTx, family: Family, viewer: Viewer, f: DataCenterFilter): Promise<ClassListView> {
  const { scope, period, plans } = await context(db, family, viewer, f);
  const unitDim: 'class_id' | 'org_id' = scope.multiSchool ? 'org_id' : 'class_id';
  const big = (q: SQL) => (scope.multiSchool ? heavyRows(db, q) : rows(db, q));
  const grouped = plans.length ? await big(groupedQuery(population({ orgIds: scope.orgIds, plans, filters: resultFilters(f, scope), bySchool: unitDim === 'org_id' }), [unitDim], false)) : [];
  return {
    scope: viewScope(scope),
    period,
    filters: appliedFilters(f, scope, period),
    asOf: asOf(),
    rows: assignRanks(grouped.map((row) => withDetail(row, unitRowOf(row, unitDim, scope)))),
  };
}

/**
 * GET …/dataCenter/college (universities): the colleges of the filters side by side, in the class list's shape (one
 * row per college, ranked by mean total); a college's own page is the grade view with its `collegeId`.
 */
export async function collegeList(db: DbOrTx, family: Family, viewer: Viewer, f: DataCenterFilter): Promise<ClassListView> {
  const { scope, period, plans } = await context(db, family, viewer, f);
  const pop = plans.length ? population({ orgIds: scope.orgIds, plans, filters: resultFilters(f, scope) }) : null;
  const grouped = pop
    ? await rows(
        db,
        sql`with r as (${pop.src})
select c.college_id, co.name as college_name, co.org_id as college_org_id, ${pop.agg}
from r join classes c on c.id = r.class_id join colleges co on co.id = c.college_id
group by c.college_id, co.name, co.org_id`,
      )
    : [];
  return {
    scope: viewScope(scope),
    period,
    filters: appliedFilters(f, scope, period),
    asOf: asOf(),
    rows: assignRanks(
      grouped.map((row) => {
        const orgId = String(row.college_org_id);
        const base: RankRow = { id: String(row.college_id), name: String(row.college_name), orgId, orgName: scope.orgs.get(orgId)?.name ?? '', gradeNo: null, ...rankFields(row), rank: null };
        return withDetail(row, base);
      }),
    ),
  };
}

const num = (v: unknown): number | null => (v == null ? null : Number(v));
const str = (v: unknown): string | null => (v == null ? null : String(v));
const day = (v: unknown): string | null => (v == null ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

/** Items of a raw physique_results row (snake_case columns) that have any value. */
function itemsOfRaw(row: AggRow): Partial<Record<ItemKey, ItemResult>> {
  const out: Partial<Record<ItemKey, ItemResult>> = {};
  for (const c of ITEM_SQL) {
    const raw = num(row[c.raw]);
    const score = num(row[c.score]);
    if (raw == null && score == null) continue;
    out[c.item] = { raw, score, level: (str(row[c.level]) as ItemLevel | null) ?? null, bonus: c.bonus ? num(row[c.bonus]) : null };
  }
  return out;
}

/** GET …/dataCenter/class/:id: every student with every item, the class against its grade, students to watch. */
export async function classView(db: DbOrTx, family: Family, viewer: Viewer, classId: string, f: DataCenterFilter): Promise<ClassView> {
  const scope = await resolveScope(db, family, viewer);
  const cls = await classInScope(db, scope, classId);
  const orgIds = [cls.org_id];
  const all = await scopePlans(db, orgIds, scope.classScope);
  // The grade the class is compared with is the part of it in the viewer's data scope (docs/product-rules.md#data-scopes).
  const mine: ResultFilters = { classIds: scopedClassIds(scope.classScope) };
  const { period, plans } = resolvePeriod(all, f);
  const testGradeNo = period.schoolYear == null ? null : gradeInYear(cls.stage, cls.enrol_year, period.schoolYear);
  const inClass = sql`physique_results.student_id in (select id from students where class_id = ${classId}::uuid)`;
  const studentsQuery = plans.length
    ? sql`with r as (${periodResults({ orgIds, plans, extra: [inClass] })})
select s.id as s_id, s.name as s_name, s.reg_no as s_reg_no, s.student_no as s_student_no, s.gender as s_gender, r.*, prev.total as previous_total
from students s
left join r on r.student_id = s.id
left join lateral (
  select physique_results.total from physique_results join test_plans t2 on t2.id = physique_results.plan_id
  where physique_results.student_id = s.id and ${countsInAggregates} and physique_results.total is not null and t2.start_date < r.plan_start
  order by t2.start_date desc, t2.id desc limit 1) prev on true
where s.class_id = ${classId}::uuid and s.enabled
order by s.student_no nulls last, s.reg_no, s.id`
    : sql`select s.id as s_id, s.name as s_name, s.reg_no as s_reg_no, s.student_no as s_student_no, s.gender as s_gender, null::float8 as previous_total
from students s where s.class_id = ${classId}::uuid and s.enabled order by s.student_no nulls last, s.reg_no, s.id`;
  const gradePop =
    plans.length && testGradeNo != null
      ? population({ orgIds, plans, filters: mine, where: (t) => [sql`(${sql.raw(t)}.grade_no = ${testGradeNo} or ${sql.raw(t)}.class_id = ${classId}::uuid)`] })
      : plans.length
        ? population({ orgIds, plans, filters: { ...mine, classId } })
        : null;
  const aggQuery = gradePop
    ? sql`with r0 as (${gradePop.src}), r as (select r0.*, (r0.class_id = ${classId}::uuid) as is_class, (r0.grade_no = ${testGradeNo ?? -1}) as is_grade from r0)
select grouping(r.is_class)::int as g_class, grouping(r.is_grade)::int as g_grade, r.is_class, r.is_grade, ${gradePop.agg}
from r group by grouping sets ((r.is_class), (r.is_grade))`
    : null;
  const [studentRows, aggRows, roster] = await Promise.all([
    rows(db, studentsQuery),
    aggQuery ? rows(db, aggQuery) : Promise.resolve([]),
    rosterGroups(db, orgIds, mine),
  ]);
  const isTrue = (v: unknown) => v === true || v === 't';
  const classAgg = aggRows.find((r) => Number(r.g_class) === 0 && isTrue(r.is_class)) ?? null;
  const gradeAgg = aggRows.find((r) => Number(r.g_grade) === 0 && isTrue(r.is_grade)) ?? null;

  const students: ClassStudentRow[] = studentRows.map((row) => {
    const tested = row.id != null;
    const total = num(row.total);
    const previousTotal = num(row.previous_total);
    const change = total != null && previousTotal != null ? round1(total - previousTotal) : null;
    const items = tested ? itemsOfRaw(row) : {};
    const watch: WatchReason[] = [];
    if (row.level === 'fail') watch.push('failing');
    if (items.bmi?.level === 'obese') watch.push('obese');
    if (change != null && change <= -FALLING_TREND_MIN_DROP) watch.push('falling');
    return {
      studentId: String(row.s_id),
      name: String(row.s_name),
      regNo: String(row.s_reg_no),
      studentNo: str(row.s_student_no),
      gender: row.s_gender as Gender,
      resultId: str(row.id),
      planId: str(row.plan_id),
      testedOn: day(row.tested_on),
      gradeNo: num(row.grade_no),
      heightCm: num(row.height_cm),
      weightKg: num(row.weight_kg),
      items,
      standardScore: num(row.standard_score),
      bonus: num(row.bonus),
      total,
      level: (str(row.level) as ScoreLevel | null) ?? null,
      complete: isTrue(row.complete),
      previousTotal,
      change,
      watch,
    };
  });
  const watch = students
    .filter((s) => s.watch.length > 0)
    .sort((a, b) => (a.total ?? Infinity) - (b.total ?? Infinity))
    .map((s) => ({ studentId: s.studentId, name: s.name, reasons: s.watch, total: s.total, previousTotal: s.previousTotal }));
  const gradeRoster = period.schoolYear == null || testGradeNo == null ? null : rosterSize(roster, period.schoolYear, { gradeNo: testGradeNo });
  return {
    scope: viewScope(scope),
    period,
    filters: { ...appliedFilters({ schoolYear: f.schoolYear, semesterCode: f.semesterCode, planId: f.planId }, scope, period), classId },
    asOf: asOf(),
    class: {
      id: cls.id,
      name: cls.name,
      orgId: cls.org_id,
      orgName: scope.orgs.get(cls.org_id)?.name ?? '',
      gradeNo: Number(cls.grade_no),
      testGradeNo,
      collegeName: cls.college_name,
      majorName: cls.major_name,
    },
    overview: classAgg ? indicatorsOf(classAgg, students.length) : emptyIndicators(students.length),
    items: classAgg ? itemStatsOf(classAgg) : {},
    gradeOverview: gradeAgg ? indicatorsOf(gradeAgg, gradeRoster) : emptyIndicators(gradeRoster),
    gradeItems: gradeAgg ? itemStatsOf(gradeAgg) : {},
    students,
    watch,
  };
}

const STUDENT_COLUMNS = sql`s.id, s.name, s.reg_no, s.student_no, s.gender, s.org_id, s.class_id, c.name as class_name, g.grade_no`;
const STUDENT_ORDER = sql`g.grade_no, c.code, s.student_no nulls last, s.reg_no, s.id`;

/**
 * The page of the student list and its total (docs/decisions/031-score-list-pages-by-class.md: the data centre's
 * student list). The list is in (grade, class code, student number, registration number, id) order, and a class code
 * is shared by the classes of a grade across schools, so the page is found by key: the rosters (dc_grade_roster per
 * grade, dc_roster per class; kept by triggers in the writing transaction, docs/decisions/008-dashboards-from-rollups.md)
 * count the enabled students the filters keep, whose running sums name the grades, then the (grade, class code) groups
 * the page falls in, and give the total; only those groups' classes are read, each by the index in the list's order
 * (students_class_list_idx) up to the page's end. A keyword needs the students' names and numbers, so it counts and
 * sorts the matching rows themselves.
 */
async function studentPage(db: DbOrTx, scope: DcScope, q: StudentListQuery): Promise<{ page: AggRow[]; total: number }> {
  const offset = (q.current - 1) * q.size;
  const end = offset + q.size;
  const conds: SQL[] = [sql`s.org_id in (${idList(scope.orgIds)})`, sql`s.enabled`, sql`not g.graduated`, ...inViewerClasses(scope, 's')];
  if (q.classId) conds.push(sql`s.class_id = ${q.classId}::uuid`);
  if (q.gender) conds.push(sql`s.gender = ${q.gender}`);
  if (q.gradeNo !== undefined) conds.push(sql`g.grade_no = ${q.gradeNo}`);
  if (q.collegeId) conds.push(sql`c.college_id = ${q.collegeId}::uuid`);
  if (q.majorId) conds.push(sql`c.major_id = ${q.majorId}::uuid`);
  if (q.keyword) {
    conds.push(sql`(s.name ilike ${containsPattern(q.keyword)} or s.reg_no ilike ${containsPattern(q.keyword)} or s.student_no ilike ${containsPattern(q.keyword)})`);
    const from = sql`from students s join classes c on c.id = s.class_id join grades g on g.id = c.grade_id where ${sql.join(conds, sql` and `)}`;
    const [page, [{ n }]] = await Promise.all([
      rows(db, sql`select ${STUDENT_COLUMNS} ${from} order by ${STUDENT_ORDER} limit ${q.size} offset ${offset}`),
      rows<{ n: number }>(db, sql`select count(*)::int as n ${from}`),
    ]);
    return { page, total: Number(n) };
  }
  // The same filters on the roster: every one but the keyword is a class's or a gender's.
  const inScope = sql`r.org_id in (${idList(scope.orgIds)}) and not g.graduated`;
  const byClass: SQL[] = [...inViewerClasses(scope, 'r')];
  if (q.classId) byClass.push(sql`r.class_id = ${q.classId}::uuid`);
  if (q.collegeId) byClass.push(sql`c.college_id = ${q.collegeId}::uuid`);
  if (q.majorId) byClass.push(sql`c.major_id = ${q.majorId}::uuid`);
  const more = [...(q.gender ? [sql`r.gender = ${q.gender}`] : []), ...(q.gradeNo !== undefined ? [sql`g.grade_no = ${q.gradeNo}`] : []), ...byClass];
  const rosterWhere = sql.join([inScope, ...more], sql` and `);
  // Students per grade: with no filter of classes, the grade roster's few rows a school (dc_grade_roster).
  const perGrade = byClass.length
    ? sql`select g.grade_no, sum(r.enabled)::int as n from dc_roster r join classes c on c.id = r.class_id join grades g on g.id = c.grade_id where ${rosterWhere} group by g.grade_no`
    : sql`select g.grade_no, sum(r.enabled)::int as n from dc_grade_roster r join grades g on g.id = r.grade_id where ${rosterWhere} group by g.grade_no`;
  const gender = q.gender ? sql` and s.gender = ${q.gender}` : sql``;
  // The grades the page falls in, then their (grade, class code) groups it falls in, each with the count before it.
  // Each class of those groups gives at most its first `end` students in the list's order (a student at position p of
  // the groups is at most at p in its class), read from the index alone; sorted, the page is `size` of them from its
  // offset within the groups, and only those are read in full.
  const list = await rows(
    db,
    sql`with gr as (${perGrade}),
gw as (select gr.grade_no, gr.n, (sum(gr.n) over (order by gr.grade_no) - gr.n)::int as before from gr where gr.n > 0),
ghit as (select gw.grade_no, gw.before from gw where gw.before < ${end} and gw.before + gw.n > ${offset}),
grp as (
  select g.grade_no, c.code, sum(r.enabled)::int as n, array_agg(distinct r.class_id) as ids
  from ghit join grades g on g.grade_no = ghit.grade_no join classes c on c.grade_id = g.id join dc_roster r on r.class_id = c.id
  where ${rosterWhere}
  group by g.grade_no, c.code having sum(r.enabled) > 0),
w as (select grp.*, (ghit.before + sum(grp.n) over (partition by grp.grade_no order by grp.code) - grp.n)::int as before from grp join ghit on ghit.grade_no = grp.grade_no),
hit as (select w.grade_no, w.code, w.before, w.ids from w where w.before < ${end} and w.before + w.n > ${offset}),
cand as (
  select x.id from hit cross join lateral unnest(hit.ids) as k(class_id)
  cross join lateral (select s.student_no, s.reg_no, s.id from students s where s.class_id = k.class_id and s.enabled${gender} order by s.student_no, s.reg_no, s.id limit ${end}) x
  order by hit.grade_no, hit.code, x.student_no nulls last, x.reg_no, x.id
  offset ${offset} - (select coalesce(min(hit.before), 0) from hit) limit ${q.size}),
page as (
  select ${STUDENT_COLUMNS}, c.code from students s join classes c on c.id = s.class_id join grades g on g.id = c.grade_id
  where ${sql.join(conds, sql` and `)} and s.id in (select cand.id from cand))
select (select coalesce(sum(gr.n), 0)::int from gr) as total, page.*
from (select 1) one left join page on true
order by page.grade_no, page.code, page.student_no nulls last, page.reg_no, page.id`,
  );
  return { page: list.filter((r) => r.id != null), total: Number(list[0]?.total ?? 0) };
}

/** GET …/dataCenter/student: students of the scope (current class and grade) with their latest valid result of the period. */
export async function studentList(db: DbOrTx, family: Family, viewer: Viewer, q: StudentListQuery): Promise<StudentListPage> {
  const { scope, period, plans } = await context(db, family, viewer, q);
  const { page, total } = await studentPage(db, scope, q);
  const ids = page.map((r) => String(r.id));
  const results =
    ids.length && plans.length
      ? await rows(db, periodResults({ orgIds: scope.orgIds, plans, extra: [sql`physique_results.student_id in (${idList(ids)})`] }))
      : [];
  const byStudent = new Map(results.map((r) => [String(r.student_id), r]));
  return {
    records: page.map((s) => {
      const r = byStudent.get(String(s.id));
      return {
        studentId: String(s.id),
        name: String(s.name),
        regNo: String(s.reg_no),
        studentNo: str(s.student_no),
        gender: s.gender as Gender,
        orgId: String(s.org_id),
        orgName: scope.orgs.get(String(s.org_id))?.name ?? '',
        classId: String(s.class_id),
        className: String(s.class_name),
        gradeNo: Number(s.grade_no),
        resultId: r ? String(r.id) : null,
        total: r ? num(r.total) : null,
        level: r ? ((str(r.level) as ScoreLevel | null) ?? null) : null,
        complete: r ? r.complete === true || r.complete === 't' : false,
        testedOn: r ? day(r.tested_on) : null,
      };
    }),
    total,
    current: q.current,
    size: q.size,
    period,
  };
}

/** GET …/dataCenter/student/:id: the student's valid results across years and plans, and their class's average. */
export async function studentView(db: DbOrTx, family: Family, viewer: Viewer, studentId: string): Promise<StudentView> {
  if (!isUuid(studentId)) throw notFound();
  const scope = await resolveScope(db, family, viewer);
  const inScope = sql`in (${idList(scope.orgIds)})`;
  const [student] = await rows(
    db,
    sql`select s.id, s.name, s.reg_no, s.student_no, s.gender, s.org_id, s.class_id, c.name as class_name, g.grade_no
from students s join classes c on c.id = s.class_id join grades g on g.id = c.grade_id
where ${sql.join([sql`s.id = ${studentId}::uuid`, sql`s.org_id ${inScope}`, ...inViewerClasses(scope, 's')], sql` and `)}`,
  );
  if (!student) throw notFound();
  const history = await rows(
    db,
    sql`select physique_results.*, physique_results.tested_on::text as tested_on_text, tp.name as plan_name, sy.start_year, sy.academic_year, tp.semester_code, tp.start_date::text as plan_start
from physique_results join test_plans tp on tp.id = physique_results.plan_id join school_years sy on sy.id = tp.school_year_id
where physique_results.student_id = ${studentId}::uuid and physique_results.org_id ${inScope} and ${countsInAggregates}
order by tp.start_date, tp.id`,
  );
  const list: StudentHistoryRow[] = history.map((r) => ({
    resultId: String(r.id),
    planId: String(r.plan_id),
    planName: String(r.plan_name),
    schoolYear: Number(r.start_year),
    academicYear: String(r.academic_year),
    semesterCode: Number(r.semester_code),
    planStartDate: day(r.plan_start) ?? '',
    testedOn: day(r.tested_on_text),
    gradeNo: Number(r.grade_no),
    classId: String(r.class_id),
    className: String(r.class_name),
    heightCm: num(r.height_cm),
    weightKg: num(r.weight_kg),
    items: itemsOfRaw(r),
    standardScore: num(r.standard_score),
    bonus: num(r.bonus),
    total: num(r.total),
    level: (str(r.level) as ScoreLevel | null) ?? null,
    complete: r.complete === true || r.complete === 't',
  }));
  const latest = list.at(-1);
  let classAverage: StudentView['classAverage'] = null;
  if (latest) {
    const [agg] = await rows(
      db,
      sql`select ${rollupAggregateColumns('dc_rollups')} from dc_rollups where dc_rollups.plan_id = ${latest.planId}::uuid and dc_rollups.class_id = ${latest.classId}::uuid`,
    );
    const stats = agg ? itemStatsOf(agg) : {};
    const items: Partial<Record<ItemKey, number>> = {};
    for (const [k, s] of Object.entries(stats) as [ItemKey, NonNullable<ItemStats[ItemKey]>][]) if (s.meanScore != null) items[k] = s.meanScore;
    classAverage = { planId: latest.planId, classId: latest.classId, meanTotal: agg ? indicatorsOf(agg, null).meanTotal : null, items };
  }
  return {
    student: {
      id: String(student.id),
      name: String(student.name),
      regNo: String(student.reg_no),
      studentNo: str(student.student_no),
      gender: student.gender as Gender,
      orgId: String(student.org_id),
      orgName: scope.orgs.get(String(student.org_id))?.name ?? '',
      classId: String(student.class_id),
      className: String(student.class_name),
      gradeNo: Number(student.grade_no),
    },
    history: list,
    classAverage,
    asOf: asOf(),
  };
}

/** GET …/dataCenter/filters: school years and plans with results, grades, classes, schools, colleges and majors. */
export async function dataCenterOptions(db: DbOrTx, family: Family, viewer: Viewer, f: Pick<DataCenterFilter, 'orgId'>): Promise<DataCenterOptions> {
  const scope = await resolveScope(db, family, viewer, family === 'admin' ? f.orgId : undefined);
  const inScope = sql`in (${idList(scope.orgIds)})`;
  const single = !scope.multiSchool;
  // Grades, classes, colleges and majors offered are those of the viewer's classes (docs/product-rules.md#data-scopes).
  const rollupsMine = resultFilterSql({ classIds: scopedClassIds(scope.classScope) }, 'dc_rollups').map((c) => sql` and ${c}`);
  const classesMine = inViewerClasses(scope, 'c', 'id').map((c) => sql` and ${c}`);
  const ofMyClasses = (column: string) =>
    scope.classScope.all ? sql`` : sql` and id in (select c.${sql.raw(column)} from classes c where c.org_id ${inScope}${sql.join(classesMine, sql``)})`;
  const [plans, gradeRows, classRows, collegeRows, majorRows] = await Promise.all([
    scopePlans(db, scope.orgIds, scope.classScope),
    rows<{ grade_no: number }>(db, sql`select distinct grade_no from dc_rollups where org_id ${inScope}${sql.join(rollupsMine, sql``)} order by grade_no`),
    single
      ? rows(
          db,
          sql`select c.id, c.name, c.org_id, g.grade_no, c.college_id, c.major_id from classes c join grades g on g.id = c.grade_id
where c.org_id ${inScope} and c.enabled and not g.graduated${sql.join(classesMine, sql``)} order by g.grade_no, c.code, c.name`,
        )
      : Promise.resolve([]),
    single ? rows(db, sql`select id, name from colleges where org_id ${inScope}${ofMyClasses('college_id')} order by code`) : Promise.resolve([]),
    single ? rows(db, sql`select id, name, college_id from majors where org_id ${inScope}${ofMyClasses('major_id')} order by code`) : Promise.resolve([]),
  ]);
  const withResults = plans.filter((p) => p.hasResults);
  const years = [...new Map(withResults.map((p) => [p.schoolYear, p.academicYear])).entries()].sort((a, b) => b[0] - a[0]);
  return {
    schoolYears: years.map(([schoolYear, academicYear]) => ({ schoolYear, academicYear })),
    plans: plans
      .sort((a, b) => b.startDate.localeCompare(a.startDate) || a.name.localeCompare(b.name, 'zh'))
      .map((p) => ({ id: p.id, name: p.name, orgId: p.orgId, orgName: scope.orgs.get(p.orgId)?.name ?? '', schoolYear: p.schoolYear, semesterCode: p.semesterCode, startDate: p.startDate })),
    grades: gradeRows.map((r) => Number(r.grade_no)),
    classes: classRows.map((r) => ({
      id: String(r.id),
      name: String(r.name),
      orgId: String(r.org_id),
      gradeNo: Number(r.grade_no),
      collegeId: str(r.college_id),
      majorId: str(r.major_id),
    })),
    schools:
      scope.family === 'admin'
        ? [...scope.orgs.values()].filter((o) => o.type === ORG_TYPE.k12 || o.type === ORG_TYPE.university).map((o) => ({ id: o.id, name: o.name, type: o.type }))
        : [],
    colleges: collegeRows.map((r) => ({ id: String(r.id), name: String(r.name) })),
    majors: majorRows.map((r) => ({ id: String(r.id), name: String(r.name), collegeId: String(r.college_id) })),
  };
}

