import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { orgSecuritySettings } from '../../db/schema/security';
import { ERR } from '@/domain/errors';
import { DEFAULT_SECURITY_SETTINGS, securitySettingsFields, type SecuritySettingsAnswer, type SecuritySettingsSave } from '@/domain/security/settings';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../plugins/tenant';

/**
 * An organisation's effective security settings: each stored field that still passes its rule, else its default
 * (a field added later, or a stored value from an older rule, falls back instead of failing the read).
 */
export async function readSecuritySettings(db: DbOrTx, orgId: string): Promise<SecuritySettingsAnswer> {
  const [row] = await db.select().from(orgSecuritySettings).where(eq(orgSecuritySettings.orgId, orgId)).limit(1);
  if (!row) return { ...DEFAULT_SECURITY_SETTINGS, version: 0 };
  const out: Record<string, unknown> = { ...DEFAULT_SECURITY_SETTINGS };
  for (const [key, field] of Object.entries(securitySettingsFields)) {
    const parsed = field.safeParse(row.value[key]);
    if (parsed.success) out[key] = parsed.data;
  }
  return { ...(out as typeof DEFAULT_SECURITY_SETTINGS), version: row.version };
}

/**
 * Saves an organisation's security settings (docs/product-rules.md#sign-in-security): the version read must still be
 * the stored one (a stale form is refused), the row's version rises. Answers the change for the kit's audit row.
 */
export async function saveSecuritySettings(tx: DbOrTx, actor: Actor, input: SecuritySettingsSave, now: Date): Promise<{ before: SecuritySettingsAnswer | null; after: SecuritySettingsAnswer }> {
  // Locks the row (when there is one) so two saves of the same version cannot both pass.
  await tx.select({ v: orgSecuritySettings.version }).from(orgSecuritySettings).where(eq(orgSecuritySettings.orgId, actor.tenantOrgId)).for('update');
  const before = await readSecuritySettings(tx, actor.tenantOrgId);
  if (input.version !== before.version) throw new AppError(409, ERR.staleWrite);
  const { version: _v, ...value } = input;
  const version = before.version + 1;
  const inserted = await tx
    .insert(orgSecuritySettings)
    .values({ orgId: actor.tenantOrgId, value, version, updatedBy: actor.userId, updatedAt: now })
    .onConflictDoUpdate({ target: orgSecuritySettings.orgId, set: { value, version, updatedBy: actor.userId, updatedAt: now }, where: eq(orgSecuritySettings.version, before.version) })
    .returning({ version: orgSecuritySettings.version });
  if (inserted.length !== 1) throw new AppError(409, ERR.staleWrite);
  return { before: before.version === 0 ? null : before, after: { ...value, version } };
}
