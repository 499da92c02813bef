import { and, eq, isNull, sql } from 'drizzle-orm';
import { ERR } from '@/domain/errors';
import { DEFAULT_SECURITY_SETTINGS, type SecuritySettings } from '@/domain/security/settings';
import type { DbOrTx } from '../../db/client';
import { sessions } from '../../db/schema/auth';
import { sessionActivity } from '../../db/schema/security';
import { AppError } from '../../lib/app-error';
import { readSecuritySettings } from './settings.service';

/** How often a session's activity is written (per session and instance): idle time is known to within this. */
export const ACTIVITY_WRITE_MS = 60_000;
/** How long an organisation's settings are kept in process before they are read again (another instance's save). */
export const SETTINGS_KEEP_MS = 60_000;
/** Bound of the in-process maps (one entry per live session or organisation). */
const MAX_ENTRIES = 20_000;

/** What the policy needs of a session; `lastActiveAt` null when no activity was written yet (the sign-in then counts). */
export interface PolicedSession {
  sessionId: string;
  orgId: string | null;
  createdAt: Date;
  lastActiveAt: Date | null;
}

/** Why a session ends under its organisation's settings: the absolute lifetime or the idle timeout (null: it lives on). */
export function sessionEnd(settings: Pick<SecuritySettings, 'idleTimeoutMinutes' | 'sessionLifetimeHours'>, createdAt: Date, lastActive: Date, now: Date): 'lifetime' | 'idle' | null {
  if (now.getTime() - createdAt.getTime() > settings.sessionLifetimeHours * 3_600_000) return 'lifetime';
  if (now.getTime() - lastActive.getTime() > settings.idleTimeoutMinutes * 60_000) return 'idle';
  return null;
}

/**
 * The idle timeout and absolute lifetime of sessions (docs/product-rules.md#sign-in-security,
 * docs/decisions/060-two-factor-and-session-policy.md), checked on every signed-in request without a statement of its
 * own in the usual case: the organisation's settings are kept in process for a minute (a save here drops them at once),
 * the last activity is kept in process and written at most once a minute per session. A session that looks idle
 * here is read again before it ends, since another instance may have served it meanwhile.
 */
export class SessionPolicy {
  private readonly settings = new Map<string, { at: number; value: Promise<SecuritySettings> }>();
  private readonly active = new Map<string, number>();
  private readonly written = new Map<string, number>();

  /** Forgets an organisation's settings (after a save on this instance). */
  drop(orgId: string): void {
    this.settings.delete(orgId);
  }

  settingsOf(db: DbOrTx, orgId: string | null, nowMs: number): Promise<SecuritySettings> {
    if (!orgId) return Promise.resolve(DEFAULT_SECURITY_SETTINGS);
    const kept = this.settings.get(orgId);
    if (kept && nowMs - kept.at <= SETTINGS_KEEP_MS && nowMs >= kept.at) return kept.value;
    const value = readSecuritySettings(db, orgId);
    value.catch(() => this.settings.delete(orgId));
    bounded(this.settings).set(orgId, { at: nowMs, value });
    return value;
  }

  /** Throws 401 errors:sessionExpired (and ends the session) when it outlived its lifetime or sat idle too long. */
  async check(db: DbOrTx, session: PolicedSession, now: Date): Promise<void> {
    const settings = await this.settingsOf(db, session.orgId, now.getTime());
    const known = Math.max(this.active.get(session.sessionId) ?? 0, (session.lastActiveAt ?? session.createdAt).getTime());
    let end = sessionEnd(settings, session.createdAt, new Date(known), now);
    if (end === 'idle') {
      const [row] = await db.select({ at: sessionActivity.lastActiveAt }).from(sessionActivity).where(eq(sessionActivity.sessionId, session.sessionId)).limit(1);
      if (row) end = sessionEnd(settings, session.createdAt, new Date(Math.max(known, row.at.getTime())), now);
    }
    if (end) {
      this.active.delete(session.sessionId);
      this.written.delete(session.sessionId);
      await db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.id, session.sessionId), isNull(sessions.revokedAt)));
      throw new AppError(401, ERR.sessionExpired);
    }
    bounded(this.active).set(session.sessionId, now.getTime());
    const last = this.written.get(session.sessionId) ?? 0;
    if (Math.abs(now.getTime() - last) >= ACTIVITY_WRITE_MS) {
      bounded(this.written).set(session.sessionId, now.getTime());
      await db
        .insert(sessionActivity)
        .values({ sessionId: session.sessionId, lastActiveAt: now })
        .onConflictDoUpdate({ target: sessionActivity.sessionId, set: { lastActiveAt: sql`greatest(${sessionActivity.lastActiveAt}, excluded.last_active_at)` } });
    }
  }
}

function bounded<K, V>(map: Map<K, V>): Map<K, V> {
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  return map;
}
