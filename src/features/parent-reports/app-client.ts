import { SUCCESS_CODE, type Envelope } from '@/domain/api';
import type { TokenData } from '@/domain/auth/types';
import { PLATFORM, REQUEST_TIMEOUT_MS } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { acceptLanguage, i18next } from '@/lib/i18n';
import { sha256 } from '@/lib/sha256';

/**
 * The app API (/api/v1/app, docs/decisions/016-ingest-api.md) as the parents' mobile page calls it: its own bearer
 * token, kept in this tab's sessionStorage apart from the console's sign-in, so a parent's session never becomes a
 * console session and a 401 here never sends anyone to the console's login screen. A fetch of its own, like the wall's.
 */
const TOKEN_KEY = 'tiyu.app.token';

export class AppApiError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'AppApiError';
    this.status = status;
  }
}

export const appToken = (): string | null => sessionStorage.getItem(TOKEN_KEY);
export const forgetAppToken = (): void => sessionStorage.removeItem(TOKEN_KEY);

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const token = appToken();
  let res: Response;
  try {
    res = await fetch(`/api/v1/app/${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'accept-language': acceptLanguage(),
        platform: PLATFORM,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      credentials: 'omit',
      cache: 'no-store',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch {
    throw new AppApiError(i18next.t(ERR.network), 0);
  }
  let envelope: Partial<Envelope<T>> | null = null;
  try {
    envelope = (await res.json()) as Partial<Envelope<T>>;
  } catch {
    /* not JSON: a proxy's error page */
  }
  if (res.ok && envelope && String(envelope.code) === SUCCESS_CODE) return envelope.data as T;
  if (res.status === 401) forgetAppToken();
  throw new AppApiError(envelope?.msg || i18next.t(res.status >= 500 ? ERR.server : ERR.network), res.status);
}

export const appGet = <T>(path: string) => call<T>('GET', path);
export const appPost = <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {});

/** POST /api/v1/app/login (the password goes as its SHA-256, as the console's sign-in sends it); keeps the token. */
export async function appSignIn(account: string, password: string): Promise<void> {
  const token = await call<TokenData>('POST', 'login', { account, password: sha256(password) });
  sessionStorage.setItem(TOKEN_KEY, token.access_token);
}

export async function appSignOut(): Promise<void> {
  try {
    await call('POST', 'logout', {});
  } finally {
    forgetAppToken();
  }
}
