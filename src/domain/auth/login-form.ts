// zod/mini: the login screen is the first screen, and this form is all it validates (docs/decisions/012-lean-first-screen.md).
import * as z from 'zod/mini';

/** Letters, digits and ASCII special symbols only; no Chinese or other characters (docs/product-rules.md#sign-in). */
export const PASSWORD_CHARS = /^[\x21-\x7e]+$/;

/** The login form as the person types it (docs/product-rules.md#sign-in). */
export const loginFormSchema = z.object({
  accountNum: z.string().check(z.trim(), z.minLength(1, 'validation:login.usernameRequired')),
  password: z.string().check(z.minLength(1, 'validation:login.passwordRequired'), z.regex(PASSWORD_CHARS, 'validation:login.passwordFormat')),
  code: z.string().check(z.trim(), z.minLength(1, 'validation:login.codeRequired')),
});
export type LoginForm = z.infer<typeof loginFormSchema>;
