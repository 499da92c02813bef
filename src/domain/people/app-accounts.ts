import { z } from 'zod';
// The domain's zod error map (unnamed issues answer i18n keys).
import '../fields';

/**
 * App accounts of students and parents (docs/product-rules.md#app-accounts): their own sign-in for the student/parent
 * app API, given from the student and parent screens. The login account is the student's registration number or the
 * parent's mobile; the first password is generated, shown once and must be changed at the first sign-in. Enable,
 * disable and password reset follow the console accounts' rules (`src/domain/users/users.ts`).
 */
export const appAccountSchema = z.object({ accountNum: z.string(), enabled: z.boolean() });
export type AppAccount = z.output<typeof appAccountSchema>;

/** The answer of giving an account: its login and the one-time password (shown once, never stored in clear). */
export const appAccountGivenSchema = z.object({ accountNum: z.string(), password: z.string().describe('The one-time password, shown once') });
export type AppAccountGiven = z.output<typeof appAccountGivenSchema>;
