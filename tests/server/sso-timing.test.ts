import { createHook } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/server-app';

/**
 * Counts the password work of sign-in without timing anything: every scrypt (server/lib/password.ts) is one
 * SCRYPTREQUEST async resource in Node. Counting them needs no module mock, so the test holds when the server suite
 * shares its module graph between files (vite.config.ts, the server project's isolate: false).
 */
async function scryptsDuring<T>(work: () => Promise<T>): Promise<{ result: T; scrypts: number }> {
  let scrypts = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'SCRYPTREQUEST') scrypts++;
    },
  }).enable();
  try {
    return { result: await work(), scrypts };
  } finally {
    hook.disable();
  }
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('sign-in does the same password work whether or not the account exists', () => {
  it('runs one password check for a wrong password and one for an unknown account, with the same answer', async () => {
    // The decoy an unknown account is checked against is hashed once per process, at the first unknown account.
    await t.loginResponse('nobody0002', 'Wrong@2026');
    const wrong = await scryptsDuring(() => t.loginResponse('school01', 'Wrong@2026'));
    expect(wrong.scrypts).toBe(1);
    const unknown = await scryptsDuring(() => t.loginResponse('nobody0001', 'Wrong@2026'));
    expect(unknown.scrypts).toBe(1);
    expect(unknown.result.statusCode).toBe(wrong.result.statusCode);
    expect(unknown.result.json()).toEqual(wrong.result.json());
  });
});
