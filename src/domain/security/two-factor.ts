import { z } from 'zod';
import '../fields';
import { SHA256_HEX } from '../auth/schemas';

/**
 * Two-factor sign-in (docs/product-rules.md#sign-in-security): TOTP of RFC 6238 as every authenticator app computes it
 * (SHA-1, 6 digits, 30-second steps), one step either side accepted for clock drift, and single-use recovery codes.
 */
export const TOTP = { algorithm: 'SHA1', digits: 6, period: 30, window: 1 } as const;
/** Recovery codes handed out at enrolment, each good for one sign-in. */
export const RECOVERY_CODE_COUNT = 10;
/** The issuer an authenticator app shows beside the account. */
export const TOTP_ISSUER = 'tiyu';
/** How long the code step of a sign-in waits after the password step. */
export const SIGN_IN_CHALLENGE_TTL_MS = 5 * 60_000;

/** A six-digit code from the app. */
export const TOTP_CODE = /^\d{6}$/;
/** A recovery code as handed out: two groups of five readable characters. */
export const RECOVERY_CODE = /^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/;

/** Recovery codes are compared without case and hyphen: what a person may retype differently. */
export const normaliseRecoveryCode = (code: string): string => code.replace(/-/g, '').toUpperCase();

const codeField = z
  .string({ error: 'security:twoFactor.codeRequired' })
  .trim()
  .min(1, 'security:twoFactor.codeRequired')
  .regex(TOTP_CODE, 'security:twoFactor.codeFormat');

/** The app's code or a recovery code (the sign-in code step and turning two-factor off accept either). */
const secondFactorField = z
  .string({ error: 'security:twoFactor.codeRequired' })
  .trim()
  .min(1, 'security:twoFactor.codeRequired')
  .refine((v) => TOTP_CODE.test(v) || RECOVERY_CODE.test(v), 'security:twoFactor.codeFormat');

/** The sign-in's code step: the challenge the password step answered and the code. */
export const loginTotpRequestSchema = z.object({
  challenge: z.string({ error: 'errors:sessionExpired' }).min(16, 'errors:sessionExpired').max(128, 'errors:sessionExpired'),
  code: secondFactorField,
});
export type LoginTotpRequest = z.infer<typeof loginTotpRequestSchema>;

/** The code form of the sign-in screen (same rule as the request). */
export const totpCodeFormSchema = z.object({ code: secondFactorField });

/** Confirming an enrolment: a code the app computed from the new secret. */
export const totpConfirmSchema = z.object({ code: codeField });
export type TotpConfirm = z.infer<typeof totpConfirmSchema>;

/** Turning two-factor off: the password (its SHA-256 hex, as at sign-in) and a code. */
export const totpDisableSchema = z.object({
  password: z.string({ error: 'validation:login.passwordRequired' }).regex(SHA256_HEX, 'validation:login.passwordRequired'),
  code: secondFactorField,
});
export type TotpDisable = z.infer<typeof totpDisableSchema>;

/** The enrolment's secret, shown once while it is pending (never again after confirmation). */
export const totpEnrolmentSchema = z.object({ secret: z.string(), uri: z.string() });
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** A sign-in as the person's own list shows it. */
export const signInEntrySchema = z.object({
  at: z.string(),
  ip: z.string().nullable(),
  browser: z.string().nullable(),
  success: z.boolean(),
});
export type SignInEntry = z.infer<typeof signInEntrySchema>;

/** The successful sign-in before the current session's (null on the first): the notice after signing in. */
export const lastSignInSchema = z.object({ at: z.string(), ip: z.string().nullable(), browser: z.string().nullable() }).nullable();
export type LastSignIn = z.infer<typeof lastSignInSchema>;

/** myInfo.security: the caller's two-factor state, the password policy that applies and recent sign-ins. */
export const securityOverviewSchema = z.object({
  enabled: z.boolean(),
  required: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  passwordMinLength: z.number().int(),
  passwordClasses: z.number().int(),
  signIns: z.array(signInEntrySchema),
});
export type SecurityOverview = z.infer<typeof securityOverviewSchema>;

/**
 * The browser of a user agent in a few words ("Chrome 126", "WeChat"), or null. Order matters: Edge and WeChat
 * carry "Chrome"/"Safari" in their strings too.
 */
export function browserOf(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const rules: [RegExp, string][] = [
    [/MicroMessenger\/([\d]+)/, 'WeChat'],
    [/Edg(?:e|A|iOS)?\/([\d]+)/, 'Edge'],
    [/Firefox\/([\d]+)/, 'Firefox'],
    [/(?:Chrome|CriOS)\/([\d]+)/, 'Chrome'],
    [/Version\/([\d]+).*Safari\//, 'Safari'],
  ];
  for (const [re, name] of rules) {
    const m = re.exec(userAgent);
    if (m) return `${name} ${m[1]}`;
  }
  return userAgent.slice(0, 40);
}
