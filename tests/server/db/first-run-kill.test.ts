import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { createDatabase, dropDatabase, withDatabase } from '../../../server/db/admin';
import { sha256Hex } from '../../../server/lib/password';

const ROOT = join(import.meta.dirname, '../../..');
const CAPTCHA = '1234';

/**
 * docs/decisions/025-pglite-durability.md: the FIRST start of a fresh database (open, migrate, seed,
 * serve in one process) is killed with SIGKILL right after its writes were acknowledged; the next start must have every
 * one of them. On PGlite (a fresh directory) by default, on a fresh PostgreSQL database when DATABASE_URL is set. The
 * seed is TIYU_DEMO_SEED=people (menus, organisations, people, accounts) so a first start takes seconds, not minutes.
 */
function startServer(env: Record<string, string>) {
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
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /tiyu is running: http:\/\/localhost:(\d+)\//.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    void exited.then(() => reject(new Error(`server exited before listening:\n${out}`)));
  });
  return { child, exited, listening, output: () => out };
}

async function call<T>(base: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<{ status: number; data: T }> {
  const res = await fetch(base + path, {
    method: init.method ?? 'GET',
    headers: { ...(init.token ? { authorization: `bearer ${init.token}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: res.status, data: ((await res.json()) as Envelope<T>).data };
}

async function login(base: string): Promise<string> {
  const randomStr = `kill${randomBytes(6).toString('hex')}`;
  await (await fetch(`${base}/api/code?randomStr=${randomStr}`)).arrayBuffer();
  const body = { accountNum: 'school01', password: sha256Hex('Tiyu@2026'), code: CAPTCHA, randomStr };
  const res = await call<{ access_token: string }>(base, '/api/sso/login', { method: 'POST', body });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  return res.data.access_token;
}

const PLANS = '/api/busi/web/k12/organizeTest/testManage';
type Options = { orgId: string; schoolYears: { id: string; current: boolean }[]; grades: { id: string; gradeNo: number }[] };

let dir: string;
let pgDatabase: string | undefined;
const engineEnv = (): Record<string, string> =>
  pgDatabase ? { DATABASE_URL: withDatabase(process.env.DATABASE_URL!, pgDatabase) } : { PGLITE_DIR: join(dir, 'db') };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiyu-kill-'));
  if (process.env.DATABASE_URL) {
    pgDatabase = `tiyu_kill_${randomBytes(4).toString('hex')}`;
    await createDatabase(process.env.DATABASE_URL, pgDatabase);
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  if (pgDatabase) await dropDatabase(process.env.DATABASE_URL!, pgDatabase);
});

describe('an acknowledged write survives kill -9 of the first start', () => {
  // Two starts from source (tsx), the first one seeding: ≈ 30 s on a quiet machine, minutes at load ≈ 30.
  it('keeps every plan the first start acknowledged before it was killed', { timeout: 600_000 }, async () => {
    const env = { ...engineEnv(), STORAGE_DIR: join(dir, 'files') };
    const first = startServer(env);
    const acknowledged: string[] = [];
    try {
      const base = await first.listening;
      expect(first.output()).toContain('seeding the demo district');
      const token = await login(base);
      const { data: options } = await call<Options>(base, `${PLANS}/options`, { token });
      const year = options.schoolYears.find((y) => y.current)!.id;
      const body = (name: string) => ({
        name,
        schoolYearId: year,
        semesterCode: 13,
        startDate: '2026-11-20',
        endDate: '2026-12-20',
        scopeType: 'grade',
        scopeIds: options.grades.slice(0, 2).map((g) => g.id),
        feeAmount: 1,
        feePrecision: 2,
        feeRounding: 'round',
      });
      for (let i = 1; i <= 5; i++) {
        const res = await call<{ id: string }>(base, `${PLANS}/add`, { method: 'POST', token, body: body(`断电测试 ${i}`) });
        expect(res.status).toBe(200);
        acknowledged.push(`断电测试 ${i}`);
      }
      // At once after the last answer: nothing after it gets a chance to write.
      first.child.kill('SIGKILL');
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
      await first.exited;
    }

    const second = startServer(env);
    try {
      const base = await second.listening;
      // The restart finds the demo: it does not seed again.
      expect(second.output()).not.toContain('seeding the demo district');
      const token = await login(base);
      const { status, data } = await call<{ records: { name: string }[] }>(base, `${PLANS}/page?current=1&size=50&name=${encodeURIComponent('断电测试')}`, { token });
      expect(status).toBe(200);
      expect(data.records.map((r) => r.name).sort()).toEqual(acknowledged);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
