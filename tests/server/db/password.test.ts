import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, setPasswordCostForTests, sha256Hex, verifyPassword } from '../../../server/lib/password';
import { TEST_PASSWORD_COST } from '../../support/server-setup';

describe('password', () => {
  // Production's cost here; the other server test files hash at the test cost (tests/support/server-setup.ts).
  beforeAll(() => setPasswordCostForTests(null));
  afterAll(() => setPasswordCostForTests(TEST_PASSWORD_COST));

  it('sha256Hex matches the known digest', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('Tiyu@2026')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes into scrypt$16384$8$1$<salt>$<hash> with a fresh salt', async () => {
    const a = await hashPassword(sha256Hex('Tiyu@2026'));
    const b = await hashPassword(sha256Hex('Tiyu@2026'));
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
  });

  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword(sha256Hex('Tiyu@2026'));
    expect(await verifyPassword(sha256Hex('Tiyu@2026'), stored)).toBe(true);
    expect(await verifyPassword(sha256Hex('tiyu@2026'), stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('rejects malformed or tampered hashes instead of throwing', async () => {
    const good = sha256Hex('Tiyu@2026');
    const stored = await hashPassword(good);
    const parts = stored.split('$');
    expect(await verifyPassword(good, 'plain-text')).toBe(false);
    expect(await verifyPassword(good, '')).toBe(false);
    expect(await verifyPassword(good, ['bcrypt', ...parts.slice(1)].join('$'))).toBe(false);
    // A huge cost factor must not be attempted.
    expect(await verifyPassword(good, ['scrypt', String(2 ** 24), '8', '1', parts[4], parts[5]].join('$'))).toBe(false);
    expect(await verifyPassword(good, ['scrypt', '1000', '8', '1', parts[4], parts[5]].join('$'))).toBe(false);
    expect(await verifyPassword(good, [...parts.slice(0, 5), Buffer.alloc(32).toString('base64')].join('$'))).toBe(false);
  });

  it('keeps the test cost out of the server: no module but the hashing one names its setter', async () => {
    const files = (await readdir('server', { recursive: true })).filter((f) => /\.(ts|js|mjs)$/.test(f));
    expect(files.length).toBeGreaterThan(100);
    const naming: string[] = [];
    for (const f of files) if ((await readFile(join('server', f), 'utf8')).includes('setPasswordCostForTests')) naming.push(f);
    expect(naming).toEqual([join('lib', 'password.ts')]);
  });

  it('verifies a hash made at the test cost by its own cost, and new hashes take the cost set', async () => {
    setPasswordCostForTests(TEST_PASSWORD_COST);
    try {
      const stored = await hashPassword(sha256Hex('Tiyu@2026'));
      expect(stored.startsWith(`scrypt$${TEST_PASSWORD_COST}$8$1$`)).toBe(true);
      expect(await verifyPassword(sha256Hex('Tiyu@2026'), stored)).toBe(true);
      expect(await verifyPassword(sha256Hex('tiyu@2026'), stored)).toBe(false);
    } finally {
      setPasswordCostForTests(null);
    }
    expect(await hashPassword(sha256Hex('Tiyu@2026'))).toMatch(/^scrypt\$16384\$/);
  });
});
