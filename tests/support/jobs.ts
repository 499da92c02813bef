import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Envelope } from '@/domain/api';
import { jobFinished, type JobRow } from '@/domain/jobs';
import type { TestApp } from './server-app';
import type { Db } from '../../server/db/client';
import { jobs } from '../../server/db/schema/jobs';

/** Polls a job (GET /api/busi/web/jobs/:id) until it is done or failed; answers every state seen, the last one final. */
export async function waitForJob(t: TestApp, token: string, id: string, lang = 'zh-CN', timeoutMs = 60_000): Promise<JobRow[]> {
  const seen: JobRow[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.request({ url: `/api/busi/web/jobs/${id}`, token, headers: { 'accept-language': lang } });
    if (res.statusCode !== 200) throw new Error(`job ${id}: ${res.statusCode} ${res.body}`);
    const job = res.json<Envelope<JobRow>>().data;
    seen.push(job);
    if (jobFinished(job.state)) return seen;
    if (Date.now() > until) throw new Error(`job ${id} still ${job.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Starts a job with `start` (whose answer is `{ id }`), waits for it and downloads its file: the response of the download. */
export async function jobFile(t: TestApp, token: string, start: LightMyRequestResponse, lang = 'zh-CN'): Promise<LightMyRequestResponse> {
  if (start.statusCode !== 200) return start;
  const { id } = start.json<Envelope<{ id: string }>>().data;
  const last = (await waitForJob(t, token, id, lang)).at(-1)!;
  if (last.state !== 'done') throw new Error(`job ${id} failed: ${last.error}`);
  return t.request({ url: `/api/busi/web/jobs/${id}/download`, token });
}

/** A GET of the jobs API as the starter (Fastify inject, a test app's request). */
export type JobGet = (url: string, lang: string) => Promise<LightMyRequestResponse>;

/**
 * An import started as a job (docs/product-rules.md#jobs), answered as the request used to answer: the start's own
 * answer when it was refused at once; else, once the job is over, the failures workbook's download with the counts as
 * `x-import-success` / `x-import-failure`, or, for a failed job, its status and translated message (`json().msg`).
 * `settled` (a bench's jobSettled) waits for the job to finish before the jobs API is asked at all.
 */
export async function jobOutcome(
  get: JobGet,
  start: LightMyRequestResponse,
  lang = 'zh-CN',
  timeoutMs = 600_000,
  settled?: (id: string, timeoutMs: number) => Promise<void>,
): Promise<LightMyRequestResponse> {
  if (start.statusCode !== 200) return start;
  const { id } = start.json<Envelope<{ id: string }>>().data;
  await settled?.(id, timeoutMs);
  const until = Date.now() + timeoutMs;
  let last: JobRow;
  for (;;) {
    const res = await get(`/api/busi/web/jobs/${id}`, lang);
    if (res.statusCode !== 200) throw new Error(`job ${id}: ${res.statusCode} ${res.body}`);
    last = res.json<Envelope<JobRow>>().data;
    if (jobFinished(last.state)) break;
    if (Date.now() > until) throw new Error(`job ${id} still ${last.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (last.state !== 'done') {
    const body = JSON.stringify({ code: String(last.errorStatus ?? 500), data: null, msg: last.error });
    return { ...start, statusCode: last.errorStatus ?? 500, body, payload: body, json: () => JSON.parse(body) } as LightMyRequestResponse;
  }
  const file = await get(`/api/busi/web/jobs/${id}/download`, lang);
  const counts = last.result?.counts ?? {};
  return Object.assign(file, { headers: { ...file.headers, 'x-import-success': String(counts.success), 'x-import-failure': String(counts.failure) } });
}

/** jobOutcome through a test app, as the account of `token`. */
export function importJob(t: TestApp, token: string, start: LightMyRequestResponse, lang = 'zh-CN'): Promise<LightMyRequestResponse> {
  return jobOutcome((url, language) => t.request({ url, token, headers: { 'accept-language': language } }), start, lang);
}

/**
 * Resolves once a job's row says it is finished, reading the row itself every 20 ms. A bench waits with it (jobOutcome's
 * `settled`) so that it times the job, not fifty HTTP polls a second through the process that runs the job (a screen
 * asks once a second, JOB_POLL_MS; on PGlite every poll would also share the database's one connection).
 */
export function jobSettled(db: Db): (id: string, timeoutMs: number) => Promise<void> {
  return async (id, timeoutMs) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await db.select({ state: jobs.state }).from(jobs).where(eq(jobs.id, id));
      if (row && jobFinished(row.state as JobRow['state'])) return;
      if (Date.now() > until) throw new Error(`job ${id} still ${row?.state} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
}
