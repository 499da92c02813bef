import { and, eq, inArray, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  facePhotoKey,
  matchFacePhotos,
  type FacePhotoApplied,
  type FacePhotoApplyRequest,
  type FacePhotoCandidate,
  type FacePhotoKind,
  type FacePhotoMatchResult,
} from '@/domain/people/face-photos';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx, Tx } from '../../db/client';
import { files } from '../../db/schema/files';
import { classes, students, teacherClasses, teachers } from '../../db/schema/school';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { classScopeOf, inClassScope, type ClassScope } from '../../lib/data-scope';
import { notFound } from '../../lib/resource';
import { requireConsent } from '../consent/consent.service';
import type { Actor } from '../../plugins/tenant';

/** People named in a refusal before "…". */
const NAMES_IN_MESSAGE = 5;

/**
 * Staff an actor with a narrower data scope may reach (docs/product-rules.md#data-scopes): those who teach, head or
 * teach PE in a class of the scope, and the actor's own staff record.
 */
function staffInScope(scope: ClassScope, actor: Actor): SQL | undefined {
  if (scope.all) return undefined;
  const inScope = (column: AnyPgColumn) => inClassScope(scope, column) ?? sql`true`;
  return or(
    eq(teachers.userId, actor.userId),
    inArray(teachers.id, sql`(select ${teacherClasses.teacherId} from ${teacherClasses} where ${inScope(teacherClasses.classId)})`),
    inArray(teachers.id, sql`(select ${classes.headTeacherId} from ${classes} where ${inScope(classes.id)} and ${classes.headTeacherId} is not null)`),
    inArray(teachers.id, sql`(select ${classes.peTeacherId} from ${classes} where ${inScope(classes.id)} and ${classes.peTeacherId} is not null)`),
  );
}

const upper = (column: SQLWrapper) => sql`upper(${column})`;

/** Staff of the tenant in the actor's scope matching `where`. */
async function staffCandidates(db: DbOrTx, actor: Actor, scope: ClassScope, where: SQL): Promise<(FacePhotoCandidate & { version: number })[]> {
  const rows = await db
    .select({ id: teachers.id, name: teachers.name, mobile: teachers.mobile, workNo: teachers.workNo, photoFileId: teachers.photoFileId, version: teachers.version })
    .from(teachers)
    .where(and(eq(teachers.orgId, actor.tenantOrgId), staffInScope(scope, actor), where));
  return rows.map((r) => ({ id: r.id, name: r.name, detail: r.workNo, photoFileId: r.photoFileId, version: r.version, keys: [r.mobile, r.name, r.workNo] }));
}

/** Students of the tenant in the actor's scope matching `where`. */
async function studentCandidates(db: DbOrTx, actor: Actor, scope: ClassScope, where: SQL): Promise<(FacePhotoCandidate & { version: number })[]> {
  const rows = await db
    .select({ id: students.id, name: students.name, regNo: students.regNo, className: classes.name, photoFileId: students.photoFileId, version: students.version })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(and(eq(students.orgId, actor.tenantOrgId), inClassScope(scope, students.classId), where));
  return rows.map((r) => ({ id: r.id, name: r.name, detail: r.className, photoFileId: r.photoFileId, version: r.version, keys: [r.regNo, r.name] }));
}

/**
 * Which person each file name stands for (docs/product-rules.md#face-photos): staff by mobile, name or work number,
 * students by registration number or name, among the people the actor may reach. Writes nothing.
 */
export async function facePhotoMatches(db: DbOrTx, actor: Actor, kind: FacePhotoKind, names: readonly string[]): Promise<FacePhotoMatchResult> {
  const keys = [...new Set(names.map(facePhotoKey).filter(Boolean))];
  if (keys.length === 0) return { matched: [], ambiguous: [], unmatched: [...names] };
  const scope = await classScopeOf(db, actor);
  const people =
    kind === 'staff'
      ? await staffCandidates(db, actor, scope, or(inArray(upper(teachers.mobile), keys), inArray(upper(teachers.name), keys), inArray(upper(teachers.workNo), keys))!)
      : await studentCandidates(db, actor, scope, or(inArray(upper(students.regNo), keys), inArray(upper(students.name), keys))!);
  return matchFacePhotos(names, people);
}

/**
 * Sets the confirmed photos in one transaction with one audit row: every file must be a face photo of the tenant's
 * store and every person one the actor may reach (else 404); a person who has another photo keeps it unless the item
 * says `replace` (409 naming them, nothing written).
 */
export async function applyFacePhotos(tx: Tx, actor: Actor, kind: FacePhotoKind, { items }: FacePhotoApplyRequest): Promise<FacePhotoApplied> {
  const fileIds = [...new Set(items.map((i) => i.fileId))];
  const owned = await tx
    .select({ id: files.id })
    .from(files)
    .where(and(inArray(files.id, fileIds), eq(files.orgId, actor.tenantOrgId), eq(files.purpose, 'face'), isNull(files.deletedAt)));
  if (owned.length !== fileIds.length) throw notFound();

  const table = kind === 'staff' ? teachers : students;
  const personIds = items.map((i) => i.personId);
  // Lock the people first, so a form saved meanwhile waits and then sees the new version.
  await tx.select({ id: table.id }).from(table).where(and(inArray(table.id, personIds), eq(table.orgId, actor.tenantOrgId))).for('update');
  const scope = await classScopeOf(tx, actor);
  const people = kind === 'staff' ? await staffCandidates(tx, actor, scope, inArray(teachers.id, personIds)) : await studentCandidates(tx, actor, scope, inArray(students.id, personIds));
  if (people.length !== personIds.length) throw notFound();

  const byId = new Map(people.map((p) => [p.id, p]));
  const refused = items.filter((i) => {
    const current = byId.get(i.personId)!.photoFileId;
    return current !== null && current !== i.fileId && !i.replace;
  });
  if (refused.length > 0) {
    const names = refused.slice(0, NAMES_IN_MESSAGE).map((i) => byId.get(i.personId)!.name);
    throw new AppError(409, 'people:photos.error.hasPhoto', { count: refused.length, names: names.join('、') + (refused.length > names.length ? ' …' : '') });
  }

  const changes = items.filter((i) => byId.get(i.personId)!.photoFileId !== i.fileId);
  // docs/product-rules.md#consent: no student's face photo is stored without the guardian's consent (nothing written).
  if (kind === 'student') await requireConsent(tx, 'facePhoto', changes.map((i) => ({ id: i.personId, name: byId.get(i.personId)!.name })));
  if (changes.length > 0) {
    const values = sql.join(
      changes.map((i) => sql`(${i.personId}::uuid, ${i.fileId}::uuid)`),
      sql`, `,
    );
    await tx.execute(sql`
      update ${table} set photo_file_id = v.file_id, version = ${table}.version + 1
      from (values ${values}) as v(id, file_id)
      where ${table}.id = v.id`);
  }
  const replaced = changes.filter((i) => byId.get(i.personId)!.photoFileId !== null).length;
  await audit(tx, actor, {
    action: 'facePhotos',
    entity: kind,
    before: changes.map((i) => ({ id: i.personId, photoFileId: byId.get(i.personId)!.photoFileId })),
    after: changes.map((i) => ({ id: i.personId, photoFileId: i.fileId })),
  });
  return { applied: changes.length, replaced };
}
