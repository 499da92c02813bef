import { createHash } from 'node:crypto';
import { and, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import type { AccessLogQuery, AccessLogRow, AccessOutcome } from '@/domain/platform/access-log';
import type { Db, DbOrTx } from '../../db/client';
import { accessLogs } from '../../db/schema/access-log';
import { roles, users } from '../../db/schema/auth';
import { orgs } from '../../db/schema/orgs';
import { devices } from '../../db/schema/venue';
import { isoInstant } from '../../lib/iso';
import { LOG_EXPORT_MAX } from '../../lib/log-list';
import { paginate } from '../../lib/paginate';
import { inOrgSubtree } from '../../lib/tenancy';
import type { Actor } from '../../plugins/tenant';
import { inDays, like } from './logs.service';

/** The answers an outcome filter covers (src/domain/platform/access-log.ts `accessOutcome`). */
const OUTCOME: Record<AccessOutcome, SQL> = {
  success: lt(accessLogs.status, 400),
  denied: inArray(accessLogs.status, [401, 403]),
  clientError: and(gte(accessLogs.status, 400), lt(accessLogs.status, 500), sql`${accessLogs.status} not in (401, 403)`)!,
  serverError: gte(accessLogs.status, 500),
};

function accessLogSelect(db: DbOrTx, actor: Actor, q: Omit<AccessLogQuery, 'current' | 'size'>) {
  return db
    .select({
      id: accessLogs.id,
      at: accessLogs.at,
      kind: accessLogs.kind,
      userName: users.name,
      accountNum: sql<string | null>`coalesce(${users.accountNum}, ${devices.serialNo})`,
      orgName: orgs.name,
      roleName: roles.name,
      method: accessLogs.method,
      route: accessLogs.route,
      pageKey: accessLogs.pageKey,
      status: accessLogs.status,
      durationMs: accessLogs.durationMs,
      ip: accessLogs.ip,
      userAgent: accessLogs.userAgent,
    })
    .from(accessLogs)
    .leftJoin(users, eq(users.id, accessLogs.userId))
    .leftJoin(devices, eq(devices.id, accessLogs.deviceId))
    .leftJoin(orgs, eq(orgs.id, accessLogs.orgId))
    .leftJoin(roles, eq(roles.id, accessLogs.roleId))
    .where(
      and(
        // The organisation's own requests and those of the organisations below it (rows without one: nobody's).
        inOrgSubtree(accessLogs.orgId, actor.tenantOrgId),
        q.account ? or(ilike(users.accountNum, like(q.account)), ilike(users.name, like(q.account)), ilike(devices.serialNo, like(q.account))) : undefined,
        q.org ? ilike(orgs.name, like(q.org)) : undefined,
        q.route ? ilike(accessLogs.route, like(q.route)) : undefined,
        q.outcome ? OUTCOME[q.outcome] : undefined,
        ...inDays(accessLogs.at, q.from, q.to),
      ),
    )
    .orderBy(desc(accessLogs.at), desc(accessLogs.id))
    .$dynamic();
}

type Raw = Awaited<ReturnType<typeof accessLogSelect>>[number];
const row = (r: Raw): AccessLogRow => ({ ...r, id: String(r.id), at: isoInstant(r.at) });

/** A page of the access log of the actor's organisation and those below it, newest first. */
export async function accessLogPage(db: DbOrTx, actor: Actor, q: AccessLogQuery): Promise<Page<AccessLogRow>> {
  const page = await paginate(db, accessLogSelect(db, actor, q), q);
  return { ...page, records: page.records.map(row) };
}

export async function accessLogRows(db: DbOrTx, actor: Actor, q: AccessLogQuery): Promise<AccessLogRow[]> {
  return (await accessLogSelect(db, actor, q).limit(LOG_EXPORT_MAX)).map(row);
}

// ---------------------------------------------------------------------------------------------------------------------
// Retention (server/modules/retention/retention.service.ts)

export interface AccessLogArchive {
  fromId: number;
  toId: number;
  rows: number;
  hash: string;
  bytes: Buffer;
}

/**
 * Removes up to `limit` of the oldest rows older than `cutoff` in one transaction, handing them first (as JSON Lines,
 * every column as stored) to `keep`, which writes the archive in the same transaction: either the rows are archived
 * and gone, or neither. Answers how many were removed.
 */
export async function archiveAccessLogBatch(db: Db, cutoff: Date, limit: number, keep: (archive: AccessLogArchive, tx: DbOrTx) => Promise<void>): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.select().from(accessLogs).where(lt(accessLogs.at, cutoff)).orderBy(accessLogs.id).limit(limit).for('update');
    if (rows.length === 0) return 0;
    const bytes = Buffer.from(rows.map((r) => JSON.stringify({ ...r, at: r.at.toISOString() })).join('\n') + '\n', 'utf8');
    const hash = createHash('sha256').update(bytes).digest('hex');
    await keep({ fromId: rows[0].id, toId: rows[rows.length - 1].id, rows: rows.length, hash, bytes }, tx);
    await tx.delete(accessLogs).where(inArray(accessLogs.id, rows.map((r) => r.id)));
    return rows.length;
  });
}
