import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { PlanDetail, PlanRow } from '@/domain/test-plans/types';
import { createTestApp, type TestApp } from '../../support/server-app';
import { data, day, demoIds, k12Plan, msg, planClient, type DemoIds } from './plan-fixtures';

const DAY_MS = 86_400_000;
let t: TestApp;
let ids: DemoIds;
let token = '';
const k12 = () => planClient(t, 'k12', () => token);
// Moving the clock by days expires the access token (2 h): sign in again at the new time.
const advanceDays = async (n: number) => {
  t.clock.advance(n * DAY_MS);
  token = (await t.login('school01')).access_token;
};

beforeAll(async () => {
  t = await createTestApp();
  token = (await t.login('school01')).access_token;
  ids = await demoIds(t);
});
afterAll(async () => {
  await t?.close();
});

describe('plan status follows the clock (docs/product-rules.md#plan-states)', () => {
  it('not started → in progress → ended, by local date, and ended plans refuse edits', async () => {
    const body = k12Plan(t, ids, { startDate: day(t, 1), endDate: day(t, 2) });
    const id = data<PlanDetail>(await k12().post('add', body)).id;
    const status = async () => data<PlanDetail>(await k12().get(`detail/${id}`)).status;
    const listed = async (s: string) => data<Page<PlanRow>>(await k12().get(`page?status=${s}&size=80`)).records.some((r) => r.id === id);

    expect(await status()).toBe('notStarted');
    expect(await listed('notStarted')).toBe(true);
    // Editable before it starts.
    expect((await k12().post(`edit/${id}`, { ...body, name: '改名后的计划' })).statusCode).toBe(200);

    await advanceDays(1);
    expect(await status()).toBe('inProgress');
    expect(await listed('inProgress')).toBe(true);
    expect(await listed('notStarted')).toBe(false);

    await advanceDays(1);
    expect(await status()).toBe('inProgress');

    await advanceDays(1);
    expect(await status()).toBe('ended');
    expect(await listed('ended')).toBe(true);
    const edit = await k12().post(`edit/${id}`, body);
    expect(edit.statusCode).toBe(409);
    expect(msg(edit)).toBe('测试计划已结束，不能编辑');
    // After its dates an ended plan may be deleted.
    expect((await k12().post(`delete/${id}`)).statusCode).toBe(200);
  });
});
