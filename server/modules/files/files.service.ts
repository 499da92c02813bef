import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, eq, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { ERR } from '@/domain/errors';
import { ABANDONED_UPLOAD_MS, checkFile, PURPOSE_RULES, purposeMaxBytes, RASTER_TYPES, type FilePurpose } from '@/domain/uploads/rules';
import { SNIFF_BYTES, SNIFFED_MIME, sniffFileType } from '@/domain/uploads/signatures';
import type { StoredFile } from '@/domain/uploads/stored-file';
import type { Db, DbOrTx } from '../../db/client';
import { fileUploads, files, pendingImports } from '../../db/schema/files';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import type { Storage } from '../../lib/storage/storage';
import { processImage } from './files.image';

/** Who uploads: the tenant organisation that will own the file, and the user. */
export interface Owner {
  orgId: string;
  userId: string;
}

/** Largest raster image any purpose accepts: such files are read into memory to decode. */
const RASTER_MAX = Math.max(...(Object.keys(PURPOSE_RULES) as FilePurpose[]).filter((p) => PURPOSE_RULES[p].types.some((t) => RASTER_TYPES.has(t))).map(purposeMaxBytes));

type FileRow = typeof files.$inferSelect;

function toStoredFile(row: FileRow): StoredFile {
  return {
    id: row.id,
    name: row.name,
    purpose: row.purpose as FilePurpose,
    mime: row.mime,
    size: row.size,
    width: row.width,
    height: row.height,
    hasThumbnail: row.thumbnailHash !== null,
    isPublic: row.isPublic,
    createdAt: row.createdAt.toISOString(),
  };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A safe display name: the last path segment, no control characters, at most 200 characters. */
export function cleanName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return clean || 'file';
}

interface Content {
  bytes: Buffer | null;
  hash: string;
  size: number;
  mime: string;
  width: number | null;
  height: number | null;
  thumbnailHash: string | null;
}

/** Type and size by content, then decoding, compression and the thumbnail for images. Stores the blobs. */
async function storeBytes(storage: Storage, purpose: FilePurpose, input: Buffer): Promise<Content> {
  const type = sniffFileType(input.subarray(0, SNIFF_BYTES));
  const problem = checkFile(purpose, type, input.length);
  if (problem) throw new AppError(400, problem);
  if (!RASTER_TYPES.has(type)) {
    const hash = sha256(input);
    await storage.putBlob(hash, input);
    return { bytes: input, hash, size: input.length, mime: SNIFFED_MIME[type], width: null, height: null, thumbnailHash: null };
  }
  const image = await processImage(purpose, type, input);
  const hash = sha256(image.bytes);
  const thumbnailHash = sha256(image.thumbnail);
  await storage.putBlob(hash, image.bytes);
  await storage.putBlob(thumbnailHash, image.thumbnail);
  return { bytes: image.bytes, hash, size: image.bytes.length, mime: SNIFFED_MIME[type], width: image.width, height: image.height, thumbnailHash };
}

const fileValues = (owner: Owner, purpose: FilePurpose, name: string, content: Content, now: Date) => ({
  orgId: owner.orgId,
  purpose,
  name: cleanName(name),
  hash: content.hash,
  size: content.size,
  mime: content.mime,
  width: content.width,
  height: content.height,
  thumbnailHash: content.thumbnailHash,
  isPublic: PURPOSE_RULES[purpose].public,
  createdBy: owner.userId,
  createdAt: now,
});

async function insertFile(db: DbOrTx, owner: Owner, purpose: FilePurpose, name: string, content: Content, now: Date): Promise<StoredFile> {
  const [row] = await db.insert(files).values(fileValues(owner, purpose, name, content, now)).returning();
  return toStoredFile(row);
}

/**
 * saveUpload in two steps, for a job whose write runs its own transaction on a raw connection (the score and student
 * imports' bulk sessions): the bytes go to the store now (content-addressed, harmless if nothing refers to them), and
 * the row is inserted by `insertIn`'s statement inside that transaction.
 */
export async function storeForInsert(db: DbOrTx, storage: Storage, owner: Owner, purpose: FilePurpose, name: string, input: Buffer, now: Date) {
  const content = await storeBytes(storage, purpose, input);
  const statement = db.insert(files).values(fileValues(owner, purpose, name, content, now)).returning({ id: files.id, name: files.name }).toSQL();
  return {
    async insertIn(query: (text: string, params?: unknown[]) => Promise<unknown[]>): Promise<{ id: string; name: string }> {
      const [row] = (await query(statement.sql, statement.params)) as { id: string; name: string }[];
      return row;
    },
  };
}

/** A file sent in one request: checked by content, stored by hash, recorded. */
export async function saveUpload(db: DbOrTx, storage: Storage, owner: Owner, purpose: FilePurpose, name: string, input: Buffer, now: Date): Promise<StoredFile> {
  const content = await storeBytes(storage, purpose, input);
  return insertFile(db, owner, purpose, name, content, now);
}

/** Reads a stream while hashing it; keeps the bytes only while they stay under `keepUpTo`. */
async function digest(stream: Readable, keepUpTo: number): Promise<{ hash: string; size: number; head: Buffer; bytes: Buffer | null }> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let size = 0;
  let head = Buffer.alloc(0);
  let keep = true;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
    if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
    if (keep && size <= keepUpTo) chunks.push(chunk);
    else if (keep) {
      keep = false;
      chunks.length = 0;
    }
  }
  return { hash: hash.digest('hex'), size, head, bytes: keep ? Buffer.concat(chunks) : null };
}

/** A resumable upload the user started and has not abandoned. */
export async function uploadOf(db: DbOrTx, owner: Owner, uploadId: string) {
  const [row] = await db
    .select()
    .from(fileUploads)
    .where(and(eq(fileUploads.id, uploadId), eq(fileUploads.orgId, owner.orgId), eq(fileUploads.userId, owner.userId)))
    .limit(1);
  return row ?? null;
}

/** A resumable upload of the user's for whichever organisation (an app user uploads for children of any school). */
export async function userUploadOf(db: DbOrTx, userId: string, uploadId: string) {
  const [row] = await db
    .select()
    .from(fileUploads)
    .where(and(eq(fileUploads.id, uploadId), eq(fileUploads.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** Records a resumable upload before tus creates it; refuses a purpose's ceiling up front (docs/product-rules.md#uploads). */
export async function beginUpload(db: DbOrTx, owner: Owner, purpose: FilePurpose, name: string, size: number, now: Date): Promise<string> {
  if (size > purposeMaxBytes(purpose)) throw new AppError(413, ERR.fileTooLarge);
  const id = randomUUID().replaceAll('-', '');
  await db.insert(fileUploads).values({ id, orgId: owner.orgId, userId: owner.userId, purpose, name: cleanName(name), size, createdAt: now, touchedAt: now });
  return id;
}

export async function touchUpload(db: DbOrTx, uploadId: string, now: Date): Promise<void> {
  await db.update(fileUploads).set({ touchedAt: now }).where(eq(fileUploads.id, uploadId));
}

/**
 * A finished resumable upload becomes a file: the same content checks as a single request, then its bytes
 * move into the content-addressed store. On refusal the upload is deleted and the error rethrown.
 */
export async function finishUpload(db: Db, storage: Storage, uploadId: string, now: Date): Promise<StoredFile> {
  const [upload] = await db.select().from(fileUploads).where(eq(fileUploads.id, uploadId)).limit(1);
  if (!upload) throw new AppError(404, ERR.notFound);
  const purpose = upload.purpose as FilePurpose;
  const owner = { orgId: upload.orgId, userId: upload.userId };
  try {
    const read = await digest(await storage.readUpload(uploadId), RASTER_MAX);
    const type = sniffFileType(read.head);
    const problem = checkFile(purpose, type, read.size);
    if (problem) throw new AppError(400, problem);
    let file: StoredFile;
    if (RASTER_TYPES.has(type)) {
      if (!read.bytes) throw new AppError(400, ERR.fileTooLarge);
      file = await insertFile(db, owner, purpose, upload.name, await storeBytes(storage, purpose, read.bytes), now);
      await storage.removeUpload(uploadId);
    } else {
      await storage.adoptUpload(uploadId, read.hash);
      file = await insertFile(db, owner, purpose, upload.name, { bytes: null, hash: read.hash, size: read.size, mime: SNIFFED_MIME[type], width: null, height: null, thumbnailHash: null }, now);
    }
    await db.update(fileUploads).set({ fileId: file.id, touchedAt: now }).where(eq(fileUploads.id, uploadId));
    return file;
  } catch (error) {
    await storage.removeUpload(uploadId).catch(() => undefined);
    await db.delete(fileUploads).where(eq(fileUploads.id, uploadId));
    throw error;
  }
}

/** The file a finished resumable upload became, or 404. */
export async function uploadResult(db: DbOrTx, owner: Owner, uploadId: string): Promise<StoredFile> {
  const upload = await uploadOf(db, owner, uploadId);
  if (!upload?.fileId) throw new AppError(404, ERR.notFound);
  const [row] = await db.select().from(files).where(and(eq(files.id, upload.fileId), isNull(files.deletedAt))).limit(1);
  if (!row) throw new AppError(404, ERR.notFound);
  return toStoredFile(row);
}

/**
 * A live file the organisation may read: its own, or one of an organisation below it (a bureau reads its
 * schools' files). Anything else is 404, so ids of other organisations reveal nothing.
 */
export async function readableFile(db: DbOrTx, tenantOrgId: string, id: string): Promise<FileRow> {
  if (!isUuid(id)) throw new AppError(404, ERR.notFound);
  const { rows } = await db.execute<{ id: string }>(sql`
    with recursive up(id, parent_id, depth) as (
      select o.id, o.parent_id, 0 from orgs o join files f on f.org_id = o.id where f.id = ${id}
      union all
      select o.id, o.parent_id, up.depth + 1 from orgs o join up on o.id = up.parent_id where up.depth < 16
    )
    select id from up where id = ${tenantOrgId} limit 1`);
  if (rows.length === 0) throw new AppError(404, ERR.notFound);
  const [row] = await db.select().from(files).where(and(eq(files.id, id), isNull(files.deletedAt))).limit(1);
  if (!row) throw new AppError(404, ERR.notFound);
  return row;
}

export async function fileMeta(db: DbOrTx, tenantOrgId: string, id: string): Promise<StoredFile> {
  return toStoredFile(await readableFile(db, tenantOrgId, id));
}

/** A public file (login-screen banners, branding), or 404. */
export async function publicFile(db: DbOrTx, id: string): Promise<FileRow> {
  if (!isUuid(id)) throw new AppError(404, ERR.notFound);
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), eq(files.isPublic, true), isNull(files.deletedAt)))
    .limit(1);
  if (!row) throw new AppError(404, ERR.notFound);
  return row;
}

/** Deletes a file of the organisation's own (its bytes go with the next sweep once nothing else uses them). */
export async function deleteFile(db: DbOrTx, tenantOrgId: string, id: string, now: Date): Promise<void> {
  if (!isUuid(id)) throw new AppError(404, ERR.notFound);
  const done = await db
    .update(files)
    .set({ deletedAt: now })
    .where(and(eq(files.id, id), eq(files.orgId, tenantOrgId), isNull(files.deletedAt)))
    .returning({ id: files.id });
  if (done.length === 0) throw new AppError(404, ERR.notFound);
}

export interface SweepResult {
  abandonedUploads: number;
  removedBlobs: number;
  expiredImports: number;
}

/**
 * Removes the blobs of these hashes that nothing refers to any more: no file (other than `exceptFileId`, being deleted)
 * and no pending import (content addressing dedupes, so one blob may serve several). Returns how many went.
 */
export async function removeBlobsIfUnused(db: DbOrTx, storage: Storage, hashes: readonly string[], exceptFileId?: string): Promise<number> {
  let removed = 0;
  for (const hash of new Set(hashes)) {
    const [file] = await db
      .select({ id: files.id })
      .from(files)
      .where(and(exceptFileId ? ne(files.id, exceptFileId) : undefined, or(eq(files.hash, hash), eq(files.thumbnailHash, hash))))
      .limit(1);
    if (file) continue;
    const [pending] = await db.select({ id: pendingImports.id }).from(pendingImports).where(eq(pendingImports.hash, hash)).limit(1);
    if (pending) continue;
    await storage.removeBlob(hash).catch(() => undefined);
    removed++;
  }
  return removed;
}

/**
 * Periodic cleanup: resumable uploads untouched for a day are deleted with their partial data, spreadsheets waiting
 * for an import commit go when they expire, and the blobs of files deleted over a day ago go once nothing shares them.
 */
export async function sweepFiles(db: Db, storage: Storage, now: Date): Promise<SweepResult> {
  const cutoff = new Date(now.getTime() - ABANDONED_UPLOAD_MS);
  const stale = await db.select({ id: fileUploads.id, fileId: fileUploads.fileId }).from(fileUploads).where(lt(fileUploads.touchedAt, cutoff));
  for (const upload of stale) {
    if (!upload.fileId) await storage.removeUpload(upload.id).catch(() => undefined);
    await db.delete(fileUploads).where(eq(fileUploads.id, upload.id));
  }
  const expired = await db.delete(pendingImports).where(lte(pendingImports.expiresAt, now)).returning({ hash: pendingImports.hash });
  let removedBlobs = await removeBlobsIfUnused(
    db,
    storage,
    expired.map((e) => e.hash),
  );
  const gone = await db
    .select({ id: files.id, hash: files.hash, thumbnailHash: files.thumbnailHash })
    .from(files)
    .where(and(isNotNull(files.deletedAt), lt(files.deletedAt, cutoff)));
  for (const file of gone) {
    await db.delete(fileUploads).where(eq(fileUploads.fileId, file.id));
    await db.delete(files).where(eq(files.id, file.id));
    removedBlobs += await removeBlobsIfUnused(db, storage, [file.hash, ...(file.thumbnailHash ? [file.thumbnailHash] : [])], file.id);
  }
  return { abandonedUploads: stale.filter((u) => !u.fileId).length, removedBlobs, expiredImports: expired.length };
}
