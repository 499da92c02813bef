import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { and, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import type { AccessLogQuery, AccessLogRow, AccessOutcome } from '@/domain/platform/access-log';
import { ACCESS_LOG_ARCHIVES_SHOWN, type AccessLogArchiveRow } from '@/domain/retention/retention';
import type { Db, DbOrTx } from '../../db/client';
import { DAY_MS, DAY_PARTITION_LOCK, dayBounds, dayOf, dayPartitionName, dropDayPartition } from '../../db/day-partitions';
import { accessLogArchives, accessLogs } from '../../db/schema/access-log';
import { roles, users } from '../../db/schema/auth';
import { orgs } from '../../db/schema/orgs';
import { devices } from '../../db/schema/venue';
import { isoInstant } from '../../lib/iso';
import { LOG_EXPORT_MAX } from '../../lib/log-list';
import { paginate } from '../../lib/paginate';
import { notFound } from '../../lib/resource';
import type { Storage } from '../../lib/storage/storage';
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

export function accessLogSelect(db: DbOrTx, actor: Actor, q: Omit<AccessLogQuery, 'current' | 'size'>) {
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
  periodFrom: Date;
  periodTo: Date;
}

type StoredRow = typeof accessLogs.$inferSelect;
/** One archived row: every column as stored, the instant in ISO form. */
const line = (r: StoredRow) => JSON.stringify({ ...r, at: r.at.toISOString() });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Removes up to `limit` of the oldest rows older than `cutoff` from the DEFAULT partition (rows written before their
 * day had a partition) in one transaction, handing them first (as JSON Lines, every column as stored) to `keep`, which
 * writes the archive in the same transaction: either the rows are archived and gone, or neither. Answers how many.
 */
export async function archiveAccessLogBatch(db: Db, cutoff: Date, limit: number, keep: (archive: AccessLogArchive, tx: DbOrTx) => Promise<void>): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows: found } = await tx.execute<{ id: string }>(
      sql`select id::text from access_logs_default where at < ${cutoff.toISOString()}::timestamptz order by id limit ${limit} for update`,
    );
    if (found.length === 0) return 0;
    const ids = found.map((r) => Number(r.id));
    const rows = await tx.select().from(accessLogs).where(and(inArray(accessLogs.id, ids), lt(accessLogs.at, cutoff))).orderBy(accessLogs.id);
    const bytes = Buffer.from(rows.map(line).join('\n') + '\n', 'utf8');
    const times = rows.map((r) => r.at.getTime());
    await keep({ fromId: rows[0].id, toId: rows[rows.length - 1].id, rows: rows.length, hash: sha256(bytes), bytes, periodFrom: new Date(Math.min(...times)), periodTo: new Date(Math.max(...times)) }, tx);
    await tx.execute(sql`delete from access_logs_default where id = any(${sql.param(ids)}::bigint[]) and at < ${cutoff.toISOString()}::timestamptz`);
    return rows.length;
  });
}

/** Rows read per query while a day is archived (keyset on id: memory holds one page of rows and the compressed file). */
const DAY_PAGE = 5_000;

/**
 * Archives one day's partition and drops it (docs/decisions/062-access-log.md): in one transaction, under the
 * partitions' lock, with the partition locked against writes, every row (oldest id first) goes as JSON Lines into one
 * gzip file; `keep` writes it to the file store and records it; only then is the partition dropped. A failure anywhere
 * (the file store refusing the file included) rolls back: the day stays, whole, for the next run. Answers the rows.
 */
export async function archiveAccessLogDay(db: Db, day: string, keep: (archive: AccessLogArchive, tx: DbOrTx) => Promise<void>): Promise<number> {
  const { from, to } = dayBounds('access_logs', day);
  const partition = dayPartitionName('access_logs', day);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DAY_PARTITION_LOCK})`);
    // A late writer (a clock far behind) waits; nothing written to the day while it is archived is lost.
    await tx.execute(sql.raw(`lock table "${partition}" in share mode`));
    const gzip = createGzip();
    const chunks: Buffer[] = [];
    gzip.on('data', (c: Buffer) => chunks.push(c));
    const ended = once(gzip, 'end');
    let rows = 0;
    let first = 0;
    let last = 0;
    for (;;) {
      // The day's bounds in the WHERE clause: PostgreSQL reads this partition only.
      const page = await tx
        .select()
        .from(accessLogs)
        .where(and(gte(accessLogs.at, from), lt(accessLogs.at, to), sql`${accessLogs.id} > ${last}`))
        .orderBy(accessLogs.id)
        .limit(DAY_PAGE);
      if (page.length === 0) break;
      if (rows === 0) first = page[0].id;
      last = page[page.length - 1].id;
      rows += page.length;
      if (!gzip.write(page.map(line).join('\n') + '\n')) await once(gzip, 'drain');
    }
    gzip.end();
    await ended;
    if (rows > 0) {
      const bytes = Buffer.concat(chunks);
      await keep({ fromId: first, toId: last, rows, hash: sha256(bytes), bytes, periodFrom: from, periodTo: to }, tx);
    }
    await dropDayPartition(tx, db, 'access_logs', day);
    return rows;
  });
}

/** The access log's archives (platform operators: every organisation's rows are in them), newest period first. */
export async function accessLogArchivePage(db: DbOrTx, operator: boolean): Promise<Page<AccessLogArchiveRow>> {
  const records = operator
    ? (
        await db
          .select()
          .from(accessLogArchives)
          .orderBy(desc(sql`coalesce(${accessLogArchives.periodFrom}, ${accessLogArchives.createdAt})`), desc(accessLogArchives.fromId))
          .limit(ACCESS_LOG_ARCHIVES_SHOWN)
      ).map((a) => ({
        id: a.id,
        periodFrom: a.periodFrom ? isoInstant(a.periodFrom) : null,
        periodTo: a.periodTo ? isoInstant(a.periodTo) : null,
        fromId: a.fromId,
        toId: a.toId,
        rows: a.rows,
        size: a.size,
        createdAt: isoInstant(a.createdAt),
      }))
    : [];
  return { records, total: records.length, current: 1, size: ACCESS_LOG_ARCHIVES_SHOWN };
}

/** An archive's rows (a platform operator's): the file as stored; a day's is gzip-compressed (its name says so). */
export async function accessLogArchive(db: DbOrTx, storage: Storage, operator: boolean, id: string): Promise<{ row: typeof accessLogArchives.$inferSelect; fileName: string; gzip: boolean }> {
  const [row] = operator ? await db.select().from(accessLogArchives).where(eq(accessLogArchives.id, id)).limit(1) : [];
  if (!row) throw notFound();
  const head: Buffer[] = [];
  for await (const chunk of await storage.readBlob(row.hash, { start: 0, end: 1 })) head.push(chunk as Buffer);
  const gzip = Buffer.concat(head).readUInt16BE(0) === 0x1f8b;
  const period = row.periodFrom ? dayOf('access_logs', row.periodFrom.getTime()) : `${row.fromId}-${row.toId}`;
  const span = row.periodFrom && row.periodTo && row.periodTo.getTime() - row.periodFrom.getTime() !== DAY_MS ? `-${row.fromId}-${row.toId}` : '';
  return { row, fileName: `access-log-${period}${span}.jsonl${gzip ? '.gz' : ''}`, gzip };
}
