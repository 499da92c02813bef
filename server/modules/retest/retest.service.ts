import { and, asc, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import { LEVEL_BANDS } from '@/domain/constants';
import {
  defaultRetestName,
  type RetestCandidate,
  type RetestCreate,
  type RetestPlan,
  type RetestStudent,
  type RetestStudentPage,
  type RetestStudentQuery,
} from '@/domain/retest/retest';
import { planRequestSchema } from '@/domain/test-plans/schemas';
import { planStatus } from '@/domain/test-plans/status';
import type { Gender } from '@/domain/physique/standard';
import type { DbOrTx, Tx } from '../../db/client';
import { physiqueResults } from '../../db/schema/physique';
import { schoolYears, semesters, students } from '../../db/schema/school';
import { testPlanItems, testPlans, testPlanScopes } from '../../db/schema/test-plans';
import { AppError, fieldError } from '../../lib/app-error';
import { classScopeTest, type ClassScope } from '../../lib/data-scope';
import { notFound } from '../../lib/resource';
import type { ListExportColumn, ListSheet } from '../../lib/list-export';
import type { Actor } from '../../plugins/tenant';
import { studentYears, type StudentYear } from '../physique-results/year-results';
import { createPlan } from '../test-plans/test-plans-manage.service';
import { lockPlanInScope, planNotBinned, type PlanRecord } from '../test-plans/test-plans.service';
import { admissionOf, retestAdmission, type RetestAdmission } from './retest-admission';

/**
 * 补测 (docs/product-rules.md#physique-year, "Re-test"): the re-test plans of a school, each with the students it
 * admits and their year, and 发起补测 (a re-test plan made by the test plans' own creation code).
 */

/** The school's regular plans (no re-test plan, not binned), or its re-test plans. */
const plansOf = (db: DbOrTx, orgId: string, retests: boolean) =>
  db
    .select({ plan: testPlans, academicYear: schoolYears.academicYear })
    .from(testPlans)
    .innerJoin(schoolYears, eq(schoolYears.id, testPlans.schoolYearId))
    .where(and(eq(testPlans.orgId, orgId), planNotBinned, retests ? isNotNull(testPlans.retestOfPlanId) : isNull(testPlans.retestOfPlanId)))
    .orderBy(desc(testPlans.startDate), desc(testPlans.createdAt), asc(testPlans.id));

/** Whom a re-test plan admits and their years with its results (what its row and its students are made of). */
async function retestFacts(db: DbOrTx, plan: PlanRecord): Promise<{ admission: RetestAdmission; years: Map<string, StudentYear> }> {
  const admission = (await retestAdmission(db, plan))!;
  const years = await studentYears(db, { orgId: plan.orgId, schoolYearId: plan.schoolYearId, students: [...admission.eligible] });
  return { admission, years };
}

/** A re-test plan's row: its original, status and the counts of the students it admits. */
async function retestPlanRow(db: DbOrTx, plan: PlanRecord, academicYear: string, now: Date, facts?: Awaited<ReturnType<typeof retestFacts>>): Promise<RetestPlan> {
  const { admission, years } = facts ?? (await retestFacts(db, plan));
  const [original] = await db.select({ name: testPlans.name }).from(testPlans).where(eq(testPlans.id, admission.originalPlanId));
  let tested = 0;
  let passed = 0;
  for (const id of admission.eligible) {
    const y = years.get(id)?.year;
    if (y?.source !== 'retest') continue;
    tested++;
    if (y.total != null && y.total >= LEVEL_BANDS.pass) passed++;
  }
  return {
    id: plan.id,
    name: plan.name,
    originalPlanId: admission.originalPlanId,
    originalPlanName: original?.name ?? '',
    schoolYearId: plan.schoolYearId,
    academicYear,
    startDate: plan.startDate,
    endDate: plan.endDate,
    status: planStatus(plan, now),
    eligible: admission.eligible.size,
    tested,
    passed,
  };
}

/** The school's re-test plans, newest first. */
export async function retestPlans(db: DbOrTx, actor: Actor, now: Date): Promise<RetestPlan[]> {
  const rows = await plansOf(db, actor.tenantOrgId, true);
  const out: RetestPlan[] = [];
  for (const r of rows) out.push(await retestPlanRow(db, r.plan, r.academicYear, now));
  return out;
}

/** A re-test plan of the school (404 otherwise: another school's, a regular plan, a binned one). */
async function retestPlanOf(db: DbOrTx, actor: Actor, planId: string | undefined): Promise<{ plan: PlanRecord; academicYear: string } | null> {
  const rows = await plansOf(db, actor.tenantOrgId, true);
  if (!planId) return rows[0] ?? null;
  const found = rows.find((r) => r.plan.id === planId);
  if (!found) throw notFound();
  return found;
}

/** Every student a re-test plan admits, with the original and re-test totals and the year (by grade, class, number). */
async function retestStudentRows(db: DbOrTx, facts: Awaited<ReturnType<typeof retestFacts>>, classScope: ClassScope, keyword?: string): Promise<RetestStudent[]> {
  const { admission, years } = facts;
  const ids = [...admission.eligible];
  if (ids.length === 0) return [];
  const who = await db
    .select({
      studentId: students.id,
      name: students.name,
      regNo: students.regNo,
      gender: students.gender,
      classId: students.classId,
      // Grade and class when tested in the original plan.
      className: physiqueResults.className,
      gradeNo: physiqueResults.gradeNo,
    })
    .from(physiqueResults)
    .innerJoin(students, eq(students.id, physiqueResults.studentId))
    .where(and(eq(physiqueResults.planId, admission.originalPlanId), inArray(physiqueResults.studentId, ids)));
  const mine = classScopeTest(classScope);
  const word = keyword?.toLowerCase();
  return who
    .filter((s) => mine(s.classId) && (!word || s.name.toLowerCase().includes(word) || s.regNo.toLowerCase().includes(word)))
    .sort((a, b) => a.gradeNo - b.gradeNo || a.className.localeCompare(b.className) || a.regNo.localeCompare(b.regNo))
    .map((s) => {
      const year = years.get(s.studentId)?.year;
      return {
        studentId: s.studentId,
        name: s.name,
        regNo: s.regNo,
        gender: s.gender as Gender,
        className: s.className,
        gradeNo: s.gradeNo,
        planTotal: year?.planTotal ?? null,
        retestTotal: year?.retestTotal ?? null,
        yearSource: year?.source ?? 'none',
        yearTotal: year?.total ?? null,
        yearLevel: year?.level ?? null,
      };
    });
}

/** The page's list: one re-test plan (the latest when none is named) and its eligible students, paged. */
export async function retestStudentPage(db: DbOrTx, actor: Actor, q: RetestStudentQuery, classScope: ClassScope, now: Date): Promise<RetestStudentPage> {
  const found = await retestPlanOf(db, actor, q.planId);
  if (!found) return { records: [], total: 0, current: q.current, size: q.size, plan: null };
  const facts = await retestFacts(db, found.plan);
  const rows = await retestStudentRows(db, facts, classScope, q.keyword);
  const from = (q.current - 1) * q.size;
  return { records: rows.slice(from, from + q.size), total: rows.length, current: q.current, size: q.size, plan: await retestPlanRow(db, found.plan, found.academicYear, now, facts) };
}

/**
 * The export (retest:export): the eligible students of one re-test plan with both totals and the year. Each export column names the re-test list's column it shows (src/features/retest/components/retest-screen.tsx), so
 * the export follows the columns the user shows (server/lib/list-export.ts). The grade is not on the list: it keeps
 * its place.
 */
/** How many students the re-test export writes (the export approval's count). */
export async function retestExportRows(db: DbOrTx, actor: Actor, q: Omit<RetestStudentQuery, 'current' | 'size'>, classScope: ClassScope): Promise<number> {
  const found = await retestPlanOf(db, actor, q.planId);
  return found ? (await retestStudentRows(db, await retestFacts(db, found.plan), classScope, q.keyword)).length : 0;
}

export async function retestSheet(db: DbOrTx, actor: Actor, q: Omit<RetestStudentQuery, 'current' | 'size'>, classScope: ClassScope, t: TFunction): Promise<{ sheet: ListSheet; fileName: string }> {
  const found = await retestPlanOf(db, actor, q.planId);
  const rows = found ? await retestStudentRows(db, await retestFacts(db, found.plan), classScope, q.keyword) : [];
  const widths: Record<string, number> = { name: 12, regNo: 22, gender: 6, gradeNo: 6, className: 16, planTotal: 12, retestTotal: 12, yearSource: 12, yearTotal: 12, yearLevel: 10 };
  const columns: ListExportColumn[] = Object.entries(widths).map(([k, width]) => ({ header: t(`retest:column.${k}`), width, text: k === 'regNo', list: k === 'gradeNo' ? undefined : k }));
  const body = rows.map((r) => [
    r.name,
    r.regNo,
    t(`physique:gender.${r.gender}`),
    r.gradeNo,
    r.className,
    r.planTotal ?? '',
    r.retestTotal ?? '',
    t(`retest:source.${r.yearSource}`),
    r.yearTotal ?? '',
    r.yearLevel ? t(`physique:level.${r.yearLevel}`) : '',
  ]);
  const name = found ? found.plan.name : t('retest:title');
  return { sheet: { name: t('retest:title'), columns, rows: body }, fileName: `${name}.xlsx` };
}

/** The school year's first and last day: its semesters' (the re-test's days must lie within). */
async function yearBounds(db: DbOrTx, schoolYearId: string): Promise<{ start: string; end: string; terms: { code: number; startDate: string; endDate: string }[] } | null> {
  const terms = await db
    .select({ code: semesters.code, startDate: semesters.startDate, endDate: semesters.endDate })
    .from(semesters)
    .where(eq(semesters.schoolYearId, schoolYearId))
    .orderBy(asc(semesters.startDate));
  if (terms.length === 0) return null;
  return { start: terms[0].startDate, end: terms.reduce((e, s) => (s.endDate > e ? s.endDate : e), terms[0].endDate), terms };
}

/** How many of a plan's tested students a re-test of it would admit now (no re-test results yet). */
async function eligibleCount(db: DbOrTx, plan: PlanRecord): Promise<number> {
  return (await admissionOf(db, plan, plan.id)).eligible.size;
}

/** Plans the school may re-test (the 发起补测 dialog): regular, with students a re-test would admit, not re-tested yet. */
export async function retestCandidates(db: DbOrTx, actor: Actor): Promise<RetestCandidate[]> {
  const [regular, retests] = await Promise.all([
    plansOf(db, actor.tenantOrgId, false),
    db.select({ of: testPlans.retestOfPlanId }).from(testPlans).where(and(eq(testPlans.orgId, actor.tenantOrgId), isNotNull(testPlans.retestOfPlanId))),
  ]);
  const taken = new Set(retests.map((r) => r.of));
  const out: RetestCandidate[] = [];
  for (const { plan, academicYear } of regular) {
    if (taken.has(plan.id)) continue;
    const eligible = await eligibleCount(db, plan);
    const bounds = await yearBounds(db, plan.schoolYearId);
    if (eligible > 0 && bounds) out.push({ id: plan.id, name: plan.name, schoolYearId: plan.schoolYearId, academicYear, startDate: plan.startDate, yearEnd: bounds.end, eligible });
  }
  return out;
}

const retestError = (status: number, key: `retest:${string}`) => new AppError(status, key);

/**
 * 发起补测: a re-test plan of `body.planId` (docs/product-rules.md#physique-year, "Re-test"), made by the test plans'
 * createPlan with the original's school year, scope, items and standard version. Refused: a plan of another school
 * (404), a re-test plan (409), a plan re-tested already (409, one re-test per plan), a plan no student of which may be
 * re-tested (409), days outside the school year or before the original's start (400 on the field).
 */
export async function createRetest(tx: Tx, actor: { tenantOrgId: string; orgType: number; userId: string }, body: RetestCreate, now: Date): Promise<RetestPlan> {
  // Locked: two requests re-testing one plan take turns, and the second sees the first's re-test.
  const original = await lockPlanInScope(tx, actor.tenantOrgId, body.planId);
  if (original.orgId !== actor.tenantOrgId) throw notFound();
  if (original.retestOfPlanId) throw retestError(409, 'retest:error.retestOfRetest');
  if ((await tx.$count(testPlans, eq(testPlans.retestOfPlanId, original.id))) > 0) throw retestError(409, 'retest:error.alreadyRetested');
  const bounds = await yearBounds(tx, original.schoolYearId);
  if (!bounds) throw retestError(409, 'retest:error.noSemesters');
  if (body.startDate < original.startDate) throw fieldError('startDate', 'retest:validation.beforeOriginal', { date: original.startDate });
  if (body.startDate < bounds.start || body.endDate > bounds.end) throw fieldError(body.startDate < bounds.start ? 'startDate' : 'endDate', 'retest:validation.outsideYear', { start: bounds.start, end: bounds.end });
  if ((await eligibleCount(tx, original)) === 0) throw retestError(409, 'retest:error.noneEligible');

  const [scopes, items] = await Promise.all([
    tx.select().from(testPlanScopes).where(eq(testPlanScopes.planId, original.id)),
    tx.select({ gradeNo: testPlanItems.gradeNo, item: testPlanItems.item }).from(testPlanItems).where(eq(testPlanItems.planId, original.id)),
  ]);
  const byGrade = new Map<number, string[]>();
  for (const i of items) byGrade.set(i.gradeNo, [...(byGrade.get(i.gradeNo) ?? []), i.item]);
  // The semester the re-test starts in (a spring re-test of an autumn plan), else the original's.
  const term = bounds.terms.find((s) => s.startDate <= body.startDate && body.startDate <= s.endDate);
  const request = planRequestSchema.parse({
    name: body.name ?? defaultRetestName(original.name),
    schoolYearId: original.schoolYearId,
    semesterCode: term?.code ?? original.semesterCode,
    startDate: body.startDate,
    endDate: body.endDate,
    scopeType: original.scopeType,
    scopeIds: scopes.map((s) => s.gradeId ?? s.classId ?? s.collegeId).filter((id): id is string => id != null),
    items: [...byGrade].map(([gradeNo, list]) => ({ gradeNo, items: list })),
    standardVersion: original.standardVersion,
  });
  const made = await createPlan(tx, { tenantOrgId: actor.tenantOrgId, orgType: actor.orgType, userId: actor.userId, now }, request, { retestOfPlanId: original.id });
  // The original's items exactly, by grade at test time (createPlan keys a past year's cohorts by their grade today).
  await tx.delete(testPlanItems).where(eq(testPlanItems.planId, made.id));
  if (items.length > 0) await tx.insert(testPlanItems).values(items.map((i) => ({ planId: made.id, gradeNo: i.gradeNo, item: i.item })));
  const [plan] = await tx.select().from(testPlans).where(eq(testPlans.id, made.id));
  const [year] = await tx.select({ academicYear: schoolYears.academicYear }).from(schoolYears).where(eq(schoolYears.id, plan.schoolYearId));
  return retestPlanRow(tx, plan, year.academicYear, now);
}
