import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { EntryRow } from '@/domain/meets/entries';
import type { MeetDetail, MeetForm, MeetRow } from '@/domain/meets/meets';
import type { RecordRow } from '@/domain/meets/records';
import type { ResultRow } from '@/domain/meets/results';
import { auditLogs } from '../../../server/db/schema/audit';
import { meetAthletes } from '../../../server/db/schema/meets';
import { classes, grades, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { dataOf, DEMO, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let k12Id: string;
const base = '/api/busi/web/k12/sportsMeet';

beforeAll(async () => {
  t = await createTestApp();
  k12Id = (await orgOf(t, DEMO.school)).orgId;
});
afterAll(async () => {
  await t?.close();
});

const day = (offset: number) => {
  const d = t.clock.now();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

function meetForm(over: Partial<MeetForm> = {}): MeetForm {
  return {
    name: '2026年秋季田径运动会',
    signupStart: day(-1),
    signupEnd: day(1),
    startDate: day(2),
    endDate: day(3),
    athleteCap: 2,
    groups: [
      {
        name: '初中男子组',
        gender: 'male',
        bibStart: 1001,
        gradeIds: [],
        events: [
          { name: '100米', type: 'track', resultKind: 'time', lanes: 8, heatSize: 4, classCap: 2, rounds: 'heatsFinal', advanceByPlace: 1, finalSize: 4 },
          { name: '跳远', type: 'field', resultKind: 'distance', lanes: 0, heatSize: 12, classCap: 2 },
          { name: '铅球', type: 'field', resultKind: 'distance', lanes: 0, heatSize: 12, classCap: 2 },
        ],
      },
      { name: '初中女子组', gender: 'female', bibStart: 2001, gradeIds: [], events: [{ name: '100米', type: 'track', resultKind: 'time', lanes: 8, heatSize: 8, classCap: 2 }] },
    ],
    ...over,
  };
}

/** Studying boys of the school by class: three classes with three boys each. */
async function boys(): Promise<{ classId: string; ids: string[] }[]> {
  const rows = await t.db
    .select({ id: students.id, classId: students.classId })
    .from(students)
    .where(and(eq(students.orgId, k12Id), eq(students.gender, 'male'), eq(students.status, 'studying')))
    .orderBy(asc(students.classId), asc(students.id));
  const by = new Map<string, string[]>();
  for (const r of rows) by.set(r.classId, [...(by.get(r.classId) ?? []), r.id]);
  return [...by].filter(([, ids]) => ids.length >= 3).slice(0, 3).map(([classId, ids]) => ({ classId, ids: ids.slice(0, 3) }));
}

describe('meets: the meet, its groups and events', () => {
  it('refuses bad meets with the product’s messages, naming the field', async () => {
    const lanes = meetForm();
    lanes.groups![0].events[0].heatSize = 9;
    const res = await t.as('school01').post(base, lanes);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ msg: '人数不能超过道次或编码数', data: { field: 'groups.0.events.0.heatSize' } });

    const twice = meetForm();
    twice.groups![0].events[1].name = '100米';
    expect((await t.as('school01').post(base, twice)).body).toMatchObject({ msg: '请勿重复选择项目' });
    expect((await t.as('school01', { language: 'en-US' }).post(base, meetForm({ startDate: day(0) }))).body).toMatchObject({ msg: 'The meet cannot start before sign-up closes' });
  });

  it('adds, lists and reads a meet; another organisation gets 404; removing an event with entries is 409', async () => {
    const created = (await t.as('school01').post<MeetDetail>(base, meetForm())).body;
    expect(created.data.groups).toHaveLength(2);
    expect(created.data.status).toBe('signUp');
    const page = dataOf(await t.as('school01').get<Page<MeetRow>>(`${base}/page?size=10`));
    expect(page.records.map((m) => m.id)).toContain(created.data.id);
    expect((await t.as('college01').get(`/api/busi/web/gx/sportsMeet/${created.data.id}`)).status).toBe(404);
    expect((await t.as('college01').delete(`/api/busi/web/gx/sportsMeet/${created.data.id}`)).status).toBe(404);

    const [b] = await boys();
    const jump = created.data.groups[0].events[1];
    expect((await t.as('school01').post(`${base}/${created.data.id}/entries`, { studentId: b.ids[0], eventIds: [jump.id] })).status).toBe(200);
    const edit = { ...meetForm(), version: created.data.version, groups: created.data.groups.map((g) => ({ ...g, events: g.events.filter((e) => e.id !== jump.id) })) };
    const refused = await t.as('school01').put(`${base}/${created.data.id}`, edit);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe('项目「跳远」已有编排或报名数据，不能删除');
    // An event without data can go; a stale version is 409.
    const shot = created.data.groups[0].events[2].id;
    const ok = await t.as('school01').put<MeetDetail>(`${base}/${created.data.id}`, { ...edit, groups: created.data.groups.map((g) => ({ ...g, events: g.events.filter((e) => e.id !== shot) })) });
    expect(ok.status).toBe(200);
    expect(ok.body.data.groups[0].events.map((e) => e.name)).toEqual(['100米', '跳远']);
    expect((await t.as('school01').put(`${base}/${created.data.id}`, edit)).status).toBe(409);
  });
});

describe('meets: sign-up, arrangement, results, points and records', () => {
  let meet: MeetDetail;
  let groups: { classId: string; ids: string[] }[];
  const ev = (name: string, group = 0) => meet.groups[group].events.find((e) => e.name === name)!;

  beforeAll(async () => {
    meet = dataOf(await t.as('school01').post<MeetDetail>(base, meetForm({ name: '秋季运动会（流程）' })));
    groups = await boys();
  });

  it('enters athletes with caps per athlete and per class, one bib each, and refuses what the rules forbid', async () => {
    const url = `${base}/${meet.id}/entries`;
    const run = ev('100米').id;
    const jump = ev('跳远').id;
    for (const g of groups) {
      for (const [i, id] of g.ids.entries()) {
        const res = await t.as('school01').post(url, { studentId: id, eventIds: i < 2 ? [run] : [jump], seedMark: i < 2 ? 12 + i : null });
        expect(res.status, res.body.msg).toBe(200);
      }
    }
    // Third athlete of a class in the 100 m: the class cap.
    const third = await t.as('school01').post(url, { studentId: groups[0].ids[2], eventIds: [run] });
    expect(third.body).toMatchObject({ msg: '「100米」每班最多报2人', data: { field: 'eventIds' } });
    // The same event twice, and a third event (cap 2).
    expect((await t.as('school01').post(url, { studentId: groups[0].ids[0], eventIds: [run] })).body.msg).toBe('请勿重复选择项目');
    expect((await t.as('school01').post(url, { studentId: groups[0].ids[0], eventIds: [jump, jump] })).status).toBe(400);
    expect((await t.as('school01').post(url, { studentId: groups[0].ids[0], eventIds: [jump] })).status).toBe(200);
    expect((await t.as('school01').post(url, { studentId: groups[0].ids[0], eventIds: [ev('铅球').id] })).body.msg).toBe('每人最多报2个项目');
    // A boy in the girls' group.
    expect((await t.as('school01').post(url, { studentId: groups[1].ids[2], eventIds: [ev('100米', 1).id] })).body.msg).toBe('该学生不符合「初中女子组」的性别或年级');

    const bibs = await t.db.select({ bib: meetAthletes.bib }).from(meetAthletes).where(eq(meetAthletes.meetId, meet.id)).orderBy(asc(meetAthletes.bib));
    expect(bibs.map((b) => b.bib)).toEqual(['1001', '1002', '1003', '1004', '1005', '1006', '1007', '1008', '1009']);
    const [a, b] = await t.db.select({ id: meetAthletes.id }).from(meetAthletes).where(eq(meetAthletes.meetId, meet.id)).orderBy(asc(meetAthletes.bib));
    const taken = await t.as('school01').put(`${base}/${meet.id}/athletes/${a.id}/bib`, { bib: '1002' });
    expect(taken.body).toMatchObject({ msg: '编号已被使用', data: { field: 'bib' } });
    expect((await t.as('school01').put(`${base}/${meet.id}/athletes/${b.id}/bib`, { bib: '1099' })).status).toBe(200);
  });

  it('a teacher scoped to their classes sees and enters only those; only a reviewer approves', async () => {
    const [me] = await t.db.select({ id: teachers.id }).from(teachers).where(and(eq(teachers.orgId, k12Id), eq(teachers.workNo, '100009')));
    const mine = (await t.db.select({ classId: teacherClasses.classId }).from(teacherClasses).where(eq(teacherClasses.teacherId, me.id))).map((r) => r.classId);
    const list = dataOf(await t.as('myclass01').get<Page<EntryRow>>(`${base}/${meet.id}/entries?size=80`));
    expect(list.records.every((r) => mine.includes(r.classId))).toBe(true);
    const outside = groups.find((g) => !mine.includes(g.classId))!;
    expect((await t.as('myclass01').post(`${base}/${meet.id}/entries`, { studentId: outside.ids[2], eventIds: [ev('跳远').id] })).status).toBe(404);

    const all = dataOf(await t.as('school01').get<Page<EntryRow>>(`${base}/${meet.id}/entries?size=80`)).records;
    expect(all).toHaveLength(10);
    expect((await t.as('teacher01').post(`${base}/${meet.id}/entries/review`, { ids: [all[0].id], status: 'approved' })).status).toBe(403);
    expect((await t.as('school01').post(`${base}/${meet.id}/entries/review`, { ids: [all[0].id], status: 'rejected' })).body.msg).toBe('请填写驳回原因');
    expect((await t.as('school01').post(`${base}/${meet.id}/entries/review`, { ids: all.map((e) => e.id), status: 'approved' })).status).toBe(200);
  });

  it('draws seeded heats replayable by seed, schedules them, and asks before a new schedule wipes the old', async () => {
    const draw = (await t.as('school01').post<{ drawSeed: number; heatCount: number }>(`${base}/${meet.id}/draw`, { mode: 'seeded', seed: 20261124 })).body;
    expect(draw.data).toMatchObject({ drawSeed: 20261124 });
    type Arr = { arrangeState: string; drawSeed: number; heats: { id: string; eventName: string; round: number; no: number; day: number | null; startMin: number | null; athletes: { id: string; lane: number; classId: string; bib: string }[] }[]; conflicts: unknown[] };
    const first = dataOf(await t.as('school01').get<Arr>(`${base}/${meet.id}/arrangement`));
    const runHeats = first.heats.filter((h) => h.eventName === '100米' && h.round === 0);
    expect(runHeats).toHaveLength(2);
    // 6 runners from 3 classes in 2 heats of 3: no two of a class meet in a heat.
    for (const h of runHeats) expect(new Set(h.athletes.map((a) => a.classId)).size).toBe(h.athletes.length);
    await t.as('school01').post(`${base}/${meet.id}/draw`, { mode: 'seeded', seed: 20261124 });
    const again = dataOf(await t.as('school01').get<Arr>(`${base}/${meet.id}/arrangement`));
    const lanes = (a: Arr) => a.heats.map((h) => h.athletes.map((x) => `${h.eventName}${h.round}${h.no}:${x.bib}@${x.lane}`)).flat();
    expect(lanes(again)).toEqual(lanes(first));

    expect((await t.as('school01').post(`${base}/${meet.id}/schedule`, {})).status).toBe(200);
    const wipe = await t.as('school01').post(`${base}/${meet.id}/schedule`, {});
    expect(wipe.status).toBe(409);
    expect(wipe.body.msg).toBe('重新生成赛程会清除现有赛程，请确认');
    expect((await t.as('school01').post(`${base}/${meet.id}/schedule`, { confirm: true })).status).toBe(200);
    const scheduled = dataOf(await t.as('school01').get<Arr>(`${base}/${meet.id}/arrangement`));
    expect(scheduled.arrangeState).toBe('scheduled');
    expect(scheduled.heats.every((h) => h.startMin != null)).toBe(true);
    expect(scheduled.conflicts).toEqual([]);
    // Moving the second heat onto the first: a venue conflict is reported.
    const [h1, h2] = scheduled.heats.filter((h) => h.eventName === '100米' && h.round === 0);
    const clock = `${String(Math.floor(h1.startMin! / 60)).padStart(2, '0')}:${String(h1.startMin! % 60).padStart(2, '0')}`;
    expect((await t.as('school01').put(`${base}/${meet.id}/heats/${h2.id}/slot`, { day: h1.day, start: clock })).status).toBe(200);
    const moved = dataOf(await t.as('school01').get<Arr>(`${base}/${meet.id}/arrangement`));
    expect(moved.conflicts).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'venue' })]));
    await t.as('school01').post(`${base}/${meet.id}/schedule`, { confirm: true });
  });

  it('enters results (teacher), confirms and publishes them (reviewer only), advances to the final, counts points and flags a record', async () => {
    type Arr = { heats: { id: string; eventName: string; round: number; athletes: { id: string; classId: string }[] }[] };
    const arr = dataOf(await t.as('school01').get<Arr>(`${base}/${meet.id}/arrangement`));
    const heats = arr.heats.filter((h) => h.eventName === '100米' && h.round === 0);
    let time = 12.0;
    for (const h of heats) {
      const rows = dataOf(await t.as('school01').get<ResultRow[]>(`${base}/${meet.id}/heats/${h.id}/results`));
      const res = await t.as('teacher01').put(`${base}/${meet.id}/heats/${h.id}/results`, { results: rows.map((r) => ({ id: r.id, mark: (time += 0.1) })) });
      expect(res.status, res.body.msg).toBe(200);
    }
    const ids = heats.map((h) => h.id);
    expect((await t.as('teacher01').post(`${base}/${meet.id}/results/step`, { step: 'confirm', heatIds: ids })).status).toBe(403);
    expect((await t.as('school01').post(`${base}/${meet.id}/results/step`, { step: 'publish', heatIds: ids })).body.msg).toBe('请先审核成绩');
    expect((await t.as('school01').post(`${base}/${meet.id}/results/step`, { step: 'confirm', heatIds: ids })).status).toBe(200);
    // Confirmed results are locked against entry.
    const locked = dataOf(await t.as('school01').get<ResultRow[]>(`${base}/${meet.id}/heats/${ids[0]}/results`));
    expect((await t.as('teacher01').put(`${base}/${meet.id}/heats/${ids[0]}/results`, { results: [{ id: locked[0].id, mark: 10 }] })).body.msg).toBe('成绩已审核，不能修改');
    expect((await t.as('school01').post(`${base}/${meet.id}/results/step`, { step: 'publish', heatIds: ids })).status).toBe(200);

    // The final now holds the heat winners and the fastest of the rest (4).
    const final = dataOf(await t.as('school01').get<Arr>(`${base}/${meet.id}/arrangement`)).heats.find((h) => h.eventName === '100米' && h.round === 1)!;
    expect(final.athletes).toHaveLength(4);
    const finalRows = dataOf(await t.as('school01').get<ResultRow[]>(`${base}/${meet.id}/heats/${final.id}/results`));
    await t.as('school01').put(`${base}/${meet.id}/heats/${final.id}/results`, {
      results: finalRows.map((r, i) => (i === 3 ? { id: r.id, status: 'dnf' } : { id: r.id, mark: i === 2 ? 11.9 : 11.5 })),
    });
    await t.as('school01').post(`${base}/${meet.id}/results/step`, { step: 'confirm', heatIds: [final.id] });
    await t.as('school01').post(`${base}/${meet.id}/results/step`, { step: 'publish', heatIds: [final.id] });
    const placed = dataOf(await t.as('school01').get<ResultRow[]>(`${base}/${meet.id}/heats/${final.id}/results`));
    expect(placed.map((r) => r.place).sort()).toEqual([1, 1, 3, null]);

    type Points = { classes: { id: string; points: number; rank: number; name: string }[]; lines: { place: number; points: number }[] };
    const points = dataOf(await t.as('school01').get<Points>(`${base}/${meet.id}/points`));
    // Two tied for first share 9 and 7; third gets 6; DNF nothing.
    expect(points.lines.map((l) => l.points).sort((a, b) => b - a)).toEqual([8, 8, 6]);
    expect(points.classes.reduce((s, c) => s + c.points, 0)).toBe(22);

    // The first winning mark of a meet starts its record (pending until approved).
    const records = dataOf(await t.as('school01').get<Page<RecordRow>>(`${base}/records/page?size=80&state=pending`)).records;
    const rec = records.find((r) => r.eventName === '100米' && r.groupName === '初中男子组' && r.scope === 'meet')!;
    expect(rec.mark).toBe(11.5);
    expect((await t.as('school01').post(`${base}/records/${rec.id}/approve`)).status).toBe(200);
    expect(dataOf(await t.as('school01').get<RecordRow>(`${base}/records/${rec.id}`)).state).toBe('current');

    // The board shows the published final and the points.
    type Board = { latest: { eventName: string; results: { place: number }[] }[]; classes: unknown[] };
    const board = dataOf(await t.as('school01').get<Board>(`${base}/${meet.id}/board`));
    expect(board.latest[0]).toMatchObject({ eventName: '100米' });
    expect(board.classes.length).toBeGreaterThan(0);
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'meet'), eq(auditLogs.entityId, meet.id)))).toBeGreaterThan(5);
  });

  it('results cannot be redrawn once entered; grades are unaffected', async () => {
    const res = await t.as('school01').post(`${base}/${meet.id}/draw`, { mode: 'random' });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('已有成绩录入，不能重新编排');
    expect(await t.db.$count(grades)).toBeGreaterThan(0);
    expect(await t.db.$count(classes)).toBeGreaterThan(0);
  });
});

describe('meets: the demo', () => {
  it('holds a finished meet with results, records and points, and one in sign-up', async () => {
    const list = dataOf(await t.as('school01').get<Page<MeetRow>>(`${base}/page?size=80`)).records;
    const spring = list.find((m) => m.name === '2026年春季田径运动会')!;
    const autumn = list.find((m) => m.name === '2026年秋季运动会')!;
    expect(autumn.entryCount).toBeGreaterThan(0);
    expect(spring.arrangeState).toBe('scheduled');
    type Points = { classes: { points: number }[] };
    expect(dataOf(await t.as('school01').get<Points>(`${base}/${spring.id}/points`)).classes.length).toBeGreaterThan(3);
    const records = dataOf(await t.as('school01').get<Page<RecordRow>>(`${base}/records/page?size=80&state=current`)).records;
    expect(records.filter((r) => r.meetId === spring.id).length).toBe(3);
  });
});
