import type { LightMyRequestResponse } from 'fastify';
import type { Envelope } from '@/domain/api';
import { jobFinished, type JobRow } from '@/domain/jobs';
import type { TestApp } from './server-app';

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
