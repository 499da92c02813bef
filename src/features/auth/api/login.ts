import type { LoginRequest } from '@/domain/auth/schemas';
import type { TokenData } from '@/domain/auth/types';
import { post } from '@/lib/api-client';

/** POST /api/sso/login: the password travels as its SHA-256 hex (docs/product-rules.md#sign-in, #calls). */
export function login(body: LoginRequest): Promise<TokenData> {
  return post<TokenData>('/api/sso/login', body);
}
