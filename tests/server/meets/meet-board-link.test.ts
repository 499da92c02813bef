import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { MeetBoardAnswer } from '@/domain/data-center/types';
import type { ScreenLinkCreated, ScreenLinkRow, WallConfig } from '@/domain/wall/wall';
import type { MeetBoardView } from '@/domain/meets/board';
import type { EntryRow } from '@/domain/meets/entries';
import type { MeetDetail, MeetForm, MeetRow } from '@/domain/meets/meets';
import type { ResultRow } from '@/domain/meets/results';
import { auditLogs } from '../../../server/db/schema/audit';
import { orgs } from '../../../server/db/schema/orgs';
import { students } from '../../../server/db/schema/school';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
const tokens: Record<string, string> = {};
const base = 'k12/sportsMeet';
let meet: MeetDetail;
let heatId: string;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, account = 'school01', payload?: unknown, lang = 'zh-CN') =>
  t.request({ method, url: `/api/busi/web/${url}`, token: tokens[account], payload: payload as object, headers: { 'accept-language': lang } });
const body = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>();
const wall = (token: string, path: string, lang = 'zh-CN') => t.request({ url: `/api/screen/${token}/${path}`, headers: { 'accept-language': lang } });
const board = async (token: string) => body<MeetBoardAnswer>(await wall(token, 'scene/meetBoard')).data.board;

const day = (offset: number) => {
  const d = t.clock.now();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

const form = (): MeetForm => ({
  name: '大屏链接运动会',
  signupStart: day(-1),
  signupEnd: day(1),
  startDate: day(2),
  endDate: day(2),
  athleteCap: 2,
  groups: [{ name: '初中男子组', gender: 'male', bibStart: 1001, gradeIds: [], events: [{ name: '60米', type: 'track', resultKind: 'time', lanes: 8, heatSize: 8, classCap: 2 }] }],
});

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['school01', 'teacher01', 'college01']) tokens[account] = (await t.login(account)).access_token;
  // A small meet with one heat whose results are entered and confirmed, not yet published.
  meet = body<MeetDetail>(await call('POST', base, 'school01', form())).data;
  const [k12] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).orderBy(asc(orgs.code)).limit(1);
  const boys = await t.db
    .select({ id: students.id, classId: students.classId })
    .from(students)
    .where(and(eq(students.orgId, k12.id), eq(students.gender, 'male'), eq(students.status, 'studying')))
    .orderBy(asc(students.classId), asc(students.id));
  const perClass = new Map<string, number>();
  const picked = boys.filter((b) => {
    const n = perClass.get(b.classId) ?? 0;
    perClass.set(b.classId, n + 1);
    return n < 2;
  });
  for (const s of picked.slice(0, 4)) expect((await call('POST', `${base}/${meet.id}/entries`, 'school01', { studentId: s.id, eventIds: [meet.groups[0].events[0].id] })).statusCode).toBe(200);
  const entries = body<Page<EntryRow>>(await call('GET', `${base}/${meet.id}/entries?size=80`)).data.records;
  await call('POST', `${base}/${meet.id}/entries/review`, 'school01', { ids: entries.map((e) => e.id), status: 'approved' });
  await call('POST', `${base}/${meet.id}/draw`, 'school01', { mode: 'random', seed: 7 });
  expect((await call('POST', `${base}/${meet.id}/schedule`, 'school01', {})).statusCode).toBe(200);
  const arr = body<{ heats: { id: string }[] }>(await call('GET', `${base}/${meet.id}/arrangement`)).data;
  heatId = arr.heats[0].id;
  const rows = body<ResultRow[]>(await call('GET', `${base}/${meet.id}/heats/${heatId}/results`)).data;
  await call('PUT', `${base}/${meet.id}/heats/${heatId}/results`, 'school01', { results: rows.map((r, i) => ({ id: r.id, mark: 8.1 + i / 10 })) });
  expect((await call('POST', `${base}/${meet.id}/results/step`, 'school01', { step: 'confirm', heatIds: [heatId] })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('meet board links', () => {
  let link: ScreenLinkCreated;

  it('are created for a meet with the wall path shown once, listed under the meet only, and audited', async () => {
    const res = await call('POST', `${base}/${meet.id}/boardLinks`, 'school01', { name: '主席台大屏' });
    expect(res.statusCode, res.body).toBe(200);
    link = body<ScreenLinkCreated>(res).data;
    expect(link.path).toBe(`/busi/wall/${link.token}`);
    expect(link).toMatchObject({ name: '主席台大屏', meetId: meet.id, revokedAt: null, playlist: { scenes: ['meetBoard'], refreshSeconds: 5 } });
    // Open until a week after the meet's last day.
    expect(link.expiresAt).toBe(new Date(Date.parse(`${meet.endDate}T00:00:00Z`) + 8 * 86_400_000).toISOString());
    const list = body<ScreenLinkRow[]>(await call('GET', `${base}/${meet.id}/boardLinks`)).data;
    expect(list.map((l) => l.id)).toEqual([link.id]);
    expect(list[0]).not.toHaveProperty('token');
    // The data centre's list keeps to its own links.
    const dc = body<ScreenLinkRow[]>(await call('GET', 'k12/dataCenter/screenLink')).data;
    expect(dc.map((l) => l.id)).not.toContain(link.id);
    const logged = await t.db.select({ action: auditLogs.action }).from(auditLogs).where(eq(auditLogs.entityId, meet.id));
    expect(logged.map((l) => l.action)).toContain('createBoardLink');
  });

  it('validate the name with translated messages', async () => {
    const bad = await call('POST', `${base}/${meet.id}/boardLinks`, 'school01', { name: ' ' }, 'en-US');
    expect(bad.statusCode).toBe(400);
    expect(body(bad).msg).toBe('The link name must be 1 to 50 characters.');
  });

  it('open the meet board without a sign-in', async () => {
    const cfg = await wall(link.token, 'config');
    expect(cfg.statusCode).toBe(200);
    expect(cfg.headers['cache-control']).toBe('no-store');
    expect(body<WallConfig>(cfg).data).toMatchObject({ name: '主席台大屏', meet: { id: meet.id, name: '大屏链接运动会' }, playlist: { scenes: ['meetBoard'] } });
    const scene = body<MeetBoardAnswer>(await wall(link.token, 'scene/meetBoard')).data;
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
    expect((await call('POST', `${base}/${meet.id}/results/step`, 'school01', { step: 'publish', heatIds: [heatId] })).statusCode).toBe(200);
    // The board cache lives two seconds: a wall sees the result on its next poll after that.
    t.clock.advance(3_000);
    const after = await board(link.token);
    expect(after.latest.map((l) => l.heatId)).toEqual([heatId]);
    expect(after.latest[0].results.map((r) => r.place)).toEqual([1, 2, 3, 4]);
    expect(after.upcoming.map((u) => u.id)).not.toContain(heatId);
    // The same board the signed-in score screen shows.
    const signedIn = body<MeetBoardView>(await call('GET', `${base}/${meet.id}/board`)).data;
    expect(after).toEqual(signedIn);
  });

  it('show the finished demo meet with its new records', async () => {
    const spring = body<Page<MeetRow>>(await call('GET', `${base}/page?size=80`)).data.records.find((m) => m.name === '2026年春季田径运动会')!;
    const created = body<ScreenLinkCreated>(await call('POST', `${base}/${spring.id}/boardLinks`, 'school01', { name: '春季' })).data;
    const b = await board(created.token);
    expect(b.latest.length).toBeGreaterThan(0);
    expect(b.classes.length).toBeGreaterThan(0);
    expect(b.records.length).toBeGreaterThan(0);
    // An ended meet's link still runs a week from its creation.
    expect(Date.parse(created.expiresAt!)).toBeGreaterThanOrEqual(t.clock.now().getTime() + 7 * 86_400_000);
  });

  it('need the reviewer’s codes and stay within the organisation', async () => {
    expect((await call('POST', `${base}/${meet.id}/boardLinks`, 'teacher01', { name: '教师' })).statusCode).toBe(403);
    expect((await call('GET', `${base}/${meet.id}/boardLinks`, 'teacher01')).statusCode).toBe(403);
    // Another organisation's meet is not found, for creating, listing and revoking alike.
    expect((await call('POST', `gx/sportsMeet/${meet.id}/boardLinks`, 'college01', { name: '别校' })).statusCode).toBe(404);
    expect((await call('GET', `gx/sportsMeet/${meet.id}/boardLinks`, 'college01')).statusCode).toBe(404);
    expect((await call('DELETE', `gx/sportsMeet/${meet.id}/boardLinks/${link.id}`, 'college01')).statusCode).toBe(404);
    // Nor can the data centre's revoke reach a board link.
    expect((await call('DELETE', `k12/dataCenter/screenLink/${link.id}`)).statusCode).toBe(404);
    expect((await wall(link.token, 'config')).statusCode).toBe(200);
  });

  it('are refused once revoked, and once expired', async () => {
    const del = await call('DELETE', `${base}/${meet.id}/boardLinks/${link.id}`);
    expect(del.statusCode).toBe(200);
    expect(body<ScreenLinkRow>(del).data.revokedAt).not.toBeNull();
    const refused = await wall(link.token, 'scene/meetBoard', 'en-US');
    expect(refused.statusCode).toBe(410);
    expect(body(refused).msg).toBe('This screen link has been revoked. Ask an administrator for a new link.');
    expect((await call('DELETE', `${base}/${meet.id}/boardLinks/${link.id}`)).statusCode).toBe(200);

    const other = body<ScreenLinkCreated>(await call('POST', `${base}/${meet.id}/boardLinks`, 'school01', { name: '走廊' })).data;
    expect((await wall(other.token, 'config')).statusCode).toBe(200);
    t.clock.advance(Date.parse(other.expiresAt!) + 1000 - t.clock.now().getTime());
    const expired = await wall(other.token, 'config');
    expect(expired.statusCode).toBe(410);
    expect(body(expired).msg).toBe('该大屏链接已过期，请联系管理员获取新的链接');
  });
});
