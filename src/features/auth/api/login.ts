import type { LoginRequest } from '@/domain/auth/schemas';
import type { TokenData } from '@/domain/auth/types';
import { post } from '@/lib/api-client';

/** POST /api/sso/login: the password travels as its SHA-256 hex (spec §3, §7). */
export function login(body: LoginRequest): Promise<TokenData> {
  return post<TokenData>('/api/sso/login', body);
}
