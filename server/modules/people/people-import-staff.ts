import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { allowsUpdates, type RowUpdate } from '@/domain/people/import-updates';
import { maskIdNumber } from '@/domain/people/mask';
import { parseCertificateType, parseGender, type PeopleImportKind, type StaffColumnKey } from '@/domain/people/people-import';
import { staffCreateSchema, staffUpdateSchema } from '@/domain/people/staff';
import { userCreateSchema, userUpdateSchema } from '@/domain/users/users';
import type { Tx } from '../../db/client';
import { membershipRoles, memberships, menus, roleMenus, roles, users } from '../../db/schema/auth';
import { teachers } from '../../db/schema/school';
import { audit } from '../../lib/audit';
import { hashPassword, sha256Hex } from '../../lib/password';
import { checkRows, columnTexts, updateTracker } from '../../lib/import-rows';
import { RAW, type ImportContext, type ImportPlan, type ParsedFile } from './people-import-rows';

const FIELD: Record<string, StaffColumnKey> = { name: 'name', accountNum: 'accountNum', password: 'password', roleId: 'role', mobile: 'mobile', gender: 'gender', workNo: 'workNo', idCard: 'idCard', certificateType: 'certificateType', certificateNo: 'certificateNo' };

interface AccountRow {
  row: number;
  name: string;
  accountNum: string;
  password: string | null;
  roleId: string;
  mobile: string;
  /** Staff only: the person's record. */
  staff?: { gender: 'male' | 'female'; workNo: string; idCard: string; certificateType: string; certificateNo: string };
  existing?: { userId: string; membershipId: string };
}

/**
 * Staff and the management organisation's accounts (docs/product-rules.md#people-import): a row is matched by its
 * login account; a new account needs the first password in 初始密码 (checked by the form's rule) and must change it
 * at the first sign-in; a re-import updates the person and the role (only when the upload allows updates,
 * docs/product-rules.md#import-updates; the dry run lists each change) and never touches the password.
 */
export async function planAccounts(kind: Exclude<PeopleImportKind, 'student'>, file: ParsedFile, ctx: ImportContext): Promise<ImportPlan> {
  const org = ctx.actor.tenantOrgId;
  const accountNums = columnTexts(file, 'accountNum');
  const mobiles = columnTexts(file, 'mobile');
  const [roleRows, codes, taken, workNos] = await Promise.all([
    ctx.db.select({ id: roles.id, name: roles.name }).from(roles).where(and(eq(roles.orgId, org), eq(roles.enabled, true))),
    ctx.db.selectDistinct({ roleId: roleMenus.roleId, permission: menus.permission }).from(roleMenus).innerJoin(menus, eq(menus.menuId, roleMenus.menuId)).innerJoin(roles, eq(roles.id, roleMenus.roleId)).where(eq(roles.orgId, org)),
    accountNums.length + mobiles.length === 0
      ? []
      : ctx.db
          .select({ userId: users.id, accountNum: users.accountNum, mobile: users.mobile, membershipId: memberships.id })
          .from(users)
          .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.tenantOrgId, org)))
          .where(or(accountNums.length ? inArray(users.accountNum, accountNums) : undefined, mobiles.length ? inArray(users.mobile, mobiles) : undefined, mobiles.length ? inArray(users.accountNum, mobiles) : undefined)),
    kind === 'staff' ? ctx.db.select({ workNo: teachers.workNo, userId: teachers.userId }).from(teachers).where(eq(teachers.orgId, org)) : [],
  ]);
  const current = await currentAccounts(ctx, taken.flatMap((u) => (u.membershipId ? [{ userId: u.userId, membershipId: u.membershipId }] : [])));
  const roleName = new Map(roleRows.map((r) => [r.id, r.name]));
  const updates = updateTracker(ctx.t, allowsUpdates(ctx.extra));
  // Only roles whose permissions the importing administrator holds may be handed out (the users screen's rule).
  const grantable = new Map(roleRows.filter((r) => codes.every((c) => c.roleId !== r.id || ctx.actor.permissions.has(c.permission))).map((r) => [r.name, r.id]));
  const roleNames = new Set(roleRows.map((r) => r.name));
  const byAccount = new Map(taken.map((u) => [u.accountNum, u]));
  const accepted = new Map<string, AccountRow>();
  const seenMobile = new Map<string, number>();
  const seenWorkNo = new Map<string, number>();

  const checked = await checkRows<StaffColumnKey>(file, { t: ctx.t, onProgress: ctx.onProgress }, (r, { text, fail: reject }) => {
    const accountNum = text('accountNum');
    const prior = accepted.get(accountNum);
    if (accountNum && prior) {
      return reject('accountNum', 'people:import.duplicateRow', { row: prior.row });
    }
    const user = byAccount.get(accountNum);
    if (user && !user.membershipId) {
      return reject('accountNum', 'validation:org.accountTaken');
    }
    const roleText = text('role');
    const roleId = grantable.get(roleText) ?? '';
    if (roleText && !roleId) {
      return reject('role', roleNames.has(roleText) ? 'validation:user.roleNotHeld' : 'validation:user.roleRequired');
    }
    const common = { name: text('name'), accountNum, roleId, mobile: text('mobile') };
    const isNew = !user;
    let parsed;
    if (kind === 'staff') {
      const certificateType = parseCertificateType(text('certificateType'));
      const body = {
        ...common,
        gender: parseGender(text('gender')) ?? text('gender'),
        workNo: text('workNo'),
        idCard: text('idCard').toUpperCase(),
        certificateType: certificateType ?? text('certificateType'),
        certificateNo: text('certificateNo'),
        photoFileId: '',
        ...(isNew ? { password: text('password') } : {}),
      };
      parsed = isNew ? staffCreateSchema.safeParse(body) : staffUpdateSchema.safeParse(body);
    } else {
      const body = { ...common, enabled: true, ...(isNew ? { password: text('password') } : {}) };
      parsed = isNew ? userCreateSchema.safeParse(body) : userUpdateSchema.safeParse(body);
    }
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return reject(FIELD[String(issue.path[0])] ?? 'name', issue.message);
    }
    const v = parsed.data as typeof parsed.data & { password?: string; gender?: 'male' | 'female'; workNo?: string; idCard?: string; certificateType?: string; certificateNo?: string };
    const ownUserId = user?.userId;
    if (v.mobile) {
      const other = taken.find((u) => u.userId !== ownUserId && (u.mobile === v.mobile || u.accountNum === v.mobile));
      const inFile = seenMobile.get(v.mobile);
      if (other || inFile) {
        return reject('mobile', inFile ? 'people:import.duplicateRow' : 'errors:mobileTaken', { row: inFile ?? 0 });
      }
    }
    if (kind === 'staff' && v.workNo) {
      const other = workNos.find((w) => w.workNo === v.workNo && (!ownUserId || w.userId !== ownUserId));
      const inFile = seenWorkNo.get(v.workNo);
      if (other || inFile) {
        return reject('workNo', inFile ? 'people:import.duplicateRow' : 'people:import.workNoTaken', { row: inFile ?? 0 });
      }
      seenWorkNo.set(v.workNo, r.row);
    }
    if (v.mobile) seenMobile.set(v.mobile, r.row);
    if (user) {
      const now = current.get(user.userId);
      const after: Record<AccountField, unknown> = {
        name: v.name,
        mobile: v.mobile || null,
        roleId: v.roleId,
        ...(kind === 'staff' ? { gender: v.gender, workNo: v.workNo || null, idCard: v.idCard || null, certificateType: v.certificateType || null, certificateNo: v.certificateNo || null } : {}),
      } as Record<AccountField, unknown>;
      const fields = kind === 'staff' ? ACCOUNT_FIELDS : ACCOUNT_FIELDS.slice(0, 3);
      const changes = updates.diff((now ?? {}) as Record<AccountField, unknown>, after, fields, ACCOUNT_LABEL, (f, value) => {
        if (value == null || value === '') return '';
        if (f === 'roleId') return roleName.get(String(value)) ?? '';
        if (f === 'gender') return ctx.t(`people:staff.${String(value)}`, RAW);
        if (f === 'certificateType') return ctx.t(`people:staff.certificate.${String(value)}`, RAW);
        // ID numbers are never shown in full, here either.
        if (f === 'idCard' || f === 'certificateNo') return maskIdNumber(String(value)) ?? '';
        return String(value);
      });
      const verdict = updates.judge(r.row, `${now?.name ?? v.name}（${accountNum}）`, changes);
      if (verdict === 'unchanged') return 'unchanged';
      if (verdict === 'refused') return reject('accountNum', 'people:import.accountExists');
    }
    accepted.set(accountNum, {
      row: r.row,
      name: v.name,
      accountNum,
      password: v.password ?? null,
      roleId: v.roleId,
      mobile: v.mobile,
      staff: kind === 'staff' ? { gender: v.gender!, workNo: v.workNo!, idCard: v.idCard!, certificateType: v.certificateType!, certificateNo: v.certificateNo! } : undefined,
      existing: user ? { userId: user.userId, membershipId: user.membershipId! } : undefined,
    });
  });
  const list = [...accepted.values()];
  const update = list.filter((a) => a.existing).length;
  return {
    create: list.length - update,
    update,
    unchanged: checked.unchanged,
    updates: updates.updates,
    rejected: checked.failures,
    write: (db) => db.transaction((tx) => writeAccounts(tx, ctx, kind, list, updates.updates)),
  };
}

const ACCOUNT_FIELDS = ['name', 'mobile', 'roleId', 'gender', 'workNo', 'idCard', 'certificateType', 'certificateNo'] as const;
type AccountField = (typeof ACCOUNT_FIELDS)[number];
const ACCOUNT_LABEL: Record<AccountField, string> = {
  name: 'people:staff.name',
  mobile: 'people:staff.mobile',
  roleId: 'people:staff.role',
  gender: 'people:staff.gender',
  workNo: 'people:staff.workNo',
  idCard: 'people:staff.idCard',
  certificateType: 'people:staff.certificateType',
  certificateNo: 'people:staff.certificateNo',
};

/** What the existing accounts of the file hold now (user, present role, staff record), for the dry run's changes. */
async function currentAccounts(ctx: ImportContext, accounts: readonly { userId: string; membershipId: string }[]) {
  const found = new Map<string, Partial<Record<AccountField, unknown>>>();
  if (accounts.length === 0) return found;
  const userIds = accounts.map((a) => a.userId);
  const [people, roleRows, staff] = await Promise.all([
    ctx.db.select({ id: users.id, name: users.name, mobile: users.mobile }).from(users).where(inArray(users.id, userIds)),
    ctx.db
      .select({ membershipId: membershipRoles.membershipId, roleId: membershipRoles.roleId })
      .from(membershipRoles)
      .where(and(inArray(membershipRoles.membershipId, accounts.map((a) => a.membershipId)), eq(membershipRoles.present, true))),
    ctx.db
      .select({ userId: teachers.userId, name: teachers.name, gender: teachers.gender, workNo: teachers.workNo, idCard: teachers.idCard, certificateType: teachers.certificateType, certificateNo: teachers.certificateNo })
      .from(teachers)
      .where(and(eq(teachers.orgId, ctx.actor.tenantOrgId), inArray(teachers.userId, userIds))),
  ]);
  const roleOf = new Map(roleRows.map((r) => [r.membershipId, r.roleId]));
  const staffOf = new Map(staff.map((x) => [x.userId, x]));
  for (const a of accounts) {
    const u = people.find((p) => p.id === a.userId);
    const t = staffOf.get(a.userId);
    found.set(a.userId, {
      name: t?.name ?? u?.name,
      mobile: u?.mobile ?? null,
      roleId: roleOf.get(a.membershipId) ?? null,
      gender: t?.gender ?? null,
      workNo: t?.workNo ?? null,
      idCard: t?.idCard ?? null,
      certificateType: t?.certificateType ?? null,
      certificateNo: t?.certificateNo ?? null,
    });
  }
  return found;
}

/** Creates or updates each accepted account (and staff record) inside the commit's transaction. */
export async function writeAccounts(tx: Tx, ctx: ImportContext, kind: Exclude<PeopleImportKind, 'student'>, list: readonly AccountRow[], updates: readonly RowUpdate[] = []) {
  const org = ctx.actor.tenantOrgId;
  for (const a of list) {
    let userId: string;
    let membershipId: string;
    if (a.existing) {
      ({ userId, membershipId } = a.existing);
      await tx.update(users).set({ name: a.name, mobile: a.mobile || null, updatedAt: new Date() }).where(eq(users.id, userId));
      await tx.delete(membershipRoles).where(and(eq(membershipRoles.membershipId, membershipId), sql`${membershipRoles.roleId} <> ${a.roleId}`));
    } else {
      const [user] = await tx
        .insert(users)
        .values({ accountNum: a.accountNum, name: a.name, mobile: a.mobile || null, passwordHash: await hashPassword(sha256Hex(a.password!)), mustChangePassword: true })
        .returning({ id: users.id });
      userId = user.id;
      const [account] = await tx.insert(memberships).values({ userId, orgId: org, tenantOrgId: org, present: true }).returning({ id: memberships.id });
      membershipId = account.id;
    }
    await tx.insert(membershipRoles).values({ membershipId, roleId: a.roleId, present: true }).onConflictDoUpdate({ target: [membershipRoles.membershipId, membershipRoles.roleId], set: { present: true } });
    if (a.staff) {
      const person = {
        name: a.name,
        gender: a.staff.gender,
        mobile: a.mobile || null,
        workNo: a.staff.workNo || null,
        idCard: a.staff.idCard || null,
        certificateType: a.staff.certificateType || null,
        certificateNo: a.staff.certificateNo || null,
      };
      const updated = await tx
        .update(teachers)
        .set({ ...person, version: sql`${teachers.version} + 1` })
        .where(and(eq(teachers.orgId, org), eq(teachers.userId, userId)))
        .returning({ id: teachers.id });
      if (updated.length === 0) await tx.insert(teachers).values({ orgId: org, userId, ...person });
    }
  }
  await audit(tx, ctx.actor, {
    action: 'import',
    entity: kind === 'staff' ? 'teacher' : 'user',
    entityId: null,
    // Each updated account's changed fields as the dry run showed them (ID numbers masked).
    before: updates.length ? { updated: updates.map((u) => ({ row: u.row, who: u.who, ...Object.fromEntries(u.changes.map((c) => [c.field, c.before])) })) } : null,
    after: {
      accounts: list.length,
      created: list.filter((a) => !a.existing).length,
      ...(updates.length ? { updated: updates.map((u) => ({ row: u.row, who: u.who, ...Object.fromEntries(u.changes.map((c) => [c.field, c.after])) })) } : {}),
    },
  });
}
