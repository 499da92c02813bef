import { and, asc, eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import { DEFAULT_CERTIFICATE_FIELDS } from '@/domain/meets/documents';
import type { EntryRow, TeamForm } from '@/domain/meets/entries';
import type { MeetDetail, MeetForm } from '@/domain/meets/meets';
import type { RecordRow } from '@/domain/meets/records';
import type { ResultRow } from '@/domain/meets/results';
import type { Arrangement, PointsView } from '@/features/meets/api';
import { meetAthletes } from '../../../server/db/schema/meets';
import { classes, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { dataOf, DEMO, orgOf } from '../../support/factories';
import { jobFile } from '../../support/jobs';
import { createTestApp, type TestApp } from '../../support/server-app';

/** Relay teams (docs/product-rules.md#meets): a team of a class enters a relay, is drawn, timed, placed and scores for its class. */
let t: TestApp;
const base = '/api/busi/web/k12/sportsMeet';
let meet: MeetDetail;
/** Classes with at least six studying boys: id, name and six boys. */
let squads: { classId: string; name: string; ids: string[] }[];
const ev = (name: string) => meet.groups[0].events.find((e) => e.name === name)!;

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
const entries = async () => dataOf(await t.as('school01').get<Page<EntryRow>>(`${base}/${meet.id}/entries?size=80&eventId=${ev('4×100米接力').id}`)).records;

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  const k12 = await orgOf(t, DEMO.school);
  const rows = await t.db
    .select({ id: students.id, classId: students.classId, className: classes.name })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(and(eq(students.orgId, k12.orgId), eq(students.gender, 'male'), eq(students.status, 'studying')))
    .orderBy(asc(students.classId), asc(students.id));
  const by = new Map<string, { classId: string; name: string; ids: string[] }>();
  for (const r of rows) by.set(r.classId, { classId: r.classId, name: r.className, ids: [...(by.get(r.classId)?.ids ?? []), r.id] });
  squads = [...by.values()].filter((s) => s.ids.length >= 6).slice(0, 3);
  expect(squads).toHaveLength(3);
  const res = await t.as('school01').post<MeetDetail>(base, meetForm());
  expect(res.status, res.body.msg).toBe(200);
  meet = res.body.data;
});
afterAll(async () => {
  await t?.close();
});

describe('meet relays: the event', () => {
  it('keeps its legs (2–8) and refuses others naming the field, in the request language', async () => {
    expect(ev('4×100米接力').relayLegs).toBe(4);
    const bad = meetForm();
    bad.groups![0].events[0].relayLegs = 9;
    const res = await t.as('school01').post(base, bad);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ msg: '接力棒数为2到8', data: { field: 'groups.0.events.0.relayLegs' } });
    expect((await t.as('school01', { language: 'en-US' }).post(base, bad)).body.msg).toBe('A relay has 2 to 8 legs');
    // Teams per heat cannot exceed the lanes, as athletes cannot.
    const crowded = meetForm();
    crowded.groups![0].events[0].heatSize = 5;
    expect((await t.as('school01').post(base, crowded)).body).toMatchObject({ msg: '人数不能超过道次或编码数', data: { field: 'groups.0.events.0.heatSize' } });
  });
});

describe('meet relays: sign-up', () => {
  const url = () => `${base}/${meet.id}/teams`;

  it('refuses bad teams with the rule’s message naming the field, and writes nothing', async () => {
    const short = await t.as('school01').post(url(), team({ legs: squads[0].ids.slice(0, 3) }));
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ msg: '棒次队员人数须等于项目的接力棒数', data: { field: 'legs' } });
    const twice = await t.as('school01').post(url(), team({ reserves: [squads[0].ids[0]] }));
    expect(twice.body).toMatchObject({ msg: '同一名运动员不能在一支队伍中出现两次', data: { field: 'legs' } });
    expect((await t.as('school01').post(url(), team({ teamName: ' ' }))).body.msg).toBe('请填写队名');
    const stranger = await t.as('school01').post(url(), team({ legs: [...squads[0].ids.slice(0, 3), squads[1].ids[0]] }));
    expect(stranger.body.msg).toMatch(/^「.+」不是本班学生$/);
    expect((await t.as('school01').post(url(), team({ eventId: ev('100米').id }))).body.msg).toBe('该项目不是接力项目');
    // An athlete cannot enter a relay alone.
    const alone = await t.as('school01').post(`${base}/${meet.id}/entries`, { studentId: squads[0].ids[0], eventIds: [ev('4×100米接力').id] });
    expect(alone.body).toMatchObject({ msg: '接力项目「4×100米接力」请以接力队报名', data: { field: 'eventIds' } });
    expect(await entries()).toEqual([]);
  });

  it('another organisation gets 404; a teacher gets 404 for a class outside their scope', async () => {
    expect((await t.as('college01').post(`/api/busi/web/gx/sportsMeet/${meet.id}/teams`, team())).status).toBe(404);
    const [me] = await t.db.select({ id: teachers.id }).from(teachers).where(eq(teachers.workNo, '100009'));
    const mine = (await t.db.select({ classId: teacherClasses.classId }).from(teacherClasses).where(eq(teacherClasses.teacherId, me.id))).map((r) => r.classId);
    const outside = squads.findIndex((s) => !mine.includes(s.classId));
    expect((await t.as('myclass01').post(`${base}/${meet.id}/teams`, team({ squad: outside }))).status).toBe(404);
  });

  it('enters teams with one bib each, members with their own bibs; one team per athlete per relay', async () => {
    const first = await t.as('school01').post<{ id: string; bib: string }>(url(), team());
    expect(first.status, first.body.msg).toBe(200);
    const { bib } = first.body.data;
    // The four runners took 3001–3004; the team the next number.
    expect(bib).toBe('3005');
    const busy = await t.as('school01').post(url(), team({ teamName: `${squads[0].name} B队`, legs: [squads[0].ids[0], ...squads[0].ids.slice(4, 6), squads[0].ids[3]] }));
    expect(busy.body).toMatchObject({ data: { field: 'legs' } });
    expect(busy.body.msg).toMatch(new RegExp(`已在本项目的「${squads[0].name} A队」中$`));
    expect((await t.as('school01').post(url(), team({ legs: squads[0].ids.slice(2, 6) }))).body.msg).toBe('本项目已有同名队伍');
    expect((await t.as('school01').post(url(), team({ squad: 1, reserves: [squads[1].ids[4]] }))).status).toBe(200);
    expect((await t.as('school01').post(url(), team({ squad: 2 }))).status).toBe(200);

    const list = await entries();
    expect(list.map((e) => [e.kind, e.studentName, e.members.filter((m) => m.leg != null).length])).toEqual(
      expect.arrayContaining([['team', `${squads[0].name} A队`, 4], ['team', `${squads[1].name} A队`, 4], ['team', `${squads[2].name} A队`, 4]]),
    );
    const b = list.find((e) => e.classId === squads[1].classId)!;
    expect(b.members.map((m) => m.leg)).toEqual([1, 2, 3, 4, null]);
    // The sign-up list finds a team by a runner's name too.
    const [runner] = await t.db.select({ name: students.name }).from(students).where(eq(students.id, squads[1].ids[2]));
    const found = dataOf(await t.as('school01').get<Page<EntryRow>>(`${base}/${meet.id}/entries?size=80&name=${encodeURIComponent(runner.name)}`)).records;
    expect(found.some((e) => e.id === b.id)).toBe(true);
  });

  it('offers the team form only students who may still run: the class, the group’s gender, not in a team of the relay', async () => {
    const q = `eventId=${ev('4×100米接力').id}&classId=${squads[0].classId}`;
    const offered = dataOf(await t.as('school01').get<{ id: string; gender: string; classId: string }[]>(`${base}/${meet.id}/entries/candidates?${q}`));
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.every((c) => c.gender === 'male' && c.classId === squads[0].classId)).toBe(true);
    expect(offered.map((c) => c.id)).not.toContain(squads[0].ids[0]);
    expect(offered.map((c) => c.id)).toContain(squads[0].ids[4]);
    expect((await t.as('college01').get(`/api/busi/web/gx/sportsMeet/${meet.id}/entries/candidates?${q}`)).status).toBe(404);
  });

  it('the class cap counts teams', async () => {
    const cap = meetForm();
    cap.name = '接力限报测试';
    cap.groups![0].events[0].classCap = 1;
    const m = dataOf(await t.as('school01').post<MeetDetail>(base, cap));
    const relay = m.groups[0].events[0].id;
    const s = squads[0];
    expect((await t.as('school01').post(`${base}/${m.id}/teams`, { eventId: relay, classId: s.classId, teamName: 'A队', legs: s.ids.slice(0, 4) })).status).toBe(200);
    const capRes = await t.as('school01').post(`${base}/${m.id}/teams`, { eventId: relay, classId: s.classId, teamName: 'B队', legs: [s.ids[4], s.ids[5], s.ids[0], s.ids[1]] });
    expect(capRes.body).toMatchObject({ msg: '「4×100米接力」每班最多报1队', data: { field: 'classId' } });
  });

  it('a relay does not count toward the athlete cap', async () => {
    // athleteCap is 1: a runner of a team still enters the 100 m.
    const res = await t.as('school01').post(`${base}/${meet.id}/entries`, { studentId: squads[0].ids[0], eventIds: [ev('100米').id] });
    expect(res.status, res.body.msg).toBe(200);
  });

  it('edits a team (order, reserves) with its version: stale is 409; the team goes back to review', async () => {
    const a = (await entries()).find((e) => e.classId === squads[0].classId)!;
    await t.as('school01').post(`${base}/${meet.id}/entries/review`, { ids: [a.id], status: 'approved' });
    const reordered = { ...team(), legs: [...squads[0].ids.slice(0, 4)].reverse(), reserves: [squads[0].ids[4]], version: a.version + 1 };
    const res = await t.as('school01').put(`${base}/${meet.id}/teams/${a.id}`, reordered);
    expect(res.status, res.body.msg).toBe(200);
    const after = (await entries()).find((e) => e.id === a.id)!;
    expect(after.status).toBe('pending');
    expect(after.members.map((m) => m.studentId)).toEqual([...[...squads[0].ids.slice(0, 4)].reverse(), squads[0].ids[4]]);
    const stale = await t.as('school01').put(`${base}/${meet.id}/teams/${a.id}`, reordered);
    expect(stale.status).toBe(409);
    expect((await t.as('college01').put(`/api/busi/web/gx/sportsMeet/${meet.id}/teams/${a.id}`, reordered)).status).toBe(404);
  });

  it('team bibs are unique in the meet with the athletes’ bibs', async () => {
    const [a, b] = (await entries()).slice(0, 2);
    const taken = await t.as('school01').put(`${base}/${meet.id}/entries/${a.id}/bib`, { bib: b.bib! });
    expect(taken.body).toMatchObject({ msg: '编号已被使用', data: { field: 'bib' } });
    const [runner] = await t.db.select({ id: meetAthletes.id, bib: meetAthletes.bib }).from(meetAthletes).where(eq(meetAthletes.meetId, meet.id)).orderBy(asc(meetAthletes.bib));
    expect((await t.as('school01').put(`${base}/${meet.id}/entries/${a.id}/bib`, { bib: runner.bib })).body.msg).toBe('编号已被使用');
    expect((await t.as('school01').put(`${base}/${meet.id}/athletes/${runner.id}/bib`, { bib: a.bib! })).body.msg).toBe('编号已被使用');
    expect((await t.as('school01').put(`${base}/${meet.id}/entries/${a.id}/bib`, { bib: '3999' })).status).toBe(200);
  });
});

describe('meet relays: draw, results, points and records', () => {
  it('draws teams into heats and lanes with their runners in order', async () => {
    const ids = (await entries()).map((e) => e.id);
    expect((await t.as('school01').post(`${base}/${meet.id}/entries/review`, { ids, status: 'approved' })).status).toBe(200);
    expect((await t.as('school01').post(`${base}/${meet.id}/draw`, { mode: 'random', seed: 7, eventIds: [ev('4×100米接力').id] })).status).toBe(200);
    const arr = dataOf(await t.as('school01').get<Arrangement>(`${base}/${meet.id}/arrangement`));
    const heats = arr.heats.filter((h) => h.eventName === '4×100米接力' && h.round === 0);
    expect(heats.map((h) => h.athletes.length).sort()).toEqual([1, 2]);
    const a = heats.flatMap((h) => h.athletes).find((x) => x.name === `${squads[0].name} A队`)!;
    expect(a.bib).toBe('3999');
    expect(a.members.filter((m) => m.leg != null).map((m) => m.leg)).toEqual([1, 2, 3, 4]);
    // A team drawn cannot be edited.
    const e = (await entries())[0];
    expect((await t.as('school01').put(`${base}/${meet.id}/teams/${e.id}`, { ...team(), version: e.version })).body.msg).toBe('项目已编排，请先取消分组');
  });

  it('times teams, advances heat winners to the final, places them, doubles class points, and records the team', async () => {
    const arr = dataOf(await t.as('school01').get<Arrangement>(`${base}/${meet.id}/arrangement`));
    const heats = arr.heats.filter((h) => h.eventName === '4×100米接力' && h.round === 0);
    let time = 50;
    for (const h of heats) {
      const rows = dataOf(await t.as('school01').get<ResultRow[]>(`${base}/${meet.id}/heats/${h.id}/results`));
      expect(rows.every((r) => r.legNames && r.legNames.split('、').length === 4)).toBe(true);
      const res = await t.as('school01').put(`${base}/${meet.id}/heats/${h.id}/results`, { results: rows.map((r) => ({ id: r.id, mark: (time += 1) })) });
      expect(res.status, res.body.msg).toBe(200);
    }
    const ids = heats.map((h) => h.id);
    await t.as('school01').post(`${base}/${meet.id}/results/step`, { step: 'confirm', heatIds: ids });
    expect((await t.as('school01').post(`${base}/${meet.id}/results/step`, { step: 'publish', heatIds: ids })).status).toBe(200);

    const final = dataOf(await t.as('school01').get<Arrangement>(`${base}/${meet.id}/arrangement`)).heats.find((h) => h.eventName === '4×100米接力' && h.round === 1)!;
    expect(final.athletes).toHaveLength(2);
    const rows = dataOf(await t.as('school01').get<ResultRow[]>(`${base}/${meet.id}/heats/${final.id}/results`));
    const [winner, runnerUp] = rows;
    await t.as('school01').put(`${base}/${meet.id}/heats/${final.id}/results`, { results: [{ id: winner.id, mark: 49.5 }, { id: runnerUp.id, mark: 50.25 }] });
    await t.as('school01').post(`${base}/${meet.id}/results/step`, { step: 'confirm', heatIds: [final.id] });
    await t.as('school01').post(`${base}/${meet.id}/results/step`, { step: 'publish', heatIds: [final.id] });
    const placed = dataOf(await t.as('school01').get<ResultRow[]>(`${base}/${meet.id}/heats/${final.id}/results`));
    expect(placed.map((r) => [r.studentName, r.place])).toEqual([
      [winner.studentName, 1],
      [runnerUp.studentName, 2],
    ]);

    const points = dataOf(await t.as('school01').get<PointsView>(`${base}/${meet.id}/points`));
    // Relays count double: 9 × 2 and 7 × 2 for the classes; no runner gets them in the all-round ranking.
    expect(points.lines.map((l) => [l.name, l.points])).toEqual([
      [winner.studentName, 18],
      [runnerUp.studentName, 14],
    ]);
    expect(points.classes.find((c) => c.name === winner.className)!.points).toBe(18);
    expect(points.athletes).toEqual([]);

    // The winning time starts the meet record, held by the team and its class.
    const records = dataOf(await t.as('school01').get<Page<RecordRow>>(`${base}/records/page?size=80&state=pending&eventName=${encodeURIComponent('4×100米接力')}`)).records;
    expect(records.find((r) => r.meetId === meet.id)).toMatchObject({ holder: winner.studentName, className: winner.className, mark: 49.5 });

    // A certificate for the winning place names the team with its runners in leg order.
    const tpl = dataOf(await t.as('school01').post<{ id: string }>(`${base}/certificates`, { name: '接力证书', orientation: 'landscape', fields: DEFAULT_CERTIFICATE_FIELDS, backgroundFileId: null, stampId: null }));
    const zipped = await jobFile(t, await t.as('school01').token(), (await t.as('school01').post(`${base}/certificates/${tpl.id}/issue`, { meetId: meet.id, fromPlace: 1, toPlace: 1, format: 'zip' })).res);
    expect(zipped.statusCode).toBe(200);
    const index = Buffer.from(unzipSync(new Uint8Array(zipped.rawPayload))['index.csv']).toString('utf8');
    expect(index).toContain(`,${winner.studentName}（${winner.legNames}）,${winner.className},`);

    // Invalid: the runner-up moves up and takes the points.
    expect((await t.as('school01').put(`${base}/${meet.id}/results/${winner.id}/invalid`, { invalid: true, reason: '交接棒出区' })).status).toBe(200);
    const again = dataOf(await t.as('school01').get<PointsView>(`${base}/${meet.id}/points`));
    expect(again.lines.map((l) => [l.name, l.points])).toEqual([[runnerUp.studentName, 18]]);
  });

  it('a withdrawn team gives back its runners’ bibs; a meet with teams deletes', async () => {
    const form = meetForm();
    form.name = '接力退赛测试';
    const m = dataOf(await t.as('school01').post<MeetDetail>(base, form));
    const relay = m.groups[0].events[0].id;
    const s = squads[0];
    const first = dataOf(await t.as('school01').post<{ id: string }>(`${base}/${m.id}/teams`, { eventId: relay, classId: s.classId, teamName: 'A队', legs: s.ids.slice(0, 4) }));
    expect((await t.as('school01').delete(`${base}/${m.id}/entries/${first.id}`)).status).toBe(200);
    // The runners' bibs are free again.
    expect(await t.db.$count(meetAthletes, eq(meetAthletes.meetId, m.id))).toBe(0);
    expect((await t.as('school01').post(`${base}/${m.id}/teams`, { eventId: relay, classId: s.classId, teamName: 'A队', legs: s.ids.slice(0, 4) })).status).toBe(200);
    // A meet with teams deletes with everything it holds.
    expect((await t.as('school01').delete(`${base}/${m.id}`)).status).toBe(200);
    expect(await t.db.$count(meetAthletes, eq(meetAthletes.meetId, m.id))).toBe(0);
  });
});
