import { createHook } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/server-app';

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

/** The SQL statements (text only, parameters aside) the database receives while `work` runs. */
async function statementsDuring<T>(t: TestApp, work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const raw = t.handle.raw as unknown as { query: (...args: unknown[]) => Promise<unknown> };
  const own = Object.prototype.hasOwnProperty.call(raw, 'query') ? raw.query : undefined;
  const send = raw.query;
  const statements: string[] = [];
  raw.query = function (this: unknown, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    if (text) statements.push(text.replace(/\s+/g, ' ').trim());
    return send.apply(this, args);
  };
  try {
    return { result: await work(), statements };
  } finally {
    if (own) raw.query = own;
    else delete (raw as { query?: unknown }).query;
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

  it('sends the database the same statements for an unknown account as for a wrong password', async () => {
    await t.loginResponse('nobody0003', 'Wrong@2026');
    // A fresh captcha each (fetched before counting), so only the sign-in's own statements are compared.
    const wrong = await statementsDuring(t, () => t.loginResponse('school01', 'Wrong@2026'));
    const unknown = await statementsDuring(t, () => t.loginResponse('nobody0004', 'Wrong@2026'));
    expect(wrong.result.statusCode).toBe(400);
    expect(unknown.statements.length).toBeGreaterThan(0);
    // The captcha fetch inside loginResponse runs the same statements for both; the rest is the sign-in's. The rate
    // limiter sweeps its expired counters in one request of many, at random (server/lib/shared-limits.ts): not sign-in work.
    const own = (statements: string[]) => statements.filter((s) => !s.startsWith('delete from rate_limit_hits'));
    expect(own(unknown.statements)).toEqual(own(wrong.statements));
    expect(unknown.result.json()).toEqual(wrong.result.json());
  });
});
