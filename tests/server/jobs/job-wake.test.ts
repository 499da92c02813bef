import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CERTIFICATE_FIELDS } from '@/domain/meets/documents';
import { buildApp } from '../../../server/app';
import { meets } from '../../../server/db/schema/meets';
import { parseEnv } from '../../../server/env';
import { dataOf, DEMO, orgOf } from '../../support/factories';
import { waitForJob } from '../../support/jobs';
import { createTestApp, TEST_CAPTCHA, type TestApp } from '../../support/server-app';

/**
 * A job sent by a request wakes the worker (docs/decisions/026-job-queue.md): with the fallback poll set to ten minutes,
 * a job that nobody woke is still waiting, while one a request sends starts at once (well before the poll would take it),
 * whether the request came to the worker's own instance or to another one on the same database (NOTIFY).
 */
const POLL_SECONDS = 600;
const api = '/api/busi/web';
let t: TestApp;
let meetId: string;
let tplId: string;

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true, env: { TIYU_JOB_POLL_SECONDS: String(POLL_SECONDS) } });
  const k12 = await orgOf(t, DEMO.school);
  meetId = (await t.db.select({ id: meets.id }).from(meets).where(and(eq(meets.orgId, k12.orgId), eq(meets.name, '2026年春季田径运动会'))))[0].id;
  const tpl = await t.as(DEMO.school).post<{ id: string }>(`${api}/k12/sportsMeet/certificates`, { name: '唤醒测试证书', orientation: 'landscape', fields: DEFAULT_CERTIFICATE_FIELDS, backgroundFileId: null, stampId: null });
  tplId = dataOf(tpl).id;
});
afterAll(async () => {
  await t?.close();
});

const bossState = async (id: string) => (await t.db.execute<{ state: string }>(sql`select state::text as state from pgboss.job where id = ${id}`)).rows[0]?.state;

const issue = async () => {
  const res = await t.as(DEMO.school).post<{ id: string }>(`${api}/k12/sportsMeet/certificates/${tplId}/issue`, { meetId, fromPlace: 1, toPlace: 1 });
  expect(res.status).toBe(200);
  return res.body.data.id;
};

describe('job wake-up', () => {
  it('a job sent by a request starts at once, not at the next poll; the first job of a batch does not hold back the next', async () => {
    // The control: a pg-boss job put in the queue behind the app's back (no wake-up, no NOTIFY) waits for the poll.
    const [{ id: unwoken }] = (await t.db.execute<{ id: string }>(sql`insert into pgboss.job (name, data) values ('certificates', ${JSON.stringify({ id: '00000000-0000-4000-8000-000000000000' })}::jsonb) returning id`)).rows;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await bossState(unwoken)).toBe('created');

    // Two jobs sent by requests: both run to the end within the wait, far inside the ten-minute poll. The first
    // wake takes the waiting control job first; the worker looks again as each job ends, so the sent ones follow.
    const ids = [await issue(), await issue()];
    const token = await t.as(DEMO.school).token();
    for (const id of ids) expect((await waitForJob(t, token, id, 'zh-CN', 60_000)).at(-1)).toMatchObject({ state: 'done' });
    expect(await bossState(unwoken)).toBe('completed');
  });

  it('a job sent through another instance without a worker wakes this instance’s worker', async () => {
    // A second app on the same database, taking no jobs: the request goes there, the job runs here.
    const other = await buildApp({ db: t.db, env: parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: TEST_CAPTCHA, WEB_DIST: '/nonexistent-tiyu-dist' }) });
    try {
      const token = await t.as(DEMO.school).token();
      const res = await other.inject({ method: 'POST', url: `${api}/k12/sportsMeet/certificates/${tplId}/issue`, payload: { meetId, fromPlace: 1, toPlace: 1 }, headers: { authorization: `bearer ${token}` } });
      expect(res.statusCode).toBe(200);
      const { id } = res.json<{ data: { id: string } }>().data;
      expect((await waitForJob(t, token, id, 'zh-CN', 60_000)).at(-1)).toMatchObject({ state: 'done' });
    } finally {
      await other.close();
    }
  });
});
