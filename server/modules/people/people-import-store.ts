import { createHash } from 'node:crypto';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { PEOPLE_IMPORT_TTL_MS, type PeopleImportKind } from '@/domain/people/people-import';
import type { Db, DbOrTx } from '../../db/client';
import { pendingImports } from '../../db/schema/files';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import type { Storage } from '../../lib/storage/storage';
import type { Actor } from '../../plugins/tenant';
import { removeBlobsIfUnused } from '../files/files.service';

/**
 * Uploaded spreadsheets between a dry run and its commit (docs/product-rules.md#people-import): the bytes go to the
 * file store under their hash, a `pending_imports` row binds them to the organisation and the account that uploaded
 * them, so a commit works after a restart and on another server instance. A student import keeps the rows its dry
 * run checked (gzipped JSON) instead of the workbook; staff and account imports keep the workbook and check it again.
 * Expired rows go with the file sweep (`sweepFiles`).
 */

/** What waits in the store: a people import's file or plan, or a score import's workbook (physique-import job). */
export type PendingKind = PeopleImportKind | 'physiqueScores';

export interface PendingImport {
  kind: PendingKind;
  family: string;
  fileName: string;
  buffer: Buffer;
  /** What the import needs besides the file (school year and semester of a student import). */
  context: Record<string, string>;
}

/** Files one account may keep waiting; an upload beyond it drops the account's oldest. */
const PER_ACCOUNT = 5;

export async function keepImport(
  db: Db,
  storage: Storage,
  actor: Actor,
  entry: PendingImport,
  now: Date,
): Promise<{ id: string; expiresAt: Date }> {
  const hash = createHash('sha256').update(entry.buffer).digest('hex');
  await storage.putBlob(hash, entry.buffer);
  const expiresAt = new Date(now.getTime() + PEOPLE_IMPORT_TTL_MS);
  const [row] = await db
    .insert(pendingImports)
    .values({
      orgId: actor.tenantOrgId,
      accountId: actor.accountId,
      kind: entry.kind,
      family: entry.family,
      fileName: entry.fileName,
      hash,
      size: entry.buffer.length,
      context: entry.context,
      createdAt: now,
      expiresAt,
    })
    .returning({ id: pendingImports.id });
  const older = await db
    .select({ id: pendingImports.id })
    .from(pendingImports)
    // A file handed to a job stays until the job drops it.
    .where(and(eq(pendingImports.accountId, actor.accountId), sql`not (${pendingImports.context} ? ${HELD_BY}::text)`))
    .orderBy(asc(pendingImports.createdAt))
    .offset(PER_ACCOUNT);
  for (const o of older) if (o.id !== row.id) await dropImport(db, storage, o.id);
  return { id: row.id, expiresAt };
}

/** A used, expired or someone else's pending file: never told apart. */
const expired = () => new AppError(404, 'people:import.expired');

/** The caller's own pending file of this kind and family, not yet expired. */
const callersPending = (id: string, actor: Actor, kind: PendingKind, family: string, now: Date) =>
  and(
    eq(pendingImports.id, id),
    eq(pendingImports.orgId, actor.tenantOrgId),
    eq(pendingImports.accountId, actor.accountId),
    eq(pendingImports.kind, kind),
    eq(pendingImports.family, family),
    gt(pendingImports.expiresAt, now),
  );

/** The pending file of this organisation, account, kind and family; 404 when it expired, was used or is someone else's. */
export async function takeImport(db: DbOrTx, storage: Storage, id: string, actor: Actor, kind: PendingKind, family: string, now: Date): Promise<PendingImport> {
  if (!isUuid(id)) throw expired();
  const [row] = await db
    .select()
    .from(pendingImports)
    .where(callersPending(id, actor, kind, family, now));
  if (!row) throw expired();
  return readKept(storage, row, kind);
}

async function readKept(storage: Storage, row: typeof pendingImports.$inferSelect, kind: PendingKind): Promise<PendingImport> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await storage.readBlob(row.hash)) chunks.push(chunk as Buffer);
  } catch {
    throw expired();
  }
  return { kind, family: row.family, fileName: row.fileName, buffer: Buffer.concat(chunks), context: row.context };
}

/** How long a file handed to a job waits for it: past the retries of a job whose process died (docs/product-rules.md#jobs). */
export const JOB_FILE_KEEP_MS = 24 * 60 * 60 * 1000;
/** The context mark of a pending file handed to a job. */
const HELD_BY = 'heldByJob';

/**
 * Hands a pending file to a job (the commit of a people import, a score import): only once (a second commit of the
 * same id is 404, as a used id is) and kept for JOB_FILE_KEEP_MS, so a retry of the job after a dead process, on any
 * instance, reads the same file. 404 like takeImport when it is not the caller's, expired or already handed over.
 */
export async function holdImport(db: DbOrTx, id: string, actor: Actor, kind: PendingKind, family: string, now: Date): Promise<void> {
  if (!isUuid(id)) throw expired();
  const held = await db
    .update(pendingImports)
    .set({ context: sql`${pendingImports.context} || jsonb_build_object(${HELD_BY}::text, '1')`, expiresAt: new Date(now.getTime() + JOB_FILE_KEEP_MS) })
    .where(and(callersPending(id, actor, kind, family, now), sql`not (${pendingImports.context} ? ${HELD_BY}::text)`))
    .returning({ id: pendingImports.id });
  if (held.length === 0) throw expired();
}

/** The file a job was handed (holdImport), for its run or a retry; 404 once the job dropped it. */
export async function heldImport(db: DbOrTx, storage: Storage, id: string, actor: Actor, kind: PendingKind): Promise<PendingImport> {
  const [row] = await db
    .select()
    .from(pendingImports)
    .where(and(eq(pendingImports.id, id), eq(pendingImports.orgId, actor.tenantOrgId), eq(pendingImports.kind, kind), sql`${pendingImports.context} ? ${HELD_BY}::text`));
  if (!row) throw expired();
  return readKept(storage, row, kind);
}

/** Forgets a pending file; its bytes go unless an uploaded file or another pending import has the same content. */
export async function dropImport(db: DbOrTx, storage: Storage, id: string): Promise<void> {
  const [row] = await db.delete(pendingImports).where(eq(pendingImports.id, id)).returning({ hash: pendingImports.hash });
  if (row) await removeBlobsIfUnused(db, storage, [row.hash]);
}
