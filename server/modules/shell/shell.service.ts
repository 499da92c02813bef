import { eq, sql } from 'drizzle-orm';
import { LOGIN_MAX_FAILURES } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { MOURNING_OFF, mourningSettingSchema, type MourningSave, type MourningSetting } from '@/domain/shell/mourning';
import type { DbOrTx } from '../../db/client';
import { sessions, users } from '../../db/schema/auth';
import { platformSettings } from '../../db/schema/shell';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { verifyPassword } from '../../lib/password';
import type { Actor } from '../../plugins/tenant';
import { assertNotLocked, revokeSession } from '../auth/sso.service';

/** The platform_settings key of mourning mode. */
export const MOURNING_KEY = 'mourning';

/** The stored mourning setting, or off (docs/product-rules.md#mourning-mode). */
export async function readMourning(db: DbOrTx): Promise<MourningSetting> {
  const [row] = await db.select().from(platformSettings).where(eq(platformSettings.key, MOURNING_KEY)).limit(1);
  if (!row) return MOURNING_OFF;
  const parsed = mourningSettingSchema.safeParse({ ...row.value, version: row.version });
  return parsed.success ? parsed.data : MOURNING_OFF;
}

/** Saves the mourning setting (an operator's, checked by the route) with its audit row; a stale version is refused. */
export async function saveMourning(tx: DbOrTx, actor: Actor, input: MourningSave, now: Date): Promise<MourningSetting> {
  const before = await readMourning(tx);
  if (input.version !== before.version) throw new AppError(409, ERR.staleWrite);
  const value = { enabled: input.enabled, startDate: input.startDate, endDate: input.endDate };
  const version = before.version + 1;
  await tx
    .insert(platformSettings)
    .values({ key: MOURNING_KEY, value, version, updatedBy: actor.userId, updatedAt: now })
    .onConflictDoUpdate({ target: platformSettings.key, set: { value, version, updatedBy: actor.userId, updatedAt: now } });
  const after = { ...value, version };
  await audit(tx, actor, { action: before.version === 0 ? 'create' : 'update', entity: 'platformSetting', entityId: MOURNING_KEY, entityName: MOURNING_KEY, before: before.version === 0 ? null : before, after });
  return after;
}

/**
 * Unlocks the lock screen (docs/product-rules.md#lock-screen): the signed-in user's password again. A wrong one is
 * counted on the session as a wrong current password of the password change is (the same counter and limit): the
 * LOGIN_MAX_FAILURES-th ends the session (401), so a passer-by at a locked console cannot keep guessing, and the
 * account itself is not locked for its owner elsewhere. A locked account (sign-in's lock) is refused as sign-in is.
 */
export async function unlock(db: DbOrTx, session: { userId: string; sessionId: string }, now: Date, password: string): Promise<void> {
  const [user] = await db.select({ passwordHash: users.passwordHash, lockedUntil: users.lockedUntil }).from(users).where(eq(users.id, session.userId)).limit(1);
  if (!user) throw new AppError(401, ERR.sessionExpired);
  assertNotLocked(user, now);
  if (await verifyPassword(password, user.passwordHash)) {
    await db.update(sessions).set({ passwordFailures: 0 }).where(eq(sessions.id, session.sessionId));
    return;
  }
  // Counted in SQL so parallel guesses cannot lose an increment; committed although the request fails.
  const [after] = await db
    .update(sessions)
    .set({ passwordFailures: sql`${sessions.passwordFailures} + 1` })
    .where(eq(sessions.id, session.sessionId))
    .returning({ passwordFailures: sessions.passwordFailures });
  const failures = after?.passwordFailures ?? LOGIN_MAX_FAILURES;
  if (failures >= LOGIN_MAX_FAILURES) {
    await revokeSession(db, now, session.sessionId);
    throw new AppError(401, 'auth:lock.sessionEnded');
  }
  throw new AppError(400, 'auth:lock.wrongPassword', { left: LOGIN_MAX_FAILURES - failures }, { field: 'password' });
}
