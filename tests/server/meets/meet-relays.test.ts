import { and, asc, eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_TYPE } from '@/domain/constants';
import type { Envelope, Page } from '@/domain/api';
import { DEFAULT_CERTIFICATE_FIELDS } from '@/domain/meets/documents';
import type { EntryRow, TeamForm } from '@/domain/meets/entries';
import type { MeetDetail, MeetForm } from '@/domain/meets/meets';
import type { RecordRow } from '@/domain/meets/records';
import type { ResultRow } from '@/domain/meets/results';
import type { Arrangement, PointsView } from '@/features/meets/api';
import { meetAthletes } from '../../../server/db/schema/meets';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { jobFile } from '../../support/jobs';
import { createTestApp, type TestApp } from '../../support/server-app';

/** Relay teams (docs/product-rules.md#meets): a team of a class enters a relay, is drawn, timed, placed and scores for its class. */
let t: TestApp;
const tokens: Record<string, string> = {};
const base = 'k12/sportsMeet';
let meet: MeetDetail;
/** Classes with at least six studying boys: id, name and six boys. */
let squads: { classId: string; name: string; ids: string[] }[];
const ev = (name: string) => meet.groups[0].events.find((e) => e.name === name)!;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, account = 'school01', payload?: unknown, lang = 'zh-CN') =>
  t.request({ method, url: `/api/busi/web/${url}`, token: tokens[account], payload: payload as object, headers: { 'accept-language': lang } });
const body = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>();
const day = (offset: number) => {
  const d = t.clock.now();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

function meetForm(): MeetForm {
  return {
    name: '接力测试运动会',
    signupStart: day(-1),
    signupEnd: day(1),
    startDate: day(2),
    endDate: day(2),
    athleteCap: 1,
    groups: [
      {
        name: '初中男子组',
        gender: 'male',
        bibStart: 3001,
        gradeIds: [],
        events: [
          { name: '4×100米接力', type: 'relay', resultKind: 'time', lanes: 4, heatSize: 2, classCap: 2, relayLegs: 4, rounds: 'heatsFinal', advanceByPlace: 1, finalSize: 2 },
          { name: '100米', type: 'track', resultKind: 'time', lanes: 8, heatSize: 8, classCap: 6 },
        ],
      },
    ],
  };
}

const team = (over: Partial<TeamForm> & { squad?: number } = {}): TeamForm => {
  const { squad = 0, ...rest } = over;
  const s = squads[squad];
  return { eventId: ev('4×100米接力').id, classId: s.classId, teamName: `${s.name} A队`, legs: s.ids.slice(0, 4), reserves: [], ...rest };
};
const entries = async () => body<Page<EntryRow>>(await call('GET', `${base}/${meet.id}/entries?size=80&eventId=${ev('4×100米接力').id}`)).data.records;

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  for (const account of ['school01', 'college01', 'myclass01']) tokens[account] = (await t.login(account)).access_token;
  const [k12] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12));
  const rows = await t.db
    .select({ id: students.id, classId: students.classId, className: classes.name })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(and(eq(students.orgId, k12.id), eq(students.gender, 'male'), eq(students.status, 'studying')))
    .orderBy(asc(students.classId), asc(students.id));
  const by = new Map<string, { classId: string; name: string; ids: string[] }>();
  for (const r of rows) by.set(r.classId, { classId: r.classId, name: r.className, ids: [...(by.get(r.classId)?.ids ?? []), r.id] });
  squads = [...by.values()].filter((s) => s.ids.length >= 6).slice(0, 3);
  expect(squads).toHaveLength(3);
  const res = await call('POST', base, 'school01', meetForm());
  expect(res.statusCode, body(res).msg).toBe(200);
  meet = body<MeetDetail>(res).data;
});
afterAll(async () => {
  await t?.close();
});

describe('meet relays: the event', () => {
  it('keeps its legs (2–8) and refuses others naming the field, in the request language', async () => {
    expect(ev('4×100米接力').relayLegs).toBe(4);
    const bad = meetForm();
    bad.groups![0].events[0].relayLegs = 9;
    const res = await call('POST', base, 'school01', bad);
    expect(res.statusCode).toBe(400);
    expect(body(res)).toMatchObject({ msg: '接力棒数为2到8', data: { field: 'groups.0.events.0.relayLegs' } });
    expect(body(await call('POST', base, 'school01', bad, 'en-US')).msg).toBe('A relay has 2 to 8 legs');
    // Teams per heat cannot exceed the lanes, as athletes cannot.
    const crowded = meetForm();
    crowded.groups![0].events[0].heatSize = 5;
    expect(body(await call('POST', base, 'school01', crowded))).toMatchObject({ msg: '人数不能超过道次或编码数', data: { field: 'groups.0.events.0.heatSize' } });
  });
});

describe('meet relays: sign-up', () => {
  const url = () => `${base}/${meet.id}/teams`;

  it('refuses bad teams with the rule’s message naming the field, and writes nothing', async () => {
    const short = await call('POST', url(), 'school01', team({ legs: squads[0].ids.slice(0, 3) }));
    expect(short.statusCode).toBe(400);
    expect(body(short)).toMatchObject({ msg: '棒次队员人数须等于项目的接力棒数', data: { field: 'legs' } });
    const twice = await call('POST', url(), 'school01', team({ reserves: [squads[0].ids[0]] }));
    expect(body(twice)).toMatchObject({ msg: '同一名运动员不能在一支队伍中出现两次', data: { field: 'legs' } });
    expect(body(await call('POST', url(), 'school01', team({ teamName: ' ' }))).msg).toBe('请填写队名');
    const stranger = await call('POST', url(), 'school01', team({ legs: [...squads[0].ids.slice(0, 3), squads[1].ids[0]] }));
    expect(body(stranger).msg).toMatch(/^「.+」不是本班学生$/);
    expect(body(await call('POST', url(), 'school01', team({ eventId: ev('100米').id }))).msg).toBe('该项目不是接力项目');
    // An athlete cannot enter a relay alone.
    const alone = await call('POST', `${base}/${meet.id}/entries`, 'school01', { studentId: squads[0].ids[0], eventIds: [ev('4×100米接力').id] });
    expect(body(alone)).toMatchObject({ msg: '接力项目「4×100米接力」请以接力队报名', data: { field: 'eventIds' } });
    expect(await entries()).toEqual([]);
  });

  it('another organisation gets 404; a teacher gets 404 for a class outside their scope', async () => {
    expect((await call('POST', `gx/sportsMeet/${meet.id}/teams`, 'college01', team())).statusCode).toBe(404);
    const [me] = await t.db.select({ id: teachers.id }).from(teachers).where(eq(teachers.workNo, '100009'));
    const mine = (await t.db.select({ classId: teacherClasses.classId }).from(teacherClasses).where(eq(teacherClasses.teacherId, me.id))).map((r) => r.classId);
    const outside = squads.findIndex((s) => !mine.includes(s.classId));
    expect((await call('POST', `${base}/${meet.id}/teams`, 'myclass01', team({ squad: outside }))).statusCode).toBe(404);
  });

  it('enters teams with one bib each, members with their own bibs; one team per athlete per relay', async () => {
    const first = await call('POST', url(), 'school01', team());
    expect(first.statusCode, body(first).msg).toBe(200);
    const { bib } = body<{ id: string; bib: string }>(first).data;
    // The four runners took 3001–3004; the team the next number.
    expect(bib).toBe('3005');
    const busy = await call('POST', url(), 'school01', team({ teamName: `${squads[0].name} B队`, legs: [squads[0].ids[0], ...squads[0].ids.slice(4, 6), squads[0].ids[3]] }));
    expect(body(busy)).toMatchObject({ data: { field: 'legs' } });
    expect(body(busy).msg).toMatch(new RegExp(`已在本项目的「${squads[0].name} A队」中$`));
    expect(body(await call('POST', url(), 'school01', team({ legs: squads[0].ids.slice(2, 6) }))).msg).toBe('本项目已有同名队伍');
    expect((await call('POST', url(), 'school01', team({ squad: 1, reserves: [squads[1].ids[4]] }))).statusCode).toBe(200);
    expect((await call('POST', url(), 'school01', team({ squad: 2 }))).statusCode).toBe(200);

    const list = await entries();
    expect(list.map((e) => [e.kind, e.studentName, e.members.filter((m) => m.leg != null).length])).toEqual(
      expect.arrayContaining([['team', `${squads[0].name} A队`, 4], ['team', `${squads[1].name} A队`, 4], ['team', `${squads[2].name} A队`, 4]]),
    );
    const b = list.find((e) => e.classId === squads[1].classId)!;
    expect(b.members.map((m) => m.leg)).toEqual([1, 2, 3, 4, null]);
    // The sign-up list finds a team by a runner's name too.
    const [runner] = await t.db.select({ name: students.name }).from(students).where(eq(students.id, squads[1].ids[2]));
    const found = body<Page<EntryRow>>(await call('GET', `${base}/${meet.id}/entries?size=80&name=${encodeURIComponent(runner.name)}`)).data.records;
    expect(found.some((e) => e.id === b.id)).toBe(true);
  });

  it('offers the team form only students who may still run: the class, the group’s gender, not in a team of the relay', async () => {
    const q = `eventId=${ev('4×100米接力').id}&classId=${squads[0].classId}`;
    const offered = body<{ id: string; gender: string; classId: string }[]>(await call('GET', `${base}/${meet.id}/entries/candidates?${q}`)).data;
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.every((c) => c.gender === 'male' && c.classId === squads[0].classId)).toBe(true);
    expect(offered.map((c) => c.id)).not.toContain(squads[0].ids[0]);
    expect(offered.map((c) => c.id)).toContain(squads[0].ids[4]);
    expect((await call('GET', `gx/sportsMeet/${meet.id}/entries/candidates?${q}`, 'college01')).statusCode).toBe(404);
  });

  it('the class cap counts teams', async () => {
    const cap = meetForm();
    cap.name = '接力限报测试';
    cap.groups![0].events[0].classCap = 1;
    const m = body<MeetDetail>(await call('POST', base, 'school01', cap)).data;
    const relay = m.groups[0].events[0].id;
    const s = squads[0];
    expect((await call('POST', `${base}/${m.id}/teams`, 'school01', { eventId: relay, classId: s.classId, teamName: 'A队', legs: s.ids.slice(0, 4) })).statusCode).toBe(200);
    const capRes = await call('POST', `${base}/${m.id}/teams`, 'school01', { eventId: relay, classId: s.classId, teamName: 'B队', legs: [s.ids[4], s.ids[5], s.ids[0], s.ids[1]] });
    expect(body(capRes)).toMatchObject({ msg: '「4×100米接力」每班最多报1队', data: { field: 'classId' } });
  });

  it('a relay does not count toward the athlete cap', async () => {
    // athleteCap is 1: a runner of a team still enters the 100 m.
    const res = await call('POST', `${base}/${meet.id}/entries`, 'school01', { studentId: squads[0].ids[0], eventIds: [ev('100米').id] });
    expect(res.statusCode, body(res).msg).toBe(200);
  });

  it('edits a team (order, reserves) with its version: stale is 409; the team goes back to review', async () => {
    const a = (await entries()).find((e) => e.classId === squads[0].classId)!;
    await call('POST', `${base}/${meet.id}/entries/review`, 'school01', { ids: [a.id], status: 'approved' });
    const reordered = { ...team(), legs: [...squads[0].ids.slice(0, 4)].reverse(), reserves: [squads[0].ids[4]], version: a.version + 1 };
    const res = await call('PUT', `${base}/${meet.id}/teams/${a.id}`, 'school01', reordered);
    expect(res.statusCode, body(res).msg).toBe(200);
    const after = (await entries()).find((e) => e.id === a.id)!;
    expect(after.status).toBe('pending');
    expect(after.members.map((m) => m.studentId)).toEqual([...[...squads[0].ids.slice(0, 4)].reverse(), squads[0].ids[4]]);
    const stale = await call('PUT', `${base}/${meet.id}/teams/${a.id}`, 'school01', reordered);
    expect(stale.statusCode).toBe(409);
    expect((await call('PUT', `gx/sportsMeet/${meet.id}/teams/${a.id}`, 'college01', reordered)).statusCode).toBe(404);
  });

  it('team bibs are unique in the meet with the athletes’ bibs', async () => {
    const [a, b] = (await entries()).slice(0, 2);
    const taken = await call('PUT', `${base}/${meet.id}/entries/${a.id}/bib`, 'school01', { bib: b.bib! });
    expect(body(taken)).toMatchObject({ msg: '编号已被使用', data: { field: 'bib' } });
    const [runner] = await t.db.select({ id: meetAthletes.id, bib: meetAthletes.bib }).from(meetAthletes).where(eq(meetAthletes.meetId, meet.id)).orderBy(asc(meetAthletes.bib));
    expect(body(await call('PUT', `${base}/${meet.id}/entries/${a.id}/bib`, 'school01', { bib: runner.bib })).msg).toBe('编号已被使用');
    expect(body(await call('PUT', `${base}/${meet.id}/athletes/${runner.id}/bib`, 'school01', { bib: a.bib! })).msg).toBe('编号已被使用');
    expect((await call('PUT', `${base}/${meet.id}/entries/${a.id}/bib`, 'school01', { bib: '3999' })).statusCode).toBe(200);
  });
});

describe('meet relays: draw, results, points and records', () => {
  it('draws teams into heats and lanes with their runners in order', async () => {
    const ids = (await entries()).map((e) => e.id);
    expect((await call('POST', `${base}/${meet.id}/entries/review`, 'school01', { ids, status: 'approved' })).statusCode).toBe(200);
    expect((await call('POST', `${base}/${meet.id}/draw`, 'school01', { mode: 'random', seed: 7, eventIds: [ev('4×100米接力').id] })).statusCode).toBe(200);
    const arr = body<Arrangement>(await call('GET', `${base}/${meet.id}/arrangement`)).data;
    const heats = arr.heats.filter((h) => h.eventName === '4×100米接力' && h.round === 0);
    expect(heats.map((h) => h.athletes.length).sort()).toEqual([1, 2]);
    const a = heats.flatMap((h) => h.athletes).find((x) => x.name === `${squads[0].name} A队`)!;
    expect(a.bib).toBe('3999');
    expect(a.members.filter((m) => m.leg != null).map((m) => m.leg)).toEqual([1, 2, 3, 4]);
    // A team drawn cannot be edited.
    const e = (await entries())[0];
    expect(body(await call('PUT', `${base}/${meet.id}/teams/${e.id}`, 'school01', { ...team(), version: e.version })).msg).toBe('项目已编排，请先取消分组');
  });

  it('times teams, advances heat winners to the final, places them, doubles class points, and records the team', async () => {
    const arr = body<Arrangement>(await call('GET', `${base}/${meet.id}/arrangement`)).data;
    const heats = arr.heats.filter((h) => h.eventName === '4×100米接力' && h.round === 0);
    let time = 50;
    for (const h of heats) {
      const rows = body<ResultRow[]>(await call('GET', `${base}/${meet.id}/heats/${h.id}/results`)).data;
      expect(rows.every((r) => r.legNames && r.legNames.split('、').length === 4)).toBe(true);
      const res = await call('PUT', `${base}/${meet.id}/heats/${h.id}/results`, 'school01', { results: rows.map((r) => ({ id: r.id, mark: (time += 1) })) });
      expect(res.statusCode, body(res).msg).toBe(200);
    }
    const ids = heats.map((h) => h.id);
    await call('POST', `${base}/${meet.id}/results/step`, 'school01', { step: 'confirm', heatIds: ids });
    expect((await call('POST', `${base}/${meet.id}/results/step`, 'school01', { step: 'publish', heatIds: ids })).statusCode).toBe(200);

    const final = body<Arrangement>(await call('GET', `${base}/${meet.id}/arrangement`)).data.heats.find((h) => h.eventName === '4×100米接力' && h.round === 1)!;
    expect(final.athletes).toHaveLength(2);
    const rows = body<ResultRow[]>(await call('GET', `${base}/${meet.id}/heats/${final.id}/results`)).data;
    const [winner, runnerUp] = rows;
    await call('PUT', `${base}/${meet.id}/heats/${final.id}/results`, 'school01', { results: [{ id: winner.id, mark: 49.5 }, { id: runnerUp.id, mark: 50.25 }] });
    await call('POST', `${base}/${meet.id}/results/step`, 'school01', { step: 'confirm', heatIds: [final.id] });
    await call('POST', `${base}/${meet.id}/results/step`, 'school01', { step: 'publish', heatIds: [final.id] });
    const placed = body<ResultRow[]>(await call('GET', `${base}/${meet.id}/heats/${final.id}/results`)).data;
    expect(placed.map((r) => [r.studentName, r.place])).toEqual([
      [winner.studentName, 1],
      [runnerUp.studentName, 2],
    ]);

    const points = body<PointsView>(await call('GET', `${base}/${meet.id}/points`)).data;
    // Relays count double: 9 × 2 and 7 × 2 for the classes; no runner gets them in the all-round ranking.
    expect(points.lines.map((l) => [l.name, l.points])).toEqual([
      [winner.studentName, 18],
      [runnerUp.studentName, 14],
    ]);
    expect(points.classes.find((c) => c.name === winner.className)!.points).toBe(18);
    expect(points.athletes).toEqual([]);

    // The winning time starts the meet record, held by the team and its class.
    const records = body<Page<RecordRow>>(await call('GET', `${base}/records/page?size=80&state=pending&eventName=${encodeURIComponent('4×100米接力')}`)).data.records;
    expect(records.find((r) => r.meetId === meet.id)).toMatchObject({ holder: winner.studentName, className: winner.className, mark: 49.5 });

    // A certificate for the winning place names the team with its runners in leg order.
    const tpl = body<{ id: string }>(await call('POST', `${base}/certificates`, 'school01', { name: '接力证书', orientation: 'landscape', fields: DEFAULT_CERTIFICATE_FIELDS, backgroundFileId: null, stampId: null })).data;
    const zipped = await jobFile(t, tokens.school01, await call('POST', `${base}/certificates/${tpl.id}/issue`, 'school01', { meetId: meet.id, fromPlace: 1, toPlace: 1, format: 'zip' }));
    expect(zipped.statusCode).toBe(200);
    const index = Buffer.from(unzipSync(new Uint8Array(zipped.rawPayload))['index.csv']).toString('utf8');
    expect(index).toContain(`,${winner.studentName}（${winner.legNames}）,${winner.className},`);

    // Invalid: the runner-up moves up and takes the points.
    expect((await call('PUT', `${base}/${meet.id}/results/${winner.id}/invalid`, 'school01', { invalid: true, reason: '交接棒出区' })).statusCode).toBe(200);
    const again = body<PointsView>(await call('GET', `${base}/${meet.id}/points`)).data;
    expect(again.lines.map((l) => [l.name, l.points])).toEqual([[runnerUp.studentName, 18]]);
  });

  it('a withdrawn team gives back its runners’ bibs; a meet with teams deletes', async () => {
    const form = meetForm();
    form.name = '接力退赛测试';
    const m = body<MeetDetail>(await call('POST', base, 'school01', form)).data;
    const relay = m.groups[0].events[0].id;
    const s = squads[0];
    const first = body<{ id: string }>(await call('POST', `${base}/${m.id}/teams`, 'school01', { eventId: relay, classId: s.classId, teamName: 'A队', legs: s.ids.slice(0, 4) })).data;
    expect((await call('DELETE', `${base}/${m.id}/entries/${first.id}`)).statusCode).toBe(200);
    // The runners' bibs are free again.
    expect(await t.db.$count(meetAthletes, eq(meetAthletes.meetId, m.id))).toBe(0);
    expect((await call('POST', `${base}/${m.id}/teams`, 'school01', { eventId: relay, classId: s.classId, teamName: 'A队', legs: s.ids.slice(0, 4) })).statusCode).toBe(200);
    // A meet with teams deletes with everything it holds.
    expect((await call('DELETE', `${base}/${m.id}`)).statusCode).toBe(200);
    expect(await t.db.$count(meetAthletes, eq(meetAthletes.meetId, m.id))).toBe(0);
  });
});
