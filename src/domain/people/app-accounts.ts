/**
 * App accounts of students and parents (docs/product-rules.md#app-accounts): their own sign-in for the student/parent
 * app API, given from the student and parent screens. The login account is the student's registration number or the
 * parent's mobile; the first password is generated, shown once and must be changed at the first sign-in. Enable,
 * disable and password reset follow the console accounts' rules (`src/domain/users/users.ts`).
 */
export interface AppAccount {
  accountNum: string;
  enabled: boolean;
}

/** The answer of giving an account: its login and the one-time password (shown once, never stored in clear). */
export interface AppAccountGiven {
  accountNum: string;
  password: string;
}
