import { post } from '@/lib/api-client';

/** POST /api/sso/oauth/logout: revokes the bearer token on the server. An expired token needs no warning. */
export function logout(): Promise<unknown> {
  return post<unknown>('/api/sso/oauth/logout', undefined, undefined, { skipAuthRedirect: true });
}
