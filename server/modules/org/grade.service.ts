import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { K12_STAGES, type GradeDetail, type GradeSave } from '@/domain/school/grades';
import type { DbOrTx, Tx } from '../../db/client';
import { classes, grades } from '../../db/schema/school';
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

/** A school's grades are of the K12 stages, a university's of its own; one cohort per stage and enrolment year. */
async function check(tx: Tx, actor: Actor, body: GradeSave, exceptId?: string) {
  const university = actor.orgType === ORG_TYPE.university;
  if (university !== (body.stage === 'university') || (!university && !(K12_STAGES as readonly string[]).includes(body.stage))) {
    throw fieldError('stage', 'validation:grade.stageRequired');
  }
  const [dup] = await tx
    .select({ id: grades.id })
    .from(grades)
    .where(and(eq(grades.orgId, actor.tenantOrgId), eq(grades.stage, body.stage), eq(grades.enrolYear, body.enrolYear), exceptId ? ne(grades.id, exceptId) : undefined));
  if (dup) throw fieldError('enrolYear', 'validation:grade.taken');
  return { stage: body.stage, gradeNo: body.gradeNo, enrolYear: body.enrolYear, graduated: body.graduated };
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
