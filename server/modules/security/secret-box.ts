import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encrypts secrets kept for later use (TOTP secrets) with AES-256-GCM. The key is the SHA-256 of TIYU_SECRET_KEY; a
 * deployment must set it (docs/decisions/060-two-factor-and-session-policy.md). Without it a development key is used, so
 * a copied database alone still does not show the secrets in clear to a casual reader, but it protects nothing more.
 */
const key = () => createHash('sha256').update(process.env.TIYU_SECRET_KEY || 'tiyu-development-secret-key').digest();

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function sealSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function openSecret(sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !body) throw new Error('unknown sealed secret format');
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
