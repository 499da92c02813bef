import { hash, randomBytes, scrypt, timingSafeEqual, type BinaryLike, type ScryptOptions } from 'node:crypto';

/**
 * Password storage (docs/product-rules.md#sign-in: the browser sends the SHA-256 hex of the typed password).
 * We store scrypt of that hex so a leaked table reveals neither the password nor a replayable hash.
 */
/** scrypt's cost of every new hash in production (tests/server/db/password.test.ts holds it). */
const N = 16384;
/**
 * The cost of new hashes: N, unless the server tests lowered it (tests/support/server-setup.ts) so that the hundreds
 * of accounts their imports and seeds create do not each cost a production hash. A stored hash carries its own cost,
 * so what verifies it does not change. No module of the server calls the setter (tests/server/db/password.test.ts).
 */
let cost = N;
/** Tests only: the scrypt cost of new hashes (a power of two); null restores production's. */
export function setPasswordCostForTests(n: number | null): void {
  cost = n ?? N;
}
const R = 8;
const P = 1;
const KEY_LEN = 32;
const SALT_LEN = 16;
const PREFIX = 'scrypt';
/** Upper bound of scrypt memory accepted from a stored hash (N=16384, r=8 needs 16 MiB). */
const MAX_MEM = 64 * 1024 * 1024;

function scryptAsync(secret: BinaryLike, salt: BinaryLike, keyLen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, keyLen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Lower-case SHA-256 hex of a UTF-8 string: what the browser sends as `password`. */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** Hashes the browser's SHA-256 hex into `scrypt$N$r$p$<salt b64>$<hash b64>` (N=16384, r=8, p=1, 16-byte salt). */
export async function hashPassword(sha256HexPassword: string): Promise<string> {
  const salt = randomBytes(SALT_LEN);
  const key = await scryptAsync(sha256HexPassword, salt, KEY_LEN, { N: cost, r: R, p: P });
  return [PREFIX, cost, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Checks the browser's SHA-256 hex against a stored hash in constant time; false for malformed hashes. */
export async function verifyPassword(sha256HexPassword: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return false;
  const [, nStr, rStr, pStr, saltB64, hashB64] = parts;
  const n = Number(nStr);
  const r = Number(rStr);
  const p = Number(pStr);
  // Bounds keep a tampered row from turning a sign-in into a memory or CPU bomb.
  const valid = Number.isInteger(n) && Number.isInteger(r) && Number.isInteger(p) && n >= 2 && (n & (n - 1)) === 0 && r >= 1 && p >= 1 && p <= 16;
  if (!valid || 128 * n * r > MAX_MEM) return false;
  const salt = Buffer.from(saltB64, 'base64');
  const expected = Buffer.from(hashB64, 'base64');
  if (salt.length === 0 || expected.length === 0) return false;
  const actual = await scryptAsync(sha256HexPassword, salt, expected.length, { N: n, r, p, maxmem: 2 * MAX_MEM });
  return timingSafeEqual(actual, expected);
}
