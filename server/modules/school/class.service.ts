import { and, asc, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Page } from '@/domain/api';
import type { ClassSave } from '@/domain/school/classes';
import type { ClassDetail } from '@/domain/school/types';
import type { DbOrTx, Tx } from '../../db/client';
import { physiqueResults, testRecords } from '../../db/schema/physique';
import { testPlanScopes } from '../../db/schema/test-plans';
import { classes, colleges, grades, majors, students, teachers } from '../../db/schema/school';
import { fieldError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';

const head = alias(teachers, 'head_teacher');
const pe = alias(teachers, 'pe_teacher');
const studentCount = sql<number>`(select count(*)::int from ${students} where ${students.classId} = ${classes.id})`;

const columns = {
  id: classes.id,
  code: classes.code,
  name: classes.name,
  classNo: classes.classNo,
  size: studentCount,
  studentCount,
  gradeId: classes.gradeId,
  gradeNo: grades.gradeNo,
  stage: grades.stage,
  enrolYear: grades.enrolYear,
  collegeId: classes.collegeId,
  collegeName: colleges.name,
  majorId: classes.majorId,
  majorName: majors.name,
  headTeacherId: classes.headTeacherId,
  headTeacherName: head.name,
  peTeacherId: classes.peTeacherId,
  peTeacherName: pe.name,
  enabled: classes.enabled,
  version: classes.version,
};

function select(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(columns)
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .leftJoin(colleges, eq(colleges.id, classes.collegeId))
    .leftJoin(majors, eq(majors.id, classes.majorId))
    .leftJoin(head, eq(head.id, classes.headTeacherId))
    .leftJoin(pe, eq(pe.id, classes.peTeacherId))
    .where(where);
}

export interface ClassQuery {
  current: number;
  size: number;
  gradeId?: string;
  majorId?: string;
  name?: string;
}

function classWhere(actor: Actor, q: Omit<ClassQuery, 'current' | 'size'>) {
  return and(
    eq(classes.orgId, actor.tenantOrgId),
    q.gradeId ? eq(classes.gradeId, q.gradeId) : undefined,
    q.majorId ? eq(classes.majorId, q.majorId) : undefined,
    q.name ? ilike(classes.name, containsPattern(q.name)) : undefined,
  );
}
const classOrder = [asc(grades.gradeNo), asc(classes.code), asc(classes.id)];

/** Classes of the tenant organisation, by grade then class code. */
export function classPage(db: DbOrTx, actor: Actor, q: ClassQuery): Promise<Page<ClassDetail>> {
  return paginate(db, select(db, classWhere(actor, q)).orderBy(...classOrder).$dynamic(), q);
}

/** Every class of the list's filters (the export). */
export function classRows(db: DbOrTx, actor: Actor, q: Omit<ClassQuery, 'current' | 'size'>): Promise<ClassDetail[]> {
  return select(db, classWhere(actor, q)).orderBy(...classOrder);
}

/** One class of the tenant; another organisation's id answers 404. */
export async function classById(db: DbOrTx, actor: Actor, id: string): Promise<ClassDetail> {
  const [row] = await select(db, and(eq(classes.orgId, actor.tenantOrgId), eq(classes.id, id))).limit(1);
  if (!row) throw notFound();
  return row;
}

/** The grade, major and teachers a class names must be the tenant's own; the code must be free in the grade (and major). */
async function resolve(tx: Tx, actor: Actor, body: ClassSave, exceptId?: string) {
  const org = actor.tenantOrgId;
  const [grade] = await tx.select({ id: grades.id }).from(grades).where(and(eq(grades.id, body.gradeId), eq(grades.orgId, org)));
  if (!grade) throw fieldError('gradeId', 'validation:class.gradeRequired');
  let collegeId: string | null = null;
  const university = actor.orgType === 22;
  if (university) {
    if (!body.majorId) throw fieldError('majorId', 'validation:class.majorRequired');
    const [major] = await tx.select({ collegeId: majors.collegeId }).from(majors).where(and(eq(majors.id, body.majorId), eq(majors.orgId, org)));
    if (!major) throw fieldError('majorId', 'validation:class.majorRequired');
    collegeId = major.collegeId;
  }
  for (const field of ['headTeacherId', 'peTeacherId'] as const) {
    const id = body[field];
    if (!id) continue;
    const [t] = await tx.select({ id: teachers.id }).from(teachers).where(and(eq(teachers.id, id), eq(teachers.orgId, org)));
    if (!t) throw fieldError(field, 'validation:class.teacherUnknown');
  }
  const majorId = university ? (body.majorId ?? null) : null;
  const [dup] = await tx
    .select({ id: classes.id })
    .from(classes)
    .where(
      and(
        eq(classes.gradeId, body.gradeId),
        eq(classes.code, body.code),
        majorId ? eq(classes.majorId, majorId) : sql`${classes.majorId} is null`,
        exceptId ? ne(classes.id, exceptId) : undefined,
      ),
    );
  if (dup) throw fieldError('code', 'validation:class.codeTaken');
  return {
    gradeId: body.gradeId,
    code: body.code,
    name: body.name,
    classNo: body.classNo ?? null,
    headTeacherId: body.headTeacherId ?? null,
    peTeacherId: body.peTeacherId ?? null,
    majorId,
    collegeId,
  };
}

export async function createClass(tx: Tx, actor: Actor, body: ClassSave): Promise<ClassDetail> {
  const values = await resolve(tx, actor, body);
  const [row] = await tx.insert(classes).values({ ...values, orgId: actor.tenantOrgId }).returning({ id: classes.id });
  return classById(tx, actor, row.id);
}

export async function updateClass(tx: Tx, actor: Actor, id: string, body: ClassSave): Promise<Change<ClassDetail>> {
  await lockVersion(tx, classes, id, eq(classes.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await classById(tx, actor, id);
  const values = await resolve(tx, actor, body, id);
  await tx.update(classes).set({ ...values, version: nextVersion(classes.version) }).where(eq(classes.id, id));
  return { before, after: await classById(tx, actor, id) };
}

/** Deletes a class without students or results (docs/product-rules.md#classes). */
export async function deleteClass(tx: Tx, actor: Actor, id: string): Promise<ClassDetail> {
  const before = await classById(tx, actor, id);
  await assertUnused([
    { what: 'school:entity.students', count: () => tx.$count(students, eq(students.classId, id)) },
    { what: 'school:entity.results', count: () => tx.$count(physiqueResults, eq(physiqueResults.classId, id)) },
    { what: 'school:entity.testRecords', count: () => tx.$count(testRecords, eq(testRecords.classId, id)) },
    { what: 'school:entity.testPlans', count: () => tx.$count(testPlanScopes, eq(testPlanScopes.classId, id)) },
  ]);
  await tx.delete(classes).where(eq(classes.id, id));
  return before;
}

/** What the class form chooses from: the tenant's grades (not graduated), staff and (universities) majors. */
export async function classFormOptions(db: DbOrTx, actor: Actor) {
  const org = actor.tenantOrgId;
  const [gradeRows, teacherRows, majorRows] = await Promise.all([
    db
      .select({ id: grades.id, stage: grades.stage, gradeNo: grades.gradeNo, enrolYear: grades.enrolYear })
      .from(grades)
      .where(and(eq(grades.orgId, org), eq(grades.graduated, false)))
      .orderBy(asc(grades.gradeNo), asc(grades.enrolYear)),
    db.select({ id: teachers.id, name: teachers.name, workNo: teachers.workNo }).from(teachers).where(and(eq(teachers.orgId, org), eq(teachers.enabled, true))).orderBy(asc(teachers.name)),
    db.select({ id: majors.id, name: majors.name, collegeName: colleges.name }).from(majors).innerJoin(colleges, eq(colleges.id, majors.collegeId)).where(eq(majors.orgId, org)).orderBy(asc(colleges.code), asc(majors.code)),
  ]);
  return { grades: gradeRows, teachers: teacherRows, majors: majorRows };
}
