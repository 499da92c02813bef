import { and, asc, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { STUDENT_PARENTS_MAX, type PersonOption, type StudentDetail, type StudentFormOptions, type StudentRecord, type StudentSave } from '@/domain/people/students';
import type { DbOrTx, Tx } from '../../db/client';
import { users } from '../../db/schema/auth';
import { files } from '../../db/schema/files';
import { physiqueResults, testRecords } from '../../db/schema/physique';
import { classes, grades, parents, parentStudents, studentClassHistory, students } from '../../db/schema/school';
import { studentChangeRefusal } from '@/domain/people/import-updates';
import { fieldError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { classScopeOf, inClassScope, type ClassScope } from '../../lib/data-scope';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import { consentedStudents } from '../consent/consent.service';
import type { Actor } from '../../plugins/tenant';
import { isoInstant } from '../../lib/iso';

/**
 * Students of a school (docs/product-rules.md#students-and-staff): list, read, add, edit, delete and transfer, limited
 * to the actor's data scope (docs/product-rules.md#data-scopes: a student outside it is 404 like another school's).
 */

const columns = {
  id: students.id,
  name: students.name,
  regNo: students.regNo,
  studentNo: students.studentNo,
  gender: students.gender,
  birthDate: students.birthDate,
  ethnicity: students.ethnicity,
  status: students.status,
  photoFileId: students.photoFileId,
  classId: students.classId,
  className: classes.name,
  gradeId: classes.gradeId,
  gradeNo: grades.gradeNo,
  createdAt: students.createdAt,
  version: students.version,
  appAccountNum: users.accountNum,
  appEnabled: users.enabled,
};

function select(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(columns)
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .leftJoin(users, eq(users.id, students.userId))
    .where(where);
}

type Row = Awaited<ReturnType<typeof select>>[number];

/** The rows with their parents (one query for the page). */
async function withParents(db: DbOrTx, rows: Row[]): Promise<StudentRecord[]> {
  const ids = rows.map((r) => r.id);
  const links = ids.length
    ? await db
        .select({ studentId: parentStudents.studentId, parentId: parents.id, name: parents.name, mobile: parents.mobile, relation: parentStudents.relation })
        .from(parentStudents)
        .innerJoin(parents, eq(parents.id, parentStudents.parentId))
        .where(inArray(parentStudents.studentId, ids))
        .orderBy(asc(parents.name), asc(parents.id))
    : [];
  return rows.map(({ appAccountNum, appEnabled, ...r }) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    appAccount: appAccountNum ? { accountNum: appAccountNum, enabled: appEnabled ?? false } : null,
    parents: links.filter((l) => l.studentId === r.id).map(({ parentId, name, mobile, relation }) => ({ parentId, name, mobile, relation })),
  }));
}

export interface StudentQuery {
  current: number;
  size: number;
  keyword?: string;
  gradeId?: string;
  classId?: string;
  status?: StudentRecord['status'];
}

/** The student list's filters in the actor's data scope: the list and its export (people-export.service.ts) share them. */
export async function studentWhere(db: DbOrTx, actor: Actor, q: Omit<StudentQuery, 'current' | 'size'>): Promise<SQL | undefined> {
  const scope = await classScopeOf(db, actor);
  const pattern = q.keyword ? containsPattern(q.keyword) : undefined;
  return and(
    eq(students.orgId, actor.tenantOrgId),
    inClassScope(scope, students.classId),
    q.gradeId ? eq(classes.gradeId, q.gradeId) : undefined,
    q.classId ? eq(students.classId, q.classId) : undefined,
    q.status ? eq(students.status, q.status) : undefined,
    pattern ? or(ilike(students.name, pattern), ilike(students.regNo, pattern), ilike(students.studentNo, pattern)) : undefined,
  );
}

/** Students of the tenant in the actor's scope, by grade, class and registration number. */
export async function studentPage(db: DbOrTx, actor: Actor, q: StudentQuery): Promise<Page<StudentRecord>> {
  const where = await studentWhere(db, actor, q);
  const page = await paginate(db, select(db, where).orderBy(asc(grades.gradeNo), asc(classes.code), asc(students.regNo), asc(students.id)).$dynamic(), q);
  return { ...page, records: await withParents(db, page.records) };
}

async function scopedRow(db: DbOrTx, actor: Actor, id: string, scope?: ClassScope): Promise<StudentRecord> {
  const s = scope ?? (await classScopeOf(db, actor));
  const [row] = await select(db, and(eq(students.orgId, actor.tenantOrgId), eq(students.id, id), inClassScope(s, students.classId))).limit(1);
  if (!row) throw notFound();
  return (await withParents(db, [row]))[0];
}

/** One student of the tenant in the actor's scope, with the classes they have been in; 404 otherwise. */
export async function studentById(db: DbOrTx, actor: Actor, id: string): Promise<StudentDetail> {
  const row = await scopedRow(db, actor, id);
  const history = await db
    .select({ classId: studentClassHistory.classId, className: classes.name, reason: studentClassHistory.reason, since: studentClassHistory.since, until: studentClassHistory.until })
    .from(studentClassHistory)
    .innerJoin(classes, eq(classes.id, studentClassHistory.classId))
    .where(eq(studentClassHistory.studentId, id))
    .orderBy(desc(studentClassHistory.since), desc(studentClassHistory.id));
  return { ...row, history: history.map((h) => ({ ...h, since: h.since.toISOString(), until: isoInstant(h.until) })) };
}

/** A class of the tenant the actor may place students in, or 400 on `field`. */
async function classInScope(tx: Tx, actor: Actor, classId: string, scope: ClassScope, field = 'classId') {
  const [c] = await tx.select({ id: classes.id }).from(classes).where(and(eq(classes.id, classId), eq(classes.orgId, actor.tenantOrgId), inClassScope(scope, classes.id)));
  if (!c) throw fieldError(field, 'validation:people.classRequired');
}

/** The columns of a save, after the rules the schema cannot see (class, registration number, photo, parents). */
async function resolve(tx: Tx, actor: Actor, body: StudentSave, scope: ClassScope, exceptId?: string) {
  const org = actor.tenantOrgId;
  await classInScope(tx, actor, body.classId, scope);
  const [dup] = await tx
    .select({ id: students.id })
    .from(students)
    .where(and(eq(students.orgId, org), eq(students.regNo, body.regNo), exceptId ? ne(students.id, exceptId) : undefined));
  if (dup) throw fieldError('regNo', 'validation:student.regNoTaken');
  if (body.photoFileId) {
    const [file] = await tx.select({ id: files.id }).from(files).where(and(eq(files.id, body.photoFileId), eq(files.orgId, org), eq(files.purpose, 'face'), isNull(files.deletedAt)));
    if (!file) throw fieldError('photoFileId', 'validation:common.id');
  }
  const linked = body.parents.map((p) => p.parentId);
  if (new Set(linked).size !== linked.length) throw fieldError('parents', 'validation:student.parentTwice');
  if (linked.length) {
    const found = await tx.$count(parents, and(eq(parents.orgId, org), inArray(parents.id, linked)));
    if (found !== linked.length) throw fieldError('parents', 'validation:common.id');
  }
  if (body.parents.length + body.newParents.length > STUDENT_PARENTS_MAX) throw fieldError('parents', 'validation:student.tooManyParents');
  const mobiles = body.newParents.map((p) => p.mobile);
  for (const [i, mobile] of mobiles.entries()) {
    const taken = mobiles.indexOf(mobile) !== i || (await tx.$count(parents, and(eq(parents.orgId, org), eq(parents.mobile, mobile)))) > 0;
    if (taken) throw fieldError(`newParents.${i}.mobile`, 'validation:parent.mobileTaken');
  }
  return {
    classId: body.classId,
    name: body.name,
    regNo: body.regNo,
    studentNo: body.studentNo || null,
    gender: body.gender,
    birthDate: body.birthDate || null,
    ethnicity: body.ethnicity,
    status: body.status,
    photoFileId: body.photoFileId || null,
  };
}

/** Links the student's parents as the form lists them: chosen ones with their relation, new ones created first. */
async function saveParents(tx: Tx, actor: Actor, studentId: string, body: StudentSave) {
  await tx.delete(parentStudents).where(eq(parentStudents.studentId, studentId));
  const links = body.parents.map((p) => ({ parentId: p.parentId, studentId, relation: p.relation }));
  for (const p of body.newParents) {
    const [created] = await tx.insert(parents).values({ orgId: actor.tenantOrgId, name: p.name, gender: p.gender, mobile: p.mobile }).returning();
    await audit(tx, actor, { action: 'create', entity: 'parent', entityId: created.id, after: { ...created, children: [{ studentId, relation: p.relation }] } });
    links.push({ parentId: created.id, studentId, relation: p.relation });
  }
  if (links.length) await tx.insert(parentStudents).values(links);
}

export async function createStudent(tx: Tx, actor: Actor, body: StudentSave): Promise<StudentRecord> {
  const scope = await classScopeOf(tx, actor);
  const values = await resolve(tx, actor, body, scope);
  // docs/product-rules.md#consent: a new student has no guardian consent yet, so no face photo is stored with it.
  if (values.photoFileId) throw fieldError('photoFileId', 'consent:photoNeedsConsent');
  const [row] = await tx.insert(students).values({ ...values, orgId: actor.tenantOrgId }).returning({ id: students.id });
  await saveParents(tx, actor, row.id, body);
  return scopedRow(tx, actor, row.id, scope);
}

export async function updateStudent(tx: Tx, actor: Actor, id: string, body: StudentSave): Promise<Change<StudentRecord>> {
  const scope = await classScopeOf(tx, actor);
  await lockVersion(tx, students, id, and(eq(students.orgId, actor.tenantOrgId), inClassScope(scope, students.classId)) as SQL, body.version ?? -1);
  const before = await scopedRow(tx, actor, id, scope);
  const values = await resolve(tx, actor, body, scope, id);
  // docs/product-rules.md#consent: a new face photo only with the guardian's consent (the one kept stays).
  if (values.photoFileId && values.photoFileId !== before.photoFileId && !(await consentedStudents(tx, 'facePhoto', [id])).has(id)) {
    throw fieldError('photoFileId', 'consent:photoNeedsConsent');
  }
  // docs/product-rules.md#student-changes: the same rule as the import's.
  if (before.gender !== values.gender) {
    const refusal = studentChangeRefusal(before, values, await hasResults(tx, id));
    if (refusal) throw fieldError('gender', refusal);
  }
  await tx.update(students).set({ ...values, version: nextVersion(students.version) }).where(eq(students.id, id));
  await saveParents(tx, actor, id, body);
  return { before, after: await scopedRow(tx, actor, id, scope) };
}

/** Whether the student has physique results or test records (scored with the student's gender). */
async function hasResults(tx: Tx, id: string): Promise<boolean> {
  const [scored] = await tx.select({ one: sql`1` }).from(physiqueResults).where(eq(physiqueResults.studentId, id)).limit(1);
  if (scored) return true;
  const [recorded] = await tx.select({ one: sql`1` }).from(testRecords).where(eq(testRecords.studentId, id)).limit(1);
  return Boolean(recorded);
}

/**
 * Deletes a student without physique results or test records; one with them is refused (409) with the advice to
 * change the status instead, so the results keep their student.
 */
export async function deleteStudent(tx: Tx, actor: Actor, id: string): Promise<StudentRecord> {
  const before = await scopedRow(tx, actor, id);
  await assertUnused(
    [
      { what: 'school:entity.results', count: () => tx.$count(physiqueResults, eq(physiqueResults.studentId, id)) },
      { what: 'school:entity.testRecords', count: () => tx.$count(testRecords, eq(testRecords.studentId, id)) },
    ],
    'people:students.inUse',
  );
  await tx.delete(students).where(eq(students.id, id));
  return before;
}

/**
 * Moves students to another class (the trigger on `students` closes their history row and opens one, reason
 * 'transfer'). Every student must be the tenant's and in scope (404 otherwise); one audit row per student.
 */
export async function transferStudents(tx: Tx, actor: Actor, body: { studentIds: string[]; classId: string }): Promise<{ moved: number }> {
  const scope = await classScopeOf(tx, actor);
  await classInScope(tx, actor, body.classId, scope);
  const ids = [...new Set(body.studentIds)];
  const rows = await tx
    .select()
    .from(students)
    .where(and(eq(students.orgId, actor.tenantOrgId), inArray(students.id, ids), inClassScope(scope, students.classId)))
    .for('update');
  if (rows.length !== ids.length) throw notFound();
  const moving = rows.filter((r) => r.classId !== body.classId);
  if (moving.length === 0) return { moved: 0 };
  await tx.execute(sql`set local tiyu.class_change_reason = 'transfer'`);
  await tx
    .update(students)
    .set({ classId: body.classId, version: nextVersion(students.version) })
    .where(inArray(students.id, moving.map((r) => r.id)));
  for (const r of moving) {
    await audit(tx, actor, { action: 'transfer', entity: 'student', entityId: r.id, before: { classId: r.classId }, after: { classId: body.classId } });
  }
  return { moved: moving.length };
}

/** Parents of the tenant matching a name or mobile, for linking from the student form. */
export async function parentOptions(db: DbOrTx, actor: Actor, keyword: string | undefined): Promise<PersonOption[]> {
  const pattern = keyword ? containsPattern(keyword) : undefined;
  const rows = await db
    .select({ id: parents.id, name: parents.name, mobile: parents.mobile })
    .from(parents)
    .where(and(eq(parents.orgId, actor.tenantOrgId), pattern ? or(ilike(parents.name, pattern), ilike(parents.mobile, pattern)) : undefined))
    .orderBy(asc(parents.name), asc(parents.id))
    .limit(OPTIONS_LIMIT);
  return rows.map((r) => ({ id: r.id, name: r.name, hint: r.mobile }));
}

/** Choices a picker shows at once: typing narrows them. */
export const OPTIONS_LIMIT = 20;

/** The classes of the tenant (in the actor's scope) the student form and filters choose from, by grade. */
export async function studentFormOptions(db: DbOrTx, actor: Actor): Promise<StudentFormOptions> {
  const scope = await classScopeOf(db, actor);
  const rows = await db
    .select({ id: classes.id, name: classes.name, gradeId: classes.gradeId, gradeNo: grades.gradeNo, stage: grades.stage, enrolYear: grades.enrolYear })
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(and(eq(classes.orgId, actor.tenantOrgId), inClassScope(scope, classes.id)))
    .orderBy(asc(grades.gradeNo), asc(grades.enrolYear), asc(classes.code));
  const gradeList = [...new Map(rows.map((r) => [r.gradeId, { id: r.gradeId, gradeNo: r.gradeNo, stage: r.stage, enrolYear: r.enrolYear }])).values()];
  return { grades: gradeList, classes: rows.map(({ id, name, gradeId }) => ({ id, name, gradeId })) };
}
