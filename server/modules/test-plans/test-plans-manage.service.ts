import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, gt, ilike, inArray, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { DEFAULT_STANDARD_VERSION, isGrade, ITEM_KEYS, STANDARD_VERSIONS } from '@/domain/physique/standard';
import { binPurgeAt, canUndoEnd, PLAN_BIN_DAYS, type PlanEventKind } from '@/domain/test-plans/access';
import { roundFee } from '@/domain/test-plans/fee';
import { defaultPlanItems, planItemsForGrade } from '@/domain/test-plans/items';
import { PLAN_MSG } from '@/domain/test-plans/messages';
import type { PlanDatesRequest, PlanPageQuery, PlanReopenRequest, PlanRequest, PlanScopeType, SignUpQuery } from '@/domain/test-plans/schemas';
import { planStatus, type PlanStatus } from '@/domain/test-plans/status';
import { localDate } from '@/domain/dates';
import type {
  ClassCompletionRow,
  PlanDetail,
  PlanFormOptions,
  PlanGradeItems,
  PlanRow,
  PlanSchoolOption,
  PlanScopeEntry,
  SignUpRow,
  SignUpStatus,
} from '@/domain/test-plans/types';
import type { Db, DbOrTx } from '../../db/client';
import { orgs } from '../../db/schema/orgs';
import { physiqueResults } from '../../db/schema/physique';
import { classes, colleges, grades, schoolYears, semesters, students } from '../../db/schema/school';
import { testPlanEvents, testPlanItems, testPlans, testPlanScopes } from '../../db/schema/test-plans';
import { AppError } from '../../lib/app-error';
import { inClassScope, WHOLE_ORG, type ClassScope } from '../../lib/data-scope';
import { containsPattern } from '../../lib/query';
import {
  assertPlanEditable,
  classInPlanScope,
  getPlanInScope,
  inOrgTree,
  lockPlanInScope,
  planError,
  planNotBinned,
  runningPlanJob,
  type PlanRecord,
} from './test-plans.service';
import { isoInstant } from '../../lib/iso';
import { conversionOptionsFor, planConversionOf, setPlanConversion } from '../conversion/conversion.service';
import { retestAdmission } from '../retest/retest-admission';

/** Who is asking: the tenant organisation, its type (10 = admin family) and the user. */
export interface PlanActor {
  tenantOrgId: string;
  orgType: number;
  userId: string;
  now: Date;
}

const offset = (q: { current: number; size: number }) => (q.current - 1) * q.size;

/** Scope kinds a school of this type may plan by (docs/product-rules.md#test-plans): K12 grades or classes; universities also colleges. */
export function scopeTypesFor(orgType: number): PlanScopeType[] {
  if (orgType === ORG_TYPE.k12) return ['grade', 'class'];
  if (orgType === ORG_TYPE.university) return ['college', 'grade', 'class'];
  return [];
}

// ---------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------

const planColumns = {
  id: testPlans.id,
  orgId: testPlans.orgId,
  orgName: orgs.name,
  name: testPlans.name,
  schoolYearId: testPlans.schoolYearId,
  academicYear: schoolYears.academicYear,
  semesterCode: testPlans.semesterCode,
  startDate: testPlans.startDate,
  endDate: testPlans.endDate,
  endedAt: testPlans.endedAt,
  scopeType: testPlans.scopeType,
  standardVersion: testPlans.standardVersion,
  feeAmount: testPlans.feeAmount,
  feePrecision: testPlans.feePrecision,
  feeRounding: testPlans.feeRounding,
  createdAt: testPlans.createdAt,
  deletedAt: testPlans.deletedAt,
};

type PlanSelect = Awaited<ReturnType<typeof planQuery>>[number];

function toRow(r: PlanSelect, now: Date): PlanRow {
  return {
    ...r,
    endedAt: isoInstant(r.endedAt),
    createdAt: r.createdAt.toISOString(),
    deletedAt: isoInstant(r.deletedAt),
    purgeAt: r.deletedAt ? binPurgeAt(r.deletedAt).toISOString() : null,
    feeAmount: r.feeAmount === null ? null : Number(r.feeAmount),
    status: planStatus(r, now),
  };
}

const planQuery = (db: DbOrTx, where: SQL | undefined) =>
  db
    .select(planColumns)
    .from(testPlans)
    .innerJoin(orgs, eq(orgs.id, testPlans.orgId))
    .innerJoin(schoolYears, eq(schoolYears.id, testPlans.schoolYearId))
    .where(where);

/** SQL for a status at `today` (the organisations' local date): the same rule as planStatus. */
function statusCondition(status: PlanStatus, today: string): SQL | undefined {
  if (status === 'ended') return or(isNotNull(testPlans.endedAt), sql`${testPlans.endDate} < ${today}`);
  if (status === 'notStarted') return and(isNull(testPlans.endedAt), gt(testPlans.startDate, today));
  return and(isNull(testPlans.endedAt), lte(testPlans.startDate, today), sql`${testPlans.endDate} >= ${today}`);
}

const binCutoff = (now: Date) => new Date(now.getTime() - PLAN_BIN_DAYS * 86_400_000);

/** SQL: the plan is in the recycle bin and still restorable at `now`. */
const inBin = (now: Date) => and(isNotNull(testPlans.deletedAt), gt(testPlans.deletedAt, binCutoff(now)));

/** SQL: the plan's reports are released to the families (a report_releases row), or not. */
const releasedCondition = (released: boolean) => {
  const row = sql`exists (select 1 from report_releases r where r.plan_id = ${testPlans.id})`;
  return released ? row : sql`not ${row}`;
};

/**
 * Plans of the tenant organisation (or of its schools, admin family), newest first, filtered and paged (docs/product-rules.md#test-plans);
 * with `bin`, the recycle bin instead: deleted plans still restorable, most recently deleted first.
 */
export async function planPage(db: DbOrTx, actor: PlanActor, q: PlanPageQuery): Promise<Page<PlanRow>> {
  const where = and(
    inOrgTree(testPlans.orgId, actor.tenantOrgId),
    q.bin ? inBin(actor.now) : planNotBinned,
    q.schoolOrgId ? eq(testPlans.orgId, q.schoolOrgId) : undefined,
    q.name ? ilike(testPlans.name, containsPattern(q.name)) : undefined,
    q.schoolYearId ? eq(testPlans.schoolYearId, q.schoolYearId) : undefined,
    q.academicYear ? eq(schoolYears.academicYear, q.academicYear) : undefined,
    q.semesterCode ? eq(testPlans.semesterCode, q.semesterCode) : undefined,
    q.status ? statusCondition(q.status, localDate(actor.now)) : undefined,
    q.released ? releasedCondition(q.released === 'yes') : undefined,
  );
  const [records, [{ total }]] = await Promise.all([
    planQuery(db, where)
      .orderBy(...(q.bin ? [desc(testPlans.deletedAt)] : []), desc(testPlans.startDate), desc(testPlans.createdAt), asc(testPlans.id))
      .limit(q.size)
      .offset(offset(q)),
    db
      .select({ total: count() })
      .from(testPlans)
      .innerJoin(schoolYears, eq(schoolYears.id, testPlans.schoolYearId))
      .where(where),
  ]);
  return { records: records.map((r) => toRow(r, actor.now)), total, current: q.current, size: q.size };
}

async function scopeEntries(db: DbOrTx, plan: PlanRecord): Promise<PlanScopeEntry[]> {
  if (plan.scopeType === 'grade') {
    return db
      .select({ id: grades.id, name: sql<string>`${grades.gradeNo}::text`, gradeNo: grades.gradeNo })
      .from(testPlanScopes)
      .innerJoin(grades, eq(grades.id, testPlanScopes.gradeId))
      .where(eq(testPlanScopes.planId, plan.id))
      .orderBy(asc(grades.gradeNo), asc(grades.id));
  }
  if (plan.scopeType === 'class') {
    return db
      .select({ id: classes.id, name: classes.name, gradeNo: grades.gradeNo })
      .from(testPlanScopes)
      .innerJoin(classes, eq(classes.id, testPlanScopes.classId))
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(eq(testPlanScopes.planId, plan.id))
      .orderBy(asc(grades.gradeNo), asc(classes.code), asc(classes.id));
  }
  return db
    .select({ id: colleges.id, name: colleges.name, gradeNo: sql<number | null>`null::smallint` })
    .from(testPlanScopes)
    .innerJoin(colleges, eq(colleges.id, testPlanScopes.collegeId))
    .where(eq(testPlanScopes.planId, plan.id))
    .orderBy(asc(colleges.code), asc(colleges.id));
}

async function itemsOf(db: DbOrTx, planId: string): Promise<PlanGradeItems[]> {
  const rows = await db
    .select({ gradeNo: testPlanItems.gradeNo, item: testPlanItems.item })
    .from(testPlanItems)
    .where(eq(testPlanItems.planId, planId));
  const byGrade = new Map<number, Set<string>>();
  for (const r of rows) {
    const set = byGrade.get(r.gradeNo) ?? new Set<string>();
    set.add(r.item);
    byGrade.set(r.gradeNo, set);
  }
  return [...byGrade.entries()]
    .sort(([a], [b]) => a - b)
    // Table order of the standard, whatever order the rows came in.
    .map(([gradeNo, chosen]) => ({ gradeNo, items: ITEM_KEYS.filter((item) => chosen.has(item)) }));
}

/** Students of the plan's organisation in its scope (enabled ones), joined to their class and grade. */
export const studentsInScope = (plan: PlanRecord) =>
  and(eq(students.orgId, plan.orgId), eq(students.enabled, true), classInPlanScope(plan.id));

/**
 * SQL on `students`: those a re-test plan admits (its eligible students, docs/product-rules.md#physique-year,
 * "Re-test"), undefined for a regular plan, whose scope admits everyone in it.
 */
async function admittedOnly(db: DbOrTx, plan: PlanRecord): Promise<SQL | undefined> {
  const admission = await retestAdmission(db, plan);
  if (!admission) return undefined;
  return admission.eligible.size === 0 ? sql`false` : inArray(students.id, [...admission.eligible]);
}

const resultJoin = (planId: string) => and(eq(physiqueResults.planId, planId), eq(physiqueResults.studentId, students.id));

async function countsOf(db: DbOrTx, plan: PlanRecord) {
  const [row] = await db
    .select({
      students: count(),
      tested: count(physiqueResults.id),
      complete: sql<number>`(count(*) filter (where ${physiqueResults.complete}))::int`,
    })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .leftJoin(physiqueResults, resultJoin(plan.id))
    .where(and(studentsInScope(plan), await admittedOnly(db, plan)));
  return row;
}

/** The plan detail (check/{id}): row, scope with names, items per grade, counts, running job. */
export async function planDetail(db: DbOrTx, actor: PlanActor, planId: string): Promise<PlanDetail> {
  const plan = await getPlanInScope(db, actor.tenantOrgId, planId);
  const [[row], scope, items, counts, job, conversion] = await Promise.all([
    planQuery(db, eq(testPlans.id, plan.id)).limit(1),
    scopeEntries(db, plan),
    itemsOf(db, plan.id),
    countsOf(db, plan),
    runningPlanJob(db, plan.id, actor.now),
    planConversionOf(db, plan.id),
  ]);
  const base = toRow(row, actor.now);
  return {
    ...base,
    scope,
    items,
    counts,
    runningJob: job ? { kind: job.kind, startedAt: job.startedAt.toISOString() } : null,
    editable: base.status !== 'ended',
    conversion,
  };
}

const signUpStatusSql = sql<SignUpStatus>`case when ${physiqueResults.id} is null then 'notTested' when ${physiqueResults.complete} then 'complete' else 'incomplete' end`;

/** Students in the plan's scope with their result status, by grade, class and registration number, paged (docs/product-rules.md#test-plans: sign-up list). */
export async function signUpPage(db: DbOrTx, actor: PlanActor, planId: string, q: SignUpQuery, classScope: ClassScope = WHOLE_ORG): Promise<Page<SignUpRow>> {
  const plan = await getPlanInScope(db, actor.tenantOrgId, planId);
  const statusWhere =
    q.status === 'notTested'
      ? isNull(physiqueResults.id)
      : q.status === 'complete'
        ? eq(physiqueResults.complete, true)
        : q.status === 'incomplete'
          ? and(isNotNull(physiqueResults.id), eq(physiqueResults.complete, false))
          : undefined;
  const where = and(
    studentsInScope(plan),
    await admittedOnly(db, plan),
    inClassScope(classScope, students.classId),
    q.classId ? eq(students.classId, q.classId) : undefined,
    q.keyword ? or(ilike(students.name, containsPattern(q.keyword)), ilike(students.regNo, containsPattern(q.keyword))) : undefined,
    statusWhere,
  );
  const [records, [{ total }]] = await Promise.all([
    db
      .select({
        studentId: students.id,
        name: students.name,
        regNo: students.regNo,
        studentNo: students.studentNo,
        gender: students.gender,
        classId: classes.id,
        className: classes.name,
        gradeNo: grades.gradeNo,
        status: signUpStatusSql,
        total: physiqueResults.total,
        level: physiqueResults.level,
        invalid: sql<boolean>`coalesce(${physiqueResults.invalid}, false)`,
      })
      .from(students)
      .innerJoin(classes, eq(classes.id, students.classId))
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .leftJoin(physiqueResults, resultJoin(plan.id))
      .where(where)
      .orderBy(asc(grades.gradeNo), asc(classes.code), asc(classes.name), asc(students.regNo), asc(students.id))
      .limit(q.size)
      .offset(offset(q)),
    db
      .select({ total: count() })
      .from(students)
      .innerJoin(classes, eq(classes.id, students.classId))
      .leftJoin(physiqueResults, resultJoin(plan.id))
      .where(where),
  ]);
  return { records, total, current: q.current, size: q.size };
}

/** Completion per class in the plan's scope: students, tested, complete, rate (docs/product-rules.md#test-plans). */
export async function classCompletion(db: DbOrTx, actor: PlanActor, planId: string, classScope: ClassScope = WHOLE_ORG): Promise<ClassCompletionRow[]> {
  const plan = await getPlanInScope(db, actor.tenantOrgId, planId);
  const admitted = await admittedOnly(db, plan);
  const rows = await db
    .select({
      classId: classes.id,
      className: classes.name,
      gradeNo: grades.gradeNo,
      students: count(students.id),
      tested: count(physiqueResults.id),
      complete: sql<number>`(count(${physiqueResults.id}) filter (where ${physiqueResults.complete}))::int`,
    })
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .leftJoin(students, and(eq(students.classId, classes.id), eq(students.enabled, true), admitted))
    .leftJoin(physiqueResults, resultJoin(plan.id))
    .where(and(eq(classes.orgId, plan.orgId), classInPlanScope(plan.id), inClassScope(classScope, classes.id)))
    .groupBy(classes.id, classes.name, classes.code, grades.gradeNo)
    // A re-test plan lists the classes of the students it admits only.
    .having(admitted ? sql`count(${students.id}) > 0` : undefined)
    .orderBy(asc(grades.gradeNo), asc(classes.code), asc(classes.id));
  return rows.map((r) => ({ ...r, rate: r.students === 0 ? 0 : Math.round((r.complete / r.students) * 10_000) / 10_000 }));
}

// ---------------------------------------------------------------------------------------------
// Form options
// ---------------------------------------------------------------------------------------------

/** Schools a management organisation may plan for: K12 schools and universities below it (admin family). */
export async function planSchools(db: DbOrTx, tenantOrgId: string): Promise<PlanSchoolOption[]> {
  return db
    .select({ id: orgs.id, name: orgs.name, type: orgs.type })
    .from(orgs)
    .where(and(inOrgTree(orgs.id, tenantOrgId), inArray(orgs.type, [ORG_TYPE.k12, ORG_TYPE.university])))
    .orderBy(asc(orgs.code), asc(orgs.name), asc(orgs.id));
}

/**
 * The school a plan is written for: the tenant itself (k12, gx), or for a management organisation
 * the `schoolOrgId` it names, which must be a K12 school or university below it.
 */
async function targetSchool(db: DbOrTx, actor: PlanActor, schoolOrgId: string | undefined): Promise<{ id: string; type: number }> {
  if (actor.orgType === ORG_TYPE.management) {
    if (!schoolOrgId) throw planError(400, PLAN_MSG.schoolRequired);
    const [school] = await db
      .select({ id: orgs.id, type: orgs.type })
      .from(orgs)
      .where(and(eq(orgs.id, schoolOrgId), inOrgTree(orgs.id, actor.tenantOrgId), inArray(orgs.type, [ORG_TYPE.k12, ORG_TYPE.university])))
      .limit(1);
    if (!school) throw planError(400, PLAN_MSG.schoolNotFound);
    return school;
  }
  const [own] = await db.select({ id: orgs.id, type: orgs.type }).from(orgs).where(eq(orgs.id, actor.tenantOrgId)).limit(1);
  if (!own) throw new AppError(404, ERR.notFound);
  return own;
}

/** What the plan form offers for the school (tenant, or `schoolOrgId` in the admin family). */
export async function planFormOptions(db: DbOrTx, actor: PlanActor, schoolOrgId?: string, classScope: ClassScope = WHOLE_ORG): Promise<PlanFormOptions> {
  const school = await targetSchool(db, actor, schoolOrgId);
  // The score screens filter by these grades and classes too: a limited data scope offers only its own (docs/product-rules.md#data-scopes).
  const mine = inClassScope(classScope, classes.id);
  const [years, terms, gradeRows, classRows, collegeRows, conversionTables] = await Promise.all([
    db
      .select({ id: schoolYears.id, academicYear: schoolYears.academicYear, current: schoolYears.current })
      .from(schoolYears)
      .where(eq(schoolYears.orgId, school.id))
      .orderBy(desc(schoolYears.startYear)),
    db
      .select({ schoolYearId: semesters.schoolYearId, code: semesters.code, startDate: semesters.startDate, endDate: semesters.endDate, current: semesters.current })
      .from(semesters)
      .where(eq(semesters.orgId, school.id))
      .orderBy(asc(semesters.startDate)),
    db
      .select({ id: grades.id, gradeNo: grades.gradeNo, stage: grades.stage, enrolYear: grades.enrolYear })
      .from(grades)
      .where(
        and(
          eq(grades.orgId, school.id),
          eq(grades.graduated, false),
          mine ? inArray(grades.id, db.select({ id: classes.gradeId }).from(classes).where(mine)) : undefined,
        ),
      )
      .orderBy(asc(grades.gradeNo), desc(grades.enrolYear)),
    db
      .select({ id: classes.id, name: classes.name, gradeId: classes.gradeId, gradeNo: grades.gradeNo, collegeId: classes.collegeId })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(classes.orgId, school.id), eq(classes.enabled, true), eq(grades.graduated, false), mine))
      .orderBy(asc(grades.gradeNo), asc(classes.code), asc(classes.name)),
    db.select({ id: colleges.id, name: colleges.name, code: colleges.code }).from(colleges).where(eq(colleges.orgId, school.id)).orderBy(asc(colleges.code)),
    conversionOptionsFor(db, school.id),
  ]);
  const gradeNos = [...new Set(gradeRows.map((g) => g.gradeNo))].filter(isGrade).sort((a, b) => a - b);
  return {
    orgId: school.id,
    orgType: school.type,
    scopeTypes: scopeTypesFor(school.type),
    schoolYears: years.map((y) => ({
      ...y,
      semesters: terms.filter((s) => s.schoolYearId === y.id).map(({ schoolYearId: _year, ...s }) => s),
    })),
    grades: gradeRows,
    classes: classRows,
    colleges: school.type === ORG_TYPE.university ? collegeRows : [],
    standardVersions: [...STANDARD_VERSIONS],
    defaultStandardVersion: DEFAULT_STANDARD_VERSION,
    itemsByVersion: Object.fromEntries(STANDARD_VERSIONS.map((v) => [v, defaultPlanItems(v, gradeNos)])),
    conversionTables,
  };
}

// ---------------------------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------------------------

interface ResolvedPlan {
  scopeRows: (typeof testPlanScopes.$inferInsert)[];
  itemRows: (typeof testPlanItems.$inferInsert)[];
}

/**
 * Checks the request against the school's own data (school year and semester, scope ids of the
 * right kind) and works out the items of every grade in scope (docs/product-rules.md#test-plans). 400 with a testPlan message.
 */
async function resolvePlan(tx: DbOrTx, school: { id: string; type: number }, planId: string, body: PlanRequest): Promise<ResolvedPlan> {
  const [year] = await tx
    .select({ id: schoolYears.id })
    .from(schoolYears)
    .where(and(eq(schoolYears.id, body.schoolYearId), eq(schoolYears.orgId, school.id)))
    .limit(1);
  if (!year) throw planError(400, PLAN_MSG.schoolYearNotFound);
  const [term] = await tx
    .select({ id: semesters.id })
    .from(semesters)
    .where(and(eq(semesters.schoolYearId, year.id), eq(semesters.code, body.semesterCode)))
    .limit(1);
  if (!term) throw planError(400, PLAN_MSG.semesterNotFound);
  if (!scopeTypesFor(school.type).includes(body.scopeType)) throw planError(400, PLAN_MSG.scopeTypeNotAllowed);

  const ids = body.scopeIds;
  let gradeNos: number[];
  if (body.scopeType === 'grade') {
    const rows = await tx
      .select({ id: grades.id, gradeNo: grades.gradeNo })
      .from(grades)
      .where(and(inArray(grades.id, ids), eq(grades.orgId, school.id)));
    if (rows.length !== ids.length) throw planError(400, PLAN_MSG.scopeNotFound);
    gradeNos = rows.map((r) => r.gradeNo);
  } else if (body.scopeType === 'class') {
    const rows = await tx
      .select({ id: classes.id, gradeNo: grades.gradeNo })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(inArray(classes.id, ids), eq(classes.orgId, school.id)));
    if (rows.length !== ids.length) throw planError(400, PLAN_MSG.scopeNotFound);
    gradeNos = rows.map((r) => r.gradeNo);
  } else {
    const rows = await tx
      .select({ id: colleges.id })
      .from(colleges)
      .where(and(inArray(colleges.id, ids), eq(colleges.orgId, school.id)));
    if (rows.length !== ids.length) throw planError(400, PLAN_MSG.scopeNotFound);
    const held = await tx
      .selectDistinct({ gradeNo: grades.gradeNo })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(classes.orgId, school.id), inArray(classes.collegeId, ids)));
    gradeNos = held.map((r) => r.gradeNo);
  }

  const chosen = new Map((body.items ?? []).map((g) => [g.gradeNo, g.items]));
  const itemRows: ResolvedPlan['itemRows'] = [];
  for (const gradeNo of [...new Set(gradeNos)].sort((a, b) => a - b)) {
    if (!isGrade(gradeNo)) continue;
    const allowed = planItemsForGrade(gradeNo, body.standardVersion);
    // Grades given by the request but outside the scope are ignored; grades left out get every item.
    const items = chosen.get(gradeNo) ?? allowed;
    if (items.length === 0 || items.some((i) => !allowed.includes(i))) throw planError(400, PLAN_MSG.gradeItemsInvalid);
    for (const item of items) itemRows.push({ planId, gradeNo, item });
  }

  const scopeRows = ids.map((id) => ({
    planId,
    gradeId: body.scopeType === 'grade' ? id : null,
    classId: body.scopeType === 'class' ? id : null,
    collegeId: body.scopeType === 'college' ? id : null,
  }));
  return { scopeRows, itemRows };
}

/** The grade numbers a resolved plan tests (what a conversion table's stage is checked against). */
const gradesOf = (resolved: ResolvedPlan) => [...new Set(resolved.itemRows.map((r) => r.gradeNo))];

const feeColumns = (body: PlanRequest) => ({
  feeAmount: body.feeAmount === null ? null : roundFee(body.feeAmount, body.feePrecision, body.feeRounding).toFixed(body.feePrecision),
  feePrecision: body.feePrecision,
  feeRounding: body.feeRounding,
});

/**
 * Creates a plan with its scope and items in one transaction (docs/product-rules.md#test-plans); returns its detail.
 * `retestOfPlanId` makes it a re-test plan (server/modules/retest/retest.service.ts checks the original first).
 */
export async function createPlan(db: DbOrTx, actor: PlanActor, body: PlanRequest, link: { retestOfPlanId?: string } = {}): Promise<PlanDetail> {
  const id = await db.transaction(async (tx) => {
    const school = await targetSchool(tx, actor, body.schoolOrgId);
    const planId = randomUUID();
    const resolved = await resolvePlan(tx, school, planId, body);
    await tx.insert(testPlans).values({
      id: planId,
      orgId: school.id,
      name: body.name,
      schoolYearId: body.schoolYearId,
      semesterCode: body.semesterCode,
      startDate: body.startDate,
      endDate: body.endDate,
      scopeType: body.scopeType,
      standardVersion: body.standardVersion,
      retestOfPlanId: link.retestOfPlanId ?? null,
      ...feeColumns(body),
      createdBy: actor.userId,
      createdAt: actor.now,
      updatedAt: actor.now,
    });
    await tx.insert(testPlanScopes).values(resolved.scopeRows);
    if (resolved.itemRows.length > 0) await tx.insert(testPlanItems).values(resolved.itemRows);
    await setPlanConversion(tx, school.id, planId, body.conversionTableId, gradesOf(resolved));
    return planId;
  });
  return planDetail(db, actor, id);
}

/**
 * Edits a plan (docs/product-rules.md#test-plans): refused (409) once ended, while an import or sync runs, and — when
 * results exist — for a change of standard version (the results were scored by the old one).
 * The plan stays in its school; `schoolOrgId` of the body is ignored.
 */
export async function updatePlan(db: DbOrTx, actor: PlanActor, planId: string, body: PlanRequest): Promise<PlanDetail> {
  await db.transaction(async (tx) => {
    const plan = await lockPlanInScope(tx, actor.tenantOrgId, planId);
    assertPlanEditable(plan, actor.now);
    if (await runningPlanJob(tx, plan.id, actor.now)) throw planError(409, PLAN_MSG.jobRunningNoEdit);
    if (body.standardVersion !== plan.standardVersion) {
      const [{ n }] = await tx.select({ n: count() }).from(physiqueResults).where(eq(physiqueResults.planId, plan.id));
      if (n > 0) throw planError(409, PLAN_MSG.standardLocked);
    }
    const [school] = await tx.select({ id: orgs.id, type: orgs.type }).from(orgs).where(eq(orgs.id, plan.orgId)).limit(1);
    const resolved = await resolvePlan(tx, school, plan.id, body);
    await tx
      .update(testPlans)
      .set({
        name: body.name,
        schoolYearId: body.schoolYearId,
        semesterCode: body.semesterCode,
        startDate: body.startDate,
        endDate: body.endDate,
        scopeType: body.scopeType,
        standardVersion: body.standardVersion,
        ...feeColumns(body),
        updatedAt: actor.now,
      })
      .where(eq(testPlans.id, plan.id));
    await tx.delete(testPlanScopes).where(eq(testPlanScopes.planId, plan.id));
    await tx.delete(testPlanItems).where(eq(testPlanItems.planId, plan.id));
    await tx.insert(testPlanScopes).values(resolved.scopeRows);
    if (resolved.itemRows.length > 0) await tx.insert(testPlanItems).values(resolved.itemRows);
    // Left out: the table it applies stays, checked again against the new scope.
    const tableId = body.conversionTableId !== undefined ? body.conversionTableId : (await planConversionOf(tx, plan.id))?.id;
    await setPlanConversion(tx, school.id, plan.id, tableId, gradesOf(resolved));
  });
  return planDetail(db, actor, planId);
}

/** Ends a plan early (docs/product-rules.md#plan-states): at once, so imports and syncs refuse it from now on; 409 when already ended. */
export async function endPlan(db: DbOrTx, actor: PlanActor, planId: string): Promise<PlanDetail> {
  await db.transaction(async (tx) => {
    const plan = await lockPlanInScope(tx, actor.tenantOrgId, planId);
    if (planStatus(plan, actor.now) === 'ended') throw planError(409, PLAN_MSG.alreadyEnded);
    await tx.update(testPlans).set({ endedAt: actor.now, updatedAt: actor.now }).where(eq(testPlans.id, plan.id));
  });
  return planDetail(db, actor, planId);
}

/** Writes an entry of the plan's history (test_plan_events); `by.userId` null = the server itself (purge). */
async function recordEvent(tx: DbOrTx, by: { userId: string | null; now: Date }, plan: PlanRecord, kind: PlanEventKind, detail: Record<string, unknown> = {}): Promise<void> {
  await tx.insert(testPlanEvents).values({ orgId: plan.orgId, planId: plan.id, planName: plan.name, kind, detail, actorId: by.userId, at: by.now });
}

const datesOf = (plan: Pick<PlanRecord, 'startDate' | 'endDate' | 'endedAt'>) => ({
  startDate: plan.startDate,
  endDate: plan.endDate,
  endedAt: isoInstant(plan.endedAt),
});

/**
 * Deletes a plan. One with results goes to the recycle bin (restorable by the school's
 * administrators for PLAN_BIN_DAYS, its results hidden meanwhile); one without is deleted at once
 * with its scope, items and jobs. Refused (409) while an import or sync runs (docs/product-rules.md#plan-states) and while
 * the plan is in progress (end it first), so a plan people are taking part in never disappears under them.
 */
export async function deletePlan(db: DbOrTx, actor: PlanActor, planId: string): Promise<{ binned: boolean }> {
  return db.transaction(async (tx) => {
    const plan = await lockPlanInScope(tx, actor.tenantOrgId, planId);
    if (await runningPlanJob(tx, plan.id, actor.now)) throw planError(409, PLAN_MSG.jobRunningNoDelete);
    if (planStatus(plan, actor.now) === 'inProgress') throw planError(409, PLAN_MSG.inProgressNoDelete);
    // A re-test plan names it (binned ones too): delete the re-test first (docs/product-rules.md#physique-year, "Re-test").
    if ((await tx.$count(testPlans, eq(testPlans.retestOfPlanId, plan.id))) > 0) throw planError(409, PLAN_MSG.hasRetest);
    const [{ n }] = await tx.select({ n: count() }).from(physiqueResults).where(eq(physiqueResults.planId, plan.id));
    if (n === 0) {
      await tx.delete(testPlans).where(eq(testPlans.id, plan.id));
      return { binned: false };
    }
    await tx.update(testPlans).set({ deletedAt: actor.now, deletedBy: actor.userId, updatedAt: actor.now }).where(eq(testPlans.id, plan.id));
    await recordEvent(tx, actor, plan, 'binned', { results: n });
    return { binned: true };
  });
}

/** Takes a plan out of the recycle bin (plan administrators, access.ts); 409 once its PLAN_BIN_DAYS are over. */
export async function restorePlan(db: DbOrTx, actor: PlanActor, planId: string): Promise<PlanDetail> {
  await db.transaction(async (tx) => {
    const plan = await lockPlanInScope(tx, actor.tenantOrgId, planId, { binned: true });
    if (plan.deletedAt && plan.deletedAt <= binCutoff(actor.now)) throw planError(409, PLAN_MSG.binExpired);
    await tx.update(testPlans).set({ deletedAt: null, deletedBy: null, updatedAt: actor.now }).where(eq(testPlans.id, plan.id));
    await recordEvent(tx, actor, plan, 'restored', { deletedAt: isoInstant(plan.deletedAt) });
  });
  return planDetail(db, actor, planId);
}

/**
 * Undoes an early end (plan administrators, access.ts), optionally with corrected dates. Refused
 * (409) when the plan was not ended early and no dates are given, while a job runs, or when the
 * plan would still be over (its last day past: correct the dates too). Recorded in the plan's history.
 */
export async function reopenPlan(db: DbOrTx, actor: PlanActor, planId: string, body: PlanReopenRequest): Promise<PlanDetail> {
  await db.transaction(async (tx) => {
    const plan = await lockPlanInScope(tx, actor.tenantOrgId, planId);
    if (planStatus(plan, actor.now) !== 'ended') throw planError(409, PLAN_MSG.notEnded);
    if (await runningPlanJob(tx, plan.id, actor.now)) throw planError(409, PLAN_MSG.jobRunningNoReopen);
    const dates = body.startDate && body.endDate ? { startDate: body.startDate, endDate: body.endDate } : { startDate: plan.startDate, endDate: plan.endDate };
    if (!canUndoEnd({ ...dates, endedAt: plan.endedAt ?? actor.now }, actor.now)) throw planError(409, PLAN_MSG.reopenDatesPast);
    await tx.update(testPlans).set({ ...dates, endedAt: null, updatedAt: actor.now }).where(eq(testPlans.id, plan.id));
    await recordEvent(tx, actor, plan, 'reopened', { before: datesOf(plan), after: { ...dates, endedAt: null } });
  });
  return planDetail(db, actor, planId);
}

/**
 * Corrects an ended plan's dates (plan administrators, access.ts): an early end stays in force
 * (reopenPlan undoes it). 409 for a plan that is not ended (the ordinary edit does that) or while
 * a job runs. Recorded in the plan's history.
 */
export async function correctPlanDates(db: DbOrTx, actor: PlanActor, planId: string, body: PlanDatesRequest): Promise<PlanDetail> {
  await db.transaction(async (tx) => {
    const plan = await lockPlanInScope(tx, actor.tenantOrgId, planId);
    if (planStatus(plan, actor.now) !== 'ended') throw planError(409, PLAN_MSG.notEnded);
    if (await runningPlanJob(tx, plan.id, actor.now)) throw planError(409, PLAN_MSG.jobRunningNoReopen);
    await tx.update(testPlans).set({ startDate: body.startDate, endDate: body.endDate, updatedAt: actor.now }).where(eq(testPlans.id, plan.id));
    await recordEvent(tx, actor, plan, 'datesCorrected', { before: datesOf(plan), after: { ...datesOf(plan), startDate: body.startDate, endDate: body.endDate } });
  });
  return planDetail(db, actor, planId);
}

/** Deletes for good the plans (and their results) that spent PLAN_BIN_DAYS in the recycle bin; returns how many. */
export async function purgeRecycleBin(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const expired = await tx
      .select()
      .from(testPlans)
      .where(
        and(
          isNotNull(testPlans.deletedAt),
          lt(testPlans.deletedAt, binCutoff(now)),
          // A plan a re-test plan still names waits for it (a binned re-test purged in the same statement does not count).
          sql`not exists (select 1 from test_plans rt where rt.retest_of_plan_id = ${testPlans.id} and (rt.deleted_at is null or rt.deleted_at >= ${binCutoff(now).toISOString()}::timestamptz))`,
        ),
      )
      .for('update', { skipLocked: true });
    if (expired.length === 0) return 0;
    for (const plan of expired) await recordEvent(tx, { userId: null, now }, plan, 'purged', { deletedAt: isoInstant(plan.deletedAt) });
    await tx.delete(testPlans).where(inArray(testPlans.id, expired.map((p) => p.id)));
    return expired.length;
  });
}
