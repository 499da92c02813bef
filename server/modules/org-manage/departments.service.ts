import { and, asc, eq, ilike, inArray, ne, notExists, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import type { DepartmentMember, DepartmentRow, DepartmentSave } from '@/domain/org-manage/departments';
import type { DbOrTx, Tx } from '../../db/client';
import { memberships, membershipRoles, users } from '../../db/schema/auth';
import { departmentMembers, departments } from '../../db/schema/departments';
import { AppError, fieldError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { accountCandidates, accountKeyword, accountMemberColumns, accountMembersOf, assertOwnAccounts } from '../../lib/account-members';
import type { LinkChange } from '../../lib/linked';
import { containsPattern } from '../../lib/query';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';

/**
 * Departments of the signed-in organisation (docs/product-rules.md#departments): a tree, codes unique among siblings,
 * no cycles, members from the organisation's own accounts; a department with child departments or members stays.
 */

/** How many names a refusal lists before "…". */
const NAMED_MAX = 3;

const memberCount = sql<number>`(select count(*)::int from ${departmentMembers} where ${departmentMembers.departmentId} = ${departments.id})`;
const columns = {
  id: departments.id,
  parentId: departments.parentId,
  name: departments.name,
  code: departments.code,
  memberCount,
  version: departments.version,
};

/** Every department of the tenant (the tree is small); `name` keeps matches only. */
export async function departmentTree(db: DbOrTx, actor: Actor, q: { name?: string }): Promise<DepartmentRow[]> {
  return db
    .select(columns)
    .from(departments)
    .where(and(eq(departments.orgId, actor.tenantOrgId), q.name ? ilike(departments.name, containsPattern(q.name)) : undefined))
    .orderBy(asc(departments.code), asc(departments.name), asc(departments.id));
}

/** One department of the tenant; another organisation's id is 404. */
export async function departmentById(db: DbOrTx, actor: Actor, id: string): Promise<DepartmentRow> {
  const [row] = await db.select(columns).from(departments).where(and(eq(departments.id, id), eq(departments.orgId, actor.tenantOrgId)));
  if (!row) throw notFound();
  return row;
}

/** Ids of a department and every department below it. */
async function subtree(db: DbOrTx, id: string): Promise<Set<string>> {
  const { rows } = await db.execute<{ id: string }>(sql`with recursive sub(id) as (
      select id from departments where id = ${id}
      union all
      select d.id from departments d join sub s on d.parent_id = s.id
    ) select id from sub`);
  return new Set(rows.map((r) => r.id));
}

/** The parent must be the tenant's own department and, on edit, neither the department itself nor one below it. */
async function checkParentAndCode(tx: Tx, actor: Actor, body: DepartmentSave, selfId?: string): Promise<void> {
  if (body.parentId) {
    const [p] = await tx.select({ id: departments.id }).from(departments).where(and(eq(departments.id, body.parentId), eq(departments.orgId, actor.tenantOrgId)));
    if (!p) throw fieldError('parentId', 'validation:department.parentUnknown');
    if (selfId && (await subtree(tx, selfId)).has(body.parentId)) throw fieldError('parentId', 'validation:department.parentCycle');
  }
  const [dup] = await tx
    .select({ id: departments.id })
    .from(departments)
    .where(
      and(
        eq(departments.orgId, actor.tenantOrgId),
        body.parentId ? eq(departments.parentId, body.parentId) : sql`${departments.parentId} is null`,
        eq(departments.code, body.code),
        selfId ? ne(departments.id, selfId) : undefined,
      ),
    );
  if (dup) throw fieldError('code', 'validation:department.codeTaken');
}

export async function createDepartment(tx: Tx, actor: Actor, body: DepartmentSave): Promise<DepartmentRow> {
  await checkParentAndCode(tx, actor, body);
  const [row] = await tx
    .insert(departments)
    .values({ orgId: actor.tenantOrgId, parentId: body.parentId, name: body.name, code: body.code })
    .returning({ id: departments.id });
  return departmentById(tx, actor, row.id);
}

export async function updateDepartment(tx: Tx, actor: Actor, id: string, body: DepartmentSave): Promise<Change<DepartmentRow>> {
  await lockVersion(tx, departments, id, eq(departments.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await departmentById(tx, actor, id);
  await checkParentAndCode(tx, actor, body, id);
  await tx
    .update(departments)
    .set({ parentId: body.parentId, name: body.name, code: body.code, version: nextVersion(departments.version) })
    .where(eq(departments.id, id));
  return { before, after: await departmentById(tx, actor, id) };
}

const named = (names: string[], total: number) => (total > names.length ? `${names.join('、')}…` : names.join('、'));

/** Deletes a department without child departments or members; otherwise 409 naming them. */
export async function deleteDepartment(tx: Tx, actor: Actor, id: string): Promise<DepartmentRow> {
  const before = await departmentById(tx, actor, id);
  const children = await tx.select({ name: departments.name }).from(departments).where(eq(departments.parentId, id)).orderBy(asc(departments.code));
  if (children.length) {
    throw new AppError(409, 'orgManage:department.hasChildren', { names: named(children.slice(0, NAMED_MAX).map((c) => c.name), children.length), count: children.length });
  }
  const people = await tx
    .select({ name: users.name })
    .from(departmentMembers)
    .innerJoin(memberships, eq(memberships.id, departmentMembers.membershipId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(departmentMembers.departmentId, id))
    .orderBy(asc(users.name));
  if (people.length) {
    throw new AppError(409, 'orgManage:department.hasMembers', { names: named(people.slice(0, NAMED_MAX).map((p) => p.name), people.length), count: people.length });
  }
  await tx.delete(departments).where(eq(departments.id, id));
  return before;
}


/** The members of a department, a page at a time (the department checked by the linked-records kit, server/lib/linked.ts). */
export function departmentMemberPage(db: DbOrTx, _actor: Actor, department: { id: string }, q: { current: number; size: number; keyword?: string }): Promise<Page<DepartmentMember>> {
  const query = db
    .select(accountMemberColumns)
    .from(departmentMembers)
    .innerJoin(memberships, eq(memberships.id, departmentMembers.membershipId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(departmentMembers.departmentId, department.id), accountKeyword(q.keyword)))
    .orderBy(asc(users.name), asc(memberships.id))
    .$dynamic();
  return paginate(db, query, q);
}

/** Accounts of the organisation not yet in the department (for the picker), optionally of one role. */
export function departmentCandidates(db: DbOrTx, actor: Actor, department: { id: string }, q: { keyword?: string; roleId?: string }): Promise<DepartmentMember[]> {
  return accountCandidates(
    db,
    actor,
    q.keyword,
    q.roleId ? sql`exists (select 1 from ${membershipRoles} where ${membershipRoles.membershipId} = ${memberships.id} and ${membershipRoles.roleId} = ${q.roleId})` : undefined,
    notExists(db.select({ one: sql`1` }).from(departmentMembers).where(and(eq(departmentMembers.membershipId, memberships.id), eq(departmentMembers.departmentId, department.id)))),
  );
}

/** Adds accounts of the organisation to a department (another organisation's account is 404; members stay as they are). */
export async function addDepartmentMembers(tx: Tx, actor: Actor, department: { id: string }, ids: readonly string[]): Promise<LinkChange> {
  await assertOwnAccounts(tx, actor, ids);
  const added = await tx
    .insert(departmentMembers)
    .values(ids.map((membershipId) => ({ departmentId: department.id, membershipId })))
    .onConflictDoNothing()
    .returning({ id: departmentMembers.membershipId });
  return { records: await accountMembersOf(tx, added.map((a) => a.id)) };
}

/** Removes members from a department; an account not in it is 404. */
export async function removeDepartmentMembers(tx: Tx, _actor: Actor, department: { id: string }, ids: readonly string[]): Promise<LinkChange> {
  const inDepartment = and(eq(departmentMembers.departmentId, department.id), inArray(departmentMembers.membershipId, ids));
  const rows = await tx
    .select(accountMemberColumns)
    .from(departmentMembers)
    .innerJoin(memberships, eq(memberships.id, departmentMembers.membershipId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(inDepartment);
  if (rows.length !== ids.length) throw notFound();
  await tx.delete(departmentMembers).where(inDepartment);
  return { records: rows };
}
