import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { ORG_TYPE } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { passwordPolicyIssue } from '@/domain/security/password-policy';
import {
  browserOf,
  normaliseRecoveryCode,
  RECOVERY_CODE_COUNT,
  SIGN_IN_CHALLENGE_TTL_MS,
  TOTP,
  TOTP_CODE,
  TOTP_ISSUER,
  type SecurityOverview,
  type TotpDisable,
  type TotpEnrolment,
} from '@/domain/security/two-factor';
import type { DbOrTx } from '../../db/client';
import { membershipRoles, memberships, roles, sessions, users } from '../../db/schema/auth';
import { orgs } from '../../db/schema/orgs';
import { signInLogs } from '../../db/schema/platform';
import { orgSecuritySettings, recoveryCodes, sessionActivity, signInChallenges, userTotp } from '../../db/schema/security';
import { platformSettings } from '../../db/schema/shell';
import { AppError } from '../../lib/app-error';
import { hashSecret, newToken } from '../../lib/tokens';
import { openSecret, sealSecret } from './secret-box';
import { readSecuritySettings } from './settings.service';

/**
 * The platform_settings key of the two-factor requirement for platform operators and district (management
 * organisation) administrators (docs/product-rules.md#sign-in-security). No row: required. The demo seed and the test
 * fixture store it off so their accounts sign in with a password alone.
 */
export const OPERATOR_TWO_FACTOR_KEY = 'twoFactorForManagement';

export async function operatorTwoFactorRequired(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ value: platformSettings.value }).from(platformSettings).where(eq(platformSettings.key, OPERATOR_TWO_FACTOR_KEY)).limit(1);
  return row ? row.value.required !== false : true;
}

/** Stores the management organisations' requirement (the demo seed and the test fixture turn it off). */
export async function setOperatorTwoFactorRequired(db: DbOrTx, required: boolean, now = new Date()): Promise<void> {
  const value = { required };
  await db
    .insert(platformSettings)
    .values({ key: OPERATOR_TWO_FACTOR_KEY, value, updatedAt: now })
    .onConflictDoUpdate({ target: platformSettings.key, set: { value, updatedAt: now, version: sql`${platformSettings.version} + 1` } });
}

/**
 * Whether a user must sign in with a second factor: an administrator (a role of identity administrator on an enabled
 * account) of a management organisation while the platform requires it, or of an organisation whose settings require
 * it of its administrators.
 */
export async function twoFactorRequired(db: DbOrTx, userId: string): Promise<boolean> {
  const admin = await db
    .selectDistinct({ orgId: memberships.tenantOrgId, type: orgs.type, required: sql<boolean | null>`(${orgSecuritySettings.value} ->> 'totpRequiredForAdministrators')::boolean` })
    .from(memberships)
    .innerJoin(membershipRoles, eq(membershipRoles.membershipId, memberships.id))
    .innerJoin(roles, and(eq(roles.id, membershipRoles.roleId), eq(roles.identity, 'administrator')))
    .innerJoin(orgs, eq(orgs.id, memberships.tenantOrgId))
    .leftJoin(orgSecuritySettings, eq(orgSecuritySettings.orgId, memberships.tenantOrgId))
    .where(and(eq(memberships.userId, userId), eq(memberships.enabled, true)));
  if (admin.some((a) => a.required === true)) return true;
  if (admin.some((a) => a.type === ORG_TYPE.management)) return operatorTwoFactorRequired(db);
  return false;
}

async function confirmedTotp(db: DbOrTx, userId: string) {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId)).limit(1);
  return row?.confirmedAt ? row : null;
}

export async function hasTwoFactor(db: DbOrTx, userId: string): Promise<boolean> {
  return (await confirmedTotp(db, userId)) !== null;
}

const totpOf = (secret: string, label: string) =>
  new OTPAuth.TOTP({ issuer: TOTP_ISSUER, label, algorithm: TOTP.algorithm, digits: TOTP.digits, period: TOTP.period, secret: OTPAuth.Secret.fromBase32(secret) });

/** The time step a code belongs to (±1 step of now), or null when it matches none. */
function matchStep(secret: string, code: string, now: Date): number | null {
  const delta = totpOf(secret, '').validate({ token: code, timestamp: now.getTime(), window: TOTP.window });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / TOTP.period) + delta;
}

/**
 * Starts (or restarts) an enrolment: a new secret, stored sealed and pending until a code confirms it. The secret is
 * answered this once, for the QR code and the text an app can type. Refused while two-factor is on.
 */
export async function startEnrolment(db: DbOrTx, userId: string, now: Date): Promise<TotpEnrolment> {
  const [user] = await db.select({ accountNum: users.accountNum }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError(401, ERR.sessionExpired);
  if (await confirmedTotp(db, userId)) throw new AppError(409, 'security:twoFactor.alreadyOn');
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  const sealed = sealSecret(secret);
  await db
    .insert(userTotp)
    .values({ userId, secret: sealed, createdAt: now })
    .onConflictDoUpdate({ target: userTotp.userId, set: { secret: sealed, confirmedAt: null, lastStep: null, createdAt: now } });
  return { secret, uri: totpOf(secret, user.accountNum).toString() };
}

/** Ten new recovery codes (two groups of five readable characters); only their hashes are stored. */
async function newRecoveryCodes(db: DbOrTx, userId: string): Promise<string[]> {
  const READABLE = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let s = '';
    for (let i = 0; i < 10; i++) s += READABLE[randomInt(READABLE.length)];
    return `${s.slice(0, 5)}-${s.slice(5)}`;
  });
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashSecret(normaliseRecoveryCode(c)) })));
  return codes;
}

/**
 * Confirms a pending enrolment with a code of the new secret: two-factor is on, the recovery codes are answered once,
 * and the user's sessions that could only enrol become ordinary ones (the sessions update bumps the auth epoch, so every
 * instance's cached gate goes).
 */
export async function confirmEnrolment(tx: DbOrTx, userId: string, code: string, now: Date): Promise<string[]> {
  const [row] = await tx.select().from(userTotp).where(eq(userTotp.userId, userId)).limit(1);
  if (!row) throw new AppError(409, 'security:twoFactor.noEnrolment');
  if (row.confirmedAt) throw new AppError(409, 'security:twoFactor.alreadyOn');
  const step = matchStep(openSecret(row.secret), code, now);
  if (step === null) throw new AppError(400, 'security:twoFactor.codeWrong');
  await tx.update(userTotp).set({ confirmedAt: now, lastStep: step }).where(eq(userTotp.userId, userId));
  const codes = await newRecoveryCodes(tx, userId);
  const due = tx.select({ id: sessionActivity.sessionId }).from(sessionActivity).innerJoin(sessions, eq(sessions.id, sessionActivity.sessionId)).where(and(eq(sessions.userId, userId), eq(sessionActivity.enrolmentDue, true)));
  const ids = (await due).map((r) => r.id);
  if (ids.length) {
    await tx.update(sessionActivity).set({ enrolmentDue: false }).where(inArray(sessionActivity.sessionId, ids));
    await tx.update(sessions).set({ lastSeenAt: now }).where(inArray(sessions.id, ids));
  }
  return codes;
}

/**
 * Checks a second factor of a user with two-factor on: an app code of a time step later than the last accepted one
 * (a code seen once is refused again: replay), or an unused recovery code (used up by this). False when neither.
 */
export async function acceptSecondFactor(db: DbOrTx, userId: string, code: string, now: Date): Promise<boolean> {
  const row = await confirmedTotp(db, userId);
  if (!row) return false;
  if (TOTP_CODE.test(code)) {
    const step = matchStep(openSecret(row.secret), code, now);
    if (step === null) return false;
    // One statement decides, so two requests with the same code cannot both pass.
    const taken = await db
      .update(userTotp)
      .set({ lastStep: step })
      .where(and(eq(userTotp.userId, userId), or(isNull(userTotp.lastStep), lt(userTotp.lastStep, step))))
      .returning({ userId: userTotp.userId });
    return taken.length === 1;
  }
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashSecret(normaliseRecoveryCode(code))), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length === 1;
}

/** Turns two-factor off (the password and a code checked by the caller): refused while the person must have it. */
export async function disableTwoFactor(tx: DbOrTx, userId: string): Promise<void> {
  if (await twoFactorRequired(tx, userId)) throw new AppError(409, 'security:twoFactor.requiredCannotDisable');
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.delete(userTotp).where(eq(userTotp.userId, userId));
}
export type { TotpDisable };

/** A sign-in waiting for its code: the challenge token answered to the password step. */
export async function openChallenge(db: DbOrTx, userId: string, now: Date, meta: { ip?: string; userAgent?: string }): Promise<string> {
  const token = newToken();
  await db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, now));
  await db.insert(signInChallenges).values({ tokenHash: hashSecret(token), userId, expiresAt: new Date(now.getTime() + SIGN_IN_CHALLENGE_TTL_MS), meta: { ip: meta.ip, userAgent: meta.userAgent?.slice(0, 500) } });
  return token;
}

/** The user of a live challenge (it stays until the code is right, the lock ends it, or it expires), or null. */
export async function challengeUser(db: DbOrTx, token: string, now: Date): Promise<string | null> {
  const [row] = await db
    .select({ userId: signInChallenges.userId })
    .from(signInChallenges)
    .where(and(eq(signInChallenges.tokenHash, hashSecret(token)), gt(signInChallenges.expiresAt, now)))
    .limit(1);
  return row?.userId ?? null;
}

export async function closeChallenges(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(signInChallenges).where(eq(signInChallenges.userId, userId));
}

/** Marks a new session as one that may only enrol two-factor sign-in (and records its first activity). */
export async function markEnrolmentDue(db: DbOrTx, sessionId: string, now: Date): Promise<void> {
  await db.insert(sessionActivity).values({ sessionId, lastActiveAt: now, enrolmentDue: true }).onConflictDoUpdate({ target: sessionActivity.sessionId, set: { enrolmentDue: true } });
}

/** The policy's check of a new password for the organisation whose settings apply; throws its message. */
export async function assertPasswordPolicy(db: DbOrTx, orgId: string | null, password: string): Promise<void> {
  if (!orgId) return;
  const issue = passwordPolicyIssue(password, await readSecuritySettings(db, orgId));
  if (issue) {
    const s = await readSecuritySettings(db, orgId);
    throw new AppError(400, issue, { min: s.passwordMinLength, classes: s.passwordClasses });
  }
}

/** The organisation whose settings apply to a user: the tenant of their account in use, else their first. */
export async function policyOrgOf(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ orgId: memberships.tenantOrgId })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(desc(memberships.present), memberships.createdAt)
    .limit(1);
  return row?.orgId ?? null;
}

/** How many recent sign-ins the personal centre lists. */
const RECENT_SIGN_INS = 10;

/** The personal centre's security overview of a user (docs/product-rules.md#sign-in-security). */
export async function securityOverview(db: DbOrTx, userId: string): Promise<SecurityOverview> {
  const totp = await confirmedTotp(db, userId);
  const [left] = totp
    ? await db.select({ n: sql<number>`count(*)::int` }).from(recoveryCodes).where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
    : [{ n: 0 }];
  const orgId = await policyOrgOf(db, userId);
  const settings = orgId ? await readSecuritySettings(db, orgId) : null;
  const rows = await db
    .select({ at: signInLogs.at, ip: signInLogs.ip, userAgent: signInLogs.userAgent, result: signInLogs.result })
    .from(signInLogs)
    .where(eq(signInLogs.userId, userId))
    .orderBy(desc(signInLogs.at))
    .limit(RECENT_SIGN_INS);
  return {
    enabled: totp !== null,
    required: await twoFactorRequired(db, userId),
    recoveryCodesLeft: left.n,
    passwordMinLength: settings?.passwordMinLength ?? 6,
    passwordClasses: settings?.passwordClasses ?? 1,
    signIns: rows.map((r) => ({ at: r.at.toISOString(), ip: r.ip, browser: browserOf(r.userAgent), success: r.result === 'success' })),
  };
}

/** The user's successful sign-in before the one that opened `sessionId`, for the "last signed in" notice. */
export async function previousSignIn(db: DbOrTx, userId: string, sessionId: string | null) {
  const [row] = await db
    .select({ at: signInLogs.at, ip: signInLogs.ip, userAgent: signInLogs.userAgent })
    .from(signInLogs)
    .where(and(eq(signInLogs.userId, userId), eq(signInLogs.result, 'success'), sessionId ? sql`${signInLogs.sessionId} is distinct from ${sessionId}` : sql`true`))
    .orderBy(desc(signInLogs.at))
    .limit(1);
  return row ? { at: row.at.toISOString(), ip: row.ip, browser: browserOf(row.userAgent) } : null;
}
