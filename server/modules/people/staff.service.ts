import { and, asc, eq, exists, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { TEACHING_SUBJECTS, type StaffCreate, type StaffFormOptions, type StaffListRow, type StaffRow, type StaffUpdate, type TaughtClass } from '@/domain/people/staff';
import type { ResetPassword, ResetPasswordResult } from '@/domain/users/users';
import type { DbOrTx, Tx } from '../../db/client';
import { membershipRoles, memberships, roles, users } from '../../db/schema/auth';
import { files } from '../../db/schema/files';
import { classes, grades, teacherClasses, teachers } from '../../db/schema/school';
import {
  checkAccountUnique,
  checkRole,
  createAccount,
  deleteAccount,
  notSelf,
  oneTimePassword,
  resetAccountPassword,
  setAccountEnabled,
  setAccountRole,
} from '../../lib/accounts';
import { AppError, fieldError } from '../../lib/app-error';
import { classScopeOf, type ClassScope } from '../../lib/data-scope';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';

/**
 * Staff of a school or university (docs/product-rules.md#students-and-staff): a `teachers` row (the person as the
 * school keeps them) and the person's sign-in (`users` + an account in the school holding one role), written together.
 * Account rules (unique login account and mobile, roles, status, password reset) are server/lib/accounts.ts, shared
 * with the admin users screen. A role scoped to grades or classes sees only staff who teach or head a class of its
 * scope (docs/product-rules.md#data-scopes).
 */

const account = and(eq(memberships.userId, teachers.userId), eq(memberships.orgId, teachers.orgId));
const roleOf = (column: typeof roles.id | typeof roles.name) =>
  sql`(select ${column} from ${membershipRoles} join ${roles} on ${roles.id} = ${membershipRoles.roleId}
    where ${membershipRoles.membershipId} = ${memberships.id} order by ${membershipRoles.present} desc, ${roles.createdAt} limit 1)`;

const listColumns = {
  id: teachers.id,
  accountId: memberships.id,
  userId: teachers.userId,
  name: teachers.name,
  accountNum: users.accountNum,
  roleId: roleOf(roles.id).mapWith(String) as SQL<string | null>,
  roleName: roleOf(roles.name).mapWith(String) as SQL<string | null>,
  mobile: teachers.mobile,
  gender: teachers.gender,
  workNo: teachers.workNo,
  certificateType: teachers.certificateType,
  photoFileId: teachers.photoFileId,
  enabled: sql<boolean>`coalesce(${memberships.enabled}, ${teachers.enabled})`.mapWith(Boolean),
  mustChangePassword: sql<boolean>`coalesce(${users.mustChangePassword}, false)`.mapWith(Boolean),
  createdAt: teachers.createdAt,
  version: teachers.version,
};
const oneColumns = { ...listColumns, idCard: teachers.idCard, certificateNo: teachers.certificateNo };

type Selected = Omit<StaffListRow, 'createdAt' | 'taughtClasses'> & { userId: string | null; createdAt: Date };

/** The staff a scoped actor may see: those teaching, heading or teaching PE in a class of the scope. */
function inStaffScope(db: DbOrTx, scope: ClassScope): SQL | undefined {
  if (scope.all) return undefined;
  if (scope.classIds.length === 0) return sql`false`;
  const ids = [...scope.classIds];
  return or(
    exists(db.select({ one: sql`1` }).from(teacherClasses).where(and(eq(teacherClasses.teacherId, teachers.id), inArray(teacherClasses.classId, ids)))),
    exists(
      db
        .select({ one: sql`1` })
        .from(classes)
        .where(and(inArray(classes.id, ids), or(eq(classes.headTeacherId, teachers.id), eq(classes.peTeacherId, teachers.id)))),
    ),
  );
}

/** Staff who teach, head or teach PE in the class. */
const ofClass = (db: DbOrTx, classId: string) => inStaffScope(db, { all: false, classIds: [classId] });

async function taughtClassesOf(db: DbOrTx, ids: string[]): Promise<Map<string, StaffRow['taughtClasses']>> {
  const byStaff = new Map<string, StaffRow['taughtClasses']>();
  if (ids.length === 0) return byStaff;
  const rows = await db
    .select({ teacherId: teacherClasses.teacherId, classId: teacherClasses.classId, subject: teacherClasses.subject, className: classes.name })
    .from(teacherClasses)
    .innerJoin(classes, eq(classes.id, teacherClasses.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(inArray(teacherClasses.teacherId, ids))
    .orderBy(asc(grades.gradeNo), asc(classes.code), asc(classes.id));
  // Within a class, subjects in their listed order (PE first).
  const rank = (subject: string) => TEACHING_SUBJECTS.indexOf(subject as TaughtClass['subject']);
  const classOrder = new Map<string, number>();
  for (const r of rows) if (!classOrder.has(r.classId)) classOrder.set(r.classId, classOrder.size);
  rows.sort((a, b) => classOrder.get(a.classId)! - classOrder.get(b.classId)! || rank(a.subject) - rank(b.subject));
  for (const r of rows) {
    const list = byStaff.get(r.teacherId) ?? [];
    list.push({ classId: r.classId, subject: r.subject as TaughtClass['subject'], className: r.className });
    byStaff.set(r.teacherId, list);
  }
  return byStaff;
}

const toRow = <T extends Selected>({ userId: _userId, ...r }: T, taught: StaffRow['taughtClasses']) => ({ ...r, createdAt: r.createdAt.toISOString(), taughtClasses: taught });

export interface StaffQuery {
  current: number;
  size: number;
  keyword?: string;
  roleId?: string;
  classId?: string;
  enabled?: 'true' | 'false';
}

/** The staff of the tenant in the actor's data scope matching the list's filters (the list and its export). */
export async function staffWhere(db: DbOrTx, actor: Actor, q: Omit<StaffQuery, 'current' | 'size'>): Promise<SQL | undefined> {
  const scope = await classScopeOf(db, actor);
  const p = q.keyword ? containsPattern(q.keyword) : undefined;
  return and(
    eq(teachers.orgId, actor.tenantOrgId),
    inStaffScope(db, scope),
    p ? or(ilike(teachers.name, p), ilike(teachers.mobile, p), ilike(teachers.workNo, p), ilike(users.accountNum, p)) : undefined,
    q.roleId
      ? exists(db.select({ one: sql`1` }).from(membershipRoles).where(and(eq(membershipRoles.membershipId, memberships.id), eq(membershipRoles.roleId, q.roleId))))
      : undefined,
    q.classId ? ofClass(db, q.classId) : undefined,
    q.enabled ? sql`coalesce(${memberships.enabled}, ${teachers.enabled}) = ${q.enabled === 'true'}` : undefined,
  );
}

/** A teacher's account in their organisation (the join of the list and the export). */
export const staffAccount = account;
/** The role in use of the account joined as `memberships`. */
export const staffRoleName = roleOf(roles.name);

/** Staff of the tenant in the actor's data scope, by work number; filtered by name/mobile/work number/account, role, class and status. */
export async function staffPage(db: DbOrTx, actor: Actor, q: StaffQuery): Promise<Page<StaffListRow>> {
  const where = await staffWhere(db, actor, q);
  const page = await paginate(
    db,
    db
      .select(listColumns)
      .from(teachers)
      .leftJoin(users, eq(users.id, teachers.userId))
      .leftJoin(memberships, account)
      .where(where)
      .orderBy(sql`${teachers.workNo} asc nulls last`, asc(teachers.name), asc(teachers.id))
      .$dynamic(),
    q,
  );
  const taught = await taughtClassesOf(
    db,
    page.records.map((r) => r.id),
  );
  return { ...page, records: page.records.map((r) => toRow(r as Selected, taught.get(r.id) ?? [])) };
}

/** One staff member of the tenant in the actor's scope, with the person's user id; anything else is 404. */
async function staffRecord(db: DbOrTx, actor: Actor, id: string): Promise<StaffRow & { userId: string | null }> {
  const scope = await classScopeOf(db, actor);
  const [row] = await db
    .select(oneColumns)
    .from(teachers)
    .leftJoin(users, eq(users.id, teachers.userId))
    .leftJoin(memberships, account)
    .where(and(eq(teachers.id, id), eq(teachers.orgId, actor.tenantOrgId), inStaffScope(db, scope)));
  if (!row) throw notFound();
  const taught = await taughtClassesOf(db, [id]);
  return { ...toRow(row as Selected & { idCard: string | null; certificateNo: string | null }, taught.get(id) ?? []), userId: row.userId };
}

/** One staff member (the edit form's record): the list row plus their identity documents. */
export async function staffById(db: DbOrTx, actor: Actor, id: string): Promise<StaffRow> {
  const { userId: _userId, ...row } = await staffRecord(db, actor, id);
  return row;
}

/** The roles (administrator or teacher identity) and the classes of grades still at school the form offers. */
export async function staffFormOptions(db: DbOrTx, actor: Actor): Promise<StaffFormOptions> {
  const [roleRows, classRows] = await Promise.all([
    db
      .select({ id: roles.id, name: roles.name })
      .from(roles)
      .where(and(eq(roles.orgId, actor.tenantOrgId), eq(roles.enabled, true), inArray(roles.identity, ['administrator', 'teacher'])))
      .orderBy(asc(roles.createdAt), asc(roles.id)),
    db
      .select({ id: classes.id, name: classes.name, gradeNo: grades.gradeNo })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(classes.orgId, actor.tenantOrgId), eq(grades.graduated, false)))
      .orderBy(asc(grades.gradeNo), asc(grades.enrolYear), asc(classes.code)),
  ]);
  return { roles: roleRows, classes: classRows };
}

type StaffSave = StaffCreate | StaffUpdate;

/** Rules the schema cannot see: work number free in the organisation, the photo and classes the tenant's own. */
async function checkStaff(tx: Tx, actor: Actor, body: StaffSave, exceptId?: string): Promise<void> {
  if (body.workNo) {
    const [taken] = await tx
      .select({ id: teachers.id })
      .from(teachers)
      .where(and(eq(teachers.orgId, actor.tenantOrgId), eq(teachers.workNo, body.workNo), exceptId ? ne(teachers.id, exceptId) : undefined));
    if (taken) throw fieldError('workNo', 'validation:people.workNoTaken');
  }
  if (body.photoFileId) {
    const [photo] = await tx
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.id, body.photoFileId), eq(files.orgId, actor.tenantOrgId), eq(files.purpose, 'face')));
    if (!photo) throw fieldError('photoFileId', 'validation:common.id');
  }
  const classIds = [...new Set(body.taughtClasses.map((c) => c.classId))];
  if (classIds.length) {
    const own = await tx.$count(classes, and(eq(classes.orgId, actor.tenantOrgId), inArray(classes.id, classIds)));
    if (own !== classIds.length) throw fieldError('taughtClasses', 'validation:people.classRequired');
  }
}

async function writeTaughtClasses(tx: Tx, teacherId: string, taught: readonly TaughtClass[]): Promise<void> {
  await tx.delete(teacherClasses).where(eq(teacherClasses.teacherId, teacherId));
  const unique = [...new Map(taught.map((c) => [`${c.classId}/${c.subject}`, c])).values()];
  if (unique.length) await tx.insert(teacherClasses).values(unique.map((c) => ({ teacherId, classId: c.classId, subject: c.subject })));
}

const personOf = (body: StaffSave) => ({
  name: body.name,
  gender: body.gender,
  mobile: body.mobile || null,
  workNo: body.workNo || null,
  idCard: body.idCard || null,
  certificateType: body.certificateType || null,
  certificateNo: body.certificateNo || null,
  photoFileId: body.photoFileId || null,
});

/** Adds a staff member: the person, their account (first password to be changed at sign-in) and role, their classes. */
export async function createStaff(tx: Tx, actor: Actor, body: StaffCreate): Promise<StaffRow> {
  await checkStaff(tx, actor, body);
  const { userId } = await createAccount(tx, actor, body);
  const [row] = await tx
    .insert(teachers)
    .values({ orgId: actor.tenantOrgId, userId, ...personOf(body) })
    .returning({ id: teachers.id });
  await writeTaughtClasses(tx, row.id, body.taughtClasses);
  return staffById(tx, actor, row.id);
}

/**
 * Edits a staff member and their account with the version the form read. A staff member without a sign-in yet (older
 * data) gets one, with a password nobody knows: the administrator resets it to hand it over.
 */
export async function updateStaff(tx: Tx, actor: Actor, id: string, body: StaffUpdate, now: Date): Promise<Change<StaffRow>> {
  await lockVersion(tx, teachers, id, eq(teachers.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await staffRecord(tx, actor, id);
  await checkStaff(tx, actor, body, id);
  let userId = before.userId;
  if (before.accountId && userId) {
    await checkAccountUnique(tx, body, userId);
    if (body.roleId !== before.roleId) {
      notSelf(actor, before.accountId);
      await checkRole(tx, actor, body.roleId);
    }
    await tx
      .update(users)
      .set({ name: body.name, accountNum: body.accountNum, mobile: body.mobile || null, gender: body.gender, updatedAt: now })
      .where(eq(users.id, userId));
    if (body.roleId !== before.roleId) await setAccountRole(tx, before.accountId, body.roleId);
  } else {
    ({ userId } = await createAccount(tx, actor, { ...body, password: oneTimePassword() }));
  }
  await tx
    .update(teachers)
    .set({ ...personOf(body), userId, version: nextVersion(teachers.version) })
    .where(eq(teachers.id, id));
  await writeTaughtClasses(tx, id, body.taughtClasses);
  return { before: withoutUser(before), after: await staffById(tx, actor, id) };
}

const withoutUser = ({ userId: _userId, ...row }: StaffRow & { userId: string | null }): StaffRow => row;

/** The account of a staff member, or 409 for one without a sign-in. */
function accountOf(row: StaffRow & { userId: string | null }): { accountId: string; userId: string } {
  if (!row.accountId || !row.userId) throw new AppError(409, 'validation:people.noAccount');
  return { accountId: row.accountId, userId: row.userId };
}

/** Enables or disables a staff member's account as the users screen does (their sessions end); not one's own. */
export async function setStaffStatus(tx: Tx, actor: Actor, id: string, enabled: boolean, now: Date): Promise<Change<StaffRow>> {
  const before = await staffRecord(tx, actor, id);
  notSelf(actor, before.accountId);
  if (before.accountId && before.userId) await setAccountEnabled(tx, accountOf(before), enabled, now);
  await tx.update(teachers).set({ enabled }).where(eq(teachers.id, id));
  return { before: withoutUser(before), after: await staffById(tx, actor, id) };
}

/** Resets a staff member's password as the users screen does (server/lib/accounts.ts resetAccountPassword). */
export async function resetStaffPassword(tx: Tx, actor: Actor, id: string, body: ResetPassword, now: Date): Promise<ResetPasswordResult> {
  const row = await staffRecord(tx, actor, id);
  return resetAccountPassword(tx, accountOf(row).userId, body, now);
}

/**
 * Deletes a staff member and their account in the school (not one's own); refused (409, naming them) while classes
 * name them as head or PE teacher. Their taught classes go with them.
 */
export async function deleteStaff(tx: Tx, actor: Actor, id: string, now: Date): Promise<StaffRow> {
  const before = await staffRecord(tx, actor, id);
  notSelf(actor, before.accountId);
  const heads = or(eq(classes.headTeacherId, id), eq(classes.peTeacherId, id));
  await assertUnused([
    {
      what: 'school:entity.classes',
      count: () => tx.$count(classes, heads),
      names: async () => (await tx.select({ name: classes.name }).from(classes).where(heads).orderBy(asc(classes.name)).limit(5)).map((c) => c.name),
    },
  ]);
  await tx.delete(teachers).where(eq(teachers.id, id));
  if (before.accountId && before.userId) await deleteAccount(tx, accountOf(before), now);
  return withoutUser(before);
}
