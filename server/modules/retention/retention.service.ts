import { createHash } from 'node:crypto';
import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { ERR } from '@/domain/errors';
import {
  RETENTION_CATEGORIES,
  RETENTION_KEYS,
  RETENTION_RUNS_SHOWN,
  retentionCutoff,
  type RetentionDurations,
  type RetentionKey,
  type RetentionRunItem,
  type RetentionRunRow,
  type RetentionSave,
  type RetentionSchedule,
} from '@/domain/retention/retention';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { dueDayPartitions, ensureDaysAhead } from '../../db/day-partitions';
import { accessLogArchives } from '../../db/schema/access-log';
import { anonymisedStudents, retentionArchives, retentionRuns } from '../../db/schema/retention';
import { platformSettings } from '../../db/schema/shell';
import { readRetention, RETENTION_KEY } from './schedule';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { purgeAuditChain, sealAuditChains, ZERO_CHAIN, type ArchivedAuditRow } from '../../lib/audit-chain';
import { notFound } from '../../lib/resource';
import type { Storage } from '../../lib/storage/storage';
import type { Actor } from '../../plugins/tenant';
import { expireHomeworkVideos } from '../homework/homework.service';
import { pruneHeartRateSamples } from '../lesson-load/heart-rate-partitions';
import { isTopManagementOrg } from '../menus/menus.service';
import { archiveAccessLogBatch, archiveAccessLogDay, type AccessLogArchive } from '../platform/access-log.service';

/** Rows removed or anonymised per transaction: a large backlog never holds long locks. */
export const RETENTION_BATCH = 1_000;
/** A run starts when the last one started at least this long ago (the lifecycle looks every hour). */
export const RETENTION_RUN_EVERY_MS = 23 * 60 * 60_000;
/** Instances take turns claiming a run through this lock. */
const RUN_LOCK = 7_302_115;

export async function retentionSchedule(db: DbOrTx, actor: Actor): Promise<RetentionSchedule> {
  return { ...(await readRetention(db)), canEdit: await isTopManagementOrg(db, actor.tenantOrgId) };
}

/** Saves the schedule (platform operators only, checked here) with its audit row; a stale version is refused. */
export async function saveRetention(tx: Tx, actor: Actor, input: RetentionSave, now: Date): Promise<RetentionSchedule> {
  if (!(await isTopManagementOrg(tx, actor.tenantOrgId))) throw new AppError(403, ERR.forbidden);
  const before = await readRetention(tx);
  if (input.version !== before.version) throw new AppError(409, ERR.staleWrite);
  const value = Object.fromEntries(RETENTION_KEYS.map((k) => [k, input[k]])) as RetentionDurations;
  const version = before.version + 1;
  await tx
    .insert(platformSettings)
    .values({ key: RETENTION_KEY, value, version, updatedBy: actor.userId, updatedAt: now })
    .onConflictDoUpdate({ target: platformSettings.key, set: { value, version, updatedBy: actor.userId, updatedAt: now } });
  await audit(tx, actor, {
    action: before.version === 0 ? 'create' : 'update',
    entity: 'platformSetting',
    entityId: RETENTION_KEY,
    entityName: RETENTION_KEY,
    before: before.version === 0 ? null : before,
    after: { durations: value, version },
  });
  return { durations: value, version, canEdit: true };
}

// ---------------------------------------------------------------------------------------------------------------------
// The run

export interface RunOptions {
  storage: Storage;
  /** TIYU_HEART_RATE_RAW_DAYS when set (it wins over the schedule). */
  heartRateRawDays?: number;
  /** Run even when the last run is recent (tests, an operator's "run now"). */
  force?: boolean;
}

/** Claims a run: answers its id, or null when another instance ran one recently. */
async function claimRun(db: Db, now: Date, force: boolean): Promise<string | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${RUN_LOCK})`);
    if (!force) {
      const [last] = await tx.select({ at: retentionRuns.startedAt }).from(retentionRuns).orderBy(desc(retentionRuns.startedAt)).limit(1);
      if (last && now.getTime() - last.at.getTime() < RETENTION_RUN_EVERY_MS) return null;
    }
    const [row] = await tx.insert(retentionRuns).values({ startedAt: now }).returning({ id: retentionRuns.id });
    return row.id;
  });
}

/** Repeats `batch` (one transaction each) until it handles fewer than a batch; answers the total. */
async function inBatches(batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await batch();
    total += n;
    if (n < RETENTION_BATCH) return total;
  }
}

const iso = (d: Date) => d.toISOString();

/** Sign-in attempts older than the schedule's days. */
async function removeSignInLogs(db: Db, cutoff: Date): Promise<number> {
  return inBatches(async () => {
    const { rows } = await db.execute<{ n: number }>(sql`
      with d as (delete from sign_in_logs where id in (select id from sign_in_logs where at < ${iso(cutoff)}::timestamptz limit ${RETENTION_BATCH}) returning 1)
      select count(*)::int as n from d`);
    return Number(rows[0].n);
  });
}

/**
 * When a student graduated: the (not undone) rollover that graduated them, or — for graduates that came in by import or
 * seed — July 1st of their cohort's last year (enrolment year + the stage's years).
 */
const GRADUATED_AT = sql`coalesce(
  (select max(r.created_at) from school_rollovers r
    where r.org_id = s.org_id and r.undone_at is null and r.changes->'students' @> jsonb_build_array(jsonb_build_object('id', s.id::text))),
  make_date(g.enrol_year + (case g.stage when 'primary' then 6 when 'university' then 4 else 3 end), 7, 1)::timestamptz)`;

/**
 * Graduates past the schedule's years: name → surname + * (first character; compound surnames keep one), birth date,
 * address and face photo removed (the photo's file marked deleted: the file sweep removes its bytes), their own app
 * account's name likewise and its mobile removed. Results, records and class history stay for the statistics.
 */
async function anonymiseGraduates(db: Db, cutoff: Date, runId: string, now: Date): Promise<number> {
  return inBatches(() =>
    db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ id: string; user_id: string | null; photo_file_id: string | null }>(sql`
        select s.id, s.user_id, s.photo_file_id from students s
          join classes c on c.id = s.class_id join grades g on g.id = c.grade_id
         where s.status = 'graduated' and not exists (select 1 from anonymised_students a where a.student_id = s.id)
           and ${GRADUATED_AT} < ${iso(cutoff)}::timestamptz
         order by s.id limit ${RETENTION_BATCH} for update of s`);
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => r.id);
      await tx.execute(sql`
        update students set name = left(name, 1) || '*', birth_date = null, address = null, photo_file_id = null, version = version + 1
         where id = any(${sql.param(ids)}::uuid[])`);
      const photos = rows.flatMap((r) => (r.photo_file_id ? [r.photo_file_id] : []));
      if (photos.length) await tx.execute(sql`update files set deleted_at = ${iso(now)}::timestamptz where deleted_at is null and id = any(${sql.param(photos)}::uuid[])`);
      const accounts = rows.flatMap((r) => (r.user_id ? [r.user_id] : []));
      if (accounts.length) await tx.execute(sql`update users set name = left(name, 1) || '*', mobile = null where id = any(${sql.param(accounts)}::uuid[])`);
      await tx.insert(anonymisedStudents).values(ids.map((studentId) => ({ studentId, runId, at: now })));
      return rows.length;
    }),
  );
}

/** One JSON line per archived row: the chain, place, links, the hashed content text and the row parsed from it. */
export function archiveLines(rows: readonly ArchivedAuditRow[]): string {
  return rows.map((r) => JSON.stringify({ ...r, row: JSON.parse(r.content) as unknown })).join('\n') + '\n';
}

/**
 * The operation log past the schedule's days, chain by chain: each batch is written to the file store as JSON Lines and
 * recorded (retention_archives) in the same transaction that removes its rows and moves the chain's start.
 */
async function archiveAuditLog(db: Db, storage: Storage, cutoff: Date, runId: string, now: Date): Promise<number> {
  await sealAuditChains(db);
  const { rows: chains } = await db.execute<{ chain_id: string }>(sql`select chain_id::text from audit_chains order by chain_id`);
  let total = 0;
  for (const { chain_id: chainId } of chains) {
    total += await inBatches(async () => {
      const removed = await purgeAuditChain(db, chainId, cutoff, RETENTION_BATCH, async (rows, tx) => {
        const bytes = Buffer.from(archiveLines(rows), 'utf8');
        const hash = createHash('sha256').update(bytes).digest('hex');
        await storage.putBlob(hash, bytes);
        await tx.insert(retentionArchives).values({ runId, chainId, fromSeq: rows[0].seq, toSeq: rows[rows.length - 1].seq, rows: rows.length, hash, size: bytes.length, createdAt: now });
      });
      return removed.length;
    });
  }
  return total;
}

/**
 * The access log past the schedule's days (docs/decisions/062-access-log.md): each day partition whose whole day is
 * older than the cutoff is archived (one gzip JSON Lines file in the file store, written before the partition goes) and
 * dropped, oldest first; then rows in the default partition older than the cutoff, in batches, archived as they go.
 * Also makes today's and tomorrow's partitions.
 */
async function archiveAccessLog(db: Db, storage: Storage, cutoff: Date, runId: string, now: Date): Promise<number> {
  const keep = async (archive: AccessLogArchive, tx: DbOrTx) => {
    await storage.putBlob(archive.hash, archive.bytes);
    await tx.insert(accessLogArchives).values({
      runId,
      fromId: archive.fromId,
      toId: archive.toId,
      rows: archive.rows,
      hash: archive.hash,
      size: archive.bytes.length,
      periodFrom: archive.periodFrom,
      periodTo: archive.periodTo,
      createdAt: now,
    });
  };
  let total = 0;
  for (const { day } of await dueDayPartitions(db, 'access_logs', cutoff)) total += await archiveAccessLogDay(db, day, keep);
  total += await inBatches(() => archiveAccessLogBatch(db, cutoff, RETENTION_BATCH, keep));
  await ensureDaysAhead(db, now);
  return total;
}

/**
 * Runs the schedule once (docs/product-rules.md#retention): each category on its own, in batches; a failing category is
 * recorded with its error and the others still run. Answers the run's id (null: another instance ran recently).
 */
export async function runRetention(db: Db, now: Date, opts: RunOptions): Promise<string | null> {
  const runId = await claimRun(db, now, opts.force ?? false);
  if (!runId) return null;
  const { durations } = await readRetention(db);
  const rawDays = opts.heartRateRawDays ?? durations.heartRateRaw;
  const steps: Record<RetentionKey, { amount: number; run: (cutoff: Date) => Promise<number> }> = {
    homeworkVideos: { amount: durations.homeworkVideos, run: () => expireHomeworkVideos(db, now, durations.homeworkVideos) },
    heartRateRaw: {
      amount: rawDays,
      run: async () => {
        const r = await pruneHeartRateSamples(db, now, rawDays);
        return r.defaultRows + r.droppedKeys + r.partitions.length;
      },
    },
    graduates: { amount: durations.graduates, run: (cutoff) => anonymiseGraduates(db, cutoff, runId, now) },
    signInLogs: { amount: durations.signInLogs, run: (cutoff) => removeSignInLogs(db, cutoff) },
    auditLog: { amount: durations.auditLog, run: (cutoff) => archiveAuditLog(db, opts.storage, cutoff, runId, now) },
    accessLog: { amount: durations.accessLog, run: (cutoff) => archiveAccessLog(db, opts.storage, cutoff, runId, now) },
  };
  const items: RetentionRunItem[] = [];
  for (const key of RETENTION_KEYS) {
    const cutoff = retentionCutoff(now, RETENTION_CATEGORIES[key].unit, steps[key].amount);
    try {
      items.push({ category: key, rows: await steps[key].run(cutoff), cutoff: iso(cutoff), error: null });
    } catch (error) {
      items.push({ category: key, rows: 0, cutoff: iso(cutoff), error: error instanceof Error ? error.message.slice(0, 500) : String(error) });
    }
  }
  await db.update(retentionRuns).set({ items, finishedAt: new Date(now.getTime() + 1) }).where(eq(retentionRuns.id, runId));
  return runId;
}

// ---------------------------------------------------------------------------------------------------------------------
// Reading runs and archives

/** The organisations whose archives the actor may read: a platform operator every chain, others their own subtree. */
async function archiveScope(db: DbOrTx, actor: Actor): Promise<SQL> {
  if (await isTopManagementOrg(db, actor.tenantOrgId)) return sql`true`;
  return sql`a.chain_id in (with recursive t as (select id from orgs where id = ${actor.tenantOrgId}::uuid union all select o.id from orgs o join t on o.parent_id = t.id) select id from t)`;
}

/** The latest runs with what each removed, and the archives the actor may download (those who read the operation log). */
export async function retentionRunPage(db: DbOrTx, actor: Actor, canReadLog: boolean): Promise<Page<RetentionRunRow>> {
  const runs = await db.select().from(retentionRuns).orderBy(desc(retentionRuns.startedAt)).limit(RETENTION_RUNS_SHOWN);
  const ids = runs.map((r) => r.id);
  const archives =
    canReadLog && ids.length
      ? (
          await db.execute<{ id: string; run_id: string; chain_id: string; from_seq: string; to_seq: string; rows: number; size: number; org_name: string | null }>(sql`
            select a.id, a.run_id, a.chain_id::text, a.from_seq::text, a.to_seq::text, a.rows, a.size, o.name as org_name
              from retention_archives a left join orgs o on o.id = a.chain_id
             where a.run_id = any(${sql.param(ids)}::uuid[]) and ${await archiveScope(db, actor)}
             order by a.chain_id, a.from_seq`)
        ).rows
      : [];
  const records = runs.map((r) => ({
    id: r.id,
    startedAt: iso(r.startedAt),
    finishedAt: r.finishedAt ? iso(r.finishedAt) : null,
    items: r.items,
    archives: archives
      .filter((a) => a.run_id === r.id)
      .map((a) => ({ id: a.id, orgId: a.chain_id, orgName: a.chain_id === ZERO_CHAIN ? null : a.org_name, fromSeq: Number(a.from_seq), toSeq: Number(a.to_seq), rows: Number(a.rows), size: Number(a.size) })),
  }));
  return { records, total: records.length, current: 1, size: RETENTION_RUNS_SHOWN };
}

/** An archive's bytes, when the actor's organisation holds its chain (or the actor is a platform operator). */
export async function archiveFile(db: DbOrTx, storage: Storage, actor: Actor, id: string): Promise<{ fileName: string; bytes: Buffer }> {
  const { rows } = await db.execute<{ hash: string; chain_id: string; from_seq: string; to_seq: string }>(
    sql`select a.hash, a.chain_id::text, a.from_seq::text, a.to_seq::text from retention_archives a where a.id = ${id}::uuid and ${await archiveScope(db, actor)}`,
  );
  if (!rows[0]) throw notFound();
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.readBlob(rows[0].hash)) chunks.push(chunk as Buffer);
  return { fileName: `audit-${rows[0].chain_id}-${rows[0].from_seq}-${rows[0].to_seq}.jsonl`, bytes: Buffer.concat(chunks) };
}
