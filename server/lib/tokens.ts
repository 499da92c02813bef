import { randomBytes } from 'node:crypto';
import { sha256Hex } from './password';

/** A new bearer or refresh token: 32 random bytes, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 hex of a token or captcha answer: only this is stored, so a leaked table grants nothing. */
export function hashSecret(value: string): string {
  return sha256Hex(value);
}
