import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { MeetRow } from '@/domain/meets/meets';
import type { RecordRow } from '@/domain/meets/records';
import type { ResultRow } from '@/domain/meets/results';
import type { Arrangement, PointsView } from '@/features/meets/api';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
const base = '/api/busi/web/k12/sportsMeet';
let spring: MeetRow;
let jumpHeat: string;

beforeAll(async () => {
  t = await createTestApp();
  spring = (await t.as('school01').get<Page<MeetRow>>(`${base}/page?size=80`)).body.data.records.find((m) => m.name === '2026年春季田径运动会')!;
  const arr = (await t.as('school01').get<Arrangement>(`${base}/${spring.id}/arrangement`)).body.data;
  jumpHeat = arr.heats.find((h) => h.eventName === '跳远')!.id;
});
afterAll(async () => {
  await t?.close();
});

const results = async () => (await t.as('school01').get<ResultRow[]>(`${base}/${spring.id}/heats/${jumpHeat}/results`)).body.data;
const jumpRecords = async () =>
  (await t.as('school01').get<Page<RecordRow>>(`${base}/records/page?size=80&eventName=${encodeURIComponent('跳远')}`)).body.data.records.filter((r) => r.meetId === spring.id && r.scope === 'meet');
const points = async () => (await t.as('school01').get<PointsView>(`${base}/${spring.id}/points`)).body.data;

describe('meet results: invalid and restore', () => {
  it('needs a reason, in the request language, and changes nothing without one', async () => {
    const winner = (await results()).find((r) => r.place === 1)!;
    const res = await t.as('school01').put(`${base}/${spring.id}/results/${winner.id}/invalid`, { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('请填写作废原因');
    const en = await t.as('school01', { language: 'en-US' }).put(`${base}/${spring.id}/results/${winner.id}/invalid`, { invalid: true, reason: '  ' });
    expect(en.body.msg).toBe('Give the reason the result is invalid');
    expect((await results()).find((r) => r.id === winner.id)).toMatchObject({ invalid: false, place: 1 });
  });

  it('another organisation gets 404', async () => {
    const winner = (await results()).find((r) => r.place === 1)!;
    expect((await t.as('college01').put(`/api/busi/web/gx/sportsMeet/${spring.id}/results/${winner.id}/invalid`, { invalid: true, reason: '犯规' })).status).toBe(404);
  });

  it('an invalid result loses its place, points and record; the next athlete moves up; restoring brings it all back', async () => {
    const before = await results();
    const winner = before.find((r) => r.place === 1)!;
    const second = before.find((r) => r.place === 2)!;
    const record = (await jumpRecords()).find((r) => r.state === 'current')!;
    expect(record.holder).toBe(winner.studentName);
    const pointsOf = (p: PointsView, name: string) => p.lines.filter((l) => l.eventName === '跳远' && l.name === name).reduce((s, l) => s + l.points, 0);
    expect(pointsOf(await points(), winner.studentName)).toBeGreaterThan(0);

    const res = await t.as('school01').put(`${base}/${spring.id}/results/${winner.id}/invalid`, { invalid: true, reason: '踩线犯规，裁判复核' });
    expect(res.status, res.body.msg).toBe(200);
    const after = await results();
    expect(after.find((r) => r.id === winner.id)).toMatchObject({ invalid: true, invalidReason: '踩线犯规，裁判复核', place: null, newRecord: false });
    expect(after.find((r) => r.id === second.id)!.place).toBe(1);
    expect(pointsOf(await points(), winner.studentName)).toBe(0);
    // Its record is gone; the new winner's mark starts a pending meet record.
    const recs = await jumpRecords();
    expect(recs.some((r) => r.id === record.id)).toBe(false);
    expect(recs.filter((r) => r.state !== 'history').map((r) => [r.holder, r.state])).toEqual([[second.studentName, 'pending']]);

    const back = await t.as('school01').put(`${base}/${spring.id}/results/${winner.id}/invalid`, { invalid: false });
    expect(back.status).toBe(200);
    const restored = await results();
    expect(restored.find((r) => r.id === winner.id)).toMatchObject({ invalid: false, invalidReason: null, place: 1, newRecord: true });
    expect(restored.find((r) => r.id === second.id)!.place).toBe(2);
    expect(pointsOf(await points(), winner.studentName)).toBeGreaterThan(0);
    expect((await jumpRecords()).filter((r) => r.state !== 'history').map((r) => [r.holder, r.state])).toEqual([[winner.studentName, 'pending']]);
  });
});
