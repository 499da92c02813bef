import { and, asc, eq, exists, ilike, inArray, ne, or, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import type { ParentRecord, ParentRelation, ParentSave } from '@/domain/people/parents';
import type { PersonOption } from '@/domain/people/students';
import type { DbOrTx, Tx } from '../../db/client';
import { users } from '../../db/schema/auth';
import { classes, parents, parentStudents, students } from '../../db/schema/school';
import { fieldError } from '../../lib/app-error';
import { classScopeOf, inClassScope, type ClassScope } from '../../lib/data-scope';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { OPTIONS_LIMIT } from './student.service';

/**
 * Parents of a school (docs/product-rules.md#students-and-staff): list, read, edit and delete. They are added from
 * the student form or an import; a parent always has at least one child of the school. The data scope limits them to
 * parents of students the actor may see (docs/product-rules.md#data-scopes).
 */

const columns = {
  id: parents.id,
  name: parents.name,
  gender: parents.gender,
  mobile: parents.mobile,
  createdAt: parents.createdAt,
  version: parents.version,
  appAccountNum: users.accountNum,
  appEnabled: users.enabled,
};

/** The parent has a child in the scope (and matching `condition`). */
function hasChild(db: DbOrTx, scope: ClassScope, condition?: SQL) {
  return exists(
    db
      .select({ one: students.id })
      .from(parentStudents)
      .innerJoin(students, eq(students.id, parentStudents.studentId))
      .where(and(eq(parentStudents.parentId, parents.id), inClassScope(scope, students.classId), condition)),
  );
}

type ParentRow = Pick<typeof parents.$inferSelect, 'id' | 'name' | 'gender' | 'mobile' | 'createdAt' | 'version'> & { appAccountNum?: string | null; appEnabled?: boolean | null };

export async function withChildren(db: DbOrTx, rows: ParentRow[]): Promise<ParentRecord[]> {
  const ids = rows.map((r) => r.id);
  const links = ids.length
    ? await db
        .select({ parentId: parentStudents.parentId, studentId: students.id, name: students.name, regNo: students.regNo, className: classes.name, relation: parentStudents.relation })
        .from(parentStudents)
        .innerJoin(students, eq(students.id, parentStudents.studentId))
        .innerJoin(classes, eq(classes.id, students.classId))
        .where(inArray(parentStudents.parentId, ids))
        .orderBy(asc(students.name), asc(students.id))
    : [];
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    gender: r.gender,
    mobile: r.mobile,
    createdAt: r.createdAt.toISOString(),
    version: r.version,
    appAccount: r.appAccountNum ? { accountNum: r.appAccountNum, enabled: r.appEnabled ?? false } : null,
    children: links.filter((l) => l.parentId === r.id).map(({ studentId, name, regNo, className, relation }) => ({ studentId, name, regNo, className, relation: relation as ParentRelation })),
  }));
}

export interface ParentQuery {
  current: number;
  size: number;
  keyword?: string;
  studentKeyword?: string;
}

/** Parents of the tenant with a child in the actor's scope; by name or mobile, and by a child's name or number. */
/** The parents of the tenant with a child in the actor's scope, matching the list's filters (the list and its export). */
export async function parentWhere(db: DbOrTx, actor: Actor, q: Omit<ParentQuery, 'current' | 'size'>): Promise<SQL | undefined> {
  const scope = await classScopeOf(db, actor);
  const pattern = q.keyword ? containsPattern(q.keyword) : undefined;
  const child = q.studentKeyword ? containsPattern(q.studentKeyword) : undefined;
  return and(
    eq(parents.orgId, actor.tenantOrgId),
    scope.all && !child ? undefined : hasChild(db, scope, child ? or(ilike(students.name, child), ilike(students.regNo, child)) : undefined),
    pattern ? or(ilike(parents.name, pattern), ilike(parents.mobile, pattern)) : undefined,
  );
}

export async function parentPage(db: DbOrTx, actor: Actor, q: ParentQuery): Promise<Page<ParentRecord>> {
  const where = await parentWhere(db, actor, q);
  const page = await paginate(db, db.select(columns).from(parents).leftJoin(users, eq(users.id, parents.userId)).where(where).orderBy(asc(parents.name), asc(parents.id)).$dynamic(), q);
  return { ...page, records: await withChildren(db, page.records) };
}

async function scopedParent(db: DbOrTx, actor: Actor, id: string, scope?: ClassScope): Promise<ParentRecord> {
  const s = scope ?? (await classScopeOf(db, actor));
  const [row] = await db
    .select(columns)
    .from(parents)
    .leftJoin(users, eq(users.id, parents.userId))
    .where(and(eq(parents.orgId, actor.tenantOrgId), eq(parents.id, id), s.all ? undefined : hasChild(db, s)))
    .limit(1);
  if (!row) throw notFound();
  return (await withChildren(db, [row]))[0];
}

/** One parent of the tenant (with a child in the actor's scope); 404 otherwise. */
export function parentById(db: DbOrTx, actor: Actor, id: string): Promise<ParentRecord> {
  return scopedParent(db, actor, id);
}

export async function updateParent(tx: Tx, actor: Actor, id: string, body: ParentSave): Promise<Change<ParentRecord>> {
  const scope = await classScopeOf(tx, actor);
  await lockVersion(tx, parents, id, eq(parents.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await scopedParent(tx, actor, id, scope);
  const org = actor.tenantOrgId;
  const [dup] = await tx.select({ id: parents.id }).from(parents).where(and(eq(parents.orgId, org), eq(parents.mobile, body.mobile), ne(parents.id, id)));
  if (dup) throw fieldError('mobile', 'validation:parent.mobileTaken');
  const childIds = [...new Set(body.children.map((c) => c.studentId))];
  if (childIds.length !== body.children.length) throw fieldError('children', 'validation:parent.childTwice');
  const found = await tx.$count(students, and(eq(students.orgId, org), inArray(students.id, childIds), inClassScope(scope, students.classId)));
  if (found !== childIds.length) throw fieldError('children', 'validation:parent.childrenRequired');
  await tx.update(parents).set({ name: body.name, gender: body.gender, mobile: body.mobile, version: nextVersion(parents.version) }).where(eq(parents.id, id));
  await tx.delete(parentStudents).where(eq(parentStudents.parentId, id));
  await tx.insert(parentStudents).values(body.children.map((c) => ({ parentId: id, studentId: c.studentId, relation: c.relation })));
  return { before, after: await scopedParent(tx, actor, id, scope) };
}

/** Deletes a parent and their links to the children (the children stay). */
export async function deleteParent(tx: Tx, actor: Actor, id: string): Promise<ParentRecord> {
  const before = await scopedParent(tx, actor, id);
  await tx.delete(parents).where(eq(parents.id, id));
  return before;
}

/** Students of the tenant (in the actor's scope) matching a name or registration number, for the parent form's picker. */
export async function childOptions(db: DbOrTx, actor: Actor, keyword: string | undefined): Promise<PersonOption[]> {
  const scope = await classScopeOf(db, actor);
  const pattern = keyword ? containsPattern(keyword) : undefined;
  const rows = await db
    .select({ id: students.id, name: students.name, regNo: students.regNo, className: classes.name })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(and(eq(students.orgId, actor.tenantOrgId), inClassScope(scope, students.classId), pattern ? or(ilike(students.name, pattern), ilike(students.regNo, pattern)) : undefined))
    .orderBy(asc(students.name), asc(students.id))
    .limit(OPTIONS_LIMIT);
  return rows.map((r) => ({ id: r.id, name: r.name, hint: `${r.className} · ${r.regNo}` }));
}
