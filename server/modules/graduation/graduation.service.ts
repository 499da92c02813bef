import { and, asc, desc, eq, getTableColumns, gte, inArray, lte, min, ne, type SQL } from 'drizzle-orm';
import {
  belowFiftyConsequence,
  gradeInYear,
  graduationStartYear,
  stageStartYears,
  type GraduationCohort,
  type GraduationListQuery,
  type GraduationPage,
  type GraduationRow,
  type GraduationSummary,
  type GraduationYearCell,
  type HistoryYear,
  type StudentHistory,
} from '@/domain/graduation/graduation';
import { SCORE_LEVELS, type ScoreLevel } from '@/domain/physique/level';
import type { Gender } from '@/domain/physique/standard';
import { STAGE_GRADES, type GradeStage } from '@/domain/school/grades';
import { graduationOutcome, yearResult, type ExemptionKind, type GraduationOutcome, type YearPlanResult, type YearResult } from '@/domain/physique-year/year-result';
import type { DbOrTx } from '../../db/client';
import { orgs } from '../../db/schema/orgs';
import { physiqueResults } from '../../db/schema/physique';
import { physiqueExemptions } from '../../db/schema/physique-year';
import { classes, grades, schoolYears, students } from '../../db/schema/school';
import { testPlans } from '../../db/schema/test-plans';
import { classScopeOf, inClassScope, type ClassScope } from '../../lib/data-scope';
import { isUuid } from '../../lib/ids';
import { notFound } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { itemsOf, countsInAggregates } from '../physique-results/physique-results.sql';

/**
 * 毕业成绩 of a cohort and a student's physique history (docs/product-rules.md#physique-year: Graduation). A cohort
 * is read in three queries whatever its size (students, their results of the stage's years, approved requests), and
 * every year goes through yearResult and the score through graduationOutcome (src/domain/physique-year).
 */

const academicYearOf = (startYear: number) => `${startYear}-${startYear + 1}`;

/** The school year the school is in: its current one, else the latest. */
async function currentStartYear(db: DbOrTx, orgId: string): Promise<number | null> {
  const [row] = await db
    .select({ startYear: schoolYears.startYear })
    .from(schoolYears)
    .where(eq(schoolYears.orgId, orgId))
    .orderBy(desc(schoolYears.current), desc(schoolYears.startYear))
    .limit(1);
  return row?.startYear ?? null;
}

/**
 * The cohorts a graduation list can show: those in their stage's last grade this school year first (primary, junior,
 * senior, university), then those that graduated before, latest first.
 */
export async function graduationCohorts(db: DbOrTx, actor: Actor): Promise<GraduationCohort[]> {
  const now = await currentStartYear(db, actor.tenantOrgId);
  if (now === null) return [];
  const rows = await db
    .select({ id: grades.id, stage: grades.stage, enrolYear: grades.enrolYear, graduated: grades.graduated })
    .from(grades)
    .where(eq(grades.orgId, actor.tenantOrgId));
  const [{ first }] = await db.select({ first: min(schoolYears.startYear) }).from(schoolYears).where(eq(schoolYears.orgId, actor.tenantOrgId));
  // Senior school and university first: their below-50 records have consequences (结业或肄业).
  const stageOrder: GradeStage[] = ['university', 'senior', 'junior', 'primary'];
  const cohorts = rows
    .map((g) => ({ ...g, year: graduationStartYear(g.stage, g.enrolYear) }))
    .filter((g) => g.graduated || g.year <= now)
    .map((g) => ({ ...g, current: !g.graduated && g.year === now }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.year - a.year || stageOrder.indexOf(a.stage) - stageOrder.indexOf(b.stage));
  if (cohorts.length === 0) return [];
  const scope = await classScopeOf(db, actor);
  const classRows = await db
    .select({ id: classes.id, name: classes.name, gradeId: classes.gradeId })
    .from(classes)
    .where(and(eq(classes.orgId, actor.tenantOrgId), inArray(classes.gradeId, cohorts.map((c) => c.id)), inClassScope(scope, classes.id)))
    .orderBy(asc(classes.code), asc(classes.name));
  return cohorts.map((c) => ({
    gradeId: c.id,
    stage: c.stage,
    enrolYear: c.enrolYear,
    graduationYear: academicYearOf(c.year),
    current: c.current,
    // The school years the school keeps: a stage that began before the school's records lists the years it has.
    startYears: stageStartYears(c.stage, c.enrolYear).filter((y) => first == null || y >= first),
    classes: classRows.filter((r) => r.gradeId === c.id).map((r) => ({ id: r.id, name: r.name })),
  }));
}

/** A cohort of the tenant (404 otherwise), or the first graduating one when none is named. */
async function cohortOf(db: DbOrTx, actor: Actor, gradeId: string | undefined): Promise<GraduationCohort | null> {
  const all = await graduationCohorts(db, actor);
  if (!gradeId) return all[0] ?? null;
  const found = all.find((c) => c.gradeId === gradeId);
  if (!found) throw notFound();
  return found;
}

interface CohortStudent {
  id: string;
  name: string;
  regNo: string;
  gender: Gender;
  classId: string;
  className: string;
  birthDate: string | null;
}

/** A stored result of the stage's years with what the year's rule needs. */
export type StageResult = typeof physiqueResults.$inferSelect & { startYear: number; retestOfPlanId: string | null; planStartDate: string; planName: string };

/** Results (valid, plan not in the bin) of the given students in the school years from..to: one query. */
async function stageResults(db: DbOrTx, orgId: string, studentIds: SQL | readonly string[], from: number, to: number): Promise<StageResult[]> {
  return db
    .select({
      ...getTableColumns(physiqueResults),
      startYear: schoolYears.startYear,
      retestOfPlanId: testPlans.retestOfPlanId,
      planStartDate: testPlans.startDate,
      planName: testPlans.name,
    })
    .from(physiqueResults)
    .innerJoin(testPlans, eq(testPlans.id, physiqueResults.planId))
    .innerJoin(schoolYears, eq(schoolYears.id, testPlans.schoolYearId))
    .where(
      and(
        eq(physiqueResults.orgId, orgId),
        countsInAggregates,
        inArray(physiqueResults.studentId, studentIds as SQL),
        gte(schoolYears.startYear, from),
        lte(schoolYears.startYear, to),
      ),
    )
    .orderBy(asc(testPlans.startDate), asc(physiqueResults.planId));
}

/** Approved 免测/缓测 of the given students, by student and start year: one query. */
async function approvedRequests(db: DbOrTx, orgId: string, studentIds: SQL | readonly string[], from: number, to: number): Promise<Map<string, ExemptionKind>> {
  const rows = await db
    .select({ studentId: physiqueExemptions.studentId, startYear: schoolYears.startYear, kind: physiqueExemptions.kind })
    .from(physiqueExemptions)
    .innerJoin(schoolYears, eq(schoolYears.id, physiqueExemptions.schoolYearId))
    .where(
      and(
        eq(physiqueExemptions.orgId, orgId),
        eq(physiqueExemptions.status, 'approved'),
        inArray(physiqueExemptions.studentId, studentIds as SQL),
        gte(schoolYears.startYear, from),
        lte(schoolYears.startYear, to),
      ),
    );
  return new Map(rows.map((r) => [`${r.studentId}:${r.startYear}`, r.kind]));
}

const planResultOf = (r: StageResult): YearPlanResult => ({ planId: r.planId, retestOfPlanId: r.retestOfPlanId, startDate: r.planStartDate, complete: r.complete, total: r.total });

/** The stored result a year's result came from (the card shows its items): the re-test that decided it, else the latest regular plan. */
function resultShown(rows: readonly StageResult[], year: YearResult): StageResult | null {
  const complete = (r: StageResult) => r.complete && r.total != null;
  const regular = rows.filter((r) => r.retestOfPlanId == null);
  const retests = rows.filter((r) => r.retestOfPlanId != null);
  if (year.source === 'exempt') return null;
  if (year.source === 'retest') return retests.filter(complete).at(-1) ?? null;
  return regular.filter(complete).at(-1) ?? regular.at(-1) ?? retests.at(-1) ?? null;
}

interface StudentYears {
  cells: (GraduationYearCell & { shown: StageResult | null })[];
  outcome: GraduationOutcome;
}

/** Each school year of the stage through yearResult, and the graduation outcome over them. */
function yearsOf(stage: GradeStage, enrolYear: number, starts: readonly number[], studentId: string, results: readonly StageResult[], requests: Map<string, ExemptionKind>): StudentYears {
  const cells = starts.map((startYear) => {
    const rows = results.filter((r) => r.studentId === studentId && r.startYear === startYear);
    const year = yearResult(rows.map(planResultOf), requests.get(`${studentId}:${startYear}`) ?? null);
    return {
      startYear,
      academicYear: academicYearOf(startYear),
      gradeNo: gradeInYear(stage, enrolYear, startYear),
      source: year.source,
      total: year.total,
      level: year.level,
      planTotal: year.planTotal,
      retestTotal: year.retestTotal,
      shown: resultShown(rows, year),
      year,
    };
  });
  const outcome = graduationOutcome(cells.map((c) => ({ academicYear: c.academicYear, year: c.year })));
  return { cells: cells.map(({ year: _year, ...c }) => c), outcome };
}

function rowOf(stage: GradeStage, s: CohortStudent, y: StudentYears): GraduationRow {
  const o = y.outcome;
  return {
    studentId: s.id,
    name: s.name,
    regNo: s.regNo,
    gender: s.gender,
    classId: s.classId,
    className: s.className,
    years: y.cells.map(({ shown: _shown, ...c }) => c),
    outcome: o.kind,
    score: o.kind === 'scored' ? o.score.score : null,
    level: o.kind === 'scored' ? o.score.level : null,
    belowFifty: o.kind === 'scored' && o.belowFifty,
    consequence: belowFiftyConsequence(stage, o),
    missingYears: y.cells.filter((c) => c.total == null && c.source !== 'exempt').length,
  };
}

export interface CohortRecords {
  cohort: GraduationCohort;
  students: CohortStudent[];
  years: Map<string, StudentYears>;
}

/** The cohort's students in the caller's scope (a class, a student), their years and outcomes: three queries. */
export async function cohortRecords(db: DbOrTx, actor: Actor, pick: { gradeId?: string; classId?: string; studentId?: string }): Promise<CohortRecords | null> {
  const cohort = await cohortOf(db, actor, pick.gradeId);
  if (!cohort) return null;
  if (pick.classId && !cohort.classes.some((c) => c.id === pick.classId)) throw notFound();
  const scope: ClassScope = await classScopeOf(db, actor);
  const where = and(
    eq(students.orgId, actor.tenantOrgId),
    eq(classes.gradeId, cohort.gradeId),
    ne(students.status, 'transferred'),
    inClassScope(scope, students.classId),
    pick.classId ? eq(students.classId, pick.classId) : undefined,
    pick.studentId ? eq(students.id, pick.studentId) : undefined,
  );
  const list = await db
    .select({ id: students.id, name: students.name, regNo: students.regNo, gender: students.gender, classId: students.classId, className: classes.name, birthDate: students.birthDate })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(where)
    .orderBy(asc(classes.code), asc(students.regNo), asc(students.id));
  if (pick.studentId && list.length === 0) throw notFound();
  const ids = db.select({ id: students.id }).from(students).innerJoin(classes, eq(classes.id, students.classId)).where(where);
  const starts = cohort.startYears;
  const [from, to] = [starts[0] ?? 0, starts.at(-1) ?? 0];
  const [results, requests] = await Promise.all([
    stageResults(db, actor.tenantOrgId, ids as unknown as SQL, from, to),
    approvedRequests(db, actor.tenantOrgId, ids as unknown as SQL, from, to),
  ]);
  const byStudent = new Map<string, StageResult[]>();
  for (const r of results) byStudent.set(r.studentId, [...(byStudent.get(r.studentId) ?? []), r]);
  const years = new Map(list.map((s) => [s.id, yearsOf(cohort.stage, cohort.enrolYear, starts, s.id, byStudent.get(s.id) ?? [], requests)]));
  return { cohort, students: list as CohortStudent[], years };
}

const matchesFlag = (r: GraduationRow, flag: GraduationListQuery['flag']) =>
  !flag || (flag === 'belowFifty' ? r.belowFifty : flag === 'exempt' ? r.outcome === 'exempt' : r.outcome === 'missing');

function summaryOf(rows: readonly GraduationRow[]): GraduationSummary {
  const levels = Object.fromEntries(SCORE_LEVELS.map((l) => [l, 0])) as Record<ScoreLevel, number>;
  for (const r of rows) if (r.level) levels[r.level]++;
  return {
    students: rows.length,
    scored: rows.filter((r) => r.outcome === 'scored').length,
    belowFifty: rows.filter((r) => r.belowFifty).length,
    exempt: rows.filter((r) => r.outcome === 'exempt').length,
    missing: rows.filter((r) => r.outcome === 'missing').length,
    levels,
  };
}

/** The rows of a cohort (a class) after the flag filter, with the counts of the cohort (the class) before it. */
export async function graduationRows(db: DbOrTx, actor: Actor, q: Omit<GraduationListQuery, 'current' | 'size'>) {
  const records = await cohortRecords(db, actor, { gradeId: q.gradeId, classId: q.classId });
  if (!records) return { cohort: null, rows: [] as GraduationRow[], all: [] as GraduationRow[] };
  const all = records.students.map((s) => rowOf(records.cohort.stage, s, records.years.get(s.id)!));
  return { cohort: records.cohort, rows: all.filter((r) => matchesFlag(r, q.flag)), all };
}

/** The school years of a cohort's stage, oldest first, with the grade it was in. */
export const cohortYears = (cohort: GraduationCohort | null): GraduationPage['years'] =>
  cohort
    ? cohort.startYears.map((startYear) => ({ startYear, academicYear: academicYearOf(startYear), gradeNo: gradeInYear(cohort.stage, cohort.enrolYear, startYear) }))
    : [];

export async function graduationPage(db: DbOrTx, actor: Actor, q: GraduationListQuery): Promise<GraduationPage> {
  const { cohort, rows, all } = await graduationRows(db, actor, q);
  const years = cohortYears(cohort);
  const start = (q.current - 1) * q.size;
  return { records: rows.slice(start, start + q.size), total: rows.length, current: q.current, size: q.size, cohort, years, summary: summaryOf(all) };
}

/** The student's grade stage and enrolment year (the stage the graduation counts), from the class they are in. */
async function studentOf(db: DbOrTx, actor: Actor, studentId: string) {
  if (!isUuid(studentId)) throw notFound();
  const scope = await classScopeOf(db, actor);
  const [row] = await db
    .select({
      id: students.id,
      name: students.name,
      regNo: students.regNo,
      gender: students.gender,
      birthDate: students.birthDate,
      className: classes.name,
      orgName: orgs.name,
      stage: grades.stage,
      enrolYear: grades.enrolYear,
    })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .innerJoin(orgs, eq(orgs.id, students.orgId))
    // Another school's student, or one outside the caller's data scope, is not found (docs/product-rules.md#data-scopes).
    .where(and(eq(students.id, studentId), eq(students.orgId, actor.tenantOrgId), inClassScope(scope, students.classId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

const historyYearOf = (cell: GraduationYearCell, shown: StageResult | null): HistoryYear => {
  const items = shown ? itemsOf(shown) : {};
  return {
    ...cell,
    planName: shown?.planName ?? null,
    testedOn: shown?.testedOn ?? null,
    heightCm: shown?.heightCm ?? null,
    weightKg: shown?.weightKg ?? null,
    standardScore: shown?.standardScore ?? null,
    bonus: shown?.bonus ?? null,
    items: Object.entries(items).map(([item, v]) => ({ item: item as HistoryYear['items'][number]['item'], raw: v.raw, score: v.score, level: v.level, bonus: v.bonus })),
  };
};

/**
 * A student's physique history: every school year with a result or an approved request (each through yearResult),
 * the items of the result each year counts, and the graduation outcome over the stage's years so far.
 */
export async function studentHistory(db: DbOrTx, actor: Actor, studentId: string): Promise<StudentHistory> {
  const s = await studentOf(db, actor, studentId);
  const [results, requests] = await Promise.all([stageResults(db, actor.tenantOrgId, [studentId], 1900, 2200), approvedRequests(db, actor.tenantOrgId, [studentId], 1900, 2200)]);
  const starts = [...new Set([...results.map((r) => r.startYear), ...[...requests.keys()].map((k) => Number(k.split(':')[1]))])].sort((a, b) => a - b);
  const [lo] = STAGE_GRADES[s.stage];
  const years = starts.map((startYear) => {
    const rows = results.filter((r) => r.startYear === startYear);
    const year = yearResult(rows.map(planResultOf), requests.get(`${studentId}:${startYear}`) ?? null);
    const shown = resultShown(rows, year);
    const gradeNo = shown?.gradeNo ?? lo + startYear - s.enrolYear;
    const cell: GraduationYearCell = { startYear, academicYear: academicYearOf(startYear), gradeNo, source: year.source, total: year.total, level: year.level, planTotal: year.planTotal, retestTotal: year.retestTotal };
    return historyYearOf(cell, shown);
  });
  // The graduation so far: the stage's years up to the latest with anything (a cohort mid-stage shows its score to date).
  const stageYears = stageStartYears(s.stage, s.enrolYear);
  const upTo = Math.min(stageYears.at(-1)!, Math.max(stageYears[0], starts.at(-1) ?? stageYears[0]));
  const recorded = starts[0] ?? upTo;
  const y = yearsOf(s.stage, s.enrolYear, stageYears.filter((v) => v <= upTo && v >= Math.min(recorded, upTo)), studentId, results, requests);
  const o = y.outcome;
  return {
    student: { id: s.id, name: s.name, regNo: s.regNo, gender: s.gender as Gender, className: s.className, orgName: s.orgName, birthDate: s.birthDate, stage: s.stage },
    years,
    graduation: {
      outcome: o.kind,
      score: o.kind === 'scored' ? o.score.score : null,
      level: o.kind === 'scored' ? o.score.level : null,
      belowFifty: o.kind === 'scored' && o.belowFifty,
      consequence: belowFiftyConsequence(s.stage, o),
    },
  };
}

/** What the record card of each student prints: identity, every year of the stage with its items, the outcome. */
export async function graduationCards(db: DbOrTx, actor: Actor, pick: { gradeId?: string; classId?: string; studentId?: string }) {
  let gradeId = pick.gradeId;
  if (pick.studentId && !gradeId) {
    // One student: the cohort is theirs (404 for another school's student before anything else).
    if (!isUuid(pick.studentId)) throw notFound();
    const [row] = await db.select({ gradeId: classes.gradeId }).from(students).innerJoin(classes, eq(classes.id, students.classId)).where(and(eq(students.id, pick.studentId), eq(students.orgId, actor.tenantOrgId)));
    if (!row) throw notFound();
    gradeId = row.gradeId;
  }
  const records = await cohortRecords(db, actor, { ...pick, gradeId });
  if (!records) throw notFound();
  const [{ orgName }] = await db.select({ orgName: orgs.name }).from(orgs).where(eq(orgs.id, actor.tenantOrgId));
  return {
    orgName,
    cohort: records.cohort,
    cards: records.students.map((s) => {
      const y = records.years.get(s.id)!;
      return { student: s, row: rowOf(records.cohort.stage, s, y), years: y.cells.map(({ shown, ...cell }) => historyYearOf(cell, shown)) };
    }),
  };
}
