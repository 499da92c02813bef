import { and, desc, eq, gt, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { AUDIT_NAME_FIELDS, type AuditEntity } from '@/domain/platform/audit';
import type { Page } from '@/domain/api';
import type {
  OnlineSessionQuery,
  OnlineSessionRow,
  OperationLogDetail,
  OperationLogQuery,
  OperationLogRow,
  SignInLogQuery,
  SignInLogRow,
} from '@/domain/platform/logs';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { AuditChainReport } from '@/domain/platform/logs';
import type { Db, DbOrTx } from '../../db/client';
import { auditLogs } from '../../db/schema/audit';
import { memberships, roles, sessions, users } from '../../db/schema/auth';
import { banners, lessonResources, wikiEntries } from '../../db/schema/content';
import { contests } from '../../db/schema/contests';
import { departments } from '../../db/schema/departments';
import { homeworks, trainingPlans } from '../../db/schema/homework';
import { meetCertificates, meets, meetStamps } from '../../db/schema/meets';
import { orgs } from '../../db/schema/orgs';
import { classes, colleges, majors, parents, schoolYears, students, teachers } from '../../db/schema/school';
import { testPlans } from '../../db/schema/test-plans';
import { devices, venues } from '../../db/schema/venue';
import { signInLogs } from '../../db/schema/platform';
import { sealAuditChains, verifyAuditChains } from '../../lib/audit-chain';
import { paginate } from '../../lib/paginate';
import { notFound } from '../../lib/resource';
import { inOrgSubtree, orgSubtree } from '../../lib/tenancy';
import type { Actor } from '../../plugins/tenant';
import { revokeSession } from '../auth/sso.service';
import { isoInstant } from '../../lib/iso';

export { LOG_EXPORT_MAX } from '../../lib/log-list';
import { LOG_EXPORT_MAX } from '../../lib/log-list';

export const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `column` within the days `from`–`to` (both inclusive, days of the organisations' time zone). */
export function inDays(column: PgColumn, from: string | undefined, to: string | undefined): SQL[] {
  const out: SQL[] = [];
  if (from) out.push(sql`${column} >= (${from}::date::timestamp at time zone ${ORG_TIME_ZONE})`);
  if (to) out.push(sql`${column} < ((${to}::date + 1)::timestamp at time zone ${ORG_TIME_ZONE})`);
  return out;
}


// ---------------------------------------------------------------------------------------------- sign-in log

function signInLogSelect(db: DbOrTx, actor: Actor, q: Omit<SignInLogQuery, 'current' | 'size'>) {
  return db
    .select({
      id: signInLogs.id,
      at: signInLogs.at,
      account: signInLogs.account,
      name: users.name,
      orgName: orgs.name,
      ip: signInLogs.ip,
      userAgent: signInLogs.userAgent,
      result: signInLogs.result,
      reason: signInLogs.reason,
    })
    .from(signInLogs)
    .leftJoin(users, eq(users.id, signInLogs.userId))
    .leftJoin(orgs, eq(orgs.id, signInLogs.orgId))
    .where(
      and(
        inOrgSubtree(signInLogs.orgId, actor.tenantOrgId),
        q.account ? or(ilike(signInLogs.account, like(q.account)), ilike(users.name, like(q.account))) : undefined,
        q.ip ? ilike(signInLogs.ip, like(q.ip)) : undefined,
        q.result ? eq(signInLogs.result, q.result) : undefined,
        ...inDays(signInLogs.at, q.from, q.to),
      ),
    )
    .orderBy(desc(signInLogs.at), desc(signInLogs.id))
    .$dynamic();
}

type SignInRaw = Awaited<ReturnType<typeof signInLogSelect>>[number];
const signInRow = (r: SignInRaw): SignInLogRow => ({ ...r, at: isoInstant(r.at) });

/** A page of sign-in attempts of people of the actor's organisation and those below it, newest first. */
export async function signInLogPage(db: DbOrTx, actor: Actor, q: SignInLogQuery): Promise<Page<SignInLogRow>> {
  const page = await paginate(db, signInLogSelect(db, actor, q), q);
  return { ...page, records: page.records.map(signInRow) };
}

export async function signInLogRows(db: DbOrTx, actor: Actor, q: SignInLogQuery): Promise<SignInLogRow[]> {
  return (await signInLogSelect(db, actor, q).limit(LOG_EXPORT_MAX)).map(signInRow);
}

// -------------------------------------------------------------------------------------------- operation log

/** Where a record type's name lives now, for log rows that hold none (written before names were kept, or by a write whose before/after is not the record). */
const LIVE_NAME: Partial<Record<AuditEntity, { table: PgTable; id: PgColumn; name: PgColumn }>> = {
  org: { table: orgs, id: orgs.id, name: orgs.name },
  department: { table: departments, id: departments.id, name: departments.name },
  role: { table: roles, id: roles.id, name: roles.name },
  user: { table: users, id: users.id, name: users.name },
  schoolYear: { table: schoolYears, id: schoolYears.id, name: schoolYears.academicYear },
  class: { table: classes, id: classes.id, name: classes.name },
  college: { table: colleges, id: colleges.id, name: colleges.name },
  major: { table: majors, id: majors.id, name: majors.name },
  staff: { table: teachers, id: teachers.id, name: teachers.name },
  teacher: { table: teachers, id: teachers.id, name: teachers.name },
  student: { table: students, id: students.id, name: students.name },
  parent: { table: parents, id: parents.id, name: parents.name },
  venue: { table: venues, id: venues.id, name: venues.name },
  device: { table: devices, id: devices.id, name: devices.name },
  physiqueImport: { table: testPlans, id: testPlans.id, name: testPlans.name },
  contest: { table: contests, id: contests.id, name: contests.name },
  homework: { table: homeworks, id: homeworks.id, name: homeworks.name },
  trainingPlan: { table: trainingPlans, id: trainingPlans.id, name: trainingPlans.name },
  meet: { table: meets, id: meets.id, name: meets.name },
  meetStamp: { table: meetStamps, id: meetStamps.id, name: meetStamps.name },
  meetCertificate: { table: meetCertificates, id: meetCertificates.id, name: meetCertificates.name },
  banner: { table: banners, id: banners.id, name: banners.title },
  wiki: { table: wikiEntries, id: wikiEntries.id, name: wikiEntries.title },
  lessonResource: { table: lessonResources, id: lessonResources.id, name: lessonResources.title },
  libraryResource: { table: lessonResources, id: lessonResources.id, name: lessonResources.title },
};

/** The name a record had in the row itself (before/after is the record: its id is the row's entity id). */
const loggedName = (record: PgColumn) =>
  sql`case when ${record} ->> 'id' = ${auditLogs.entityId} then coalesce(${sql.join(
    AUDIT_NAME_FIELDS.map((f) => sql`nullif(${record} ->> ${sql.raw(`'${f}'`)}, '')`),
    sql`, `,
  )}) end`;

/**
 * The object's name: as written with the row, else from the record the row holds (rows older than the name column),
 * else the record's name now (records that still exist).
 */
const objectName = sql<string | null>`coalesce(${auditLogs.entityName}, ${loggedName(auditLogs.after)}, ${loggedName(auditLogs.before)},
  case ${auditLogs.entity} ${sql.join(
    Object.entries(LIVE_NAME).map(([entity, t]) => sql`when ${sql.raw(`'${entity}'`)} then (select ${t.name} from ${t.table} where ${t.id}::text = ${auditLogs.entityId} limit 1)`),
    sql` `,
  )} end)`;

function operationLogSelect(db: DbOrTx, actor: Actor, q: Omit<OperationLogQuery, 'current' | 'size'>) {
  return db
    .select({
      id: auditLogs.id,
      at: auditLogs.at,
      userName: users.name,
      accountNum: users.accountNum,
      orgName: orgs.name,
      action: auditLogs.action,
      entity: auditLogs.entity,
      entityId: auditLogs.entityId,
      entityName: objectName,
    })
    .from(auditLogs)
    .leftJoin(users, eq(users.id, auditLogs.userId))
    .leftJoin(orgs, eq(orgs.id, auditLogs.orgId))
    .where(
      and(
        inOrgSubtree(auditLogs.orgId, actor.tenantOrgId),
        q.user ? or(ilike(users.name, like(q.user)), ilike(users.accountNum, like(q.user))) : undefined,
        q.entity ? eq(auditLogs.entity, q.entity) : undefined,
        q.action ? eq(auditLogs.action, q.action) : undefined,
        ...inDays(auditLogs.at, q.from, q.to),
      ),
    )
    .orderBy(desc(auditLogs.at), desc(auditLogs.id))
    .$dynamic();
}

type OperationRaw = Awaited<ReturnType<typeof operationLogSelect>>[number];
const operationRow = (r: OperationRaw): OperationLogRow => ({ ...r, at: isoInstant(r.at) });

/** A page of the audit rows of the actor's organisation and those below it, newest first. */
export async function operationLogPage(db: DbOrTx, actor: Actor, q: OperationLogQuery): Promise<Page<OperationLogRow>> {
  const page = await paginate(db, operationLogSelect(db, actor, q), q);
  return { ...page, records: page.records.map(operationRow) };
}

export async function operationLogRows(db: DbOrTx, actor: Actor, q: OperationLogQuery): Promise<OperationLogRow[]> {
  return (await operationLogSelect(db, actor, q).limit(LOG_EXPORT_MAX)).map(operationRow);
}

/** One audit row with the record before and after; another organisation's row is 404. */
export async function operationLogDetail(db: DbOrTx, actor: Actor, id: string): Promise<OperationLogDetail> {
  const [row] = await db
    .select({
      id: auditLogs.id,
      at: auditLogs.at,
      userName: users.name,
      accountNum: users.accountNum,
      orgName: orgs.name,
      action: auditLogs.action,
      entity: auditLogs.entity,
      entityId: auditLogs.entityId,
      entityName: objectName,
      before: auditLogs.before,
      after: auditLogs.after,
    })
    .from(auditLogs)
    .leftJoin(users, eq(users.id, auditLogs.userId))
    .leftJoin(orgs, eq(orgs.id, auditLogs.orgId))
    .where(and(eq(auditLogs.id, id), inOrgSubtree(auditLogs.orgId, actor.tenantOrgId)));
  if (!row) throw notFound();
  return { ...row, at: isoInstant(row.at) };
}

// ------------------------------------------------------------------------------------------ online sessions

/**
 * Sessions alive now (not ended, refresh token not expired) of people holding an account in the actor's organisation
 * or one below it. A person with accounts in several organisations appears once per session.
 */
function liveSessions(actor: Actor, now: Date, extra: (SQL | undefined)[] = []) {
  return and(
    isNull(sessions.revokedAt),
    gt(sessions.refreshExpiresAt, now),
    sql`exists (select 1 from ${memberships} where ${memberships.userId} = ${sessions.userId} and ${inOrgSubtree(memberships.tenantOrgId, actor.tenantOrgId)})`,
    ...extra,
  );
}

export async function onlineSessionPage(db: DbOrTx, actor: Actor, now: Date, currentSessionId: string, q: OnlineSessionQuery): Promise<Page<OnlineSessionRow>> {
  // The organisation shown is the person's account in use (or their first).
  const orgName = sql<string | null>`(select ${orgs.name} from ${memberships} join ${orgs} on ${orgs.id} = ${memberships.tenantOrgId}
    where ${memberships.userId} = ${sessions.userId} order by ${memberships.present} desc, ${memberships.createdAt} limit 1)`;
  const query = db
    .select({
      id: sessions.id,
      userName: users.name,
      accountNum: users.accountNum,
      orgName,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
      signedInAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      liveSessions(actor, now, [
        q.user ? or(ilike(users.name, like(q.user)), ilike(users.accountNum, like(q.user))) : undefined,
        q.ip ? ilike(sessions.ip, like(q.ip)) : undefined,
      ]),
    )
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id))
    .$dynamic();
  const page = await paginate(db, query, q);
  return {
    ...page,
    records: page.records.map((r) => ({ ...r, signedInAt: isoInstant(r.signedInAt), lastSeenAt: isoInstant(r.lastSeenAt), current: r.id === currentSessionId })),
  };
}

/** A signed-out session as it was: the `before` of its audit row. */
interface SignedOutSession {
  userId: string;
  accountNum: string;
  ip: string | null;
  signedInAt: string;
}

/**
 * Ends one session of someone in the actor's organisation (or below): its tokens stop working at the next request
 * (the auth cache follows `auth_epoch`). Another organisation's or an ended session is 404. Answers the session as it
 * was; the route's action writes the audit row.
 */
export async function signOutSession(db: DbOrTx, actor: Actor, now: Date, id: string): Promise<SignedOutSession> {
  const [row] = await db
    .select({ id: sessions.id, userId: sessions.userId, ip: sessions.ip, createdAt: sessions.createdAt, accountNum: users.accountNum })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), liveSessions(actor, now)));
  if (!row) throw notFound();
  await revokeSession(db, now, id);
  return { userId: row.userId, accountNum: row.accountNum, ip: row.ip, signedInAt: isoInstant(row.createdAt) };
}

/**
 * Checks the hash chains of the reader's organisation and those below it (docs/decisions/050-audit-hash-chain.md):
 * seals what was written since the last seal first, so the check covers every row up to now.
 */
export async function verifyOperationLog(db: Db, actor: Actor, now: Date): Promise<AuditChainReport> {
  await sealAuditChains(db);
  const tree = await orgSubtree(db, actor.tenantOrgId);
  const report = await verifyAuditChains(db, tree);
  const names = new Map((await db.select({ id: orgs.id, name: orgs.name }).from(orgs).where(inArray(orgs.id, tree))).map((o) => [o.id, o.name]));
  return {
    chains: report.chains,
    rows: report.rows,
    unsealed: report.unsealed,
    checkedAt: now.toISOString(),
    breaks: report.breaks.map((b) => ({ orgId: b.chainId, orgName: names.get(b.chainId) ?? null, seq: b.seq, id: b.id, at: b.at, kind: b.kind })),
  };
}
