import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/server-app';

// Counts the password work of sign-in (scrypt in verifyPassword) without timing anything.
const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../server/lib/password', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../server/lib/password')>();
  return {
    ...real,
    verifyPassword: async (...args: Parameters<typeof real.verifyPassword>) => {
      checks.count++;
      return real.verifyPassword(...args);
    },
  };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('sign-in does the same password work whether or not the account exists', () => {
  it('runs one password check for a wrong password and one for an unknown account, with the same answer', async () => {
    checks.count = 0;
    const wrong = await t.loginResponse('school01', 'Wrong@2026');
    expect(checks.count).toBe(1);
    checks.count = 0;
    const unknown = await t.loginResponse('nobody0001', 'Wrong@2026');
    expect(checks.count).toBe(1);
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json()).toEqual(wrong.json());
  });
});
