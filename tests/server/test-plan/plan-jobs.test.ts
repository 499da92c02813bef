import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanDetail } from '@/domain/test-plans/types';
import { users } from '../../../server/db/schema/auth';
import { planJobs } from '../../../server/db/schema/test-plans';
import { isAppError } from '../../../server/lib/app-error';
import { finishPlanJob, getPlanInScope, PLAN_JOB_STALE_MS, startPlanJob } from '../../../server/modules/test-plan/test-plan.service';
import { createTestApp, type TestApp } from '../../support/server-app';
import { data, day, demoIds, k12Plan, msg, planClient, type DemoIds } from './plan-fixtures';

let t: TestApp;
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

describe('plan job lock (spec §4)', () => {
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

  it('takes a job running longer than 30 minutes for dead', async () => {
    const planId = await newPlan();
    const old = await start(planId, 'import');
    t.clock.advance(PLAN_JOB_STALE_MS - 60_000);
    expect((await rejection(start(planId, 'import'))).status).toBe(409);
    t.clock.advance(2 * 60_000);
    const fresh = await start(planId, 'import');
    expect(fresh.id).not.toBe(old.id);
    const [row] = await t.db.select().from(planJobs).where(eq(planJobs.id, old.id));
    expect(row).toMatchObject({ status: 'failed', error: 'stale' });
    await finishPlanJob(t.db, fresh.id, { status: 'done' });
  });
});
