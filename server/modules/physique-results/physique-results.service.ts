import type { Readable } from 'node:stream';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { ERR } from '@/domain/errors';
import type { PageQuery } from '@/domain/api';
import { parseRaw } from '@/domain/physique/parse';
import { scoreStudent } from '@/domain/physique/score';
import { isGrade, type Gender, type ItemKey } from '@/domain/physique/standard';
import { layoutRows, scoreExportColumns, uploadColumns, type ExportRow, type Translate } from '@/domain/physique-results/export-layout';
import { SCORE_EXPORT_MAX_ROWS, type EditRawBody, type ScoreFilter } from '@/domain/physique-results/schemas';
import type { ChangedCount, ResultDetail, ResultLogRow, ScoreSearchPage, ScoreSummary } from '@/domain/physique-results/types';
import { withSource } from '@/domain/physique-results/value-source';
import { engineInputOf, ITEM_COLUMNS, restrictToItems, WIDE_SCORE_FIELDS, wideFromScore, type WideRawFields } from '@/domain/physique-results/wide-row';
import type { DbOrTx } from '../../db/client';
import { auditLogs } from '../../db/schema/audit';
import { users } from '../../db/schema/auth';
import { physiqueResultCounts, physiqueResultLogs, physiqueResults } from '../../db/schema/physique';
import { classes, schoolYears, students } from '../../db/schema/school';
import { testPlans } from '../../db/schema/test-plans';
import { AppError } from '../../lib/app-error';
import { keptPerVersion, type FeedSync } from '../../lib/change-feed';
import { inClassScope, type ClassScope } from '../../lib/data-scope';
import { isUuid } from '../../lib/ids';
import { containsPattern } from '../../lib/query';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';
import { xlsxStream } from '../../lib/spreadsheet/xlsx-stream';
import { viewRows } from '../data-center/data-center.sql';
import { getPlanInScope, planIdNotBinned } from '../test-plans/test-plans.service';
import { countsInAggregates, inTenant, listedValid, rawOf, selectResults, toExportRow, toResultRow, type SelectedResult } from './physique-results.sql';
import type { Family } from '@/domain/menus/access';
import { examPointsColumns } from '../conversion/conversion.service';
import { assertAdmitted, IMPORT_AUDIT_ENTITY, itemsFor, loadPlanContext } from './physique-write';
import { localDate } from '@/domain/dates';

const notFound = () => new AppError(404, ERR.notFound);

/** Who asks: route family, tenant organisation, user and the classes their role's data scope covers. */
export interface Caller {
  family: Family;
  tenantOrgId: string;
  userId: string;
  /** Results count by the class the student was in when tested (docs/product-rules.md#data-scopes). */
  classScope: ClassScope;
}

/**
 * The year and semester filters name plans, so the results are found through the (org, plan, class) index instead of
 * reading every result of the organisation and dropping other years after the join. School years are per school: a
 * year filter means "that academic year" in every school of the caller.
 */
function planFilter(planId: AnyPgColumn, f: ScoreFilter): SQL | undefined {
  if (!f.schoolYearId && !f.semesterCode) return undefined;
  const year = f.schoolYearId
    ? sql`and tp.school_year_id in (select sy.id from school_years sy where sy.start_year = (select y.start_year from school_years y where y.id = ${f.schoolYearId}))`
    : sql``;
  const semester = f.semesterCode ? sql`and tp.semester_code = ${f.semesterCode}` : sql``;
  return sql`${planId} in (select tp.id from test_plans tp where true ${year} ${semester})`;
}

/** The result's student's name or registration number contains `keyword` (a subquery: the WHERE joins no table). */
const studentKeyword = (keyword: string): SQL =>
  sql`exists (select 1 from ${students} s where s.id = ${physiqueResults.studentId} and (s.name ilike ${containsPattern(keyword)} or s.reg_no ilike ${containsPattern(keyword)}))`;

/**
 * The columns of a result the filters read other than the student's: physique_results' or physique_result_counts'
 * (which has no school year: it is not partitioned).
 */
type FilterColumns = Record<'orgId' | 'planId' | 'classId' | 'gradeNo' | 'gender' | 'invalid' | 'complete' | 'level', AnyPgColumn> & { schoolYear?: AnyPgColumn };

/**
 * The partition key the filter implies (docs/decisions/064-partitions-by-school-year.md): a school year, or a plan's
 * school year. Scalar subqueries, evaluated once at the start of the statement, so the partitions of other years are
 * pruned before they are read. No year and no plan (all years) reads every year's partition.
 */
function schoolYearKey(column: AnyPgColumn | undefined, f: ScoreFilter): SQL | undefined {
  if (!column) return undefined;
  if (f.planId) return sql`${column} = (select y.start_year from test_plans p join school_years y on y.id = p.school_year_id where p.id = ${f.planId})`;
  if (f.schoolYearId) return sql`${column} = (select y.start_year from school_years y where y.id = ${f.schoolYearId})`;
  return undefined;
}

/** Every filter but the keyword, on `c` (physique_result_counts keeps level '' for none, which no filter names). */
function filterOn(c: FilterColumns, caller: Caller, f: ScoreFilter): SQL | undefined {
  return and(
    inTenant(c.orgId, caller.family, caller.tenantOrgId),
    inClassScope(caller.classScope, c.classId),
    f.orgId ? eq(c.orgId, f.orgId) : undefined,
    planFilter(c.planId, f),
    schoolYearKey(c.schoolYear, f),
    f.planId ? eq(c.planId, f.planId) : undefined,
    f.gradeNo ? eq(c.gradeNo, f.gradeNo) : undefined,
    f.classId ? eq(c.classId, f.classId) : undefined,
    f.gender ? eq(c.gender, f.gender) : undefined,
    f.level === 'incomplete' ? eq(c.complete, false) : f.level ? eq(c.level, f.level) : undefined,
    f.invalid === undefined ? undefined : eq(c.invalid, f.invalid),
  );
}

/** The WHERE of score search, the results screen and their exports (docs/product-rules.md#physique-results: result filters). */
export function resultFilter(caller: Caller, f: ScoreFilter): SQL | undefined {
  return and(filterOn(physiqueResults, caller, f), f.keyword ? studentKeyword(f.keyword) : undefined);
}

const ORDER = [asc(testPlans.startDate), asc(physiqueResults.gradeNo), asc(classes.code), asc(students.regNo), asc(physiqueResults.id)];

/** The filter's results joined and in list order (the score list's pages and the exports). */
export const orderedResults = (db: DbOrTx, where: SQL | undefined) =>
  selectResults(db)
    .where(where)
    .orderBy(...ORDER);

/** Results of one (plan, grade at test time, class at test time): the unit the list's order is made of. */
export interface ResultGroup {
  /** The plan's school: lets the page statement find the group's rows through the (org, plan, class) index. */
  orgId: string;
  planId: string;
  gradeNo: number;
  classId: string;
  matched: number;
  startDate: string;
  code: number;
}

/**
 * Where the summary and the counts per (plan, grade, class) are read: the results themselves, or their counts kept by
 * triggers (physique_result_counts), which answer every filter but the student keyword.
 */
export type SummarySource = 'results' | 'counts';

export const summarySourceOf = (f: ScoreFilter): SummarySource => (f.keyword ? 'results' : 'counts');

/** How each source counts rows (optionally those meeting `cond`) and averages the totals of the rows meeting `cond`. */
const TALLY = {
  results: {
    t: physiqueResults,
    valid: countsInAggregates,
    rows: (cond?: SQL) => (cond ? sql<number>`cast(count(*) filter (where ${cond}) as int)` : sql<number>`cast(count(*) as int)`),
    averageTotal: (cond: SQL) => sql<number | null>`round(cast(avg(${physiqueResults.total}) filter (where ${cond}) as numeric), 1)::float8`,
  },
  counts: {
    t: physiqueResultCounts,
    // countsInAggregates on the counts: neither invalid nor of an approved-exempt year (docs/product-rules.md#physique-year).
    valid: sql`not ${physiqueResultCounts.invalid} and not ${physiqueResultCounts.exempt}`,
    rows: (cond?: SQL) =>
      cond ? sql<number>`cast(coalesce(sum(${physiqueResultCounts.n}) filter (where ${cond}), 0) as int)` : sql<number>`cast(coalesce(sum(${physiqueResultCounts.n}), 0) as int)`,
    // Totals have one decimal, so Σ total × 10 ÷ (10 n) is the exact mean, rounded as the results' avg is.
    averageTotal: (cond: SQL) =>
      sql<number | null>`round(cast(sum(${physiqueResultCounts.totalX10}) filter (where ${cond}) as numeric) / nullif(10 * sum(${physiqueResultCounts.n}) filter (where ${cond}), 0), 1)::float8`,
  },
} as const;

/**
 * The filter's aggregates (invalid results never count: countsInAggregates) and its results counted per (plan, grade,
 * class), in list order by plan start date, grade and class code: one statement over the results alone (the filter
 * names no other table; a binned plan's results are left out by `resultPlanNotBinned`), or over their counts (some
 * ten rows per class instead of one per student; `where` then built by `countsFilter`), the empty grouping set giving
 * the summary exactly as a plain aggregate would.
 */
export function summaryAndGroupsQuery(db: DbOrTx, where: SQL | undefined, source: SummarySource = 'results') {
  const { t, valid, rows, averageTotal } = TALLY[source];
  const validComplete = sql`${valid} and ${t.complete}`;
  const g = db
    .select({
      whole: sql<number>`grouping(${t.planId})`.as('whole'),
      orgId: t.orgId,
      planId: t.planId,
      gradeNo: t.gradeNo,
      classId: t.classId,
      matched: rows().as('matched'),
      valid: rows(valid).as('valid'),
      complete: rows(validComplete).as('complete'),
      averageTotal: averageTotal(validComplete).as('average_total'),
      excellent: rows(sql`${validComplete} and ${t.level} = 'excellent'`).as('excellent'),
      good: rows(sql`${validComplete} and ${t.level} = 'good'`).as('good'),
      pass: rows(sql`${validComplete} and ${t.level} = 'pass'`).as('pass'),
      fail: rows(sql`${validComplete} and ${t.level} = 'fail'`).as('fail'),
    })
    .from(t)
    .where(and(where, planIdNotBinned(t.planId)))
    .groupBy(sql`grouping sets ((${t.orgId}, ${t.planId}, ${t.gradeNo}, ${t.classId}), ())`)
    .as('g');
  return db
    .select({
      whole: g.whole,
      orgId: g.orgId,
      planId: g.planId,
      gradeNo: g.gradeNo,
      classId: g.classId,
      matched: g.matched,
      valid: g.valid,
      complete: g.complete,
      averageTotal: g.averageTotal,
      excellent: g.excellent,
      good: g.good,
      pass: g.pass,
      fail: g.fail,
      startDate: testPlans.startDate,
      code: classes.code,
    })
    .from(g)
    .leftJoin(testPlans, eq(testPlans.id, g.planId))
    .leftJoin(classes, eq(classes.id, g.classId))
    .orderBy(asc(g.whole), asc(testPlans.startDate), asc(g.gradeNo), asc(classes.code));
}

/** The WHERE of `summaryAndGroupsQuery` over the counts: the filter without its keyword, which the counts cannot answer. */
export const countsFilter = (caller: Caller, f: ScoreFilter): SQL | undefined => filterOn(physiqueResultCounts, caller, f);

/** The filter's summary and groups, from the counts unless the filter names a student (`source` chooses, for tests). */
export async function summaryAndGroups(
  db: DbOrTx,
  caller: Caller,
  f: ScoreFilter,
  source: SummarySource = summarySourceOf(f),
): Promise<{ summary: ScoreSummary; groups: ResultGroup[] }> {
  if (source === 'counts' && f.keyword) throw new Error('the counts cannot answer a keyword');
  const rows = await summaryAndGroupsQuery(db, source === 'counts' ? countsFilter(caller, f) : resultFilter(caller, f), source);
  // The empty grouping set yields its row even when nothing matched.
  const total = rows.find((x) => x.whole === 1)!;
  const summary: ScoreSummary = {
    matched: total.matched,
    valid: total.valid,
    complete: total.complete,
    averageTotal: total.averageTotal,
    levels: { excellent: total.excellent, good: total.good, pass: total.pass, fail: total.fail },
  };
  const groups = rows
    .filter((x) => x.whole === 0)
    .map((x) => ({ orgId: x.orgId, planId: x.planId, gradeNo: x.gradeNo, classId: x.classId, matched: x.matched, startDate: x.startDate!, code: x.code! }));
  return { summary, groups };
}

/** The (org, plan, grade, class) of a group: what the page statement finds its rows by. */
export type GroupKey = Pick<ResultGroup, 'orgId' | 'planId' | 'gradeNo' | 'classId'>;

/**
 * The rows of the list that tie on its order before the student (plan start date, grade, class code: one class code of
 * a grade across every school of a bureau), counted: the unit a page is cut from. A bureau's year has some 7,700
 * (plan, grade, class) groups but some 150 tie sets, so the summary statement returns those instead of every group
 * (shipping and parsing the groups was most of a counted first page), and a page then reads the groups of its own tie
 * sets only (`tieGroupsQuery`).
 */
export interface TieSet {
  startDate: string;
  gradeNo: number;
  code: number;
  matched: number;
}

/** The filter's summary (the empty grouping set) and its tie sets in list order, from the results or their counts. */
export function summaryAndTiesQuery(db: DbOrTx, where: SQL | undefined, source: SummarySource = 'results') {
  const { t, valid, rows, averageTotal } = TALLY[source];
  const validComplete = sql`${valid} and ${t.complete}`;
  const whole = sql<number>`grouping(${testPlans.startDate})`;
  return db
    .select({
      whole,
      startDate: testPlans.startDate,
      gradeNo: t.gradeNo,
      code: classes.code,
      matched: rows(),
      valid: rows(valid),
      complete: rows(validComplete),
      averageTotal: averageTotal(validComplete),
      excellent: rows(sql`${validComplete} and ${t.level} = 'excellent'`),
      good: rows(sql`${validComplete} and ${t.level} = 'good'`),
      pass: rows(sql`${validComplete} and ${t.level} = 'pass'`),
      fail: rows(sql`${validComplete} and ${t.level} = 'fail'`),
    })
    .from(t)
    .leftJoin(testPlans, eq(testPlans.id, t.planId))
    .leftJoin(classes, eq(classes.id, t.classId))
    .where(and(where, planIdNotBinned(t.planId)))
    .groupBy(sql`grouping sets ((${testPlans.startDate}, ${t.gradeNo}, ${classes.code}), ())`)
    .orderBy(whole, asc(testPlans.startDate), asc(t.gradeNo), asc(classes.code));
}

const sqlArray = (values: readonly (string | number)[], type: string) => sql`array[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::${sql.raw(type)}[]`;

/** The (org, plan, grade, class) groups of the filter in the tie sets `ties`, each with its tie set's keys. */
export function tieGroupsQuery(db: DbOrTx, where: SQL | undefined, source: SummarySource, ties: readonly TieSet[]) {
  const { t } = TALLY[source];
  const keys = sql`(select * from unnest(${sqlArray(ties.map((x) => x.startDate), 'date')}, ${sqlArray(ties.map((x) => x.gradeNo), 'smallint')}, ${sqlArray(ties.map((x) => x.code), 'smallint')}))`;
  return db
    .selectDistinct({ orgId: t.orgId, planId: t.planId, gradeNo: t.gradeNo, classId: t.classId, startDate: testPlans.startDate, code: classes.code })
    .from(t)
    .innerJoin(testPlans, eq(testPlans.id, t.planId))
    .innerJoin(classes, eq(classes.id, t.classId))
    // The grades and codes alone as well: the grade then bounds the counts' (plan, grade, class) index scan.
    .where(
      and(
        where,
        planIdNotBinned(t.planId),
        sql`${t.gradeNo} = any(${sqlArray([...new Set(ties.map((x) => x.gradeNo))], 'smallint')})`,
        sql`${classes.code} = any(${sqlArray([...new Set(ties.map((x) => x.code))], 'smallint')})`,
        sql`(${testPlans.startDate}, ${t.gradeNo}, ${classes.code}) in ${keys}`,
      ),
    );
}

/** A filter's summary and tie sets; `groups` reads (once per tie set) the groups of the tie sets a page falls in. */
export interface TiedList {
  summary: ScoreSummary;
  ties: TieSet[];
  groups(db: DbOrTx, ties: readonly TieSet[]): Promise<GroupKey[]>;
}

const tieKey = (x: Pick<TieSet, 'startDate' | 'gradeNo' | 'code'>) => `${x.startDate}|${x.gradeNo}|${x.code}`;

/** `TiedList` of the filter, from the counts unless the filter names a student. */
export async function tiedList(db: DbOrTx, caller: Caller, f: ScoreFilter, source: SummarySource = summarySourceOf(f)): Promise<TiedList> {
  if (source === 'counts' && f.keyword) throw new Error('the counts cannot answer a keyword');
  const where = source === 'counts' ? countsFilter(caller, f) : resultFilter(caller, f);
  const rows = await summaryAndTiesQuery(db, where, source);
  // The empty grouping set yields its row even when nothing matched.
  const total = rows.find((x) => x.whole === 1)!;
  const summary: ScoreSummary = {
    matched: total.matched,
    valid: total.valid,
    complete: total.complete,
    averageTotal: total.averageTotal,
    levels: { excellent: total.excellent, good: total.good, pass: total.pass, fail: total.fail },
  };
  const ties = rows.filter((x) => x.whole === 0).map((x) => ({ startDate: x.startDate!, gradeNo: x.gradeNo, code: x.code!, matched: x.matched }));
  const known = new Map<string, Promise<GroupKey[]>>();
  const groups = async (at: DbOrTx, list: readonly TieSet[]): Promise<GroupKey[]> => {
    const missing = list.filter((x) => !known.has(tieKey(x)));
    if (missing.length) {
      const read = tieGroupsQuery(at, where, source, missing).execute();
      for (const x of missing) {
        const mine = read.then((found) => found.filter((g) => tieKey(g) === tieKey(x)).map(({ orgId, planId, gradeNo, classId }) => ({ orgId, planId, gradeNo, classId })));
        known.set(tieKey(x), mine);
        // A failed read is not kept.
        mine.catch(() => known.get(tieKey(x)) === mine && known.delete(tieKey(x)));
      }
    }
    return (await Promise.all(list.map((x) => known.get(tieKey(x))!))).flat();
  };
  return { summary, ties, groups };
}

/** Tables a summary and its groups from the counts depend on (the results and their counts, the plans' years and dates, class codes, the organisation tree). */
const SUMMARY_TABLES = ['physique_results', 'physique_result_counts', 'test_plans', 'school_years', 'classes', 'orgs'] as const;
/** Filters whose summary is kept per change feed (one per app), newest use last. */
const keptSummary = keptPerVersion<TiedList>(SUMMARY_TABLES, 500);

/**
 * `tiedList`, counted once per version of the tables it reads in the caller's organisation tree (the change
 * feed, server/lib/change-feed.ts) and reused by every page, page size and user asking for the same filter (with the
 * groups of each tie set read once): a bureau's summary sums every school's counts of the year, while a page reads
 * only its groups' rows. A keyword (read from the results themselves) always counts afresh.
 */
export function keptTiedList(db: DbOrTx, caller: Caller, f: ScoreFilter, changes: FeedSync | undefined): Promise<TiedList> {
  if (f.keyword) return tiedList(db, caller, f);
  const { allYears: _all, ...filter } = f;
  const key = JSON.stringify([caller.family, caller.tenantOrgId, caller.classScope, Object.entries(filter).filter(([, v]) => v !== undefined).sort()]);
  return keptSummary(changes, caller.tenantOrgId, key, () => tiedList(db, caller, f));
}

/**
 * The groups holding rows `offset` … `offset + size - 1` of the list, and how many of their rows come before the
 * page. Groups that tie on plan start date, grade and class code (another plan starting the same day, another
 * school's class of the same code) interleave by registration number, so they are taken together or not at all.
 */
export function groupsOfPage(groups: readonly ResultGroup[], offset: number, size: number): { groups: ResultGroup[]; skip: number } {
  const chosen: ResultGroup[] = [];
  let skip = 0;
  let before = 0;
  for (let i = 0; i < groups.length && before < offset + size; ) {
    let j = i;
    let rows = 0;
    const a = groups[i];
    for (; j < groups.length && groups[j].startDate === a.startDate && groups[j].gradeNo === a.gradeNo && groups[j].code === a.code; j++) rows += groups[j].matched;
    if (before + rows > offset) {
      if (chosen.length === 0) skip = offset - before;
      chosen.push(...groups.slice(i, j));
    }
    before += rows;
    i = j;
  }
  return { groups: chosen, skip };
}

/** The tie sets holding rows `offset` … `offset + size - 1` of the list, and how many of their rows come before the page. */
export function tiesOfPage(ties: readonly TieSet[], offset: number, size: number): { ties: TieSet[]; skip: number } {
  const chosen: TieSet[] = [];
  let skip = 0;
  let before = 0;
  for (const x of ties) {
    if (before >= offset + size) break;
    if (before + x.matched > offset) {
      if (chosen.length === 0) skip = offset - before;
      chosen.push(x);
    }
    before += x.matched;
  }
  return { ties: chosen, skip };
}

/**
 * The ids of the page's rows, in list order: the groups' keys drive the statement, each group's rows found through the
 * (org, plan, class) index, and only those rows are joined for the order's columns and sorted. A condition on the
 * full list statement instead (a row comparison, an `in` subquery) left the planner scanning every result of the
 * plans or the tree: a bureau's first page ties one class code across a hundred schools, some 4,000 rows.
 */
export function pageIdsQuery(where: SQL | undefined, page: { groups: readonly GroupKey[]; skip: number }, size: number): SQL {
  const r = physiqueResults;
  // Each key list is one array parameter (ids and numbers need no quoting), so the text is the same for any number of
  // groups and PostgreSQL plans it once per filter (pageRows): planning it afresh cost as much as running it.
  const list = (values: readonly (string | number)[], type: string) => sql`${`{${values.join(',')}}`}::${sql.raw(type)}[]`;
  const g = page.groups;
  return sql`select ${r.id} as id from unnest(${list(g.map((x) => x.orgId), 'uuid')}, ${list(g.map((x) => x.planId), 'uuid')}, ${list(g.map((x) => x.classId), 'uuid')}, ${list(g.map((x) => x.gradeNo), 'smallint')}) as k(org_id, plan_id, class_id, grade_no)
join ${r} on ${r.orgId} = k.org_id and ${r.planId} = k.plan_id and ${r.classId} = k.class_id and ${r.gradeNo} = k.grade_no
join ${students} on ${students.id} = ${r.studentId} join ${classes} on ${classes.id} = ${r.classId} join ${testPlans} on ${testPlans.id} = ${r.planId}
where ${where ?? sql`true`}
order by ${testPlans.startDate}, ${r.gradeNo}, ${classes.code}, ${students.regNo}, ${r.id} limit ${size} offset ${page.skip}`;
}

/** The page's rows: the filter's rows of the page's groups, in list order, after the `skip` of them before the page. */
export async function pageRows(db: DbOrTx, where: SQL | undefined, page: { groups: readonly GroupKey[]; skip: number }, size: number): Promise<SelectedResult[]> {
  if (page.groups.length === 0) return [];
  const ids = (await viewRows<{ id: string }>(db, pageIdsQuery(where, page, size))).map((x) => x.id);
  return ids.length ? orderedResults(db, inArray(physiqueResults.id, ids)) : [];
}

/**
 * The filter a list or export runs: a management organisation's that names no school year, semester or plan (and not
 * `allYears`) is the current school year's — the newest year marked current in its schools (or the chosen school) —
 * as a school's screen opens on its own current year. Without it the bureau's first page read and summed every
 * result of every school and year (docs/decisions/031-score-list-pages-by-class.md).
 */
export async function withDefaultYear(db: DbOrTx, caller: Caller, f: ScoreFilter): Promise<{ filter: ScoreFilter; defaultYear?: { id: string; academicYear: string } }> {
  if (caller.family !== 'admin' || f.allYears || f.schoolYearId || f.semesterCode || f.planId) return { filter: f };
  const [year] = await db
    .select({ id: schoolYears.id, academicYear: schoolYears.academicYear })
    .from(schoolYears)
    .where(and(eq(schoolYears.current, true), inTenant(schoolYears.orgId, caller.family, caller.tenantOrgId), f.orgId ? eq(schoolYears.orgId, f.orgId) : undefined))
    .orderBy(desc(schoolYears.startYear), asc(schoolYears.id))
    .limit(1);
  return year ? { filter: { ...f, schoolYearId: year.id }, defaultYear: year } : { filter: f };
}

/**
 * Score search (organizeTest/scoreSearch) and the results screen: one page of results plus the filter's aggregates.
 * The list is ordered by plan, grade and class before the student, so the counts per class (read with the summary,
 * from the counts the triggers keep unless a keyword names students) tell which classes the page falls in, and only
 * their rows are joined and sorted, instead of every matching result (docs/decisions/031-score-list-pages-by-class.md).
 */
export async function searchResults(db: DbOrTx, caller: Caller, query: ScoreFilter & PageQuery, changes?: FeedSync): Promise<ScoreSearchPage> {
  const { filter, defaultYear } = await withDefaultYear(db, caller, query);
  const q = { ...query, ...filter };
  const { current: _c, size: _s, ...asked } = q;
  const { summary, ties, groups } = await keptTiedList(db, caller, asked, changes);
  const page = tiesOfPage(ties, (q.current - 1) * q.size, q.size);
  const rows = page.ties.length ? await pageRows(db, resultFilter(caller, q), { groups: await groups(db, page.ties), skip: page.skip }, q.size) : [];
  return { records: rows.map(toResultRow), total: summary.matched, current: q.current, size: q.size, summary, ...(defaultYear ? { defaultYear } : {}) };
}

async function exportRows(db: DbOrTx, where: SQL | undefined): Promise<SelectedResult[]> {
  const rows = await orderedResults(db, where).limit(SCORE_EXPORT_MAX_ROWS + 1);
  if (rows.length > SCORE_EXPORT_MAX_ROWS) throw new AppError(400, 'physiqueResults:error.tooManyRows', { max: SCORE_EXPORT_MAX_ROWS });
  return rows;
}

const stamp = (now: Date) => localDate(now).replace(/-/g, '');

/** Rows of a score export read from the database at a time. */
const EXPORT_BATCH = 1000;

/** The score export's refusal, asked before its job starts (so it answers at once) and by the job: too many rows. */
async function scoreExportPlan(db: DbOrTx, caller: Caller, f: ScoreFilter) {
  const plan = await summaryAndGroups(db, caller, f);
  if (plan.summary.matched > SCORE_EXPORT_MAX_ROWS) throw new AppError(400, 'physiqueResults:error.tooManyRows', { max: SCORE_EXPORT_MAX_ROWS });
  return plan;
}
/** How many results the score export of this filter writes (the export approval's count); too many is refused as the export is. */
export const scoreExportRows = async (db: DbOrTx, caller: Caller, f: ScoreFilter): Promise<number> =>
  (await scoreExportPlan(db, caller, (await withDefaultYear(db, caller, f)).filter)).summary.matched;

/** How many students the national upload file of this filter writes (one each; the export approval's count). */
export async function uploadExportRows(db: DbOrTx, caller: Caller, f: ScoreFilter): Promise<number> {
  const rows = await exportRows(db, and(resultFilter(caller, { ...f, invalid: undefined }), listedValid));
  return new Set(rows.map((r) => r.studentId)).size;
}

export const checkScoreExport = async (db: DbOrTx, caller: Caller, f: ScoreFilter): Promise<void> =>
  void (await scoreExportPlan(db, caller, (await withDefaultYear(db, caller, f)).filter));

/**
 * Score search export in the national score-export layout (docs/product-rules.md#physique-results: score search), streamed: the rows
 * are read a batch of whole (plan, grade, class) groups at a time, in the list's order (as the list pages them,
 * `groupsOfPage`), laid out and written into the sheet as they come, so neither the rows nor the workbook are ever
 * whole in memory (34,000 rows were 1.87 M cell objects and a full sort before the first byte). `onBatch` hears the
 * rows written so far of the total (the export job's progress).
 */
export async function exportScores(
  db: DbOrTx,
  caller: Caller,
  asked: ScoreFilter,
  t: Translate,
  now: Date,
  onBatch?: (done: number, total: number) => Promise<void>,
): Promise<{ workbook: Readable; fileName: string; total: number }> {
  // The export holds the rows the list shows, default year included.
  const { filter: f } = await withDefaultYear(db, caller, asked);
  const where = resultFilter(caller, f);
  const { summary, groups } = await scoreExportPlan(db, caller, f);
  const columns = [...scoreExportColumns(t), ...(await examPointsColumns(db, groups.map((g) => g.planId), t))];
  async function* batches() {
    for (let offset = 0; offset < summary.matched; offset += EXPORT_BATCH) {
      const page = groupsOfPage(groups, offset, EXPORT_BATCH);
      if (page.groups.length === 0) return;
      const rows = await pageRows(db, where, page, EXPORT_BATCH);
      yield rows.map((r) => {
        const row = toExportRow(r);
        return columns.map((c) => c.value(row));
      });
      await onBatch?.(offset + rows.length, summary.matched);
      if (rows.length < EXPORT_BATCH) return;
    }
  }
  const name = t('physiqueResults:export.scoreFileName');
  const workbook = xlsxStream(name, columns.map((c) => ({ header: c.header, width: c.width, text: c.text })), batches());
  return { workbook, fileName: `${name}-${stamp(now)}.xlsx`, total: summary.matched };
}

/**
 * The national upload file of a school year (testResult export, docs/product-rules.md#physique-results: results screen): one row per student (the latest plan of
 * the year), valid results only, national template layout with raw values, gender 1/2 and national grade codes.
 */
export async function exportUpload(db: DbOrTx, caller: Caller, f: ScoreFilter, t: Translate, now: Date): Promise<{ workbook: Buffer; fileName: string }> {
  // Exempt students keep their row (identity, blank results: export-layout.ts uploadColumns).
  const rows = await exportRows(db, and(resultFilter(caller, { ...f, invalid: undefined }), listedValid));
  const latest = new Map<string, ExportRow>();
  // Rows come oldest plan first, so the last one per student is the upload year's latest.
  for (const r of rows) latest.set(r.studentId, toExportRow(r));
  const list = [...latest.values()].sort((a, b) => a.gradeNo - b.gradeNo || a.className.localeCompare(b.className) || a.regNo.localeCompare(b.regNo));
  const columns = uploadColumns();
  const workbook = writeXlsx([
    {
      name: t('physique:template.sheetName'),
      rows: layoutRows(columns, list),
      columnWidths: columns.map((c) => c.width),
      textColumns: columns.flatMap((c, i) => (c.text ? [i] : [])),
    },
  ]);
  return { workbook, fileName: `${t('physiqueResults:export.uploadFileName')}-${stamp(now)}.xlsx` };
}

/** One result of the caller's organisation; 404 for anything else. */
async function resultInScope(db: DbOrTx, caller: Caller, id: string): Promise<SelectedResult> {
  if (!isUuid(id)) throw notFound();
  const [row] = await selectResults(db)
    .where(and(eq(physiqueResults.id, id), inTenant(physiqueResults.orgId, caller.family, caller.tenantOrgId), inClassScope(caller.classScope, physiqueResults.classId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * A result's history: its own log rows (edits, invalid/restore, syncs) and the imports that changed it, which are one
 * audit entry per import holding the previous values by result id (found through the plan's import entries).
 */
async function logsOf(db: DbOrTx, resultId: string, planId: string): Promise<ResultLogRow[]> {
  const rows = await db
      .select({
        id: physiqueResultLogs.id,
        action: physiqueResultLogs.action,
        field: physiqueResultLogs.field,
        oldValue: physiqueResultLogs.oldValue,
        newValue: physiqueResultLogs.newValue,
        byUserId: physiqueResultLogs.byUser,
        byName: users.name,
        at: physiqueResultLogs.at,
      })
      .from(physiqueResultLogs)
      .leftJoin(users, eq(users.id, physiqueResultLogs.byUser))
      .where(eq(physiqueResultLogs.resultId, resultId));
  const imports = await db
      .select({ id: auditLogs.id, previous: sql<string | null>`(${auditLogs.before} -> ${resultId})::text`, byUserId: auditLogs.userId, byName: users.name, at: auditLogs.at })
      .from(auditLogs)
      .leftJoin(users, eq(users.id, auditLogs.userId))
      .where(and(eq(auditLogs.entity, IMPORT_AUDIT_ENTITY), eq(auditLogs.entityId, planId), sql`${auditLogs.before} ? ${resultId}`));
  const all = [
    ...rows,
    ...imports.map((i) => ({ id: i.id, action: 'import' as const, field: null, oldValue: i.previous === 'null' ? null : i.previous, newValue: null, byUserId: i.byUserId, byName: i.byName, at: i.at })),
  ];
  all.sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return all.map((r) => ({ ...r, at: r.at.toISOString() }));
}

/** One result with its plan items, missing items and history (testResult detail). */
export async function resultDetail(db: DbOrTx, caller: Caller, id: string): Promise<ResultDetail> {
  const row = await resultInScope(db, caller, id);
  const plan = await getPlanInScope(db, caller.tenantOrgId, row.planId);
  const ctx = await loadPlanContext(db, plan);
  const planItems: ItemKey[] = isGrade(row.gradeNo) ? [...itemsFor(ctx, row.gradeNo, row.gender as Gender)] : [];
  const base = toResultRow(row);
  const missing = planItems.filter((item) => base.items[item]?.score == null);
  return { ...base, planItems, missing, logs: await logsOf(db, row.id, row.planId) };
}

const shown = (v: number | null | undefined) => (v == null ? null : String(v));

/**
 * Edits one raw value of a result (testResult/editUpReport, docs/product-rules.md#physique-results: results screen): the value is parsed as people type it,
 * the whole result is rescored by the engine with the plan's standard and items, and who/when goes to the log.
 */
export async function editRawValue(db: DbOrTx, caller: Caller, id: string, body: EditRawBody, now: Date): Promise<ResultDetail> {
  await db.transaction(async (tx) => {
    const row = await resultInScope(tx, caller, id);
    // Lock the row: two edits of one result take turns, each rescoring the other's value. Its key names the partition.
    const key = and(eq(physiqueResults.id, id), eq(physiqueResults.schoolYear, row.schoolYear));
    await tx.select({ id: physiqueResults.id }).from(physiqueResults).where(key).for('update');
    const [fresh] = await tx.select().from(physiqueResults).where(key);
    const plan = await getPlanInScope(tx, caller.tenantOrgId, row.planId);
    const ctx = await loadPlanContext(tx, plan);
    // A re-test plan's result of a student it no longer admits (now exempt, or the year passed meanwhile) stays as it is.
    assertAdmitted(ctx, fresh.studentId);
    if (!isGrade(fresh.gradeNo)) throw notFound();
    const gender = fresh.gender as Gender;
    const items = itemsFor(ctx, fresh.gradeNo, gender);
    const item: ItemKey = body.field === 'heightCm' || body.field === 'weightKg' ? 'bmi' : body.field;
    if (!items.includes(item)) throw new AppError(400, 'physiqueResults:error.notInPlan');

    const cleared = body.value === null || (typeof body.value === 'string' && body.value.trim() === '');
    let value: number | null = null;
    if (!cleared) {
      const parsed = parseRaw(body.field, body.value);
      if (!parsed.ok) throw new AppError(400, parsed.error, parsed.params ?? {});
      value = parsed.value;
    }
    const raw: Partial<WideRawFields> = { ...rawOf(fresh) };
    const oldValue = raw[body.field];
    if (value === null) delete raw[body.field];
    else raw[body.field] = value;
    const kept = restrictToItems(raw, items);
    const score = scoreStudent({ grade: fresh.gradeNo, gender, results: engineInputOf(kept), standard: ctx.version });
    const wide = wideFromScore(kept, score);
    // The class and grade at test time stay; the value is now a hand-edited one (a sync leaves it unless allowed).
    const set: Record<string, unknown> = { updatedBy: caller.userId, updatedAt: now, ...withSource(fresh, [body.field], 'manual') };
    for (const f of WIDE_SCORE_FIELDS) set[f] = wide[f];
    await tx.update(physiqueResults).set(set).where(key);
    await tx.insert(physiqueResultLogs).values({ resultId: id, schoolYear: fresh.schoolYear, action: 'edit', field: body.field, oldValue: shown(oldValue), newValue: shown(value), byUser: caller.userId, at: now });
  });
  return resultDetail(db, caller, id);
}

/**
 * Sets results invalid or restores them (docs/product-rules.md#score-validity): kept and listed, but excluded from every ranking and aggregate
 * while invalid. Each change is logged with who and when; ids of other organisations are ignored.
 */
export async function setResultsInvalid(db: DbOrTx, caller: Caller, ids: readonly string[], invalid: boolean, now: Date): Promise<ChangedCount & { ids: string[] }> {
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(physiqueResults)
      .set(invalid ? { invalid: true, invalidAt: now, invalidBy: caller.userId } : { invalid: false, invalidAt: null, invalidBy: null })
      .where(
        and(
          inArray(physiqueResults.id, [...ids]),
          inTenant(physiqueResults.orgId, caller.family, caller.tenantOrgId),
          inClassScope(caller.classScope, physiqueResults.classId),
          eq(physiqueResults.invalid, !invalid),
        ),
      )
      .returning({ id: physiqueResults.id, schoolYear: physiqueResults.schoolYear });
    if (changed.length > 0) {
      await tx
        .insert(physiqueResultLogs)
        .values(changed.map((c) => ({ resultId: c.id, schoolYear: c.schoolYear, action: invalid ? ('invalid' as const) : ('restore' as const), byUser: caller.userId, at: now })));
    }
    return { changed: changed.length, ids: changed.map((c) => c.id) };
  });
}

/** The class average per item score and total of one plan, valid results only (countsInAggregates). */
export async function classAverages(db: DbOrTx, planId: string, classId: string): Promise<{ items: Partial<Record<ItemKey, number | null>>; total: number | null }> {
  const fields: Record<string, SQL<number | null>> = {};
  for (const c of ITEM_COLUMNS) {
    fields[c.item] = sql<number | null>`round(cast(avg(${physiqueResults[c.score]}) filter (where ${countsInAggregates}) as numeric), 1)::float8`;
  }
  fields.total = sql<number | null>`round(cast(avg(${physiqueResults.total}) filter (where ${countsInAggregates} and ${physiqueResults.complete}) as numeric), 1)::float8`;
  const [row] = await db
    .select(fields)
    .from(physiqueResults)
    .where(
      and(
        eq(physiqueResults.planId, planId),
        sql`${physiqueResults.schoolYear} = (select y.start_year from test_plans p join school_years y on y.id = p.school_year_id where p.id = ${planId})`,
        eq(physiqueResults.classId, classId),
      ),
    );
  const items: Partial<Record<ItemKey, number | null>> = {};
  for (const c of ITEM_COLUMNS) items[c.item] = row?.[c.item] ?? null;
  return { items, total: row?.total ?? null };
}
