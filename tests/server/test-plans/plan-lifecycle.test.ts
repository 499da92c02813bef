import { and, asc, count, desc, eq, isNotNull, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { ScoreSearchPage } from '@/domain/physique-results/types';
import type { PlanDetail, PlanRow } from '@/domain/test-plans/types';
import { users } from '../../../server/db/schema/auth';
import { physiqueResults } from '../../../server/db/schema/physique';
import { planJobs, testPlanEvents, testPlans } from '../../../server/db/schema/test-plans';
import { purgeRecycleBin } from '../../../server/modules/test-plans/test-plans-manage.service';
import { finishPlanJob, startPlanJob } from '../../../server/modules/test-plans/test-plans.service';
import { createTestApp, type TestApp } from '../../support/server-app';
import { data, day, demoIds, k12Plan, msg, planClient, type DemoIds } from './plan-fixtures';
import type { Family } from '@/domain/menus/access';

const DAY_MS = 86_400_000;
let t: TestApp;
let ids: DemoIds;
const tokens: Record<string, string> = {};
const ACCOUNTS = ['school01', 'teacher01', 'district01'] as const;
type Account = (typeof ACCOUNTS)[number];
const userIds: Record<string, string> = {};

const signIn = async () => {
  for (const a of ACCOUNTS) tokens[a] = (await t.login(a)).access_token;
};
// Moving the clock by days expires the access token (2 h): sign in again at the new time.
const advanceDays = async (n: number) => {
  t.clock.advance(n * DAY_MS);
  await signIn();
};
const client = (account: Account, family: Family = account === 'district01' ? 'admin' : 'k12') => planClient(t, family, () => tokens[account]);

beforeAll(async () => {
  t = await createTestApp();
  await signIn();
  ids = await demoIds(t);
  for (const u of await t.db.select({ id: users.id, account: users.accountNum }).from(users)) userIds[u.account] = u.id;
});
afterAll(async () => {
  await t?.close();
});

const events = (planId: string) =>
  t.db.select().from(testPlanEvents).where(eq(testPlanEvents.planId, planId)).orderBy(asc(testPlanEvents.at), asc(testPlanEvents.kind));
const startImport = (planId: string) => startPlanJob(t.db, { planId, orgId: ids.k12Id, kind: 'import', userId: userIds.school01, now: t.clock.now() });

describe('a plan saved already ended', () => {
  it('an administrator corrects its dates, recorded in its history; a teacher may not', async () => {
    const saved = await client('teacher01').post('add', k12Plan(t, ids, { startDate: day(t, -20), endDate: day(t, -10) }));
    expect(saved.statusCode, saved.body).toBe(200);
    const plan = data<PlanDetail>(saved);
    expect(plan).toMatchObject({ status: 'ended', editable: false });

    const dates = { startDate: day(t, 0), endDate: day(t, 10) };
    expect((await client('teacher01').post(`dates/${plan.id}`, dates)).statusCode).toBe(403);

    const bad = await client('school01').post(`dates/${plan.id}`, { startDate: day(t, 5), endDate: day(t, 1) });
    expect(bad.statusCode).toBe(400);
    expect(msg(bad)).toContain('结束日期不能早于开始日期');

    const fixed = await client('school01').post(`dates/${plan.id}`, dates);
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(data<PlanDetail>(fixed)).toMatchObject({ ...dates, status: 'inProgress', editable: true });
    expect(await events(plan.id)).toEqual([
      expect.objectContaining({
        kind: 'datesCorrected',
        actorId: userIds.school01,
        detail: { before: { startDate: day(t, -20), endDate: day(t, -10), endedAt: null }, after: { ...dates, endedAt: null } },
      }),
    ]);
    // Scores can be imported into it now.
    const job = await startImport(plan.id);
    await finishPlanJob(t.db, job.id, { status: 'done' });

    // Only ended plans take this route; a live one is edited as usual.
    const live = await client('school01').post(`dates/${plan.id}`, dates, 'en-US');
    expect(live.statusCode).toBe(409);
    expect(msg(live)).toBe('This test plan has not ended; edit it instead.');
  });
});

describe('ending early is undone by an administrator while the dates allow', () => {
  it('teacher ends, teacher cannot undo, school01 reopens (recorded) and imports work again', async () => {
    const plan = data<PlanDetail>(await client('teacher01').post('add', k12Plan(t, ids, { startDate: day(t, -1), endDate: day(t, 10) })));
    expect((await client('teacher01').post(`end/${plan.id}`)).statusCode).toBe(200);
    await expect(startImport(plan.id)).rejects.toMatchObject({ status: 409 });
    expect((await client('teacher01').post(`reopen/${plan.id}`, {})).statusCode).toBe(403);

    const reopened = await client('school01').post(`reopen/${plan.id}`, {});
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(data<PlanDetail>(reopened)).toMatchObject({ status: 'inProgress', endedAt: null, editable: true });
    const [event] = await events(plan.id);
    expect(event).toMatchObject({ kind: 'reopened', actorId: userIds.school01 });
    expect(event.detail).toMatchObject({ before: { endedAt: t.clock.now().toISOString() }, after: { endedAt: null } });
    const job = await startImport(plan.id);
    await finishPlanJob(t.db, job.id, { status: 'done' });

    // Past its last day an early end is undone only together with new dates.
    expect((await client('teacher01').post(`end/${plan.id}`)).statusCode).toBe(200);
    await advanceDays(11);
    const late = await client('school01').post(`reopen/${plan.id}`, {});
    expect(late.statusCode).toBe(409);
    expect(msg(late)).toBe('测试计划的结束日期已过，请同时把结束日期改为今天或以后');
    const withDates = await client('school01').post(`reopen/${plan.id}`, { startDate: day(t, -1), endDate: day(t, 3) });
    expect(withDates.statusCode, withDates.body).toBe(200);
    expect(data<PlanDetail>(withDates)).toMatchObject({ status: 'inProgress', endDate: day(t, 3) });
    expect((await events(plan.id)).map((e) => e.kind)).toEqual(['reopened', 'reopened']);

    // Not ended: nothing to reopen.
    expect(msg(await client('school01').post(`reopen/${plan.id}`, {}))).toBe('测试计划未结束，请直接编辑');
    // Dates given halfway are refused with the missing field named.
    const half = await client('school01').post(`reopen/${plan.id}`, { endDate: day(t, 3) });
    expect(half.statusCode).toBe(400);
    expect(msg(half)).toContain('请选择开始日期');
  });
});

describe('deleting a plan with results moves it to the recycle bin', () => {
  /** The seeded K12 plan of 2025-2026: ended, with results. */
  const seededPlan = async () => {
    const [plan] = await t.db
      .select({ id: testPlans.id, name: testPlans.name, n: count(physiqueResults.id) })
      .from(testPlans)
      .innerJoin(physiqueResults, eq(physiqueResults.planId, testPlans.id))
      .where(and(eq(testPlans.orgId, ids.k12Id), lt(testPlans.endDate, day(t, 0))))
      .groupBy(testPlans.id, testPlans.name, testPlans.startDate)
      .orderBy(desc(testPlans.startDate))
      .limit(1);
    return plan;
  };
  const search = async (query: string) => {
    const res = await t.request({ url: `/api/busi/web/k12/organizeTest/scoreSearch/page?${query}`, token: tokens.school01 });
    expect(res.statusCode, res.body).toBe(200);
    return data<ScoreSearchPage>(res);
  };
  const listed = async (planId: string, bin = false) =>
    data<Page<PlanRow>>(await client('school01').get(`page?size=80${bin ? '&bin=1' : ''}`)).records.find((r) => r.id === planId);

  it("a district administrator's delete hides the school's plan and results until the school restores it", async () => {
    const plan = await seededPlan();
    expect(plan.n).toBeGreaterThan(0);
    expect((await search(`planId=${plan.id}`)).total).toBe(plan.n);

    const deleted = await client('district01').post(`delete/${plan.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(data(deleted)).toEqual({ binned: true });

    // Hidden: plan list, detail, score search, dashboards.
    expect(await listed(plan.id)).toBeUndefined();
    expect((await client('school01').get(`detail/${plan.id}`)).statusCode).toBe(404);
    const hidden = await search(`planId=${plan.id}`);
    expect(hidden.total).toBe(0);
    expect(hidden.summary.valid).toBe(0);
    expect((await search('size=80')).records.some((r) => r.planId === plan.id)).toBe(false);
    const dashboard = await t.request({ url: `/api/busi/web/k12/dataCenter/school?planId=${plan.id}`, token: tokens.school01 });
    expect(dashboard.statusCode).toBe(404);

    // In the school's bin, with the day it goes for good.
    const binned = await listed(plan.id, true);
    expect(binned).toMatchObject({ deletedAt: t.clock.now().toISOString(), purgeAt: new Date(t.clock.now().getTime() + 30 * DAY_MS).toISOString() });

    expect((await client('teacher01').post(`restore/${plan.id}`)).statusCode).toBe(403);
    const restored = await client('school01').post(`restore/${plan.id}`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await listed(plan.id)).toBeDefined();
    expect(await listed(plan.id, true)).toBeUndefined();
    expect((await search(`planId=${plan.id}`)).total).toBe(plan.n);
    expect((await events(plan.id)).map((e) => [e.kind, e.actorId])).toEqual([
      ['binned', userIds.district01],
      ['restored', userIds.school01],
    ]);
  });

  it('after 30 days in the bin a plan can no longer be restored and is purged with its results', async () => {
    const plan = await seededPlan();
    expect((await client('school01').post(`delete/${plan.id}`)).statusCode).toBe(200);
    await advanceDays(29);
    expect(await listed(plan.id, true)).toBeDefined();
    await advanceDays(2);
    expect(await listed(plan.id, true)).toBeUndefined();
    const late = await client('school01').post(`restore/${plan.id}`);
    expect(late.statusCode).toBe(409);
    expect(msg(late)).toBe('该测试计划在回收站已超过30天，不能再恢复');

    expect(await purgeRecycleBin(t.db, t.clock.now())).toBeGreaterThanOrEqual(1);
    expect(await t.db.$count(testPlans, eq(testPlans.id, plan.id))).toBe(0);
    expect(await t.db.$count(physiqueResults, eq(physiqueResults.planId, plan.id))).toBe(0);
    expect((await events(plan.id)).map((e) => e.kind)).toContain('purged');
    expect(await t.db.$count(testPlans, isNotNull(testPlans.deletedAt))).toBe(0);
  });

  it('a plan without results is deleted at once, not kept in the bin', async () => {
    const plan = data<PlanDetail>(await client('school01').post('add', k12Plan(t, ids, { startDate: day(t, 2), endDate: day(t, 5) })));
    const res = await client('school01').post(`delete/${plan.id}`);
    expect(data(res)).toEqual({ binned: false });
    expect(await t.db.$count(testPlans, eq(testPlans.id, plan.id))).toBe(0);
    expect(await t.db.$count(planJobs, eq(planJobs.planId, plan.id))).toBe(0);
  });
});
