import { SUCCESS_CODE, type Envelope } from '@/domain/api';
import { PLATFORM, REQUEST_TIMEOUT_MS } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { acceptLanguage, i18next } from '@/lib/i18n';

/** A failed wall call: `status` 0 when the server could not be reached. */
export class WallError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'WallError';
    this.status = status;
  }
}

/**
 * The link was refused for good (unknown token 401, revoked 410): nothing to retry, the wall says so. Any other
 * failure (network, 5xx, rate limit) is passing and retried.
 */
export function isRefusal(error: unknown): boolean {
  return error instanceof WallError && (error.status === 401 || error.status === 410 || error.status === 403);
}

/**
 * GET of the public wall API. Deliberately not the console's axios client: the wall has no session, must send no
 * stored credentials, and a 401 here means "bad link", not "sign in again".
 */
export async function wallGet<T>(path: string, signal?: AbortSignal): Promise<T> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(path, {
      headers: { accept: 'application/json', 'accept-language': acceptLanguage(), platform: PLATFORM },
      credentials: 'omit',
      cache: 'no-store',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch {
    throw new WallError(i18next.t(ERR.network), 0);
  }
  let body: Partial<Envelope<T>> | null = null;
  try {
    body = (await res.json()) as Partial<Envelope<T>>;
  } catch {
    /* not JSON: a proxy's error page */
  }
  if (res.ok && body && String(body.code) === SUCCESS_CODE) return body.data as T;
  const message = body?.msg || i18next.t(res.status >= 500 ? ERR.server : ERR.network);
  throw new WallError(message, res.status || 0);
}
