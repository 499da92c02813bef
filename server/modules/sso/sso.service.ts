import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { LoginRequest } from '@/domain/auth/schemas';
import type { TokenData } from '@/domain/auth/types';
import { ACCESS_TOKEN_TTL_S, LOGIN_LOCK_MS, LOGIN_MAX_FAILURES, REFRESH_TOKEN_TTL_S } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import type { DbOrTx } from '../../db/client';
import { sessions, users } from '../../db/schema/auth';
import { AppError } from '../../lib/app-error';
import { verifyPassword } from '../../lib/password';
import { hashSecret, newToken } from '../../lib/tokens';
import { checkCaptcha } from '../captcha/captcha.service';

export interface ClientMeta {
  ip?: string;
  userAgent?: string;
}

const lockedMinutes = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));

function tokenPair(now: Date) {
  const access = newToken();
  const refresh = newToken();
  return {
    access,
    refresh,
    row: {
      accessHash: hashSecret(access),
      refreshHash: hashSecret(refresh),
      accessExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_S * 1000),
      refreshExpiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_S * 1000),
    },
  };
}

const tokenData = (access: string, refresh: string): TokenData => ({
  access_token: access,
  expires_in: ACCESS_TOKEN_TTL_S,
  refresh_token: refresh,
  token_type: 'bearer',
});

/**
 * Signs in by account number or mobile (spec §2, §7): captcha first (single use), then the lock,
 * the enabled flag and the password. Five failures in a row lock the account for 15 minutes.
 */
export async function login(db: DbOrTx, now: Date, input: LoginRequest, meta: ClientMeta = {}): Promise<TokenData> {
  await checkCaptcha(db, now, input.randomStr, input.code);

  const found = await db
    .select()
    .from(users)
    .where(or(eq(users.accountNum, input.accountNum), eq(users.mobile, input.accountNum)));
  // An account number wins over another person's identical mobile.
  const user = found.find((u) => u.accountNum === input.accountNum) ?? found[0];
  if (!user) throw new AppError(400, ERR.badCredentials);

  if (user.lockedUntil && user.lockedUntil.getTime() > now.getTime()) {
    throw new AppError(400, ERR.accountLocked, { minutes: lockedMinutes(user.lockedUntil, now) });
  }
  if (!user.enabled) throw new AppError(400, ERR.accountDisabled);

  if (!(await verifyPassword(input.password, user.passwordHash))) {
    // Counted in SQL so parallel attempts cannot lose an increment.
    const [after] = await db
      .update(users)
      .set({ failedLogins: sql`${users.failedLogins} + 1` })
      .where(eq(users.id, user.id))
      .returning({ failedLogins: users.failedLogins });
    if (after && after.failedLogins >= LOGIN_MAX_FAILURES) {
      const lockedUntil = new Date(now.getTime() + LOGIN_LOCK_MS);
      await db.update(users).set({ failedLogins: 0, lockedUntil }).where(eq(users.id, user.id));
      throw new AppError(400, ERR.accountLocked, { minutes: lockedMinutes(lockedUntil, now) });
    }
    throw new AppError(400, ERR.badCredentials);
  }

  if (user.failedLogins !== 0 || user.lockedUntil) {
    await db.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, user.id));
  }
  const pair = tokenPair(now);
  await db.insert(sessions).values({
    userId: user.id,
    ...pair.row,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 500) ?? null,
    createdAt: now,
    lastSeenAt: now,
  });
  return tokenData(pair.access, pair.refresh);
}

/** Exchanges a refresh token for a new pair; the old pair stops working at once (rotation). */
export async function refresh(db: DbOrTx, now: Date, refreshToken: string): Promise<TokenData> {
  const pair = tokenPair(now);
  const [row] = await db
    .update(sessions)
    .set({ ...pair.row, lastSeenAt: now })
    .where(
      and(
        eq(sessions.refreshHash, hashSecret(refreshToken)),
        isNull(sessions.revokedAt),
        gt(sessions.refreshExpiresAt, now),
        sql`exists (select 1 from ${users} where ${users.id} = ${sessions.userId} and ${users.enabled})`,
      ),
    )
    .returning({ id: sessions.id });
  if (!row) throw new AppError(401, ERR.invalidRefreshToken);
  return tokenData(pair.access, pair.refresh);
}

/** Ends a session: its access and refresh tokens stop working. */
export async function revokeSession(db: DbOrTx, now: Date, sessionId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}
