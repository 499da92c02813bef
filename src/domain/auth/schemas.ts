import { z } from 'zod';
// The domain's zod error map (unnamed issues answer i18n keys), installed wherever a schema is built.
import '../fields';
import { ACCOUNT_MAX, ACCOUNT_MIN, PASSWORD_MAX, PASSWORD_MIN } from '../constants';
import { PASSWORD_CHARS } from './login-form';

export { loginFormSchema, PASSWORD_CHARS, type LoginForm } from './login-form';

/** Login account: 6–20 digits and/or letters (docs/product-rules.md#users). */
export const ACCOUNT_CHARS = /^[A-Za-z0-9]+$/;
/** Mainland mobile number. */
export const MOBILE = /^1[3-9]\d{9}$/;
/** Lowercase SHA-256 hex, as the login form sends the password (docs/product-rules.md#sign-in). */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The login request on the wire: the password arrives as its SHA-256 hex (docs/product-rules.md#sign-in, #calls). */
export const loginRequestSchema = z.object({
  accountNum: z.string({ error: 'validation:login.usernameRequired' }).trim().min(1, 'validation:login.usernameRequired'),
  password: z.string({ error: 'validation:login.passwordRequired' }).regex(SHA256_HEX, 'validation:login.passwordRequired'),
  code: z.string({ error: 'validation:login.codeRequired' }).trim().min(1, 'validation:login.codeRequired'),
  randomStr: z.string({ error: 'errors:captchaExpired' }).min(8, 'errors:captchaExpired').max(64, 'errors:captchaExpired'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/**
 * The login body as the server accepts it: `username` is an alias of `accountNum` (docs/product-rules.md#calls),
 * so older clients sending `username` sign in too. The value is an account number or a mobile.
 */
export const loginWireSchema = z.preprocess((raw) => {
  if (raw && typeof raw === 'object' && !('accountNum' in raw) && 'username' in raw) {
    const { username, ...rest } = raw as Record<string, unknown>;
    return { ...rest, accountNum: username };
  }
  return raw;
}, loginRequestSchema);

export const refreshRequestSchema = z.object({
  refresh_token: z.string({ error: 'errors:invalidRefreshToken' }).min(16, 'errors:invalidRefreshToken'),
});

/** The captcha request: `randomStr` is the client's key for the answer (docs/product-rules.md#sign-in, #calls). */
export const captchaQuerySchema = z.object({
  randomStr: z.string({ error: 'errors:captchaFetch' }).min(8, 'errors:captchaFetch').max(64, 'errors:captchaFetch'),
});

/** A new password: 6–20 characters of letters, digits and symbols (docs/product-rules.md#limits). */
const passwordRules = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .min(PASSWORD_MIN, 'validation:password.length')
    .max(PASSWORD_MAX, 'validation:password.length')
    .regex(PASSWORD_CHARS, 'validation:login.passwordFormat');

export const newPasswordSchema = passwordRules('validation:password.newRequired');

/** The first password an administrator sets for a new account (staff, users): the same rules, its own "required". */
export const initialPasswordSchema = passwordRules('validation:password.initialRequired');

/** A new password must differ from the current one; the server checks it against the SHA-256 the wire carries. */
export const PASSWORD_SAME_AS_OLD = 'validation:password.sameAsOld';

/** Change password form (personal centre editAccount, docs/product-rules.md#limits). */
export const changePasswordFormSchema = z
  .object({
    oldPassword: z.string().min(1, 'validation:password.oldRequired'),
    newPassword: newPasswordSchema,
    confirmPassword: z.string().min(1, 'validation:password.confirmRequired'),
  })
  .refine((v) => v.newPassword !== v.oldPassword, {
    path: ['newPassword'],
    message: PASSWORD_SAME_AS_OLD,
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'validation:password.mismatch',
  });
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;

/**
 * Change password on the wire: the old password as SHA-256 hex (as at login), the new one in
 * clear (over TLS) so the server can enforce the same length and character rules itself.
 */
export const changePasswordRequestSchema = z.object({
  oldPassword: z.string().regex(SHA256_HEX, 'validation:password.oldRequired'),
  newPassword: newPasswordSchema,
});

/** Login account rule for staff and administrators (docs/product-rules.md#users). */
export const loginAccountSchema = z
  .string()
  .min(ACCOUNT_MIN, 'validation:account.length')
  .max(ACCOUNT_MAX, 'validation:account.length')
  .regex(ACCOUNT_CHARS, 'validation:account.format');

export const mobileSchema = z.string().regex(MOBILE, 'validation:mobile.format');

/** Personal profile form (personal centre editUser). */
export const profileFormSchema = z.object({
  userName: z.string().trim().min(1, 'validation:profile.nameRequired').max(30, 'validation:profile.nameLength'),
  mobile: z.union([z.literal(''), mobileSchema]),
  gender: z.enum(['male', 'female', 'unknown']),
});
export type ProfileForm = z.infer<typeof profileFormSchema>;

export const switchRoleSchema = z.object({
  accountId: z.string().min(1),
  roleId: z.string().min(1),
  tenantOrgId: z.string().min(1),
});
export const switchOrgSchema = z.object({
  orgId: z.string().min(1),
  tenantOrgId: z.string().min(1),
});
