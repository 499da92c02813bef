import { and, count, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import { ORG_TIME_ZONE } from '@/domain/dates';
import { EXPORT_LINK_HOURS, type ExportDecision, type ExportRequestCreate, type ExportRequestQuery, type ExportRequestRow, type ExportRequestStatus, type SensitiveLogQuery, type RevealVia } from '@/domain/data-access/data-access';
import type { Page } from '@/domain/api';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { users } from '../../db/schema/auth';
import { exportDownloads, exportRequests, sensitiveViews } from '../../db/schema/data-access';
import { AppError } from '../../lib/app-error';
import { approvedExport } from '../../lib/export-approval';
import { leaveExportDecisionMessage } from '../messages/messages.service';
import { isUuid } from '../../lib/ids';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { familyOfKey, type Family } from '@/domain/menus/access';
import type { Actor } from '../../plugins/tenant';

function dayRange(column: typeof sensitiveViews.at, from?: string, to?: string): SQL[] {
  const out: SQL[] = [];
  if (from) out.push(sql`${column} >= (${from}::date::timestamp at time zone ${ORG_TIME_ZONE})`);
  if (to) out.push(sql`${column} < ((${to}::date + 1)::timestamp at time zone ${ORG_TIME_ZONE})`);
  return out;
}

function sensitiveLogWhere(actor: Actor, q: SensitiveLogQuery): SQL | undefined {
  return and(
    eq(sensitiveViews.orgId, actor.tenantOrgId),
    ...dayRange(sensitiveViews.at, q.from, q.to),
    q.viewer ? or(ilike(sensitiveViews.userName, containsPattern(q.viewer)), ilike(sensitiveViews.accountNum, containsPattern(q.viewer))) : undefined,
    q.person ? ilike(sensitiveViews.peopleText, containsPattern(q.person)) : undefined,
  );
}

const logColumns = {
  id: sensitiveViews.id,
  at: sensitiveViews.at,
  userName: sensitiveViews.userName,
  accountNum: sensitiveViews.accountNum,
  screen: sensitiveViews.screen,
  via: sensitiveViews.via,
  people: sensitiveViews.people,
  peopleCount: sensitiveViews.peopleCount,
};

const logRow = <R extends { at: Date; via: string }>(r: R) => ({ ...r, at: r.at.toISOString(), via: r.via as RevealVia });

/** A page of the organisation's unmasked views, newest first. */
export async function sensitiveLogPage(db: DbOrTx, actor: Actor, q: SensitiveLogQuery) {
  const page = await paginate(db, db.select(logColumns).from(sensitiveViews).where(sensitiveLogWhere(actor, q)).orderBy(desc(sensitiveViews.at), desc(sensitiveViews.id)).$dynamic(), q);
  return { ...page, records: page.records.map(logRow) };
}

/** Every row of the filters, for the log's export (newest first). */
export async function sensitiveLogRows(db: DbOrTx, actor: Actor, q: SensitiveLogQuery) {
  const rows = await db.select(logColumns).from(sensitiveViews).where(sensitiveLogWhere(actor, q)).orderBy(desc(sensitiveViews.at), desc(sensitiveViews.id));
  return rows.map(logRow);
}

/** A request's state at `now`: an approved link past its 24 h is expired. */
const stateOf = (r: { status: string; expiresAt: Date | null }, now: Date): ExportRequestStatus =>
  r.status === 'approved' && r.expiresAt && r.expiresAt <= now ? 'expired' : (r.status as ExportRequestStatus);

/** Requests of the organisation (the approver), or the caller's own (`mine`, or without the page's `audit`). */
export async function exportRequestPage(db: DbOrTx, actor: Actor, q: ExportRequestQuery, seesAll: boolean, now: Date): Promise<Page<ExportRequestRow>> {
  const mine = !seesAll || q.mine === 'true';
  const state =
    q.status === 'expired'
      ? and(eq(exportRequests.status, 'approved'), lt(exportRequests.expiresAt, now))
      : q.status === 'approved'
        ? and(eq(exportRequests.status, 'approved'), gte(exportRequests.expiresAt, now))
        : q.status
          ? eq(exportRequests.status, q.status)
          : undefined;
  const where = and(
    eq(exportRequests.orgId, actor.tenantOrgId),
    mine ? eq(exportRequests.userId, actor.userId) : undefined,
    state,
    q.user ? ilike(exportRequests.userName, containsPattern(q.user)) : undefined,
  );
  const downloads = db.select({ requestId: exportDownloads.requestId, n: count().as('n') }).from(exportDownloads).groupBy(exportDownloads.requestId).as('downloads');
  const page = await paginate(
    db,
    db
      .select({
        id: exportRequests.id,
        userId: exportRequests.userId,
        userName: exportRequests.userName,
        screen: exportRequests.screen,
        query: exportRequests.query,
        rows: exportRequests.rows,
        reason: exportRequests.reason,
        status: exportRequests.status,
        decidedByName: exportRequests.decidedByName,
        note: exportRequests.note,
        decidedAt: exportRequests.decidedAt,
        expiresAt: exportRequests.expiresAt,
        createdAt: exportRequests.createdAt,
        downloads: sql<number>`coalesce(${downloads.n}, 0)::int`,
      })
      .from(exportRequests)
      .leftJoin(downloads, eq(downloads.requestId, exportRequests.id))
      .where(where)
      .orderBy(desc(exportRequests.createdAt), desc(exportRequests.id))
      .$dynamic(),
    q,
  );
  return {
    ...page,
    records: page.records.map(({ userId, ...r }) => ({
      ...r,
      status: stateOf(r, now),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      expiresAt: r.expiresAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      mine: userId === actor.userId,
    })),
  };
}

/**
 * Keeps a request of an export above the threshold (docs/product-rules.md#personal-data-access): only of a page
 * whose export opted into approval and that the caller may export, with the rows its filters count now.
 */
export async function createExportRequest(tx: Tx, primary: Db, actor: Actor, family: Family, body: ExportRequestCreate, now: Date) {
  const found = approvedExport(primary, body.screen, body.path);
  if (!found || familyOfKey(body.screen) !== family || !found.entry.may(actor)) throw new AppError(404, 'dataAccess:errors.noSuchExport');
  const { entry } = found;
  const parsed = entry.query ? entry.query.safeParse(body.query) : { success: true as const, data: undefined };
  if (!parsed.success) throw new AppError(400, 'dataAccess:errors.badQuery', {}, { field: 'query' });
  // A path's params name rows (a homework, a contest): a param that is no uuid names none.
  const ids = Object.entries(found.params ?? {}).every(([k, v]) => !(k === 'id' || k.endsWith('Id')) || isUuid(v));
  const params = entry.params ? entry.params.safeParse(found.params ?? {}) : { success: true as const, data: undefined };
  if (!ids || !params.success) throw new AppError(404, 'dataAccess:errors.noSuchExport');
  const rows = await entry.rows(tx, actor, { query: parsed.data, params: params.data });
  const [me] = await tx.select({ name: users.name }).from(users).where(eq(users.id, actor.userId)).limit(1);
  const [row] = await tx
    .insert(exportRequests)
    .values({ orgId: actor.tenantOrgId, userId: actor.userId, accountId: actor.accountId, userName: me?.name ?? '', screen: body.screen, path: body.path ?? null, query: body.query, rows, reason: body.reason, createdAt: now })
    .returning();
  return row;
}

async function requestOf(db: DbOrTx, actor: Actor, id: string) {
  const [row] = await db.select().from(exportRequests).where(and(eq(exportRequests.id, id), eq(exportRequests.orgId, actor.tenantOrgId))).limit(1);
  if (!row) throw new AppError(404, 'dataAccess:errors.requestNotFound');
  return row;
}

/** An administrator approves (the link works for 24 h from now) or refuses a pending request, with a note. */
export async function decideExportRequest(tx: Tx, actor: Actor, id: string, d: ExportDecision, now: Date) {
  const before = await requestOf(tx, actor, id);
  if (before.status !== 'pending') throw new AppError(409, 'dataAccess:errors.alreadyDecided');
  const [me] = await tx.select({ name: users.name }).from(users).where(eq(users.id, actor.userId)).limit(1);
  const [after] = await tx
    .update(exportRequests)
    .set({
      status: d.approve ? 'approved' : 'refused',
      decidedBy: actor.userId,
      decidedByName: me?.name ?? '',
      note: d.note || null,
      decidedAt: now,
      expiresAt: d.approve ? new Date(now.getTime() + EXPORT_LINK_HOURS * 3600_000) : null,
      version: sql`${exportRequests.version} + 1`,
    })
    .where(and(eq(exportRequests.id, id), eq(exportRequests.status, 'pending')))
    .returning();
  if (!after) throw new AppError(409, 'dataAccess:errors.alreadyDecided');
  // The requester hears of the decision in the message centre, with the way to 我的导出.
  await leaveExportDecisionMessage(tx, after, now);
  return { before, after };
}

/**
 * The requester's download of an approved request: refused when it is someone else's (404), still pending, refused or
 * past its 24 h; logged. Answers the kept query to run.
 */
export async function takeDownload(db: Db, actor: Actor, id: string, now: Date) {
  const row = await requestOf(db, actor, id);
  if (row.userId !== actor.userId) throw new AppError(404, 'dataAccess:errors.requestNotFound');
  if (row.status === 'pending') throw new AppError(409, 'dataAccess:errors.pending');
  if (row.status === 'refused') throw new AppError(410, 'dataAccess:errors.refused');
  if (!row.expiresAt || row.expiresAt <= now) throw new AppError(410, 'dataAccess:errors.expired', { hours: EXPORT_LINK_HOURS });
  const found = approvedExport(db, row.screen, row.path);
  if (!found) throw new AppError(404, 'dataAccess:errors.noSuchExport');
  // A role that lost the export's permission since the request cannot take the file.
  if (!found.entry.may(actor)) throw new AppError(403, 'errors:forbidden');
  await db.insert(exportDownloads).values({ requestId: row.id, userId: actor.userId, at: now });
  return { entry: found.entry, kept: { params: found.params, query: row.query } };
}
