import { and, desc, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Page } from '@/domain/api';
import type { LessonResourceListQuery, LessonResourceRow, LessonResourceSave, LibraryListQuery, LibraryRow } from '@/domain/content/lesson-resources';
import type { DbOrTx, Tx } from '../../db/client';
import { lessonResources } from '../../db/schema/content';
import { files } from '../../db/schema/files';
import { orgs } from '../../db/schema/orgs';
import { AppError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { assertOwnFiles, copyFilesTo } from './content-files';

const t = lessonResources;
const columns = {
  id: t.id,
  title: t.title,
  grade: t.grade,
  topic: t.topic,
  coverFileId: t.coverFileId,
  videoFileId: t.videoFileId,
  attachmentFileIds: t.attachmentFileIds,
  description: t.description,
  copiedFromId: t.copiedFromId,
  updatedAt: t.updatedAt,
  version: t.version,
};
type Raw = Omit<LessonResourceRow, 'updatedAt'> & { updatedAt: Date };
const toRow = (r: Raw): LessonResourceRow => ({ ...r, updatedAt: r.updatedAt.toISOString() });
const own = (actor: Actor) => eq(t.orgId, actor.tenantOrgId);
const select = (db: DbOrTx, where: SQL | undefined) => db.select(columns).from(t).where(where);

/** The tenant's own resources (a school's list, or a management organisation's library), last changed first. */
export async function lessonResourcePage(db: DbOrTx, actor: Actor, q: LessonResourceListQuery): Promise<Page<LessonResourceRow>> {
  const where = and(
    own(actor),
    q.title ? ilike(t.title, containsPattern(q.title)) : undefined,
    q.topic ? ilike(t.topic, containsPattern(q.topic)) : undefined,
    q.grade !== undefined ? eq(t.grade, q.grade) : undefined,
  );
  const page = await paginate(db, select(db, where).orderBy(desc(t.updatedAt), desc(t.id)).$dynamic(), q);
  return { ...page, records: page.records.map(toRow) };
}

export async function lessonResourceById(db: DbOrTx, actor: Actor, id: string): Promise<LessonResourceRow> {
  const [row] = await select(db, and(own(actor), eq(t.id, id))).limit(1);
  if (!row) throw notFound();
  return toRow(row);
}

/** Cover, video and attachments must be the tenant's files of the matching purpose. */
async function assertFiles(tx: Tx, actor: Actor, body: LessonResourceSave) {
  await assertOwnFiles(tx, actor, 'coverFileId', [body.coverFileId], ['lessonCover']);
  await assertOwnFiles(tx, actor, 'videoFileId', [body.videoFileId], ['lessonVideo']);
  await assertOwnFiles(tx, actor, 'attachmentFileIds', body.attachmentFileIds, ['attachment']);
}

const valuesOf = (body: LessonResourceSave) => ({
  title: body.title,
  grade: body.grade,
  topic: body.topic,
  coverFileId: body.coverFileId ?? null,
  videoFileId: body.videoFileId ?? null,
  attachmentFileIds: [...new Set(body.attachmentFileIds)],
  description: body.description ?? null,
});

export async function createLessonResource(tx: Tx, actor: Actor, body: LessonResourceSave, now: Date): Promise<LessonResourceRow> {
  await assertFiles(tx, actor, body);
  const [row] = await tx
    .insert(t)
    .values({ ...valuesOf(body), orgId: actor.tenantOrgId, createdAt: now, updatedAt: now })
    .returning({ id: t.id });
  return lessonResourceById(tx, actor, row.id);
}

export async function updateLessonResource(tx: Tx, actor: Actor, id: string, body: LessonResourceSave, now: Date): Promise<Change<LessonResourceRow>> {
  await lockVersion(tx, t, id, own(actor), body.version ?? -1);
  const before = await lessonResourceById(tx, actor, id);
  await assertFiles(tx, actor, body);
  await tx
    .update(t)
    .set({ ...valuesOf(body), updatedAt: now, version: nextVersion(t.version) })
    .where(eq(t.id, id));
  return { before, after: await lessonResourceById(tx, actor, id) };
}

/** Deletes a resource; copies schools made of a library resource stay theirs (they lose only the link back). */
export async function deleteLessonResource(tx: Tx, actor: Actor, id: string): Promise<LessonResourceRow> {
  const before = await lessonResourceById(tx, actor, id);
  await tx.delete(t).where(eq(t.id, id));
  return before;
}

// ── The resource library ─────────────────────────────────────────────────────────────────────────

/** The organisations above the tenant (never the tenant itself): whose resources form its library. */
const ancestorsOf = (orgId: string) => sql`(with recursive up(id, parent_id) as (
    select id, parent_id from orgs where id = ${orgId}
    union all
    select o.id, o.parent_id from orgs o join up on o.id = up.parent_id
  ) select parent_id from up where parent_id is not null)`;

const inLibraryOf = (actor: Actor) => sql`${t.orgId} in ${ancestorsOf(actor.tenantOrgId)}`;

/** The library a school browses (docs/product-rules.md#lesson-resources): resources of the organisations above it. */
export async function libraryPage(db: DbOrTx, actor: Actor, q: LibraryListQuery): Promise<Page<LibraryRow>> {
  const copy = alias(t, 'copy');
  const where = and(
    inLibraryOf(actor),
    q.title ? ilike(t.title, containsPattern(q.title)) : undefined,
    q.grade !== undefined ? eq(t.grade, q.grade) : undefined,
    q.orgId ? eq(t.orgId, q.orgId) : undefined,
  );
  const query = db
    .select({
      id: t.id,
      title: t.title,
      grade: t.grade,
      topic: t.topic,
      description: t.description,
      hasCover: sql<boolean>`${t.coverFileId} is not null`,
      hasVideo: sql<boolean>`${t.videoFileId} is not null`,
      attachmentCount: sql<number>`cardinality(${t.attachmentFileIds})`,
      orgName: orgs.name,
      copyId: copy.id,
      updatedAt: t.updatedAt,
    })
    .from(t)
    .innerJoin(orgs, eq(orgs.id, t.orgId))
    .leftJoin(copy, and(eq(copy.copiedFromId, t.id), eq(copy.orgId, actor.tenantOrgId)))
    .where(where)
    .orderBy(desc(t.updatedAt), desc(t.id))
    .$dynamic();
  const page = await paginate(db, query, q);
  return { ...page, records: page.records.map((r) => ({ ...r, updatedAt: r.updatedAt.toISOString() })) };
}

/**
 * The cover of a resource in the school's library. The file itself stays the publisher's (the file store lets only the
 * owner and those above it read it), so the library answers it for the resource; outside the library, or without a
 * cover, 404.
 */
export async function libraryCover(db: DbOrTx, actor: Actor, id: string): Promise<typeof files.$inferSelect> {
  const [row] = await db
    .select({ file: files })
    .from(t)
    .innerJoin(files, and(eq(files.id, t.coverFileId), isNull(files.deletedAt)))
    .where(and(eq(t.id, id), inLibraryOf(actor)))
    .limit(1);
  if (!row) throw notFound();
  return row.file;
}

/**
 * Copies a library resource into the school's own list, files included (docs/product-rules.md#lesson-resources). A
 * resource outside the school's library is 404; a second copy of the same resource is 409.
 */
export async function copyFromLibrary(tx: Tx, actor: Actor, id: string, now: Date): Promise<LessonResourceRow> {
  const [source] = await tx.select().from(t).where(and(eq(t.id, id), inLibraryOf(actor))).limit(1);
  if (!source) throw notFound();
  const [existing] = await tx.select({ id: t.id }).from(t).where(and(own(actor), eq(t.copiedFromId, id))).limit(1);
  if (existing) throw new AppError(409, 'content:validation.lesson.alreadyCopied');
  const ids = await copyFilesTo(tx, actor, [source.coverFileId, source.videoFileId, ...source.attachmentFileIds], now);
  const mapped = (fileId: string | null) => (fileId ? (ids.get(fileId) ?? null) : null);
  const [row] = await tx
    .insert(t)
    .values({
      orgId: actor.tenantOrgId,
      title: source.title,
      grade: source.grade,
      topic: source.topic,
      coverFileId: mapped(source.coverFileId),
      videoFileId: mapped(source.videoFileId),
      attachmentFileIds: source.attachmentFileIds.map(mapped).filter((f): f is string => f !== null),
      description: source.description,
      copiedFromId: source.id,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: t.id });
  return lessonResourceById(tx, actor, row.id);
}
