import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Envelope } from '@/domain/api';
import { createDatabase, dropDatabase, withDatabase } from '../../server/db/admin';
import { sha256Hex } from '../../server/lib/password';

/**
 * A real server process (tsx server/main.ts) for the tests that kill one with SIGKILL (tests/server/db/first-run-kill,
 * tests/server/jobs/job-retry-kill): its own PGlite directory, or a fresh PostgreSQL database when DATABASE_URL is set.
 */
const ROOT = join(import.meta.dirname, '../..');
const CAPTCHA = '1234';

/** Starts the server (port chosen by the system, the people-only demo seed); `listening` answers its base URL. */
export function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      WEB_DIST: '/nonexistent-tiyu-dist',
      TIYU_CAPTCHA_FIXED: CAPTCHA,
      TIYU_DEMO_SEED: 'people',
      TIYU_SIMULATE_DAYS: '0',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /tiyu is running: http:\/\/localhost:(\d+)\//.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    void exited.then(() => reject(new Error(`server exited before listening:\n${out}`)));
  });
  return { child, exited, listening, output: () => out };
}

/** A request to a running server: status, and the envelope's data and message. */
export async function call<T>(
  base: string,
  path: string,
  init: { method?: string; token?: string; body?: unknown; form?: FormData } = {},
): Promise<{ status: number; data: T; msg: string }> {
  const res = await fetch(base + path, {
    method: init.method ?? 'GET',
    headers: { ...(init.token ? { authorization: `bearer ${init.token}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : init.form ? { body: init.form } : {}),
  });
  const envelope = (await res.json()) as Envelope<T>;
  return { status: res.status, data: envelope.data, msg: envelope.msg };
}

/** Signs school01 in through the captcha and the sign-in route; answers the token. */
export async function login(base: string): Promise<string> {
  const randomStr = `kill${randomBytes(6).toString('hex')}`;
  await (await fetch(`${base}/api/code?randomStr=${randomStr}`)).arrayBuffer();
  const body = { accountNum: 'school01', password: sha256Hex('Tiyu@2026'), code: CAPTCHA, randomStr };
  const res = await call<{ access_token: string }>(base, '/api/sso/login', { method: 'POST', body });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  return res.data.access_token;
}

/** A scratch directory and, on PostgreSQL, a fresh database: `env()` points a server at them; `drop()` removes both. */
export async function scratchEngine(name: string): Promise<{ dir: string; env(): Record<string, string>; drop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `tiyu-${name}-`));
  const url = process.env.DATABASE_URL;
  const database = url ? `tiyu_${name.replaceAll('-', '_')}_${randomBytes(4).toString('hex')}` : undefined;
  if (url && database) await createDatabase(url, database);
  return {
    dir,
    env: (): Record<string, string> => (url && database ? { DATABASE_URL: withDatabase(url, database) } : { PGLITE_DIR: join(dir, 'db') }),
    drop: async () => {
      await rm(dir, { recursive: true, force: true });
      if (url && database) await dropDatabase(url, database);
    },
  };
}
