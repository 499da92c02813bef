import type { LoginRequest } from '@/domain/auth/schemas';
import type { TokenData, TotpChallenge } from '@/domain/auth/types';
import { post } from '@/lib/api-client';

/** POST /api/sso/login: the password travels as its SHA-256 hex (docs/product-rules.md#sign-in, #calls). */
export function login(body: LoginRequest): Promise<TokenData | TotpChallenge> {
  return post<TokenData | TotpChallenge>('/api/sso/login', body);
}

/** POST /api/sso/login/totp: the code step of a two-factor sign-in (docs/product-rules.md#sign-in-security). */
export function loginTotp(body: { challenge: string; code: string }): Promise<TokenData> {
  return post<TokenData>('/api/sso/login/totp', body);
}
