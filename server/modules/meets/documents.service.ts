import type { Readable } from 'node:stream';
import { and, asc, between, desc, eq, ilike, isNull, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { ERR } from '@/domain/errors';
import { formatMark } from '@/domain/meets/marks';
import {
  ESTAMP_MAX,
  STYLE_PHOTO_MAX,
  type CertificateIssue,
  type CertificateRow,
  type CertificateSave,
  type CertificateValues,
  type PhotoRow,
  type StampRow,
  type StampSave,
} from '@/domain/meets/documents';
import type { DbOrTx, Tx } from '../../db/client';
import { files } from '../../db/schema/files';
import { meetAthletes, meetCertificates, meetEntries, meetEvents, meetGroups, meetHeats, meetPhotos, meetResults, meetStamps, meets } from '../../db/schema/meets';
import { orgs } from '../../db/schema/orgs';
import { classes, students } from '../../db/schema/school';
import { AppError, fieldError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Storage } from '../../lib/storage/storage';
import type { Actor } from '../../plugins/tenant';
import { assertOwnFiles } from '../content/content-files';
import { deleteFile } from '../files/files.service';
import { entryBib, teamLegNames } from './entry.service';
import { tenantMeet } from './meet.service';
import { countedPlace } from './points.service';
import { isoInstant } from '../../lib/iso';

/**
 * E-stamps, certificate templates, issued certificates and style photos (docs/product-rules.md#meet-documents). The
 * images live in the file store (server/modules/files), which judges type, size and aspect by content; these rows
 * point at them.
 */

// ── E-stamps ────────────────────────────────────────────────────────────────────────────────────────────

const stampColumns = {
  id: meetStamps.id,
  name: meetStamps.name,
  fileId: meetStamps.fileId,
  width: files.width,
  height: files.height,
  size: files.size,
  createdAt: meetStamps.createdAt,
};
const withIsoCreatedAt = <T extends { createdAt: Date }>(row: T) => ({ ...row, createdAt: isoInstant(row.createdAt) });

/** The organisation's stamps (at most ESTAMP_MAX, so unpaged), oldest first. */
export async function stampList(db: DbOrTx, actor: Actor): Promise<StampRow[]> {
  const rows = await db.select(stampColumns).from(meetStamps).innerJoin(files, eq(files.id, meetStamps.fileId)).where(eq(meetStamps.orgId, actor.tenantOrgId)).orderBy(asc(meetStamps.createdAt), asc(meetStamps.id));
  return rows.map(withIsoCreatedAt);
}

/** Adds a stamp from an uploaded file of purpose 'stamp'; the eleventh is refused. */
export async function createStamp(tx: Tx, actor: Actor, body: StampSave): Promise<StampRow> {
  // The organisation's row serialises concurrent uploads, so two cannot both be the tenth.
  await tx.select({ id: orgs.id }).from(orgs).where(eq(orgs.id, actor.tenantOrgId)).for('update');
  if ((await tx.$count(meetStamps, eq(meetStamps.orgId, actor.tenantOrgId))) >= ESTAMP_MAX) throw fieldError('fileId', 'meets:stamp.v.max', { max: ESTAMP_MAX });
  await assertOwnFiles(tx, actor, 'fileId', [body.fileId], ['stamp']);
  const [row] = await tx.insert(meetStamps).values({ orgId: actor.tenantOrgId, name: body.name, fileId: body.fileId }).returning({ id: meetStamps.id });
  const [out] = await tx.select(stampColumns).from(meetStamps).innerJoin(files, eq(files.id, meetStamps.fileId)).where(eq(meetStamps.id, row.id));
  return withIsoCreatedAt(out);
}

/** Deletes a stamp no template uses (409 naming the templates otherwise), and its file. */
export async function deleteStamp(tx: Tx, actor: Actor, id: string, now: Date) {
  const [row] = await tx.select().from(meetStamps).where(and(eq(meetStamps.id, id), eq(meetStamps.orgId, actor.tenantOrgId))).for('update');
  if (!row) throw notFound();
  const usedBy = and(eq(meetCertificates.stampId, id), eq(meetCertificates.orgId, actor.tenantOrgId));
  await assertUnused([
    {
      what: 'meets:certificate.templates',
      count: () => tx.$count(meetCertificates, usedBy),
      names: async () => (await tx.select({ name: meetCertificates.name }).from(meetCertificates).where(usedBy).orderBy(asc(meetCertificates.name))).map((r) => r.name),
    },
  ]);
  await tx.delete(meetStamps).where(eq(meetStamps.id, id));
  await deleteFile(tx, actor.tenantOrgId, row.fileId, now).catch(() => undefined);
  return row;
}

// ── Certificate templates ───────────────────────────────────────────────────────────────────────────────

const certificateColumns = {
  id: meetCertificates.id,
  name: meetCertificates.name,
  orientation: meetCertificates.orientation,
  backgroundFileId: meetCertificates.backgroundFileId,
  fields: meetCertificates.fields,
  stampId: meetCertificates.stampId,
  stampName: meetStamps.name,
  stampFileId: meetStamps.fileId,
  stampX: meetCertificates.stampX,
  stampY: meetCertificates.stampY,
  stampSize: meetCertificates.stampSize,
  version: meetCertificates.version,
  createdAt: meetCertificates.createdAt,
};
const certificateSelect = (db: DbOrTx) => db.select(certificateColumns).from(meetCertificates).leftJoin(meetStamps, eq(meetStamps.id, meetCertificates.stampId));

export async function certificatePage(db: DbOrTx, actor: Actor, q: { current: number; size: number; name?: string }): Promise<Page<CertificateRow>> {
  const page = await paginate(
    db,
    certificateSelect(db)
      .where(and(eq(meetCertificates.orgId, actor.tenantOrgId), q.name ? ilike(meetCertificates.name, containsPattern(q.name)) : undefined))
      .orderBy(desc(meetCertificates.createdAt), asc(meetCertificates.id))
      .$dynamic(),
    q,
  );
  return { ...page, records: page.records.map(withIsoCreatedAt) };
}

export async function certificateById(db: DbOrTx, actor: Actor, id: string): Promise<CertificateRow> {
  const [row] = await certificateSelect(db).where(and(eq(meetCertificates.id, id), eq(meetCertificates.orgId, actor.tenantOrgId)));
  if (!row) throw notFound();
  return withIsoCreatedAt(row);
}

/** The background must be the tenant's certificate image, the stamp one of its stamps. */
async function checkTemplateRefs(tx: Tx, actor: Actor, body: CertificateSave) {
  await assertOwnFiles(tx, actor, 'backgroundFileId', [body.backgroundFileId], ['certificate']);
  if (body.stampId) {
    const [stamp] = await tx.select({ id: meetStamps.id }).from(meetStamps).where(and(eq(meetStamps.id, body.stampId), eq(meetStamps.orgId, actor.tenantOrgId)));
    if (!stamp) throw fieldError('stampId', 'meets:certificate.v.stamp');
  }
}

const templateValues = (body: CertificateSave) => ({
  name: body.name,
  orientation: body.orientation,
  backgroundFileId: body.backgroundFileId ?? null,
  fields: body.fields,
  stampId: body.stampId ?? null,
  stampX: body.stampId ? (body.stampX ?? null) : null,
  stampY: body.stampId ? (body.stampY ?? null) : null,
  stampSize: body.stampId ? (body.stampSize ?? null) : null,
});

export async function createCertificate(tx: Tx, actor: Actor, body: CertificateSave): Promise<CertificateRow> {
  await checkTemplateRefs(tx, actor, body);
  const [row] = await tx
    .insert(meetCertificates)
    .values({ orgId: actor.tenantOrgId, ...templateValues(body) })
    .returning({ id: meetCertificates.id });
  return certificateById(tx, actor, row.id);
}

export async function updateCertificate(tx: Tx, actor: Actor, id: string, body: CertificateSave): Promise<Change<CertificateRow>> {
  await lockVersion(tx, meetCertificates, id, eq(meetCertificates.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await certificateById(tx, actor, id);
  await checkTemplateRefs(tx, actor, body);
  await tx
    .update(meetCertificates)
    .set({ ...templateValues(body), version: nextVersion(meetCertificates.version) })
    .where(eq(meetCertificates.id, id));
  return { before, after: await certificateById(tx, actor, id) };
}

export async function deleteCertificate(tx: Tx, actor: Actor, id: string): Promise<CertificateRow> {
  const row = await certificateById(tx, actor, id);
  await tx.delete(meetCertificates).where(eq(meetCertificates.id, id));
  return row;
}

// ── Issuing ─────────────────────────────────────────────────────────────────────────────────────────────

/** The meets of the organisation with the events that have published places: what the issue dialog offers. */
export async function issueOptions(db: DbOrTx, actor: Actor) {
  const rows = await db
    .select({ meetId: meets.id, meetName: meets.name, startDate: meets.startDate, eventId: meetEvents.id, eventName: meetEvents.name, groupName: meetGroups.name, places: sql<number>`count(${meetResults.id})::int` })
    .from(meets)
    .innerJoin(meetEvents, eq(meetEvents.meetId, meets.id))
    .innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId))
    .innerJoin(meetHeats, eq(meetHeats.eventId, meetEvents.id))
    .innerJoin(meetResults, eq(meetResults.heatId, meetHeats.id))
    .where(and(eq(meets.orgId, actor.tenantOrgId), countedPlace))
    .groupBy(meets.id, meetEvents.id, meetGroups.id)
    .orderBy(desc(meets.startDate), asc(meets.id), asc(meetGroups.sort), asc(meetEvents.sort));
  const out = new Map<string, { id: string; name: string; events: { id: string; name: string; groupName: string; places: number }[] }>();
  for (const r of rows) {
    const meet = out.get(r.meetId) ?? { id: r.meetId, name: r.meetName, events: [] };
    meet.events.push({ id: r.eventId, name: r.eventName, groupName: r.groupName, places: r.places });
    out.set(r.meetId, meet);
  }
  return [...out.values()];
}

export interface IssuedCertificate {
  values: CertificateValues;
  place: number;
}

/** What each certificate of an issue says, in group, event and place order; 400 when the range has no published place. */
export async function certificatesToIssue(db: DbOrTx, actor: Actor, body: CertificateIssue, text: { place(place: number): string; mark(kind: string, mark: string): string; date(iso: string): string }): Promise<IssuedCertificate[]> {
  const meet = await tenantMeet(db, actor, body.meetId);
  if (body.eventId) {
    const [event] = await db.select({ id: meetEvents.id }).from(meetEvents).where(and(eq(meetEvents.id, body.eventId), eq(meetEvents.meetId, meet.id)));
    if (!event) throw fieldError('eventId', 'meets:certificate.v.event');
  }
  const rows = await db
    .select({
      eventId: meetEvents.id,
      eventName: meetEvents.name,
      groupName: meetGroups.name,
      kind: meetEvents.resultKind,
      // A relay team's certificate names the team and its runners.
      name: sql<string>`coalesce(${meetEntries.teamName} || '（' || ${teamLegNames} || '）', ${meetEntries.teamName}, ${students.name})`,
      className: classes.name,
      place: meetResults.place,
      mark: meetResults.mark,
    })
    .from(meetResults)
    .innerJoin(meetHeats, eq(meetHeats.id, meetResults.heatId))
    .innerJoin(meetEvents, eq(meetEvents.id, meetHeats.eventId))
    .innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId))
    .innerJoin(meetEntries, eq(meetEntries.id, meetResults.entryId))
    .leftJoin(meetAthletes, eq(meetAthletes.id, meetEntries.athleteId))
    .leftJoin(students, eq(students.id, meetAthletes.studentId))
    .innerJoin(classes, eq(classes.id, meetEntries.classId))
    .where(
      and(
        eq(meetResults.meetId, meet.id),
        body.eventId ? eq(meetEvents.id, body.eventId) : undefined,
        countedPlace,
        between(meetResults.place, body.fromPlace, body.toPlace),
      ),
    )
    .orderBy(asc(meetGroups.sort), asc(meetEvents.sort), asc(meetEvents.id), asc(meetResults.place), asc(entryBib));
  if (rows.length === 0) throw fieldError('toPlace', 'meets:certificate.v.none');
  const date = text.date(body.date ?? meet.endDate);
  return rows.map((r) => ({
    place: r.place!,
    values: { name: r.name, className: r.className, event: `${r.groupName} ${r.eventName}`, place: text.place(r.place!), mark: text.mark(r.kind, formatMark(r.kind, r.mark)), date, meet: meet.name },
  }));
}

/** The template of the tenant with the bytes of its background and stamp images. */
export async function templateForIssue(db: DbOrTx, storage: Storage, actor: Actor, id: string) {
  const template = await certificateById(db, actor, id);
  const bytesOf = async (fileId: string | null) => {
    if (!fileId) return null;
    const [file] = await db.select({ hash: files.hash, mime: files.mime }).from(files).where(and(eq(files.id, fileId), eq(files.orgId, actor.tenantOrgId), isNull(files.deletedAt)));
    if (!file) return null;
    return { bytes: await readAll(await storage.readBlob(file.hash)), mime: file.mime };
  };
  const [background, stamp] = await Promise.all([bytesOf(template.backgroundFileId), bytesOf(template.stampFileId)]);
  return { template, images: { background, stamp: stamp?.bytes ?? null } };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

// ── Style photos ────────────────────────────────────────────────────────────────────────────────────────

const photoColumns = {
  id: meetPhotos.id,
  fileId: meetPhotos.fileId,
  caption: meetPhotos.caption,
  name: files.name,
  width: files.width,
  height: files.height,
  version: meetPhotos.version,
  createdAt: meetPhotos.createdAt,
};

/** A meet's photos, oldest first (at most STYLE_PHOTO_MAX, so unpaged). */
export async function photoList(db: DbOrTx, actor: Actor, meetId: string): Promise<PhotoRow[]> {
  await tenantMeet(db, actor, meetId);
  const rows = await db.select(photoColumns).from(meetPhotos).innerJoin(files, eq(files.id, meetPhotos.fileId)).where(eq(meetPhotos.meetId, meetId)).orderBy(asc(meetPhotos.createdAt), asc(meetPhotos.id));
  return rows.map(withIsoCreatedAt);
}

/** Adds uploaded style photos to a meet; refused whole when the meet would pass STYLE_PHOTO_MAX. */
export async function addPhotos(tx: Tx, actor: Actor, meetId: string, fileIds: readonly string[], now: Date): Promise<PhotoRow[]> {
  await tenantMeet(tx, actor, meetId);
  // The meet's row serialises concurrent additions, so two cannot both pass the limit.
  await tx.select({ id: meets.id }).from(meets).where(eq(meets.id, meetId)).for('update');
  const ids = [...new Set(fileIds)];
  const have = await tx.$count(meetPhotos, eq(meetPhotos.meetId, meetId));
  if (have + ids.length > STYLE_PHOTO_MAX) throw fieldError('fileIds', 'meets:photo.v.max', { max: STYLE_PHOTO_MAX });
  await assertOwnFiles(tx, actor, 'fileIds', ids, ['style']);
  // Each file becomes one photo once; the order of the upload is kept by a microsecond apart.
  const rows = await tx
    .insert(meetPhotos)
    .values(ids.map((fileId, i) => ({ meetId, fileId, createdAt: new Date(now.getTime() + i) })))
    .onConflictDoNothing()
    .returning({ id: meetPhotos.id });
  const all = await photoList(tx, actor, meetId);
  const added = new Set(rows.map((r) => r.id));
  return all.filter((p) => added.has(p.id));
}

async function tenantPhoto(tx: Tx, actor: Actor, meetId: string, photoId: string) {
  await tenantMeet(tx, actor, meetId);
  const [row] = await tx.select().from(meetPhotos).where(and(eq(meetPhotos.id, photoId), eq(meetPhotos.meetId, meetId))).for('update');
  if (!row) throw notFound();
  return row;
}

export async function setCaption(tx: Tx, actor: Actor, meetId: string, photoId: string, body: { caption?: string | null; version?: number }) {
  const before = await tenantPhoto(tx, actor, meetId, photoId);
  if (body.version !== undefined && body.version !== before.version) throw new AppError(409, ERR.staleWrite);
  const [after] = await tx
    .update(meetPhotos)
    .set({ caption: body.caption || null, version: nextVersion(meetPhotos.version) })
    .where(eq(meetPhotos.id, photoId))
    .returning();
  return { before, after };
}

export async function deletePhoto(tx: Tx, actor: Actor, meetId: string, photoId: string, now: Date) {
  const row = await tenantPhoto(tx, actor, meetId, photoId);
  await tx.delete(meetPhotos).where(eq(meetPhotos.id, photoId));
  await deleteFile(tx, actor.tenantOrgId, row.fileId, now).catch(() => undefined);
  return { before: row, after: null };
}
