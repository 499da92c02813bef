import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRow } from '@/domain/jobs';
import { writeXlsx } from '../../../server/lib/spreadsheet/xlsx-writer';
import { call, login, scratchEngine, startServer } from '../../support/server-process';

/**
 * On PGlite a dead process's job is taken again after the pg-boss expiry (TIYU_JOB_EXPIRE_SECONDS, short here). On
 * PostgreSQL the expiry stays at 15 minutes, beyond this test's wait: the job must be taken again because its
 * heartbeats stopped (TIYU_JOB_HEARTBEAT_SECONDS, the minimum pg-boss allows).
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const EXPIRE_SECONDS = onPostgres ? 900 : 6;
const HEARTBEAT_SECONDS = 10;
/** Students in the file: enough that the commit's write runs for a while (no sleeps in product code). */
const ROWS = 20_000;
const STUDENTS = '/api/busi/web/k12/user/student';

/**
 * docs/product-rules.md#jobs, docs/decisions/026-job-queue.md: a job whose process dies is run again, and writes once.
 * A real server (tsx server/main.ts, on its own PGlite directory, or on a fresh PostgreSQL database when DATABASE_URL is
 * set) commits a student import of ROWS rows as a job; the process is killed with SIGKILL while the job runs; the next
 * start takes the job again after the expiry and finishes it: every student exactly once, the job done with its counts.
 */

let engine: Awaited<ReturnType<typeof scratchEngine>>;
beforeAll(async () => {
  engine = await scratchEngine('job-kill');
});
afterAll(async () => {
  await engine.drop();
});

describe('a job whose process dies is run again and writes once', () => {
  it('kill -9 during a student import commit: after the restart every student is there once and the job is done', { timeout: 900_000 }, async () => {
    const env = { ...engine.env(), STORAGE_DIR: join(engine.dir, 'files'), TIYU_JOB_EXPIRE_SECONDS: String(EXPIRE_SECONDS), TIYU_JOB_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS) };
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
      // Taken again after the expiry (PGlite) or the missed heartbeats (PostgreSQL) by this start's worker, run from the start, done once.
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
