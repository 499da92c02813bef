// Loaded when the person signs in or a stored token is tried, not with the first screen: it brings the API client
// (axios) and the menu catalogue (docs/decisions/012-lean-first-screen.md).
import { sha256 } from '@/lib/sha256';
import { saveToken } from '@/lib/store';
import type { TokenData } from '@/domain/auth/types';
import { login, loginTotp } from './api/login';
import { showLastSignInSoon } from './last-sign-in';
import { CHANGE_PASSWORD_PATH, completeSignIn, ENROL_TWO_FACTOR_PATH, lastVisitedPath } from './session';

export interface Credentials {
  accountNum: string;
  password: string;
  code: string;
}

/** The password step's outcome: the path to open (null: stay), or the code step of two-factor sign-in. */
export type PasswordStep = string | null | { totpChallenge: string };

/** POST /api/sso/login with the SHA-256 password, then completeSignIn: answers the path to open, null, or the code step. */
export async function signInWithPassword(values: Credentials, randomStr: string, redirectTo?: string | null): Promise<PasswordStep> {
  const answer = await login({ accountNum: values.accountNum, password: sha256(values.password), code: values.code, randomStr });
  // Two-factor sign-in (docs/product-rules.md#sign-in-security): no session until the code step.
  if ('totp_challenge' in answer) return { totpChallenge: answer.totp_challenge };
  return afterTokens(answer, redirectTo);
}

/** POST /api/sso/login/totp: the code step of a two-factor sign-in; answers the path to open, or null. */
export async function signInWithTotp(challenge: string, code: string, redirectTo?: string | null): Promise<string | null> {
  return afterTokens(await loginTotp({ challenge, code }), redirectTo);
}

async function afterTokens(token: TokenData, redirectTo?: string | null): Promise<string | null> {
  saveToken(token);
  // A password an administrator chose must be changed before anything else (docs/product-rules.md#users).
  if (token.must_change_password) return CHANGE_PASSWORD_PATH;
  // An account that must use two-factor sign-in enrols before anything else (docs/product-rules.md#sign-in-security).
  if (token.must_enrol_totp) return ENROL_TWO_FACTOR_PATH;
  const path = await completeSignIn(redirectTo);
  if (path) showLastSignInSoon();
  return path;
}

/** Automatic login with a token from the query string or storage (docs/product-rules.md#sign-in); rt or the last visited page wins. */
export async function signInWithToken(queryToken: string | null, rt: string | null): Promise<string | null> {
  if (queryToken) saveToken({ access_token: queryToken, token_type: 'bearer', expires_in: 0, refresh_token: '' });
  return completeSignIn(rt ?? lastVisitedPath());
}
