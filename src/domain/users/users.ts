import { z } from 'zod';
import { initialPasswordSchema, loginAccountSchema, mobileSchema, newPasswordSchema } from '../auth/schemas';
import { enumFilter, formBoolean, requiredId } from '../fields';
import { idFilter, listQuery, textFilter, versionField } from '../list-query';

/**
 * The management organisation's own accounts (docs/product-rules.md#users): name, login account (unique across the
 * system, as sign-in needs), mobile, role of the organisation, status; passwords an administrator chooses (a new
 * account's, a reset) must be changed at the next sign-in.
 */

export const USER_NAME_MAX = 30;
/** Length of a generated one-time password (within the 6–20 rule). */
export const ONE_TIME_PASSWORD_LENGTH = 10;

const userFields = {
  name: z.string().trim().min(1, 'validation:user.nameRequired').max(USER_NAME_MAX, 'validation:user.nameLength'),
  accountNum: loginAccountSchema,
  mobile: z.union([z.literal(''), mobileSchema]),
  roleId: requiredId('validation:user.roleRequired'),
  /** A boolean; the form's radio sends 'true' / 'false'. */
  enabled: formBoolean,
};

/** Adding an account: the administrator sets its first password. */
export const userCreateSchema = z.object({ ...userFields, password: initialPasswordSchema }).strict();
/** Editing an account: the password is reset on its own, never here. */
export const userUpdateSchema = z.object({ ...userFields, version: versionField.optional() }).strict();
export type UserCreate = z.output<typeof userCreateSchema>;
export type UserUpdate = z.output<typeof userUpdateSchema>;
export type UserForm = z.input<typeof userCreateSchema> & { version?: number };

export const userListQuery = listQuery({
  keyword: textFilter(),
  roleId: idFilter,
  enabled: enumFilter(['true', 'false']),
});

export const userStatusSchema = z.object({ enabled: z.boolean() });

/** Reset: generate a one-time password (shown once), or set the one the administrator typed. */
export const resetPasswordSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('generate') }),
  z.object({ mode: z.literal('set'), password: newPasswordSchema }),
]);
export type ResetPassword = z.output<typeof resetPasswordSchema>;

/** The reset's answer: the generated password, only when one was generated (never stored in clear or logged). */
export const resetPasswordResultSchema = z.object({ password: z.string().nullable().describe('The generated password, shown once; null when the administrator chose it') });
export type ResetPasswordResult = z.output<typeof resetPasswordResultSchema>;

/** One account of the organisation (the list row and the edit form's record). */
export const userRowSchema = z.object({
  id: z.string().describe('The account (membership) id'),
  userId: z.string(),
  name: z.string(),
  accountNum: z.string(),
  mobile: z.string().nullable().describe('Masked (138****0000) without the page\'s "view sensitive fields" button'),
  roleId: z.string().nullable(),
  roleName: z.string().nullable(),
  enabled: z.boolean(),
  mustChangePassword: z.boolean(),
  createdAt: z.string().describe('ISO instant'),
  version: z.number().int(),
});
export type UserRow = z.output<typeof userRowSchema>;

/** The user form's choices: the tenant's enabled roles. */
export const userFormOptionsSchema = z.object({ roles: z.array(z.object({ id: z.string(), name: z.string(), identity: z.string().describe('administrator, teacher, student or parent') })) });
