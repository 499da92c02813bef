import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { MeetRow } from '@/domain/meets/meets';
import type { RecordRow } from '@/domain/meets/records';
import type { ResultRow } from '@/domain/meets/results';
import type { Arrangement, PointsView } from '@/features/meets/api';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
const tokens: Record<string, string> = {};
const base = 'k12/sportsMeet';
let spring: MeetRow;
let jumpHeat: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['school01', 'college01']) tokens[account] = (await t.login(account)).access_token;
  spring = body<Page<MeetRow>>(await call('GET', `${base}/page?size=80`)).data.records.find((m) => m.name === '2026年春季田径运动会')!;
  const arr = body<Arrangement>(await call('GET', `${base}/${spring.id}/arrangement`)).data;
  jumpHeat = arr.heats.find((h) => h.eventName === '跳远')!.id;
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, account = 'school01', payload?: unknown, lang = 'zh-CN') =>
  t.request({ method, url: `/api/busi/web/${url}`, token: tokens[account], payload: payload as object, headers: { 'accept-language': lang } });
const body = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>();
const results = async () => body<ResultRow[]>(await call('GET', `${base}/${spring.id}/heats/${jumpHeat}/results`)).data;
const jumpRecords = async () =>
  body<Page<RecordRow>>(await call('GET', `${base}/records/page?size=80&eventName=${encodeURIComponent('跳远')}`)).data.records.filter((r) => r.meetId === spring.id && r.scope === 'meet');
const points = async () => body<PointsView>(await call('GET', `${base}/${spring.id}/points`)).data;

describe('meet results: invalid and restore', () => {
  it('needs a reason, in the request language, and changes nothing without one', async () => {
    const winner = (await results()).find((r) => r.place === 1)!;
    const res = await call('PUT', `${base}/${spring.id}/results/${winner.id}/invalid`, 'school01', { invalid: true });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toBe('请填写作废原因');
    const en = await call('PUT', `${base}/${spring.id}/results/${winner.id}/invalid`, 'school01', { invalid: true, reason: '  ' }, 'en-US');
    expect(body(en).msg).toBe('Give the reason the result is invalid');
    expect((await results()).find((r) => r.id === winner.id)).toMatchObject({ invalid: false, place: 1 });
  });

  it('another organisation gets 404', async () => {
    const winner = (await results()).find((r) => r.place === 1)!;
    expect((await call('PUT', `gx/sportsMeet/${spring.id}/results/${winner.id}/invalid`, 'college01', { invalid: true, reason: '犯规' })).statusCode).toBe(404);
  });

  it('an invalid result loses its place, points and record; the next athlete moves up; restoring brings it all back', async () => {
    const before = await results();
    const winner = before.find((r) => r.place === 1)!;
    const second = before.find((r) => r.place === 2)!;
    const record = (await jumpRecords()).find((r) => r.state === 'current')!;
    expect(record.holder).toBe(winner.studentName);
    const pointsOf = (p: PointsView, name: string) => p.lines.filter((l) => l.eventName === '跳远' && l.name === name).reduce((s, l) => s + l.points, 0);
    expect(pointsOf(await points(), winner.studentName)).toBeGreaterThan(0);

    const res = await call('PUT', `${base}/${spring.id}/results/${winner.id}/invalid`, 'school01', { invalid: true, reason: '踩线犯规，裁判复核' });
    expect(res.statusCode, body(res).msg).toBe(200);
    const after = await results();
    expect(after.find((r) => r.id === winner.id)).toMatchObject({ invalid: true, invalidReason: '踩线犯规，裁判复核', place: null, newRecord: false });
    expect(after.find((r) => r.id === second.id)!.place).toBe(1);
    expect(pointsOf(await points(), winner.studentName)).toBe(0);
    // Its record is gone; the new winner's mark starts a pending meet record.
    const recs = await jumpRecords();
    expect(recs.some((r) => r.id === record.id)).toBe(false);
    expect(recs.filter((r) => r.state !== 'history').map((r) => [r.holder, r.state])).toEqual([[second.studentName, 'pending']]);

    const back = await call('PUT', `${base}/${spring.id}/results/${winner.id}/invalid`, 'school01', { invalid: false });
    expect(back.statusCode).toBe(200);
    const restored = await results();
    expect(restored.find((r) => r.id === winner.id)).toMatchObject({ invalid: false, invalidReason: null, place: 1, newRecord: true });
    expect(restored.find((r) => r.id === second.id)!.place).toBe(2);
    expect(pointsOf(await points(), winner.studentName)).toBeGreaterThan(0);
    expect((await jumpRecords()).filter((r) => r.state !== 'history').map((r) => [r.holder, r.state])).toEqual([[winner.studentName, 'pending']]);
  });
});
