import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { LoginRequest } from '@/domain/auth/schemas';
import type { TokenData, TotpChallenge } from '@/domain/auth/types';
import { SIGN_IN_CHALLENGE_TTL_MS, type LoginTotpRequest } from '@/domain/security/two-factor';
import { ACCESS_TOKEN_TTL_S, LOGIN_LOCK_MS, LOGIN_MAX_FAILURES, REFRESH_TOKEN_TTL_S } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import type { Db, DbOrTx } from '../../db/client';
import { memberships, retiredRefreshTokens, sessions, users } from '../../db/schema/auth';
import { orgs } from '../../db/schema/orgs';
import { signInLogs } from '../../db/schema/platform';
import { parents, students } from '../../db/schema/school';
import { AppError } from '../../lib/app-error';
import { hashPassword, verifyPassword } from '../../lib/password';
import { hashSecret, newToken } from '../../lib/tokens';
import { DEFAULT_SECURITY_SETTINGS } from '@/domain/security/settings';
import { sessionActivity } from '../../db/schema/security';
import { sessionEnd } from '../security/session-policy';
import { readSecuritySettings } from '../security/settings.service';
import { policyOrgOf, acceptSecondFactor, challengeUser, closeChallenges, hasTwoFactor, markEnrolmentDue, openChallenge, twoFactorRequired } from '../security/two-factor.service';
import { checkCaptcha } from './captcha.service';

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

/** A stored hash no password matches: unknown accounts get the same scrypt work as wrong passwords. */
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= hashPassword(newToken()));

/** Refuses an account while its lock lasts (sign-in and change-password share it). */
export function assertNotLocked(user: { lockedUntil: Date | null }, now: Date): void {
  if (user.lockedUntil && user.lockedUntil.getTime() > now.getTime()) {
    throw new AppError(400, ERR.accountLocked, { minutes: lockedMinutes(user.lockedUntil, now) });
  }
}

/**
 * Checks the sign-in password of an account: LOGIN_MAX_FAILURES wrong ones in a row lock it for LOGIN_LOCK_MS and end
 * its sessions; a right one clears the count. Throws `wrong` or errors:accountLocked. (Change-password counts its
 * wrong guesses per session instead: server/modules/my-info/my-info.service.ts.)
 */
export async function checkPassword(
  db: DbOrTx,
  now: Date,
  user: { id: string; passwordHash: string; failedLogins: number; lockedUntil: Date | null },
  sha256HexPassword: string,
  wrong: AppError,
): Promise<void> {
  assertNotLocked(user, now);
  if (await verifyPassword(sha256HexPassword, user.passwordHash)) {
    if (user.failedLogins !== 0 || user.lockedUntil) {
      await db.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, user.id));
    }
    return;
  }
  await countSignInFailure(db, now, user.id, wrong);
}

/**
 * Counts a wrong sign-in secret (a password, or the code of two-factor sign-in: one count per account) and throws
 * `wrong`, or errors:accountLocked when it reached LOGIN_MAX_FAILURES (the account locks and its sessions end).
 */
export async function countSignInFailure(db: DbOrTx, now: Date, userId: string, wrong: AppError): Promise<never> {
  const failures = await countFailure(db, userId);
  if (failures >= LOGIN_MAX_FAILURES) {
    const lockedUntil = new Date(now.getTime() + LOGIN_LOCK_MS);
    await db.update(users).set({ failedLogins: 0, lockedUntil }).where(eq(users.id, userId));
    await endSessions(db, now, userId);
    throw new AppError(400, ERR.accountLocked, { minutes: lockedMinutes(lockedUntil, now) });
  }
  throw wrong;
}

/** Adds one wrong password to a user's count and answers the new count (0 when no such user). */
async function countFailure(db: DbOrTx, userId: string): Promise<number> {
  // Counted in SQL so parallel attempts cannot lose an increment.
  const [after] = await db
    .update(users)
    .set({ failedLogins: sql`${users.failedLogins} + 1` })
    .where(eq(users.id, userId))
    .returning({ failedLogins: users.failedLogins });
  return after?.failedLogins ?? 0;
}

/** No user has it: the failure count of an unknown account is written against it (and matches no row). */
const NO_USER_ID = '00000000-0000-0000-0000-000000000000';

/** Ends every session of a user (account locked or disabled): their access and refresh tokens stop working. */
export async function endSessions(db: DbOrTx, now: Date, userId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/**
 * False when every account of the user is disabled or sits in a disabled organisation (docs/product-rules.md#organisations,
 * #users: disabling an organisation or an account stops its people signing in); a user without accounts is not refused here.
 */
async function hasUsableAccount(db: DbOrTx, userId: string): Promise<boolean> {
  const list = await db
    .select({ orgId: memberships.orgId, tenantOrgId: memberships.tenantOrgId, enabled: memberships.enabled })
    .from(memberships)
    .where(eq(memberships.userId, userId));
  if (list.length === 0) return true;
  const ids = [...new Set(list.flatMap((m) => [m.orgId, m.tenantOrgId]))];
  const enabled = new Set((await db.select({ id: orgs.id }).from(orgs).where(and(inArray(orgs.id, ids), eq(orgs.enabled, true)))).map((o) => o.id));
  return list.some((m) => m.enabled && enabled.has(m.orgId) && enabled.has(m.tenantOrgId));
}

/**
 * Signs in by account number or mobile (docs/product-rules.md#sign-in, #calls): captcha first (single use), then the lock,
 * the enabled flag and the password. Five failures in a row lock the account for 15 minutes.
 */
export async function login(db: DbOrTx, now: Date, input: LoginRequest, meta: ClientMeta = {}): Promise<LoginAnswer> {
  return withSignInLog(db, now, meta, input.accountNum, (attempt) => signIn(db, now, input, meta, attempt));
}

/**
 * The code step of a two-factor sign-in (docs/product-rules.md#sign-in-security): the challenge of the password step
 * and a code of the app (±1 time step, never one already accepted) or an unused recovery code. A wrong code counts
 * with the sign-in lock as a wrong password does; the lock ends the challenge.
 */
export async function loginTotp(db: DbOrTx, now: Date, input: LoginTotpRequest, meta: ClientMeta = {}): Promise<TokenData> {
  const userId = await challengeUser(db, input.challenge, now);
  const [user] = userId ? await db.select().from(users).where(eq(users.id, userId)).limit(1) : [];
  if (!user) throw new AppError(401, 'security:twoFactor.challengeExpired');
  return withSignInLog(db, now, meta, user.accountNum, async (attempt) => {
    attempt.userId = user.id;
    assertNotLocked(user, now);
    if (!user.enabled || !(await hasUsableAccount(db, user.id))) throw new AppError(400, ERR.accountDisabled);
    if (!(await acceptSecondFactor(db, user.id, input.code, now))) {
      try {
        await countSignInFailure(db, now, user.id, new AppError(400, 'security:twoFactor.codeWrong'));
      } catch (error) {
        if (error instanceof AppError && error.i18nKey === ERR.accountLocked) await closeChallenges(db, user.id);
        throw error;
      }
    }
    if (user.failedLogins !== 0) await db.update(users).set({ failedLogins: 0 }).where(eq(users.id, user.id));
    await closeChallenges(db, user.id);
    return startSession(db, now, user, meta, attempt);
  });
}

/**
 * Runs one sign-in attempt (the console's or the app API's) and writes its sign-in log row: success, or the refusal's
 * message key as the reason (docs/product-rules.md#platform-logs).
 */
export async function withSignInLog<T>(db: DbOrTx, now: Date, meta: ClientMeta, account: string, run: (attempt: SignInAttempt) => Promise<T>): Promise<T> {
  const attempt: SignInAttempt = { account, userId: null, sessionId: null };
  try {
    const out = await run(attempt);
    // The password step of a two-factor sign-in is not a sign-in yet: its code step writes the row.
    if (!attempt.pending) await recordSignIn(db, now, meta, attempt, null);
    return out;
  } catch (error) {
    // Only refusals are attempts; a failure of ours (database gone) is not the person's.
    if (error instanceof AppError) await recordSignIn(db, now, meta, attempt, error.i18nKey);
    throw error;
  }
}

/** What a sign-in attempt found out, for its log row. */
export interface SignInAttempt {
  account: string;
  userId: string | null;
  sessionId: string | null;
  /** The password was right and a code step follows. */
  pending?: boolean;
}

/** What the password step answers: the tokens, or the challenge of the code step (two-factor sign-in). */
export type LoginAnswer = TokenData | TotpChallenge;

async function signIn(db: DbOrTx, now: Date, input: LoginRequest, meta: ClientMeta, attempt: SignInAttempt): Promise<LoginAnswer> {
  await checkCaptcha(db, now, input.randomStr, input.code);
  const user = await checkAccountPassword(db, now, input.accountNum, input.password, attempt);
  if (!(await hasUsableAccount(db, user.id))) throw new AppError(400, ERR.accountDisabled);
  // Two-factor sign-in (docs/product-rules.md#sign-in-security): a code step follows, or, for an account that must
  // have it and has not, a session that can only enrol.
  if (await hasTwoFactor(db, user.id)) {
    attempt.pending = true;
    return { totp_challenge: await openChallenge(db, user.id, now, meta), expires_in: SIGN_IN_CHALLENGE_TTL_MS / 1000 };
  }
  const token = await startSession(db, now, user, meta, attempt);
  if (await twoFactorRequired(db, user.id)) {
    await markEnrolmentDue(db, attempt.sessionId!, now);
    return { ...token, must_enrol_totp: true };
  }
  return token;
}

/**
 * The user of an account number or mobile whose password is right (the lock, the enabled flag and the failure count
 * apply); errors:badCredentials otherwise. Shared by the console sign-in and the app API's.
 */
export async function checkAccountPassword(
  db: DbOrTx,
  now: Date,
  accountNum: string,
  sha256HexPassword: string,
  attempt?: Pick<SignInAttempt, 'userId'>,
): Promise<typeof users.$inferSelect> {
  const found = await db
    .select()
    .from(users)
    .where(or(eq(users.accountNum, accountNum), eq(users.mobile, accountNum)));
  // An account number wins over another person's identical mobile.
  const user = found.find((u) => u.accountNum === accountNum) ?? found[0];
  if (attempt) attempt.userId = user?.id ?? null;
  if (!user) {
    // The same work as a wrong password (one scrypt, the same failure-count statement), so the answer's timing does
    // not tell which accounts exist.
    await verifyPassword(sha256HexPassword, await decoy());
    await countFailure(db, NO_USER_ID);
    throw new AppError(400, ERR.badCredentials);
  }

  assertNotLocked(user, now);
  if (!user.enabled) throw new AppError(400, ERR.accountDisabled);
  await checkPassword(db, now, user, sha256HexPassword, new AppError(400, ERR.badCredentials));
  return user;
}

/** Opens a session for a user who proved who they are: a new access and refresh token pair. */
export async function startSession(
  db: DbOrTx,
  now: Date,
  user: { id: string; mustChangePassword: boolean },
  meta: ClientMeta = {},
  attempt?: Pick<SignInAttempt, 'sessionId'>,
): Promise<TokenData> {
  const pair = tokenPair(now);
  const [session] = await db
    .insert(sessions)
    .values({
      userId: user.id,
      ...pair.row,
      ip: meta.ip ?? null,
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
      createdAt: now,
      lastSeenAt: now,
    })
    .returning({ id: sessions.id });
  if (attempt) attempt.sessionId = session.id;
  const token = tokenData(pair.access, pair.refresh);
  return user.mustChangePassword ? { ...token, must_change_password: true } : token;
}

/**
 * Exchanges a refresh token for a new pair; the old pair stops working at once (rotation). A refresh token presented
 * again after its rotation was stolen or replayed: the whole session ends, for the thief and the owner alike.
 */
export async function refresh(db: Db, now: Date, refreshToken: string): Promise<TokenData> {
  const presented = hashSecret(refreshToken);
  const pair = tokenPair(now);
  const rotated = await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ id: sessions.id, refreshHash: sessions.refreshHash, userId: sessions.userId, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
      .from(sessions)
      .where(
        and(
          eq(sessions.refreshHash, presented),
          isNull(sessions.revokedAt),
          gt(sessions.refreshExpiresAt, now),
          sql`exists (select 1 from ${users} where ${users.id} = ${sessions.userId} and ${users.enabled})`,
        ),
      )
      .for('update');
    if (!current) return false;
    // The idle timeout and lifetime hold for refreshes too (docs/product-rules.md#sign-in-security).
    const [activity] = await tx.select({ at: sessionActivity.lastActiveAt }).from(sessionActivity).where(eq(sessionActivity.sessionId, current.id));
    const orgId = await policyOrgOf(tx, current.userId);
    const settings = orgId ? await readSecuritySettings(tx, orgId) : DEFAULT_SECURITY_SETTINGS;
    if (sessionEnd(settings, current.createdAt, activity?.at ?? current.lastSeenAt, now)) {
      await tx.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, current.id));
      return 'ended';
    }
    await tx.insert(retiredRefreshTokens).values({ refreshHash: current.refreshHash, sessionId: current.id, retiredAt: now });
    await tx.update(sessions).set({ ...pair.row, lastSeenAt: now }).where(eq(sessions.id, current.id));
    return true;
  });
  if (rotated === 'ended') throw new AppError(401, ERR.invalidRefreshToken);
  if (rotated) return tokenData(pair.access, pair.refresh);

  const [reused] = await db.select({ sessionId: retiredRefreshTokens.sessionId }).from(retiredRefreshTokens).where(eq(retiredRefreshTokens.refreshHash, presented));
  if (reused) await revokeSession(db, now, reused.sessionId);
  throw new AppError(401, ERR.invalidRefreshToken);
}

/** Ends a session: its access and refresh tokens stop working. */
export async function revokeSession(db: DbOrTx, now: Date, sessionId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/**
 * One row of the sign-in log (docs/product-rules.md#platform-logs) per attempt, refused or not. The row belongs to
 * the organisation of the person's account in use (or their first), so its administrators read it.
 */
async function recordSignIn(db: DbOrTx, now: Date, meta: ClientMeta, attempt: SignInAttempt, reason: string | null): Promise<void> {
  // A refusal before the account was looked up (the captcha) still belongs to the account typed, when it exists.
  // One statement whether or not the account was found, so a refusal's work does not tell which accounts exist.
  const user = sql`coalesce(${attempt.userId}::uuid, (select ${users.id} from ${users} where ${users.accountNum} = ${attempt.account} or ${users.mobile} = ${attempt.account}
        order by (${users.accountNum} = ${attempt.account}) desc limit 1))`;
  // App accounts (students, parents) have no membership: their school's administrators read their rows.
  const orgId = sql`coalesce((select ${memberships.tenantOrgId} from ${memberships} where ${memberships.userId} = ${user}
    order by ${memberships.present} desc, ${memberships.createdAt} limit 1),
    (select ${students.orgId} from ${students} where ${students.userId} = ${user} limit 1),
    (select ${parents.orgId} from ${parents} where ${parents.userId} = ${user} limit 1))`;
  await db.insert(signInLogs).values({
    at: now,
    account: attempt.account.slice(0, SIGN_IN_ACCOUNT_MAX),
    userId: user,
    orgId,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 500) ?? null,
    result: reason ? 'failure' : 'success',
    reason,
    sessionId: attempt.sessionId,
  });
}

/** The longest account text a sign-in log row keeps. */
const SIGN_IN_ACCOUNT_MAX = 64;
