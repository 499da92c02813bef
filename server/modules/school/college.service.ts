import { and, asc, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import type { CollegeDetail, CollegeSave, MajorDetail, MajorSave } from '@/domain/school/colleges';
import type { DbOrTx, Tx } from '../../db/client';
import { classes, colleges, majors } from '../../db/schema/school';
import { testPlanScopes } from '../../db/schema/test-plans';
import { fieldError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';

// Written out: inside a subquery drizzle would render the outer column unqualified.
const majorCount = sql<number>`(select count(*)::int from ${majors} where ${majors.collegeId} = "colleges"."id")`;
const classCount = sql<number>`(select count(*)::int from ${classes} where ${classes.majorId} = "majors"."id")`;

const collegeColumns = { id: colleges.id, code: colleges.code, name: colleges.name, majorCount, version: colleges.version };
const majorColumns = {
  id: majors.id,
  code: majors.code,
  name: majors.name,
  collegeId: majors.collegeId,
  collegeName: colleges.name,
  schoolLength: majors.schoolLength,
  classCount,
  version: majors.version,
};

const selectColleges = (db: DbOrTx, where: SQL | undefined) => db.select(collegeColumns).from(colleges).where(where);
const selectMajors = (db: DbOrTx, where: SQL | undefined) => db.select(majorColumns).from(majors).innerJoin(colleges, eq(colleges.id, majors.collegeId)).where(where);

export function collegePage(db: DbOrTx, actor: Actor, q: { current: number; size: number; name?: string }): Promise<Page<CollegeDetail>> {
  const where = and(eq(colleges.orgId, actor.tenantOrgId), q.name ? ilike(colleges.name, containsPattern(q.name)) : undefined);
  return paginate(db, selectColleges(db, where).orderBy(asc(colleges.code), asc(colleges.id)).$dynamic(), q);
}

export async function collegeById(db: DbOrTx, actor: Actor, id: string): Promise<CollegeDetail> {
  const [row] = await selectColleges(db, and(eq(colleges.orgId, actor.tenantOrgId), eq(colleges.id, id))).limit(1);
  if (!row) throw notFound();
  return row;
}

async function checkCollege(tx: Tx, actor: Actor, body: CollegeSave, exceptId?: string) {
  const [dup] = await tx
    .select({ id: colleges.id })
    .from(colleges)
    .where(and(eq(colleges.orgId, actor.tenantOrgId), eq(colleges.code, body.code), exceptId ? ne(colleges.id, exceptId) : undefined));
  if (dup) throw fieldError('code', 'validation:college.codeTaken');
  return { code: body.code, name: body.name };
}

export async function createCollege(tx: Tx, actor: Actor, body: CollegeSave): Promise<CollegeDetail> {
  const values = await checkCollege(tx, actor, body);
  const [row] = await tx.insert(colleges).values({ ...values, orgId: actor.tenantOrgId }).returning({ id: colleges.id });
  return collegeById(tx, actor, row.id);
}

export async function updateCollege(tx: Tx, actor: Actor, id: string, body: CollegeSave): Promise<Change<CollegeDetail>> {
  await lockVersion(tx, colleges, id, eq(colleges.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await collegeById(tx, actor, id);
  const values = await checkCollege(tx, actor, body, id);
  await tx.update(colleges).set({ ...values, version: nextVersion(colleges.version) }).where(eq(colleges.id, id));
  return { before, after: await collegeById(tx, actor, id) };
}

/** A college with majors, classes or plan scopes cannot be deleted (docs/product-rules.md#colleges-and-majors). */
export async function deleteCollege(tx: Tx, actor: Actor, id: string): Promise<CollegeDetail> {
  const before = await collegeById(tx, actor, id);
  await assertUnused([
    { what: 'school:entity.majors', count: () => tx.$count(majors, eq(majors.collegeId, id)) },
    { what: 'school:entity.classes', count: () => tx.$count(classes, eq(classes.collegeId, id)) },
    { what: 'school:entity.testPlans', count: () => tx.$count(testPlanScopes, eq(testPlanScopes.collegeId, id)) },
  ]);
  await tx.delete(colleges).where(eq(colleges.id, id));
  return before;
}

export function majorPage(db: DbOrTx, actor: Actor, q: { current: number; size: number; name?: string; collegeId?: string }): Promise<Page<MajorDetail>> {
  const where = and(
    eq(majors.orgId, actor.tenantOrgId),
    q.collegeId ? eq(majors.collegeId, q.collegeId) : undefined,
    q.name ? ilike(majors.name, containsPattern(q.name)) : undefined,
  );
  return paginate(db, selectMajors(db, where).orderBy(asc(colleges.code), asc(majors.code), asc(majors.id)).$dynamic(), q);
}

export async function majorById(db: DbOrTx, actor: Actor, id: string): Promise<MajorDetail> {
  const [row] = await selectMajors(db, and(eq(majors.orgId, actor.tenantOrgId), eq(majors.id, id))).limit(1);
  if (!row) throw notFound();
  return row;
}

/** The college must be the tenant's own; the code free in that college. */
async function checkMajor(tx: Tx, actor: Actor, body: MajorSave, exceptId?: string) {
  const [college] = await tx.select({ id: colleges.id }).from(colleges).where(and(eq(colleges.id, body.collegeId), eq(colleges.orgId, actor.tenantOrgId)));
  if (!college) throw fieldError('collegeId', 'validation:college.collegeRequired');
  const [dup] = await tx
    .select({ id: majors.id })
    .from(majors)
    .where(and(eq(majors.collegeId, body.collegeId), eq(majors.code, body.code), exceptId ? ne(majors.id, exceptId) : undefined));
  if (dup) throw fieldError('code', 'validation:college.majorCodeTaken');
  return { collegeId: body.collegeId, code: body.code, name: body.name, schoolLength: body.schoolLength };
}

export async function createMajor(tx: Tx, actor: Actor, body: MajorSave): Promise<MajorDetail> {
  const values = await checkMajor(tx, actor, body);
  const [row] = await tx.insert(majors).values({ ...values, orgId: actor.tenantOrgId }).returning({ id: majors.id });
  return majorById(tx, actor, row.id);
}

export async function updateMajor(tx: Tx, actor: Actor, id: string, body: MajorSave): Promise<Change<MajorDetail>> {
  await lockVersion(tx, majors, id, eq(majors.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await majorById(tx, actor, id);
  const values = await checkMajor(tx, actor, body, id);
  // Classes carry the college of their major.
  await tx.update(majors).set({ ...values, version: nextVersion(majors.version) }).where(eq(majors.id, id));
  if (values.collegeId !== before.collegeId) await tx.update(classes).set({ collegeId: values.collegeId }).where(eq(classes.majorId, id));
  return { before, after: await majorById(tx, actor, id) };
}

/** A major with classes cannot be deleted (docs/product-rules.md#colleges-and-majors). */
export async function deleteMajor(tx: Tx, actor: Actor, id: string): Promise<MajorDetail> {
  const before = await majorById(tx, actor, id);
  await assertUnused([{ what: 'school:entity.classes', count: () => tx.$count(classes, eq(classes.majorId, id)) }]);
  await tx.delete(majors).where(eq(majors.id, id));
  return before;
}

/** The colleges the major form and filter choose from. */
export function collegeOptions(db: DbOrTx, actor: Actor) {
  return db.select({ id: colleges.id, code: colleges.code, name: colleges.name }).from(colleges).where(eq(colleges.orgId, actor.tenantOrgId)).orderBy(asc(colleges.code));
}
