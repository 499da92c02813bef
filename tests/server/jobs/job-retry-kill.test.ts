import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { JobRow } from '@/domain/jobs';
import { createDatabase, dropDatabase, withDatabase } from '../../../server/db/admin';
import { sha256Hex } from '../../../server/lib/password';
import { writeXlsx } from '../../../server/lib/spreadsheet/xlsx-writer';

const ROOT = join(import.meta.dirname, '../../..');
const CAPTCHA = '1234';
/** The pg-boss expiry of this test's servers (TIYU_JOB_EXPIRE_SECONDS): a dead process's job is taken again after it. */
const EXPIRE_SECONDS = 6;
/** Students in the file: enough that the commit's write runs for a while (no sleeps in product code). */
const ROWS = 20_000;
const STUDENTS = '/api/busi/web/k12/user/student';

/**
 * docs/product-rules.md#jobs, docs/decisions/026-job-queue.md: a job whose process dies is run again, and writes once.
 * A real server (tsx server/main.ts, on its own PGlite directory, or on a fresh PostgreSQL database when DATABASE_URL is
 * set) commits a student import of ROWS rows as a job; the process is killed with SIGKILL while the job runs; the next
 * start takes the job again after the expiry and finishes it: every student exactly once, the job done with its counts.
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
      TIYU_JOB_EXPIRE_SECONDS: String(EXPIRE_SECONDS),
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
  return { child, exited, listening };
}

async function call<T>(base: string, path: string, init: { method?: string; token?: string; body?: unknown; form?: FormData } = {}): Promise<{ status: number; data: T; msg: string }> {
  const res = await fetch(base + path, {
    method: init.method ?? 'GET',
    headers: { ...(init.token ? { authorization: `bearer ${init.token}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : init.form ? { body: init.form } : {}),
  });
  const envelope = (await res.json()) as Envelope<T>;
  return { status: res.status, data: envelope.data, msg: envelope.msg };
}

async function login(base: string): Promise<string> {
  const randomStr = `kill${randomBytes(6).toString('hex')}`;
  await (await fetch(`${base}/api/code?randomStr=${randomStr}`)).arrayBuffer();
  const body = { accountNum: 'school01', password: sha256Hex('Tiyu@2026'), code: CAPTCHA, randomStr };
  const res = await call<{ access_token: string }>(base, '/api/sso/login', { method: 'POST', body });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  return res.data.access_token;
}

let dir: string;
let pgDatabase: string | undefined;
const engineEnv = (): Record<string, string> =>
  pgDatabase ? { DATABASE_URL: withDatabase(process.env.DATABASE_URL!, pgDatabase) } : { PGLITE_DIR: join(dir, 'db') };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiyu-job-kill-'));
  if (process.env.DATABASE_URL) {
    pgDatabase = `tiyu_job_kill_${randomBytes(4).toString('hex')}`;
    await createDatabase(process.env.DATABASE_URL, pgDatabase);
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  if (pgDatabase) await dropDatabase(process.env.DATABASE_URL!, pgDatabase);
});

describe('a job whose process dies is run again and writes once', () => {
  it('kill -9 during a student import commit: after the restart every student is there once and the job is done', { timeout: 900_000 }, async () => {
    const env = { ...engineEnv(), STORAGE_DIR: join(dir, 'files') };
    const prefix = `KJ${randomBytes(2).toString('hex').toUpperCase()}`;
    const head = ['姓名', '学籍号', '学号', '性别', '出生日期', '民族', '年级', '班级'];
    const rows = Array.from({ length: ROWS }, (_, i) => [`重试${i}`, `${prefix}${String(i).padStart(6, '0')}`, '', i % 2 ? '男' : '女', '', '', '一年级', '一年级1班']);
    const file = writeXlsx([{ name: '学生', rows: [head, ...rows] }]);

    const first = startServer(env);
    let jobId!: string;
    try {
      const base = await first.listening;
      const token = await login(base);
      const { data: options } = await call<{ schoolYears: { id: string; current: boolean; semesters: { id: string; current: boolean }[] }[] }>(base, `${STUDENTS}/import/options`, { token });
      const year = options.schoolYears.find((y) => y.current)!;
      const form = new FormData();
      form.set('schoolYearId', year.id);
      form.set('semesterId', year.semesters.find((s) => s.current)!.id);
      form.set('file', new Blob([new Uint8Array(file)]), 'students.xlsx');
      const dry = await call<{ importId: string; create: number; rejected: number }>(base, `${STUDENTS}/import/preview`, { method: 'POST', token, form });
      expect(dry.status, dry.msg).toBe(200);
      expect(dry.data.create).toBe(ROWS);
      const started = await call<{ id: string }>(base, `${STUDENTS}/import/${dry.data.importId}/commit`, { method: 'POST', token });
      expect(started.status, started.msg).toBe(200);
      jobId = started.data.id;
      // Killed as soon as the job runs: its write (one transaction of ROWS students) is under way or not yet begun.
      for (;;) {
        const { data: job } = await call<JobRow>(base, `/api/busi/web/jobs/${jobId}`, { token });
        expect(job.state, 'the job ended before the kill: make the file larger').not.toMatch(/done|failed/);
        if (job.state === 'running') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      first.child.kill('SIGKILL');
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
      await first.exited;
    }

    const second = startServer(env);
    try {
      const base = await second.listening;
      const token = await login(base);
      // Taken again after the expiry by this start's worker, run from the start, done once.
      let job: JobRow;
      const until = Date.now() + 300_000;
      for (;;) {
        job = (await call<JobRow>(base, `/api/busi/web/jobs/${jobId}`, { token })).data;
        if (job.state === 'done' || job.state === 'failed' || Date.now() > until) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(job.state, job.error ?? '').toBe('done');
      expect(job.result?.counts).toEqual({ success: ROWS, failure: 0 });
      const list = await call<{ total: number }>(base, `${STUDENTS}/page?current=1&size=10&keyword=${prefix}`, { token });
      expect(list.status, list.msg).toBe(200);
      expect(list.data.total).toBe(ROWS);
      // The failures workbook of the run that finished downloads from the job.
      const download = await fetch(`${base}/api/busi/web/jobs/${jobId}/download`, { headers: { authorization: `bearer ${token}` } });
      expect(download.status).toBe(200);
      await download.arrayBuffer();
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
