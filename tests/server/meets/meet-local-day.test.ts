import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import { localDate } from '@/domain/dates';
import type { MeetDetail, MeetRow } from '@/domain/meets/meets';
import { orgs } from '../../../server/db/schema/orgs';
import { students } from '../../../server/db/schema/school';
import { createTestApp, type TestApp } from '../../support/server-app';

// The days of a meet are calendar days in China (src/domain/dates.ts): the sign-up window closes at China's midnight,
// eight hours before the UTC day ends.
let t: TestApp;
let token: string;
let boys: string[];

beforeAll(async () => {
  t = await createTestApp();
  token = (await t.login('school01')).access_token;
  const [k12] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12));
  boys = (
    await t.db
    .select({ id: students.id })
    .from(students)
    .where(and(eq(students.orgId, k12.id), eq(students.gender, 'male'), eq(students.status, 'studying')))
      .orderBy(asc(students.id))
      .limit(2)
  ).map((r) => r.id);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.request({ method, url: `/api/busi/web/k12/sportsMeet${url}`, token, payload: payload as object });
const shift = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe('meets: days are China days', () => {
  it('closes the sign-up at midnight in China, while the UTC day is still the last sign-up day', async () => {
    const today = localDate(t.clock.now());
    const form = {
      name: '本地日期运动会',
      signupStart: shift(today, -1),
      signupEnd: today,
      startDate: shift(today, 2),
      endDate: shift(today, 3),
      athleteCap: 2,
      groups: [{ name: '男子组', gender: 'male', bibStart: 1001, gradeIds: [], events: [{ name: '100米', type: 'track', resultKind: 'time', lanes: 8, heatSize: 8, classCap: 5 }] }],
    };
    const meet = (await call('POST', '', form)).json<Envelope<MeetDetail>>().data;
    const eventIds = [meet.groups[0].events[0].id];
    expect((await call('POST', `/${meet.id}/entries`, { studentId: boys[0], eventIds })).statusCode).toBe(200);

    // 00:30 the next morning in China is 16:30 UTC of the last sign-up day.
    t.clock.advance(Date.parse(`${today}T16:30:00Z`) - t.clock.now().getTime());
    token = (await t.login('school01')).access_token;
    const late = await call('POST', `/${meet.id}/entries`, { studentId: boys[1], eventIds });
    expect(late.statusCode).toBe(409);
    expect(late.json<Envelope<unknown>>().msg).toBe('不在报名时间内');
    const page = (await call('GET', `/page?current=1&size=50&name=${encodeURIComponent('本地日期运动会')}`)).json<Envelope<{ records: MeetRow[] }>>().data;
    expect(page.records[0].status).toBe('notStarted');
  });
});
