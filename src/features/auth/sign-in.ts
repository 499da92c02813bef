// Loaded when the person signs in or a stored token is tried, not with the first screen: it brings the API client
// (axios) and the menu catalogue (docs/decisions/012-lean-first-screen.md).
import { sha256 } from '@/lib/sha256';
import { saveToken } from '@/lib/store';
import { login } from './api/login';
import { CHANGE_PASSWORD_PATH, completeSignIn, lastVisitedPath } from './session';

export interface Credentials {
  accountNum: string;
  password: string;
  code: string;
}

/** POST /api/sso/login with the SHA-256 password, then completeSignIn: answers the path to open, or null. */
export async function signInWithPassword(values: Credentials, randomStr: string, redirectTo?: string | null): Promise<string | null> {
  const token = await login({ accountNum: values.accountNum, password: sha256(values.password), code: values.code, randomStr });
  saveToken(token);
  // A password an administrator chose must be changed before anything else (docs/product-rules.md#users).
  if (token.must_change_password) return CHANGE_PASSWORD_PATH;
  return completeSignIn(redirectTo);
}

/** Automatic login with a token from the query string or storage (docs/product-rules.md#sign-in); rt or the last visited page wins. */
export async function signInWithToken(queryToken: string | null, rt: string | null): Promise<string | null> {
  if (queryToken) saveToken({ access_token: queryToken, token_type: 'bearer', expires_in: 0, refresh_token: '' });
  return completeSignIn(rt ?? lastVisitedPath());
}
