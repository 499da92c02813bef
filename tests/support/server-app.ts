import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Envelope } from '@/domain/api';
import type { TokenData } from '@/domain/auth/types';
import { buildApp, type BuildAppOptions } from '../../server/app';
import type { Db, DbHandle } from '../../server/db/client';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { parseEnv, type Env } from '../../server/env';
import { sha256Hex } from '../../server/lib/password';
import { setOperatorTwoFactorRequired } from '../../server/modules/security/two-factor.service';
import { testDb, type TestDbOptions } from './server-db';

/** The captcha answer of every test app (TIYU_CAPTCHA_FIXED). */
export const TEST_CAPTCHA = '1234';

/** A clock the test moves by hand: expiry of tokens, captchas and locks follows it. */
export interface TestClock {
  now(): Date;
  advance(ms: number): void;
}

export function testClock(start = new Date()): TestClock {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    advance: (ms) => {
      t += ms;
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  handle: DbHandle;
  clock: TestClock;
  /** A fresh captcha key, already fetched (so it exists and answers TEST_CAPTCHA). */
  captcha(): Promise<string>;
  /** POST /api/sso/login with a fresh captcha; returns the raw response. */
  loginResponse(accountNum: string, password?: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Signs in (demo password by default) and returns the token data; throws when sign-in fails. */
  login(accountNum: string, password?: string): Promise<TokenData>;
  /** app.inject with `bearer <token>` when a token is given. */
  request(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  /** Requests as a signed-in account (signs in once per account per app): `await t.as('school01').get(url)`. */
  as(accountNum: string, opts?: AsOptions): AsUser;
  /** Forgets the sign-ins `as` keeps, so the next call signs in again (after the clock passed their expiry). */
  signInAgain(): void;
  close(): Promise<void>;
}

export interface AsOptions {
  /** accept-language of every request (default zh-CN, the product's default). */
  language?: string;
}

/** An answer of `as(...)`: the status, the parsed envelope (`body.data`, `body.msg`) and the raw response. */
export interface AsAnswer<T = unknown> {
  status: number;
  body: Envelope<T>;
  /** The response's JSON as any (for answers that are not an envelope). */
  json: unknown;
  res: LightMyRequestResponse;
}

type RequestOpts = Omit<InjectOptions, 'method' | 'url' | 'payload'>;

export interface AsUser {
  get<T = unknown>(url: string, opts?: RequestOpts): Promise<AsAnswer<T>>;
  post<T = unknown>(url: string, body?: unknown, opts?: RequestOpts): Promise<AsAnswer<T>>;
  put<T = unknown>(url: string, body?: unknown, opts?: RequestOpts): Promise<AsAnswer<T>>;
  delete<T = unknown>(url: string, body?: unknown, opts?: RequestOpts): Promise<AsAnswer<T>>;
  /** Any method, for helpers that pass it through. */
  request<T = unknown>(method: InjectOptions['method'], url: string, body?: unknown, opts?: RequestOpts): Promise<AsAnswer<T>>;
  /** The account's token (signs in on first use). */
  token(): Promise<string>;
}

export interface TestAppOptions extends TestDbOptions {
  env?: Partial<Record<keyof Env, string>>;
  rateLimits?: BuildAppOptions['rateLimits'];
  /** Run jobs in the test's process (server/lib/jobs.ts). */
  jobWorker?: boolean;
  /** Keep the product's default: platform operators and district administrators must use two-factor sign-in. */
  operatorTwoFactor?: boolean;
}

/** A random captcha key like the browser's (timestamp plus random characters, docs/product-rules.md#sign-in). */
export const randomStr = () => `${Date.now()}${randomBytes(4).toString('hex')}`;

/** The server on its own fresh database (demo seed), with a fixed captcha and a hand-moved clock. */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const handle = await testDb({ seeded: opts.seeded });
  // Platform operators and district administrators sign in with the password alone in tests, as in the demo; the
  // two-factor tests turn the requirement on (docs/product-rules.md#sign-in-security).
  if (!opts.operatorTwoFactor) await setOperatorTwoFactorRequired(handle.db, false);
  const clock = testClock();
  const env = parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: TEST_CAPTCHA, WEB_DIST: '/nonexistent-tiyu-dist', ...opts.env });
  const app = await buildApp({
    db: handle.db,
    env,
    now: clock.now,
    rateLimits: opts.rateLimits ?? { captchaPerMinute: 10_000, loginPerMinute: 10_000 },
    jobWorker: opts.jobWorker,
  });

  const request: TestApp['request'] = ({ token, headers, ...rest }) =>
    app.inject({ ...rest, headers: { ...headers, ...(token ? { authorization: `bearer ${token}` } : {}) } });

  const captcha = async () => {
    const key = randomStr();
    const res = await app.inject({ url: `/api/code?randomStr=${key}` });
    if (res.statusCode !== 200) throw new Error(`captcha failed: ${res.statusCode} ${res.body}`);
    return key;
  };

  const loginResponse: TestApp['loginResponse'] = async (accountNum, password = DEMO_PASSWORD, headers = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/sso/login',
      headers,
      payload: { accountNum, password: sha256Hex(password), code: TEST_CAPTCHA, randomStr: await captcha() },
    });

  const login: TestApp['login'] = async (accountNum, password) => {
    const res = await loginResponse(accountNum, password);
    if (res.statusCode !== 200) throw new Error(`login ${accountNum} failed: ${res.statusCode} ${res.body}`);
    return res.json<Envelope<TokenData>>().data;
  };

  // One sign-in per account per app: tokens stay valid while the clock does not pass their expiry.
  const tokens = new Map<string, Promise<string>>();
  const as: TestApp['as'] = (accountNum, { language = 'zh-CN' } = {}) => {
    const token = () => {
      let t = tokens.get(accountNum);
      if (!t) {
        t = login(accountNum).then((d) => d.access_token);
        t.catch(() => tokens.delete(accountNum));
        tokens.set(accountNum, t);
      }
      return t;
    };
    const send = async (method: InjectOptions['method'], url: string, payload: unknown, opts: RequestOpts = {}) => {
      const { headers, ...rest } = opts;
      const res = await request({
        ...rest,
        method,
        url,
        ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
        token: await token(),
        headers: { 'accept-language': language, ...headers },
      });
      let json: unknown = null;
      try {
        json = res.json();
      } catch {
        // not JSON (a file download): read res
      }
      return { status: res.statusCode, body: json as Envelope<never>, json, res };
    };
    return {
      get: (url, opts) => send('GET', url, undefined, opts),
      post: (url, body, opts) => send('POST', url, body, opts),
      put: (url, body, opts) => send('PUT', url, body, opts),
      delete: (url, body, opts) => send('DELETE', url, body, opts),
      request: (method, url, body, opts) => send(method, url, body, opts),
      token,
    };
  };

  return {
    app,
    db: handle.db,
    as,
    signInAgain: () => tokens.clear(),
    handle,
    clock,
    captcha,
    loginResponse,
    login,
    request,
    async close() {
      await app.close();
      await handle.close();
    },
  };
}
