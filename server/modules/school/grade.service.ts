import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { cohortGrade, K12_STAGES, schoolStartYearOf, type GradeDetail, type GradeFormOptions, type GradeSave } from '@/domain/school/grades';
import { gradeNameKey } from '@/domain/school/grade-name';
import { localDate } from '@/domain/dates';
import type { DbOrTx, Tx } from '../../db/client';
import { classes, grades, schoolYears } from '../../db/schema/school';
import { testPlanScopes } from '../../db/schema/test-plans';
import { fieldError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { ORG_TYPE } from '@/domain/constants';

// Written out: inside the subquery drizzle would render the outer column unqualified (and so as classes.id).
const classCount = sql<number>`(select count(*)::int from ${classes} where ${classes.gradeId} = "grades"."id")`;
const columns = {
  id: grades.id,
  stage: grades.stage,
  gradeNo: grades.gradeNo,
  enrolYear: grades.enrolYear,
  graduated: grades.graduated,
  classCount,
  version: grades.version,
};

export interface GradeQuery {
  current: number;
  size: number;
  stage?: GradeSave['stage'];
  graduated?: boolean;
}

/** Grades of the tenant: in school, lowest grade first; graduated cohorts last. */
export function gradePage(db: DbOrTx, actor: Actor, q: GradeQuery): Promise<Page<GradeDetail>> {
  const query = db
    .select(columns)
    .from(grades)
    .where(
      and(
        eq(grades.orgId, actor.tenantOrgId),
        q.stage ? eq(grades.stage, q.stage) : undefined,
        q.graduated === undefined ? undefined : eq(grades.graduated, q.graduated),
      ),
    )
    .orderBy(asc(grades.graduated), asc(grades.gradeNo), desc(grades.enrolYear), asc(grades.id))
    .$dynamic();
  return paginate(db, query, q);
}

export async function gradeById(db: DbOrTx, actor: Actor, id: string): Promise<GradeDetail> {
  const [row] = await db.select(columns).from(grades).where(and(eq(grades.orgId, actor.tenantOrgId), eq(grades.id, id))).limit(1);
  if (!row) throw notFound();
  return row;
}

/** The start year of the school year the organisation is in: its current school year, else the one today falls in. */
export async function currentStartYear(db: DbOrTx, orgId: string, now = new Date()): Promise<number> {
  const [year] = await db.select({ startYear: schoolYears.startYear }).from(schoolYears).where(and(eq(schoolYears.orgId, orgId), eq(schoolYears.current, true))).limit(1);
  return year?.startYear ?? schoolStartYearOf(localDate(now));
}

/** What the grade form shows beside its fields: the school year a K12 cohort's grade is derived for. */
export async function gradeFormOptions(db: DbOrTx, actor: Actor): Promise<GradeFormOptions> {
  return { currentStartYear: await currentStartYear(db, actor.tenantOrgId) };
}

/**
 * A school's grades are of the K12 stages, a university's of its own; one cohort per stage and enrolment year. A
 * K12 cohort's grade follows from its enrolment year (`cohortGrade`): a grade sent that differs is refused, and so is
 * a second cohort in school with the same grade, so a grade name means one cohort (docs/product-rules.md#grades).
 */
async function check(tx: Tx, actor: Actor, body: GradeSave, exceptId?: string) {
  const university = actor.orgType === ORG_TYPE.university;
  if (university !== (body.stage === 'university') || (!university && !(K12_STAGES as readonly string[]).includes(body.stage))) {
    throw fieldError('stage', 'validation:grade.stageRequired');
  }
  let gradeNo = body.gradeNo;
  if (!university) {
    const startYear = await currentStartYear(tx, actor.tenantOrgId);
    const schoolYear = `${startYear}-${startYear + 1}`;
    const derived = cohortGrade(body.stage, body.enrolYear, body.graduated, startYear);
    if (!derived.ok) throw fieldError(derived.field, derived.message, { enrolYear: body.enrolYear, schoolYear, stage: `school:grade.stages.${body.stage}` });
    if (body.gradeNo !== undefined && body.gradeNo !== derived.gradeNo) {
      throw fieldError('gradeNo', 'validation:grade.notCohortGrade', { enrolYear: body.enrolYear, schoolYear, grade: gradeNameKey(derived.gradeNo) });
    }
    gradeNo = derived.gradeNo;
  }
  if (gradeNo === undefined) throw fieldError('gradeNo', 'validation:grade.gradeRequired');
  const [dup] = await tx
    .select({ id: grades.id })
    .from(grades)
    .where(and(eq(grades.orgId, actor.tenantOrgId), eq(grades.stage, body.stage), eq(grades.enrolYear, body.enrolYear), exceptId ? ne(grades.id, exceptId) : undefined));
  if (dup) throw fieldError('enrolYear', 'validation:grade.taken');
  if (!university && !body.graduated) {
    const [same] = await tx
      .select({ id: grades.id })
      .from(grades)
      .where(and(eq(grades.orgId, actor.tenantOrgId), eq(grades.gradeNo, gradeNo), eq(grades.graduated, false), exceptId ? ne(grades.id, exceptId) : undefined));
    if (same) throw fieldError('gradeNo', 'validation:grade.nameTaken', { grade: gradeNameKey(gradeNo) });
  }
  return { stage: body.stage, gradeNo, enrolYear: body.enrolYear, graduated: body.graduated };
}

export async function createGrade(tx: Tx, actor: Actor, body: GradeSave): Promise<GradeDetail> {
  const values = await check(tx, actor, body);
  const [row] = await tx.insert(grades).values({ ...values, orgId: actor.tenantOrgId }).returning({ id: grades.id });
  return gradeById(tx, actor, row.id);
}

export async function updateGrade(tx: Tx, actor: Actor, id: string, body: GradeSave): Promise<Change<GradeDetail>> {
  await lockVersion(tx, grades, id, eq(grades.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await gradeById(tx, actor, id);
  const values = await check(tx, actor, body, id);
  await tx.update(grades).set({ ...values, version: nextVersion(grades.version) }).where(eq(grades.id, id));
  return { before, after: await gradeById(tx, actor, id) };
}

/** A grade with classes or test plans cannot be deleted (docs/product-rules.md#grades). */
export async function deleteGrade(tx: Tx, actor: Actor, id: string): Promise<GradeDetail> {
  const before = await gradeById(tx, actor, id);
  await assertUnused([
    { what: 'school:entity.classes', count: () => tx.$count(classes, eq(classes.gradeId, id)) },
    { what: 'school:entity.testPlans', count: () => tx.$count(testPlanScopes, eq(testPlanScopes.gradeId, id)) },
  ]);
  await tx.delete(grades).where(eq(grades.id, id));
  return before;
}
