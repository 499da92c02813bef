import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { EntryRow } from '@/domain/meets/entries';
import type { MeetDetail, MeetForm } from '@/domain/meets/meets';
import type { ResultRow } from '@/domain/meets/results';
import type { Arrangement } from '@/features/meets/api';
import { orgs } from '../../../server/db/schema/orgs';
import { students } from '../../../server/db/schema/school';
import { createTestApp, type AsAnswer, type TestApp } from '../../support/server-app';

let t: TestApp;
const base = '/api/busi/web/k12/sportsMeet';
let meet: MeetDetail;

const day = (offset: number) => {
  const d = t.clock.now();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};
const arrangement = async () => (await t.as('school01').get<Arrangement>(`${base}/${meet.id}/arrangement`)).body.data;
const runs = async () => (await arrangement()).heats.filter((h) => h.eventName === '100米');

beforeAll(async () => {
  t = await createTestApp();
  const [k12] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12));
  const form: MeetForm = {
    name: '编排调整测试运动会',
    signupStart: day(-1),
    signupEnd: day(1),
    startDate: day(2),
    endDate: day(2),
    athleteCap: 2,
    groups: [
      {
        name: '男子组',
        gender: 'male',
        bibStart: 1,
        gradeIds: [],
        events: [
          { name: '100米', type: 'track', resultKind: 'time', lanes: 4, heatSize: 3, classCap: 6 },
          { name: '跳远', type: 'field', resultKind: 'distance', lanes: 0, heatSize: 12, classCap: 6 },
        ],
      },
    ],
  };
  const created = await t.as('school01').post(base, form);
  expect(created.status, created.body.msg).toBe(200);
  meet = (created as AsAnswer<MeetDetail>).body.data;
  const boys = await t.db.select({ id: students.id }).from(students).where(and(eq(students.orgId, k12.id), eq(students.gender, 'male'), eq(students.status, 'studying'))).orderBy(asc(students.classId)).limit(6);
  for (const b of boys) expect((await t.as('school01').post(`${base}/${meet.id}/entries`, { studentId: b.id, eventIds: meet.groups[0].events.map((e) => e.id) })).status).toBe(200);
  const entries = (await t.as('school01').get<Page<EntryRow>>(`${base}/${meet.id}/entries?size=80`)).body.data.records;
  await t.as('school01').post(`${base}/${meet.id}/entries/review`, { ids: entries.map((e) => e.id), status: 'approved' });
  expect((await t.as('school01').post(`${base}/${meet.id}/draw`, { mode: 'random', seed: 7 })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const move = (resultId: string, heatId: string, lane: number, account = 'school01', lang = 'zh-CN') => t.as(account, { language: lang }).put(`${base}/${meet.id}/lanes/${resultId}`, { heatId, lane });

describe('meet arrangement: manual moves', () => {
  it('two heats of three on four lanes', async () => {
    const heats = await runs();
    expect(heats.map((h) => h.athletes.length)).toEqual([3, 3]);
  });

  it('moves an athlete to a free lane of its heat, and swaps with the athlete on a taken lane of another heat', async () => {
    const [h1, h2] = await runs();
    const a = h1.athletes[0];
    const free = [1, 2, 3, 4].find((l) => !h1.athletes.some((x) => x.lane === l))!;
    expect((await move(a.id, h1.id, free)).status).toBe(200);
    expect((await runs())[0].athletes.find((x) => x.id === a.id)!.lane).toBe(free);

    const b = h2.athletes[0];
    expect((await move(a.id, h2.id, b.lane)).status).toBe(200);
    const [n1, n2] = await runs();
    expect(n2.athletes.find((x) => x.id === a.id)!.lane).toBe(b.lane);
    expect(n1.athletes.find((x) => x.id === b.id)!.lane).toBe(free);
    expect(n1.athletes).toHaveLength(3);
    expect(n2.athletes).toHaveLength(3);
  });

  it('refuses a free lane of a full heat, a lane beyond the lanes, a heat of another event and another organisation', async () => {
    const [h1, h2] = await runs();
    const free2 = [1, 2, 3, 4].find((l) => !h2.athletes.some((x) => x.lane === l))!;
    const full = await move(h1.athletes[0].id, h2.id, free2);
    expect(full.status).toBe(409);
    expect(full.body.msg).toBe('人数不能超过道次或编码数');
    const wide = await move(h1.athletes[0].id, h1.id, 5, 'school01', 'en-US');
    expect(wide.status).toBe(400);
    expect(wide.body.msg).toMatch(/4/);
    const jump = (await arrangement()).heats.find((h) => h.eventName === '跳远')!;
    expect((await move(h1.athletes[0].id, jump.id, 1)).status).toBe(404);
    expect((await t.as('college01').put(`/api/busi/web/gx/sportsMeet/${meet.id}/lanes/${h1.athletes[0].id}`, { heatId: h1.id, lane: 1 })).status).toBe(404);
  });

  it('cancels the grouping of one event, then clears the whole arrangement', async () => {
    const jumpId = meet.groups[0].events[1].id;
    expect((await t.as('school01').post(`${base}/${meet.id}/arrangement/clear`, { eventIds: [jumpId] })).status).toBe(200);
    let a = await arrangement();
    expect(a.heats.map((h) => h.eventName)).toEqual(['100米', '100米']);
    expect(a.arrangeState).toBe('grouped');
    expect((await t.as('school01').post(`${base}/${meet.id}/arrangement/clear`, {})).status).toBe(200);
    a = await arrangement();
    expect(a.heats).toHaveLength(0);
    expect(a.arrangeState).toBe('ungrouped');
  });

  it('nothing moves or clears once a result is entered', async () => {
    await t.as('school01').post(`${base}/${meet.id}/draw`, { mode: 'random', seed: 7 });
    const [h1, h2] = await runs();
    const rows = (await t.as('school01').get<ResultRow[]>(`${base}/${meet.id}/heats/${h1.id}/results`)).body.data;
    expect((await t.as('school01').put(`${base}/${meet.id}/heats/${h1.id}/results`, { results: [{ id: rows[0].id, mark: 12.3 }] })).status).toBe(200);
    const moved = await move(h2.athletes[0].id, h2.id, [1, 2, 3, 4].find((l) => !h2.athletes.some((x) => x.lane === l))!);
    expect(moved.status).toBe(409);
    expect(moved.body.msg).toBe('已有成绩录入，不能重新编排');
    expect((await t.as('school01').post(`${base}/${meet.id}/arrangement/clear`, {})).status).toBe(409);
  });
});
