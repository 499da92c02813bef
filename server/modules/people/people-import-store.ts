import { createHash } from 'node:crypto';
import { and, asc, eq, gt } from 'drizzle-orm';
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

export interface PendingImport {
  kind: PeopleImportKind;
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
    .where(eq(pendingImports.accountId, actor.accountId))
    .orderBy(asc(pendingImports.createdAt))
    .offset(PER_ACCOUNT);
  for (const o of older) if (o.id !== row.id) await dropImport(db, storage, o.id);
  return { id: row.id, expiresAt };
}

/** The pending file of this organisation, account, kind and family; 404 when it expired, was used or is someone else's. */
export async function takeImport(db: DbOrTx, storage: Storage, id: string, actor: Actor, kind: PeopleImportKind, family: string, now: Date): Promise<PendingImport> {
  const expired = new AppError(404, 'people:import.expired');
  if (!isUuid(id)) throw expired;
  const [row] = await db
    .select()
    .from(pendingImports)
    .where(
      and(
        eq(pendingImports.id, id),
        eq(pendingImports.orgId, actor.tenantOrgId),
        eq(pendingImports.accountId, actor.accountId),
        eq(pendingImports.kind, kind),
        eq(pendingImports.family, family),
        gt(pendingImports.expiresAt, now),
      ),
    );
  if (!row) throw expired;
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await storage.readBlob(row.hash)) chunks.push(chunk as Buffer);
  } catch {
    throw expired;
  }
  return { kind, family: row.family, fileName: row.fileName, buffer: Buffer.concat(chunks), context: row.context };
}

/** Forgets a pending file; its bytes go unless an uploaded file or another pending import has the same content. */
export async function dropImport(db: DbOrTx, storage: Storage, id: string): Promise<void> {
  const [row] = await db.delete(pendingImports).where(eq(pendingImports.id, id)).returning({ hash: pendingImports.hash });
  if (row) await removeBlobsIfUnused(db, storage, [row.hash]);
}
