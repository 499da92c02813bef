import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { JobRow } from '@/domain/jobs';
import { JOB_RETRY_LIMIT, JobQueue } from '../../../server/lib/jobs';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';

/** The pg-boss expiry of this test (TIYU_JOB_EXPIRE_SECONDS' least). */
const EXPIRE_SECONDS = 2;

/**
 * docs/decisions/026-job-queue.md: a job whose process dies on every attempt (more often than JOB_RETRY_LIMIT allows)
 * is failed by pg-boss on its last expiry; the sweep of any instance then shows it failed, with a translated message,
 * instead of "running" forever. A dead process is a worker that took the job and never answers: each of
 * JOB_RETRY_LIMIT + 1 "dying" queues (their own pg-boss on the same database, like other instances) takes one attempt
 * and hangs. A healthy instance (taking other kinds of job only) sweeps. On PGlite, or PostgreSQL with DATABASE_URL.
 */
let t: TestApp;
let token: string;
const queues: JobQueue[] = [];
let release!: () => void;
const released = new Promise<void>((resolve) => (release = resolve));

beforeAll(async () => {
  t = await createTestApp({ env: { TIYU_JOB_EXPIRE_SECONDS: String(EXPIRE_SECONDS) } });
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  token = (await t.login('school01')).access_token;
});
afterAll(async () => {
  release();
  for (const queue of queues) await queue.stop();
  await t?.close();
});

const queue = () => {
  const q = new JobQueue({ db: t.db, now: t.app.now, i18n: t.app.i18n, log: t.app.log, expireSeconds: EXPIRE_SECONDS });
  queues.push(q);
  return q;
};
const job = async (id: string, lang = 'zh-CN') =>
  (await t.request({ url: `/api/busi/web/jobs/${id}`, token, headers: { 'accept-language': lang } })).json<Envelope<JobRow>>().data;

describe('a queue stopped while it starts', () => {
  // SIGTERM right after listen, before the worker has started (server/main.ts): the stop waits for the start and the
  // queue takes no jobs, instead of crashing the shutdown with "job queue: not started".
  it('stops cleanly and takes no jobs', async () => {
    const q = queue();
    let taken = 0;
    q.define('rollover', async () => void taken++);
    const working = q.work();
    await expect(q.stop()).resolves.toBeUndefined();
    await working;
    expect(taken).toBe(0);
  });
});

describe('a job whose process dies on every attempt', () => {
  it('ends failed with a translated message once pg-boss gives it up, not running forever; each attempt ran', { timeout: 120_000 }, async () => {
    // The healthy instance: it takes no score exports, it only sweeps (at start and every second with this expiry).
    const healthy = queue();
    healthy.define('rollover', async () => undefined);
    await healthy.work();

    const start = await t.request({ method: 'POST', url: '/api/busi/web/k12/organizeTest/scoreSearch/export', token, payload: {} });
    expect(start.statusCode, start.body).toBe(200);
    const { id } = start.json<Envelope<{ id: string }>>().data;

    // Each dying instance takes one attempt and never answers (as if killed): pg-boss expires it and retries elsewhere.
    const attempts: number[] = [];
    for (let i = 0; i <= JOB_RETRY_LIMIT; i++) {
      const dying = queue();
      dying.define('physiqueExport', async () => {
        attempts.push(i);
        await released;
      });
      await dying.work();
    }

    let last = await job(id);
    const until = Date.now() + 90_000;
    const states = new Set<string>();
    while (last.state !== 'failed' && last.state !== 'done' && Date.now() < until) {
      states.add(last.state);
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = await job(id);
    }
    // Running while retries remained (the sweep leaves a job pg-boss will still run), then failed, every attempt made.
    expect(states).toContain('running');
    expect(attempts).toHaveLength(JOB_RETRY_LIMIT + 1);
    expect(last).toMatchObject({ state: 'failed', result: null, error: '任务多次中断未能完成，已放弃，未写入任何数据。请重新发起。' });
    expect(last.finishedAt).not.toBeNull();
    expect((await job(id, 'en-US')).error).toBe('The task stopped several times without finishing and was given up; nothing of it was written. Start it again.');
    // The tasks list shows it failed too, and there is no file to download.
    const list = (await t.request({ url: '/api/busi/web/jobs', token })).json<Envelope<JobRow[]>>().data;
    expect(list.find((j) => j.id === id)?.state).toBe('failed');
    expect((await t.request({ url: `/api/busi/web/jobs/${id}/download`, token })).statusCode).toBe(404);
  });
});
