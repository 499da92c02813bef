import { and, eq, getTableColumns, isNull } from 'drizzle-orm';
import type { CurrentOrg, CurrentOrgSave } from '@/domain/org-manage/current-org';
import { filePaths, PUBLIC_FILES_API } from '@/domain/uploads/stored-file';
import type { DbOrTx, Tx } from '../../db/client';
import { files } from '../../db/schema/files';
import { orgs } from '../../db/schema/orgs';
import { fieldError } from '../../lib/app-error';
import { hashPassword, sha256Hex } from '../../lib/password';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { activatedDeviceCount } from '../venue/device.service';

const FILE_URL = new RegExp(`^${PUBLIC_FILES_API}/([0-9a-f-]{36})/content$`, 'i');

/** The file-store id behind a branding URL; null for a built-in (seeded) image or none. */
const fileIdOf = (url: string | null) => (url ? (FILE_URL.exec(url)?.[1] ?? null) : null);
const num = (v: string | null) => (v === null ? null : Number(v));

async function parentName(db: DbOrTx, parentId: string | null): Promise<string | null> {
  if (!parentId) return null;
  const [p] = await db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, parentId));
  return p?.name ?? null;
}

/** The signed-in organisation (docs/product-rules.md#own-organisation). */
export async function currentOrg(db: DbOrTx, actor: Actor): Promise<CurrentOrg> {
  const [row] = await db.select(withActivated).from(orgs).where(eq(orgs.id, actor.tenantOrgId));
  if (!row) throw notFound();
  return toCurrentOrg(row, await parentName(db, row.parentId));
}

/** The organisation's columns and its activated device count (counted from its devices). */
const withActivated = { ...getTableColumns(orgs), activatedDevices: activatedDeviceCount };
type OrgWithActivated = typeof orgs.$inferSelect & { activatedDevices: number };

function toCurrentOrg(o: OrgWithActivated, parentName: string | null): CurrentOrg {
  return {
    id: o.id,
    name: o.name,
    code: o.code,
    type: o.type,
    parentId: o.parentId,
    parentName,
    title: o.title,
    iconFileId: fileIdOf(o.icon),
    loginImgFileId: fileIdOf(o.loginImg),
    filingNumber: o.filingNumber,
    latitude: num(o.latitude),
    longitude: num(o.longitude),
    academicSystemYears: o.academicSystemYears,
    hasManagementPassword: o.managementPasswordHash !== null,
    deviceActivationCode: o.deviceActivationCode,
    activatableDevices: o.activatableDevices,
    activatedDevices: o.activatedDevices,
    version: o.version,
  };
}

/**
 * The branding URL to store for a chosen file: its public URL when it is a public branding file of this organisation
 * (400 on the field otherwise). No file clears an uploaded image but keeps a built-in one until it is replaced.
 */
async function brandingUrl(tx: Tx, actor: Actor, field: 'iconFileId' | 'loginImgFileId', id: string | null, stored: string | null) {
  if (!id) return fileIdOf(stored) ? null : stored;
  const [file] = await tx
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.id, id), eq(files.orgId, actor.tenantOrgId), eq(files.purpose, 'branding'), eq(files.isPublic, true), isNull(files.deletedAt)));
  if (!file) throw fieldError(field, 'validation:org.brandingFile');
  return filePaths.publicContent(id);
}

/** Saves the own organisation: code unique among siblings, activatable devices above the activated ones. */
export async function updateCurrentOrg(tx: Tx, actor: Actor, body: CurrentOrgSave): Promise<Change<CurrentOrg>> {
  await lockVersion(tx, orgs, actor.tenantOrgId, eq(orgs.id, actor.tenantOrgId), body.version ?? -1);
  const [before] = await tx.select(withActivated).from(orgs).where(eq(orgs.id, actor.tenantOrgId));
  const [dup] = await tx
    .select({ id: orgs.id })
    .from(orgs)
    .where(and(before.parentId ? eq(orgs.parentId, before.parentId) : isNull(orgs.parentId), eq(orgs.code, body.code)));
  if (dup && dup.id !== before.id) throw fieldError('code', 'validation:org.codeTaken');
  if (body.activatableDevices <= before.activatedDevices) throw fieldError('activatableDevices', 'validation:org.activatableAboveActivated');
  const icon = await brandingUrl(tx, actor, 'iconFileId', body.iconFileId, before.icon);
  const loginImg = await brandingUrl(tx, actor, 'loginImgFileId', body.loginImgFileId, before.loginImg);
  const [after] = await tx
    .update(orgs)
    .set({
      name: body.name,
      code: body.code,
      title: body.title,
      icon,
      loginImg,
      filingNumber: body.filingNumber,
      latitude: body.latitude === null ? null : String(body.latitude),
      longitude: body.longitude === null ? null : String(body.longitude),
      academicSystemYears: body.academicSystemYears,
      deviceActivationCode: body.deviceActivationCode,
      activatableDevices: body.activatableDevices,
      ...(body.managementPassword ? { managementPasswordHash: await hashPassword(sha256Hex(body.managementPassword)) } : {}),
      version: nextVersion(orgs.version),
    })
    .where(eq(orgs.id, before.id))
    .returning(withActivated);
  const superior = await parentName(tx, before.parentId);
  return { before: toCurrentOrg(before, superior), after: toCurrentOrg(after!, superior) };
}
