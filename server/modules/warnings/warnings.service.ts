import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { localDate } from '@/domain/dates';
import { yearResult, type ExemptionKind, type YearPlanResult } from '@/domain/physique-year/year-result';
import type { Translate } from '@/domain/physique-results/export-layout';
import { gradeNameKey } from '@/domain/school/grade-name';
import {
  DEFAULT_WARNING_SETTINGS,
  warningDetailText,
  FAILING_ITEMS,
  WARNING_BMI_BANDS,
  WARNING_KINDS,
  type CaseStatus,
  type WarningBmiBand,
  type WarningCounts,
  type WarningKind,
  type WarningListQuery,
  type WarningOptions,
  type WarningRow,
  type WarningSettingsRow,
  type WarningSettingsSave,
  type WarningsSceneData,
} from '@/domain/warnings/warnings';
import type { DbOrTx, Tx } from '../../db/client';
import { physiqueExemptions } from '../../db/schema/physique-year';
import { physiqueResults } from '../../db/schema/physique';
import { classes, grades, schoolYears, students, teachers } from '../../db/schema/school';
import { testPlans, testPlanScopes } from '../../db/schema/test-plans';
import { warningCases, warningSettings } from '../../db/schema/warnings';
import { ORG_TYPE } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { AppError } from '../../lib/app-error';
import { classScopeOf, inClassScope, WHOLE_ORG, type ClassScope } from '../../lib/data-scope';
import { isoInstant } from '../../lib/iso';
import type { ListExportColumn, ListSheet } from '../../lib/list-export';
import type { Actor } from '../../plugins/tenant';

/**
 * Physique warnings (docs/product-rules.md#warnings): computed for a school year from its plans' results, set-based
 * (a handful of statements per request whatever the number of students), with the organisation's thresholds. The
 * decline compares the year's result (src/domain/physique-year/year-result.ts) of this year and the last.
 */

const RAW = { interpolation: { escapeValue: false } };

export interface Viewer {
  tenantOrgId: string;
  classScope: ClassScope;
}

export async function viewerOf(db: DbOrTx, actor: Actor): Promise<Viewer> {
  return { tenantOrgId: actor.tenantOrgId, classScope: await classScopeOf(db, actor) };
}

// ── Settings ─────────────────────────────────────────────────────────────────

export async function warningSettingsOf(db: DbOrTx, orgId: string): Promise<WarningSettingsRow> {
  const [row] = await db.select().from(warningSettings).where(eq(warningSettings.orgId, orgId));
  if (!row) return { ...DEFAULT_WARNING_SETTINGS, bmiBands: [...DEFAULT_WARNING_SETTINGS.bmiBands], version: 0, updatedAt: null };
  return {
    declinePoints: row.declinePoints,
    bmiBands: WARNING_BMI_BANDS.filter((b) => row.bmiBands.includes(b)),
    failingItem: row.failingItem,
    missing: row.missing,
    version: row.version,
    updatedAt: isoInstant(row.updatedAt),
  };
}

/** Saves the thresholds; a stale form (an older version) is refused (409). */
export async function saveWarningSettings(tx: Tx, actor: Actor, body: WarningSettingsSave, now: Date) {
  const before = await warningSettingsOf(tx, actor.tenantOrgId);
  // Lock the row (or its absence) so two saves cannot both pass the version check.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`warning-settings:${actor.tenantOrgId}`}))`);
  const current = await warningSettingsOf(tx, actor.tenantOrgId);
  if ((body.version ?? current.version) !== current.version) throw new AppError(409, ERR.staleWrite);
  const values = { declinePoints: body.declinePoints, bmiBands: body.bmiBands, failingItem: body.failingItem, missing: body.missing, updatedBy: actor.userId, updatedAt: now };
  if (current.version === 0) await tx.insert(warningSettings).values({ orgId: actor.tenantOrgId, ...values, version: 1 });
  else
    await tx
      .update(warningSettings)
      .set({ ...values, version: sql`${warningSettings.version} + 1` })
      .where(eq(warningSettings.orgId, actor.tenantOrgId));
  return { before, after: await warningSettingsOf(tx, actor.tenantOrgId), entityId: actor.tenantOrgId };
}

// ── The school year ──────────────────────────────────────────────────────────

export interface YearRef {
  id: string;
  startYear: number;
  academicYear: string;
}

/** The given school year (start year) of the organisation, or its current one (else its latest). */
export async function schoolYearOf(db: DbOrTx, orgId: string, startYear?: number): Promise<YearRef | null> {
  const [row] = await db
    .select({ id: schoolYears.id, startYear: schoolYears.startYear, academicYear: schoolYears.academicYear })
    .from(schoolYears)
    .where(and(eq(schoolYears.orgId, orgId), startYear == null ? undefined : eq(schoolYears.startYear, startYear)))
    .orderBy(desc(schoolYears.current), desc(schoolYears.startYear))
    .limit(1);
  return row ?? null;
}

// ── Computing the warnings ───────────────────────────────────────────────────

interface RosterRow {
  studentId: string;
  name: string;
  regNo: string;
  gender: 'male' | 'female';
  classId: string;
  className: string;
  gradeNo: number;
  gradeId: string;
  collegeId: string | null;
}

export interface ComputeFilter {
  gradeNo?: number;
  classId?: string;
  studentId?: string;
}

type Warning = Omit<WarningRow, 'caseId' | 'caseStatus' | 'assignedTeacherName'>;

const levelCol = (item: string) => physiqueResults[`${item}Level` as keyof typeof physiqueResults] as typeof physiqueResults.bmiLevel;

/**
 * Every warning of the viewer's students for a school year (docs/product-rules.md#warnings): four statements (roster,
 * latest result of the year, the current plan's scope and results, the two years' totals and exemptions).
 */
export async function computeWarnings(db: DbOrTx, viewer: Viewer, year: YearRef, now: Date, filter: ComputeFilter = {}): Promise<Warning[]> {
  const settings = await warningSettingsOf(db, viewer.tenantOrgId);
  const org = viewer.tenantOrgId;
  const roster: RosterRow[] = await db
    .select({
      studentId: students.id,
      name: students.name,
      regNo: students.regNo,
      gender: students.gender,
      classId: classes.id,
      className: classes.name,
      gradeNo: grades.gradeNo,
      gradeId: grades.id,
      collegeId: classes.collegeId,
    })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(
      and(
        eq(students.orgId, org),
        eq(students.status, 'studying'),
        eq(grades.graduated, false),
        inClassScope(viewer.classScope, students.classId),
        filter.gradeNo == null ? undefined : eq(grades.gradeNo, filter.gradeNo),
        filter.classId ? eq(students.classId, filter.classId) : undefined,
        filter.studentId ? eq(students.id, filter.studentId) : undefined,
      ),
    )
    .orderBy(asc(grades.gradeNo), asc(classes.code), asc(classes.name), asc(students.regNo));
  if (roster.length === 0) return [];
  const ids = roster.map((r) => r.studentId);
  // A scoped or filtered roster reads only its own students' rows; the whole organisation needs no id list.
  const whole = viewer.classScope.all && filter.gradeNo == null && !filter.classId && !filter.studentId;
  const mine = whole || ids.length > 5000 ? undefined : inArray(physiqueResults.studentId, ids);

  const previous = await schoolYearOf(db, org, year.startYear - 1);
  const previousId = previous && previous.startYear === year.startYear - 1 ? previous.id : null;
  const yearIds = previousId ? [year.id, previousId] : [year.id];
  const today = localDate(now);

  const [latest, yearRows, exemptions, currentPlan] = await Promise.all([
    // The latest valid result of each student in a regular plan of the year: failing items and the BMI band.
    db
      .selectDistinctOn([physiqueResults.studentId], {
        studentId: physiqueResults.studentId,
        bmi: physiqueResults.bmi,
        bmiLevel: physiqueResults.bmiLevel,
        ...Object.fromEntries(FAILING_ITEMS.map((i) => [i, levelCol(i)])),
      })
      .from(physiqueResults)
      .innerJoin(testPlans, eq(testPlans.id, physiqueResults.planId))
      .where(
        and(
          eq(physiqueResults.orgId, org),
          mine,
          eq(testPlans.schoolYearId, year.id),
          isNull(testPlans.retestOfPlanId),
          isNull(testPlans.deletedAt),
          eq(physiqueResults.invalid, false),
        ),
      )
      .orderBy(physiqueResults.studentId, desc(testPlans.startDate), sql`${physiqueResults.testedOn} desc nulls last`, physiqueResults.id),
    // Every valid result of this year and the last: the year's result of each (yearResult).
    db
      .select({
        studentId: physiqueResults.studentId,
        schoolYearId: testPlans.schoolYearId,
        planId: testPlans.id,
        retestOfPlanId: testPlans.retestOfPlanId,
        startDate: testPlans.startDate,
        complete: physiqueResults.complete,
        total: physiqueResults.total,
      })
      .from(physiqueResults)
      .innerJoin(testPlans, eq(testPlans.id, physiqueResults.planId))
      .where(and(eq(physiqueResults.orgId, org), mine, inArray(testPlans.schoolYearId, yearIds), isNull(testPlans.deletedAt), eq(physiqueResults.invalid, false))),
    db
      .select({ studentId: physiqueExemptions.studentId, schoolYearId: physiqueExemptions.schoolYearId, kind: physiqueExemptions.kind })
      .from(physiqueExemptions)
      .where(and(eq(physiqueExemptions.orgId, org), inArray(physiqueExemptions.schoolYearId, yearIds), eq(physiqueExemptions.status, 'approved'))),
    // The current plan: the year's latest regular plan that has started.
    db
      .select({ id: testPlans.id, name: testPlans.name })
      .from(testPlans)
      .where(and(eq(testPlans.orgId, org), eq(testPlans.schoolYearId, year.id), isNull(testPlans.retestOfPlanId), isNull(testPlans.deletedAt), lte(testPlans.startDate, today)))
      .orderBy(desc(testPlans.startDate), desc(testPlans.createdAt))
      .limit(1),
  ]);

  const plan = currentPlan[0] ?? null;
  let inScope: (r: RosterRow) => boolean = () => false;
  let tested = new Set<string>();
  if (plan && settings.missing) {
    const [scopes, done] = await Promise.all([
      db.select().from(testPlanScopes).where(eq(testPlanScopes.planId, plan.id)),
      db
        .select({ studentId: physiqueResults.studentId })
        .from(physiqueResults)
        .where(and(eq(physiqueResults.planId, plan.id), eq(physiqueResults.invalid, false), mine)),
    ]);
    const gradeIds = new Set(scopes.flatMap((s) => (s.gradeId ? [s.gradeId] : [])));
    const classIds = new Set(scopes.flatMap((s) => (s.classId ? [s.classId] : [])));
    const collegeIds = new Set(scopes.flatMap((s) => (s.collegeId ? [s.collegeId] : [])));
    inScope = (r) => gradeIds.has(r.gradeId) || classIds.has(r.classId) || (r.collegeId != null && collegeIds.has(r.collegeId));
    tested = new Set(done.map((d) => d.studentId));
  }

  const latestOf = new Map(latest.map((l) => [l.studentId, l as unknown as Record<string, unknown> & { bmi: number | null; bmiLevel: string | null }]));
  const exemptionOf = new Map(exemptions.map((e) => [`${e.studentId}|${e.schoolYearId}`, e.kind as ExemptionKind]));
  const resultsOf = new Map<string, YearPlanResult[]>();
  for (const r of yearRows) {
    const key = `${r.studentId}|${r.schoolYearId}`;
    const list = resultsOf.get(key) ?? [];
    list.push({ planId: r.planId, retestOfPlanId: r.retestOfPlanId, startDate: r.startDate, complete: r.complete, total: r.total });
    resultsOf.set(key, list);
  }
  const bands = new Set<string>(settings.bmiBands);
  const out: Warning[] = [];
  for (const s of roster) {
    const exemption = exemptionOf.get(`${s.studentId}|${year.id}`) ?? null;
    // An approved exemption (免予执行) takes the student out of every warning of the year (docs/product-rules.md#warnings).
    if (exemption === 'exempt') continue;
    const base = { studentId: s.studentId, name: s.name, regNo: s.regNo, gender: s.gender, classId: s.classId, className: s.className, gradeNo: s.gradeNo };
    const blank = { items: [] as string[], bmiBand: null, bmi: null, lastTotal: null, thisTotal: null, declinePoints: null, planName: null };
    const l = latestOf.get(s.studentId);
    if (l && settings.failingItem) {
      const failed = FAILING_ITEMS.filter((i) => l[i] === 'fail');
      if (failed.length > 0) out.push({ ...base, ...blank, id: `${s.studentId}:failingItem`, kind: 'failingItem', items: failed });
    }
    if (l?.bmiLevel && bands.has(l.bmiLevel)) {
      out.push({ ...base, ...blank, id: `${s.studentId}:bmi`, kind: 'bmi', bmiBand: l.bmiLevel as WarningBmiBand, bmi: l.bmi });
    }
    if (previousId) {
      const now = yearResult(resultsOf.get(`${s.studentId}|${year.id}`) ?? [], exemption);
      const before = yearResult(resultsOf.get(`${s.studentId}|${previousId}`) ?? [], exemptionOf.get(`${s.studentId}|${previousId}`) ?? null);
      if (now.total != null && before.total != null) {
        const fall = Math.round((before.total - now.total) * 10) / 10;
        if (fall > settings.declinePoints) {
          out.push({ ...base, ...blank, id: `${s.studentId}:decline`, kind: 'decline', lastTotal: before.total, thisTotal: now.total, declinePoints: fall });
        }
      }
    }
    // A deferred student (暂缓执行) is not expected in the plan.
    if (plan && settings.missing && exemption !== 'deferred' && inScope(s) && !tested.has(s.studentId)) {
      out.push({ ...base, ...blank, id: `${s.studentId}:missing`, kind: 'missing', planName: plan.name });
    }
  }
  return out;
}

interface CaseLite {
  id: string;
  studentId: string;
  kind: WarningKind;
  status: CaseStatus;
  teacherName: string | null;
}

async function casesOf(db: DbOrTx, orgId: string, yearId: string): Promise<Map<string, CaseLite>> {
  const rows = await db
    .select({ id: warningCases.id, studentId: warningCases.studentId, kind: warningCases.kind, status: warningCases.status, teacherName: teachers.name })
    .from(warningCases)
    .leftJoin(teachers, eq(teachers.id, warningCases.assignedTeacherId))
    .where(and(eq(warningCases.orgId, orgId), eq(warningCases.schoolYearId, yearId)));
  return new Map(rows.map((r) => [`${r.studentId}:${r.kind}`, r]));
}

async function filteredWarnings(db: DbOrTx, actor: Actor, q: Omit<WarningListQuery, 'current' | 'size'>, now: Date): Promise<WarningRow[]> {
  const year = await schoolYearOf(db, actor.tenantOrgId, q.schoolYear);
  if (!year) return [];
  const warnings = await computeWarnings(db, await viewerOf(db, actor), year, now, { gradeNo: q.gradeNo, classId: q.classId });
  const cases = await casesOf(db, actor.tenantOrgId, year.id);
  const rows: WarningRow[] = [];
  for (const w of warnings) {
    if (q.kind && w.kind !== q.kind) continue;
    const c = cases.get(w.id);
    const status = c?.status ?? null;
    if (q.caseStatus && (q.caseStatus === 'none' ? status !== null : status !== q.caseStatus)) continue;
    rows.push({ ...w, caseId: c?.id ?? null, caseStatus: status, assignedTeacherName: c?.teacherName ?? null });
  }
  return rows;
}

/** The warning list: one row per student and kind, paged (the computation is set-based; paging is of its answer). */
export async function warningPage(db: DbOrTx, actor: Actor, q: WarningListQuery, now: Date): Promise<Page<WarningRow>> {
  const rows = await filteredWarnings(db, actor, q, now);
  const start = (q.current - 1) * q.size;
  return { records: rows.slice(start, start + q.size), total: rows.length, current: q.current, size: q.size };
}

/** How many students' warnings the export writes (the export approval's count). */
export const warningExportRows = async (db: DbOrTx, actor: Actor, q: Omit<WarningListQuery, 'current' | 'size'>, now: Date): Promise<number> =>
  (await filteredWarnings(db, actor, q, now)).length;

/**
 * The list as a sheet, with the same filters: each column names the warning list's column it shows
 * (src/features/warnings/components/warning-screens.tsx), so the export follows the columns the user shows
 * (server/lib/list-export.ts). The grade is not on the list: it keeps its place.
 */
export async function warningExport(db: DbOrTx, actor: Actor, q: Omit<WarningListQuery, 'current' | 'size'>, t: Translate, now: Date): Promise<{ sheet: ListSheet; fileName: string }> {
  const rows = await filteredWarnings(db, actor, q, now);
  const h = (k: string) => t(`warnings:export.${k}`, RAW);
  const columns: ListExportColumn[] = [
    { header: h('grade'), width: 10 },
    { header: h('class'), width: 16, list: 'className' },
    { header: h('name'), width: 12, list: 'name' },
    { header: h('regNo'), width: 22, text: true, list: 'name' },
    { header: h('kind'), width: 12, list: 'kind' },
    { header: h('detail'), width: 40, list: 'detail' },
    { header: h('caseStatus'), width: 10, list: 'caseStatus' },
    { header: h('teacher'), width: 12, list: 'assignedTeacherName' },
  ];
  const body = rows.map((r) => [
    t(gradeNameKey(r.gradeNo), RAW),
    r.className,
    r.name,
    r.regNo,
    t(`warnings:kind.${r.kind}`, RAW),
    warningDetailText(r, t),
    r.caseStatus ? t(`warnings:caseStatus.${r.caseStatus}`, RAW) : t('warnings:caseFilter.none', RAW),
    r.assignedTeacherName ?? '',
  ]);
  return { sheet: { name: h('sheet'), columns, rows: body }, fileName: `${h('fileName')}.xlsx` };
}

const emptyCounts = (): WarningCounts => ({ byKind: Object.fromEntries(WARNING_KINDS.map((k) => [k, 0])) as Record<WarningKind, number>, students: 0, openCases: 0, closedCases: 0 });

/** Counts of a school's warnings and cases (the dashboard card, the district column, the wall scene): never a name. */
export async function warningCounts(db: DbOrTx, viewer: Viewer, now: Date): Promise<WarningCounts & { academicYear: string | null }> {
  const year = await schoolYearOf(db, viewer.tenantOrgId);
  if (!year) return { ...emptyCounts(), academicYear: null };
  const warnings = await computeWarnings(db, viewer, year, now);
  const counts = emptyCounts();
  for (const w of warnings) counts.byKind[w.kind]++;
  counts.students = new Set(warnings.map((w) => w.studentId)).size;
  const rows = await db
    .select({ status: warningCases.status, n: sql<number>`count(*)::int` })
    .from(warningCases)
    .innerJoin(students, eq(students.id, warningCases.studentId))
    .where(and(eq(warningCases.orgId, viewer.tenantOrgId), eq(warningCases.schoolYearId, year.id), inClassScope(viewer.classScope, students.classId)))
    .groupBy(warningCases.status);
  for (const r of rows) {
    if (r.status === 'open') counts.openCases = r.n;
    else counts.closedCases = r.n;
  }
  return { ...counts, academicYear: year.academicYear };
}

export const warningSummary = async (db: DbOrTx, actor: Actor, now: Date) => warningCounts(db, await viewerOf(db, actor), now);

/** The district's schools, each with its warnings and cases (counts only), for a management organisation. */
export async function districtWarnings(db: DbOrTx, actor: Pick<Actor, 'tenantOrgId'>, now: Date) {
  const { rows } = await db.execute<{ id: string; name: string }>(sql`with recursive subtree(id) as (
      select id from orgs where id = ${actor.tenantOrgId}
      union all select o.id from orgs o join subtree s on o.parent_id = s.id
    ) select o.id, o.name from orgs o join subtree s on s.id = o.id where o.id <> ${actor.tenantOrgId} and o.type in (${ORG_TYPE.k12}, ${ORG_TYPE.university}) and o.enabled order by o.name`);
  const out = [];
  // One computation per school (each a handful of set-based statements), never per student.
  for (const school of rows) out.push({ orgId: school.id, orgName: school.name, ...(await warningCounts(db, { tenantOrgId: school.id, classScope: WHOLE_ORG }, now)) });
  return out;
}

/** The wall's warnings scene: counts of a school, or of a district's schools (summed, and each school's); no names. */
export async function warningsSceneData(db: DbOrTx, orgId: string, district: boolean, now: Date): Promise<WarningsSceneData> {
  if (!district) {
    const { academicYear: _year, ...counts } = await warningCounts(db, { tenantOrgId: orgId, classScope: WHOLE_ORG }, now);
    return { scene: 'warnings', counts, schools: [] };
  }
  const rows = await districtWarnings(db, { tenantOrgId: orgId }, now);
  const counts = emptyCounts();
  for (const r of rows) {
    for (const k of WARNING_KINDS) counts.byKind[k] += r.byKind[k];
    counts.students += r.students;
    counts.openCases += r.openCases;
    counts.closedCases += r.closedCases;
  }
  return { scene: 'warnings', counts, schools: rows.map((r) => ({ orgName: r.orgName, students: r.students, openCases: r.openCases, closedCases: r.closedCases })) };
}

/** The filters' choices: the school years, grades and classes of the viewer's scope, and the staff a case may go to. */
export async function warningOptions(db: DbOrTx, actor: Actor): Promise<WarningOptions> {
  const scope = await classScopeOf(db, actor);
  const [years, cls, people] = await Promise.all([
    db
      .select({ schoolYear: schoolYears.startYear, academicYear: schoolYears.academicYear, current: schoolYears.current })
      .from(schoolYears)
      .where(eq(schoolYears.orgId, actor.tenantOrgId))
      .orderBy(desc(schoolYears.startYear)),
    db
      .select({ id: classes.id, name: classes.name, gradeNo: grades.gradeNo })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(classes.orgId, actor.tenantOrgId), eq(grades.graduated, false), eq(classes.enabled, true), inClassScope(scope, classes.id)))
      .orderBy(asc(grades.gradeNo), asc(classes.code), asc(classes.name)),
    db
      .select({ id: teachers.id, name: teachers.name })
      .from(teachers)
      .where(and(eq(teachers.orgId, actor.tenantOrgId), eq(teachers.enabled, true)))
      .orderBy(asc(teachers.name)),
  ]);
  return { schoolYears: years, grades: [...new Set(cls.map((c) => c.gradeNo))], classes: cls, teachers: people };
}

