import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { orgSecuritySettings } from '../../db/schema/security';
import { DEFAULT_SECURITY_SETTINGS, securitySettingsFields, type SecuritySettingsAnswer } from '@/domain/security/settings';

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
