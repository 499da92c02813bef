import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_TYPE } from '@/domain/constants';
import { localDate } from '@/domain/dates';
import type { MeetDetail, MeetRow } from '@/domain/meets/meets';
import { orgs } from '../../../server/db/schema/orgs';
import { students } from '../../../server/db/schema/school';
import { createTestApp, type TestApp } from '../../support/server-app';

// The days of a meet are calendar days in China (src/domain/dates.ts): the sign-up window closes at China's midnight,
// eight hours before the UTC day ends.
let t: TestApp;
let boys: string[];

beforeAll(async () => {
  t = await createTestApp();
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

const MEETS = '/api/busi/web/k12/sportsMeet';
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
    const meet = (await t.as('school01').post<MeetDetail>(MEETS, form)).body.data;
    const eventIds = [meet.groups[0].events[0].id];
    expect((await t.as('school01').post(`${MEETS}/${meet.id}/entries`, { studentId: boys[0], eventIds })).status).toBe(200);

    // 00:30 the next morning in China is 16:30 UTC of the last sign-up day.
    t.clock.advance(Date.parse(`${today}T16:30:00Z`) - t.clock.now().getTime());
    t.signInAgain();
    const late = await t.as('school01').post(`${MEETS}/${meet.id}/entries`, { studentId: boys[1], eventIds });
    expect(late.status).toBe(409);
    expect(late.body.msg).toBe('不在报名时间内');
    const page = (await t.as('school01').get<{ records: MeetRow[] }>(`${MEETS}/page?current=1&size=50&name=${encodeURIComponent('本地日期运动会')}`)).body.data;
    expect(page.records[0].status).toBe('notStarted');
  });
});
