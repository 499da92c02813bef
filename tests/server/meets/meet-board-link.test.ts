import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { MeetBoardAnswer } from '@/domain/data-center/types';
import type { ScreenLinkCreated, ScreenLinkRow, WallConfig } from '@/domain/wall/wall';
import type { MeetBoardView } from '@/domain/meets/board';
import type { EntryRow } from '@/domain/meets/entries';
import type { MeetDetail, MeetRow } from '@/domain/meets/meets';
import type { ResultRow } from '@/domain/meets/results';
import { auditLogs } from '../../../server/db/schema/audit';
import { createMeet, dataOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
const base = '/api/busi/web/k12/sportsMeet';
let meet: MeetDetail;
let heatId: string;

// A wall opens its link without a sign-in, so it is not a t.as call.
const wall = (token: string, path: string, lang = 'zh-CN') => t.request({ url: `/api/screen/${token}/${path}`, headers: { 'accept-language': lang } });
const envelope = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>();
const board = async (token: string) => envelope<MeetBoardAnswer>(await wall(token, 'scene/meetBoard')).data.board;

beforeAll(async () => {
  t = await createTestApp();
  // A small meet with one heat of four whose results are entered and confirmed, not yet published.
  const made = await createMeet(t, {
    name: '大屏链接运动会',
    entries: 4,
    groups: [{ name: '初中男子组', gender: 'male', bibStart: 1001, gradeIds: [], events: [{ name: '60米', type: 'track', resultKind: 'time', lanes: 8, heatSize: 8, classCap: 2 }] }],
  });
  meet = made.meet;
  const me = t.as('school01');
  const entries = dataOf(await me.get<Page<EntryRow>>(`${base}/${meet.id}/entries?size=80`)).records;
  await me.post(`${base}/${meet.id}/entries/review`, { ids: entries.map((e) => e.id), status: 'approved' });
  await me.post(`${base}/${meet.id}/draw`, { mode: 'random', seed: 7 });
  expect((await me.post(`${base}/${meet.id}/schedule`, {})).status).toBe(200);
  const arr = dataOf(await me.get<{ heats: { id: string }[] }>(`${base}/${meet.id}/arrangement`));
  heatId = arr.heats[0].id;
  const rows = dataOf(await me.get<ResultRow[]>(`${base}/${meet.id}/heats/${heatId}/results`));
  await me.put(`${base}/${meet.id}/heats/${heatId}/results`, { results: rows.map((r, i) => ({ id: r.id, mark: 8.1 + i / 10 })) });
  expect((await me.post(`${base}/${meet.id}/results/step`, { step: 'confirm', heatIds: [heatId] })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('meet board links', () => {
  let link: ScreenLinkCreated;

  it('are created for a meet with the wall path shown once, listed under the meet only, and audited', async () => {
    const res = await t.as('school01').post<ScreenLinkCreated>(`${base}/${meet.id}/boardLinks`, { name: '主席台大屏' });
    expect(res.status, res.res.body).toBe(200);
    link = res.body.data;
    expect(link.path).toBe(`/busi/wall/${link.token}`);
    expect(link).toMatchObject({ name: '主席台大屏', meetId: meet.id, revokedAt: null, playlist: { scenes: ['meetBoard'], refreshSeconds: 5 } });
    // Open until a week after the meet's last day.
    expect(link.expiresAt).toBe(new Date(Date.parse(`${meet.endDate}T00:00:00Z`) + 8 * 86_400_000).toISOString());
    const list = dataOf(await t.as('school01').get<ScreenLinkRow[]>(`${base}/${meet.id}/boardLinks`));
    expect(list.map((l) => l.id)).toEqual([link.id]);
    expect(list[0]).not.toHaveProperty('token');
    // The data centre's list keeps to its own links.
    const dc = dataOf(await t.as('school01').get<ScreenLinkRow[]>('/api/busi/web/k12/dataCenter/screenLink'));
    expect(dc.map((l) => l.id)).not.toContain(link.id);
    const logged = await t.db.select({ action: auditLogs.action }).from(auditLogs).where(eq(auditLogs.entityId, meet.id));
    expect(logged.map((l) => l.action)).toContain('createBoardLink');
  });

  it('validate the name with translated messages', async () => {
    const bad = await t.as('school01', { language: 'en-US' }).post(`${base}/${meet.id}/boardLinks`, { name: ' ' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('The link name must be 1 to 50 characters.');
  });

  it('open the meet board without a sign-in', async () => {
    const cfg = await wall(link.token, 'config');
    expect(cfg.statusCode).toBe(200);
    expect(cfg.headers['cache-control']).toBe('no-store');
    expect(envelope<WallConfig>(cfg).data).toMatchObject({ name: '主席台大屏', meet: { id: meet.id, name: '大屏链接运动会' }, playlist: { scenes: ['meetBoard'] } });
    const scene = envelope<MeetBoardAnswer>(await wall(link.token, 'scene/meetBoard')).data;
    expect(scene.scene).toBe('meetBoard');
    expect(scene.board.name).toBe('大屏链接运动会');
    // A data-centre scene is not in a board link.
    expect((await wall(link.token, 'scene/schoolOverview')).statusCode).toBe(404);
  });

  it('show only published results: a confirmed heat stays upcoming until it is published', async () => {
    const before = await board(link.token);
    expect(before.latest).toEqual([]);
    expect(before.classes).toEqual([]);
    expect(before.upcoming.map((u) => u.id)).toContain(heatId);
    expect((await t.as('school01').post(`${base}/${meet.id}/results/step`, { step: 'publish', heatIds: [heatId] })).status).toBe(200);
    // The board cache lives two seconds: a wall sees the result on its next poll after that.
    t.clock.advance(3_000);
    const after = await board(link.token);
    expect(after.latest.map((l) => l.heatId)).toEqual([heatId]);
    expect(after.latest[0].results.map((r) => r.place)).toEqual([1, 2, 3, 4]);
    expect(after.upcoming.map((u) => u.id)).not.toContain(heatId);
    // The same board the signed-in score screen shows.
    const signedIn = dataOf(await t.as('school01').get<MeetBoardView>(`${base}/${meet.id}/board`));
    expect(after).toEqual(signedIn);
  });

  it('show the finished demo meet with its new records', async () => {
    const spring = dataOf(await t.as('school01').get<Page<MeetRow>>(`${base}/page?size=80`)).records.find((m) => m.name === '2026年春季田径运动会')!;
    const created = dataOf(await t.as('school01').post<ScreenLinkCreated>(`${base}/${spring.id}/boardLinks`, { name: '春季' }));
    const b = await board(created.token);
    expect(b.latest.length).toBeGreaterThan(0);
    expect(b.classes.length).toBeGreaterThan(0);
    expect(b.records.length).toBeGreaterThan(0);
    // An ended meet's link still runs a week from its creation.
    expect(Date.parse(created.expiresAt!)).toBeGreaterThanOrEqual(t.clock.now().getTime() + 7 * 86_400_000);
  });

  it('need the reviewer’s codes and stay within the organisation', async () => {
    expect((await t.as('teacher01').post(`${base}/${meet.id}/boardLinks`, { name: '教师' })).status).toBe(403);
    expect((await t.as('teacher01').get(`${base}/${meet.id}/boardLinks`)).status).toBe(403);
    // Another organisation's meet is not found, for creating, listing and revoking alike.
    const gx = '/api/busi/web/gx/sportsMeet';
    expect((await t.as('college01').post(`${gx}/${meet.id}/boardLinks`, { name: '别校' })).status).toBe(404);
    expect((await t.as('college01').get(`${gx}/${meet.id}/boardLinks`)).status).toBe(404);
    expect((await t.as('college01').delete(`${gx}/${meet.id}/boardLinks/${link.id}`)).status).toBe(404);
    // Nor can the data centre's revoke reach a board link.
    expect((await t.as('school01').delete(`/api/busi/web/k12/dataCenter/screenLink/${link.id}`)).status).toBe(404);
    expect((await wall(link.token, 'config')).statusCode).toBe(200);
  });

  it('are refused once revoked, and once expired', async () => {
    const del = await t.as('school01').delete<ScreenLinkRow>(`${base}/${meet.id}/boardLinks/${link.id}`);
    expect(del.status).toBe(200);
    expect(del.body.data.revokedAt).not.toBeNull();
    const refused = await wall(link.token, 'scene/meetBoard', 'en-US');
    expect(refused.statusCode).toBe(410);
    expect(envelope(refused).msg).toBe('This screen link has been revoked. Ask an administrator for a new link.');
    expect((await t.as('school01').delete(`${base}/${meet.id}/boardLinks/${link.id}`)).status).toBe(200);

    const other = dataOf(await t.as('school01').post<ScreenLinkCreated>(`${base}/${meet.id}/boardLinks`, { name: '走廊' }));
    expect((await wall(other.token, 'config')).statusCode).toBe(200);
    t.clock.advance(Date.parse(other.expiresAt!) + 1000 - t.clock.now().getTime());
    const expired = await wall(other.token, 'config');
    expect(expired.statusCode).toBe(410);
    expect(envelope(expired).msg).toBe('该大屏链接已过期，请联系管理员获取新的链接');
  });
});
