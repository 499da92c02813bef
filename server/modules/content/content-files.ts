import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FilePurpose } from '@/domain/uploads/rules';
import type { DbOrTx } from '../../db/client';
import { files } from '../../db/schema/files';
import { fieldError } from '../../lib/app-error';
import type { Actor } from '../../plugins/tenant';

/**
 * Files a content record points at must be live files of the tenant uploaded for one of the purposes the field takes
 * (docs/product-rules.md#uploads); otherwise 400 naming the field.
 */
export async function assertOwnFiles(db: DbOrTx, actor: Actor, field: string, ids: readonly (string | null | undefined)[], purposes: readonly FilePurpose[]): Promise<void> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (wanted.length === 0) return;
  const found = await db
    .select({ id: files.id })
    .from(files)
    .where(and(inArray(files.id, wanted), eq(files.orgId, actor.tenantOrgId), inArray(files.purpose, [...purposes]), isNull(files.deletedAt)));
  if (found.length !== wanted.length) throw fieldError(field, 'content:validation.fileMissing');
}

/**
 * Copies files of another organisation into the tenant's (the same stored bytes: the store is content-addressed),
 * so a copied library resource keeps working when the library's own changes. Answers old id → new id.
 */
export async function copyFilesTo(db: DbOrTx, actor: Actor, ids: readonly (string | null)[], now: Date): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  const out = new Map<string, string>();
  if (wanted.length === 0) return out;
  const rows = await db.select().from(files).where(and(inArray(files.id, wanted), isNull(files.deletedAt)));
  for (const { id, ...row } of rows) {
    const [copy] = await db
      .insert(files)
      .values({ ...row, orgId: actor.tenantOrgId, createdBy: actor.userId, createdAt: now })
      .returning({ id: files.id });
    out.set(id, copy.id);
  }
  return out;
}
