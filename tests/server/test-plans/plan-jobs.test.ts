import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanDetail } from '@/domain/test-plans/types';
import { users } from '../../../server/db/schema/auth';
import { planJobs } from '../../../server/db/schema/test-plans';
import { isAppError } from '../../../server/lib/app-error';
import { holderLockKeys } from '../../../server/modules/test-plans/plan-job-holder';
import { finishPlanJob, getPlanInScope, startPlanJob } from '../../../server/modules/test-plans/test-plans.service';
import { createTestApp, type TestApp } from '../../support/server-app';
import { data, day, demoIds, k12Plan, msg, planClient, type DemoIds } from './plan-fixtures';

let t: TestApp;
// The suite runs on PostgreSQL when DATABASE_URL is set (scripts/with-postgres.sh), on PGlite otherwise.
const onPostgres = () => Boolean(process.env.DATABASE_URL);
let ids: DemoIds;
let userId: string;
const tokens: Record<string, string> = {};
const k12 = () => planClient(t, 'k12', () => tokens.school01);

beforeAll(async () => {
  t = await createTestApp();
  tokens.school01 = (await t.login('school01')).access_token;
  ids = await demoIds(t);
  userId = (await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'school01')))[0].id;
});
afterAll(async () => {
  await t?.close();
});

/** The translated message of a rejected service call, as the error handler would answer it. */
async function rejection(promise: Promise<unknown>, lng = 'zh_cn'): Promise<{ status: number; msg: string }> {
  try {
    await promise;
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { status: error.status, msg: t.app.i18n.t(error.i18nKey, { lng, ...error.params }) };
  }
  throw new Error('expected a rejection');
}

const newPlan = async (over: Parameters<typeof k12Plan>[2] = {}) => {
  const res = await k12().post('add', k12Plan(t, ids, over));
  expect(res.statusCode, res.body).toBe(200);
  return data<PlanDetail>(res).id;
};
const start = (planId: string, kind: 'import' | 'sync', orgId = ids.k12Id) => startPlanJob(t.db, { planId, orgId, kind, userId, now: t.clock.now() });

describe('plan job lock (docs/product-rules.md#plan-states)', () => {
  it('lets one import run at a time and refuses a sync meanwhile, with translated messages', async () => {
    const planId = await newPlan();
    const job = await start(planId, 'import');
    expect(job).toMatchObject({ planId, orgId: ids.k12Id, kind: 'import', status: 'running' });

    expect(await rejection(start(planId, 'import'))).toEqual({ status: 409, msg: '该测试计划正在导入成绩，请稍后再试' });
    expect(await rejection(start(planId, 'sync'), 'en_us')).toEqual({
      status: 409,
      msg: 'Scores are being imported into this test plan. Please try again later.',
    });

    const detail = data<PlanDetail>(await k12().get(`detail/${planId}`));
    expect(detail.runningJob).toEqual({ kind: 'import', startedAt: job.startedAt.toISOString() });

    expect(await finishPlanJob(t.db, job.id, { status: 'done', successCount: 10, failureCount: 2, now: t.clock.now() })).toBe(true);
    expect(await finishPlanJob(t.db, job.id, { status: 'failed' })).toBe(false);
    const sync = await start(planId, 'sync');
    expect(await rejection(start(planId, 'import'))).toEqual({ status: 409, msg: '该测试计划正在同步数据，请稍后再试' });
    await finishPlanJob(t.db, sync.id, { status: 'done' });
  });

  it('two concurrent starts: exactly one succeeds', async () => {
    const planId = await newPlan();
    for (let round = 0; round < 3; round++) {
      const results = await Promise.allSettled([start(planId, 'import'), start(planId, 'sync'), start(planId, 'import')]);
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(isAppError(r.reason) && r.reason.status).toBe(409);
      expect(await t.db.$count(planJobs, eq(planJobs.status, 'running'))).toBe(1);
      const job = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof start>>>).value;
      await finishPlanJob(t.db, job.id, { status: 'done' });
    }
  });

  it('refuses deleting and editing a plan while a job runs', async () => {
    const planId = await newPlan({ startDate: day(t, 3), endDate: day(t, 6) });
    const job = await start(planId, 'sync');
    const del = await k12().post(`delete/${planId}`);
    expect(del.statusCode).toBe(409);
    expect(msg(del)).toBe('该测试计划正在导入或同步数据，不能删除');
    expect(msg(await k12().post(`delete/${planId}`, undefined, 'en-US'))).toBe('This test plan cannot be deleted while an import or sync is running.');
    const edit = await k12().post(`edit/${planId}`, k12Plan(t, ids, { startDate: day(t, 3), endDate: day(t, 6) }));
    expect(edit.statusCode).toBe(409);
    expect(msg(edit)).toBe('该测试计划正在导入或同步数据，不能编辑');
    await finishPlanJob(t.db, job.id, { status: 'done' });
    expect((await k12().post(`delete/${planId}`)).statusCode).toBe(200);
  });

  it('refuses jobs on an ended plan and on a plan of another organisation', async () => {
    const planId = await newPlan();
    expect((await k12().post(`end/${planId}`)).statusCode).toBe(200);
    expect(await rejection(start(planId, 'import'))).toEqual({ status: 409, msg: '测试计划已结束，不能再参与测试' });
    const foreign = await rejection(start(planId, 'import', ids.uniId));
    expect(foreign.status).toBe(404);
    await expect(getPlanInScope(t.db, ids.uniId, planId)).rejects.toMatchObject({ status: 404 });
    // The bureau reaches its school's plans.
    expect((await getPlanInScope(t.db, ids.bureauId, planId)).id).toBe(planId);
  });

  it('keeps the lock of a job for as long as it runs, past 30 minutes', async () => {
    const planId = await newPlan();
    const job = await start(planId, 'import');
    for (const minutes of [31, 90, 24 * 60]) {
      t.clock.advance(minutes * 60_000);
      tokens.school01 = (await t.login('school01')).access_token;
      expect(await rejection(start(planId, 'import'))).toEqual({ status: 409, msg: '该测试计划正在导入成绩，请稍后再试' });
      expect((await k12().post(`delete/${planId}`)).statusCode).toBe(409);
    }
    expect(await finishPlanJob(t.db, job.id, { status: 'done', now: t.clock.now() })).toBe(true);
    const next = await start(planId, 'sync');
    await finishPlanJob(t.db, next.id, { status: 'done' });
  });

  /** A 'running' row left by a server process that died mid-import (kill -9): it never finished it. */
  const orphan = async (planId: string, holderId: string | null) =>
    (
      await t.db
        .insert(planJobs)
        .values({ orgId: ids.k12Id, planId, kind: 'import', startedBy: userId, holderId, startedAt: t.clock.now() })
        .returning()
    )[0];

  it('frees the plan at once when the process holding the job died', async () => {
    const planId = await newPlan({ startDate: day(t, 0), endDate: day(t, 6) });
    const dead = await orphan(planId, randomUUID());
    // A minute after the crash, not 30: the plan is detailed, edited, imported into.
    t.clock.advance(60_000);
    tokens.school01 = (await t.login('school01')).access_token;
    expect(data<PlanDetail>(await k12().get(`detail/${planId}`)).runningJob).toBeNull();
    expect((await k12().post(`edit/${planId}`, k12Plan(t, ids, { startDate: day(t, 0), endDate: day(t, 6) }))).statusCode).toBe(200);
    const fresh = await start(planId, 'import');
    const [row] = await t.db.select().from(planJobs).where(eq(planJobs.id, dead.id));
    expect(row).toMatchObject({ status: 'failed', error: 'holder gone' });
    await finishPlanJob(t.db, fresh.id, { status: 'done' });

    // Rows from before holders were recorded count as dead too.
    await orphan(planId, null);
    const again = await start(planId, 'sync');
    await finishPlanJob(t.db, again.id, { status: 'done' });
  });

  it.runIf(onPostgres())('on PostgreSQL, blocks while the holding process lives and frees the plan the moment its connection dies', async () => {
    const planId = await newPlan({ startDate: day(t, 0), endDate: day(t, 6) });
    const holderId = randomUUID();
    // Another server process: its own connection holding its advisory lock.
    const other = new pg.Client((t.handle.raw as pg.Pool).options);
    await other.connect();
    await other.query('select pg_advisory_lock($1, $2)', holderLockKeys(holderId));
    const job = await orphan(planId, holderId);
    try {
      t.clock.advance(2 * 60 * 60_000);
      tokens.school01 = (await t.login('school01')).access_token;
      expect(await rejection(start(planId, 'sync'))).toEqual({ status: 409, msg: '该测试计划正在导入成绩，请稍后再试' });
      expect((await k12().post(`delete/${planId}`)).statusCode).toBe(409);
    } finally {
      await other.end();
    }
    const fresh = await start(planId, 'sync');
    expect((await t.db.select().from(planJobs).where(eq(planJobs.id, job.id)))[0]).toMatchObject({ status: 'failed', error: 'holder gone' });
    await finishPlanJob(t.db, fresh.id, { status: 'done' });
  });
});
