import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { ScoreSearchPage } from '@/domain/physique-results/types';
import type { StationStudent, StationView, TestDayProgress } from '@/domain/test-day/entries';
import type { StationOptions, StationRow } from '@/domain/test-day/stations';
import { testCardCode } from '@/domain/test-day/test-card';
import { auditLogs } from '../../../server/db/schema/audit';
import { physiqueResultCounts, physiqueResultLogs, physiqueResults, testRecords } from '../../../server/db/schema/physique';
import { testDayEntries, testDayStations } from '../../../server/db/schema/test-day';
import { createDevice, createTestPlan, dataOf, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

const base = '/api/busi/web/k12/physiqueManage/testDay';
let t: TestApp;
let plan: Awaited<ReturnType<typeof createTestPlan>>;
let other: Awaited<ReturnType<typeof createTestPlan>>;
let schoolId: string;

beforeAll(async () => {
  t = await createTestApp();
  plan = await createTestPlan(t, { students: 6, results: 0 });
  other = await createTestPlan(t, { students: 1, results: 0 });
  schoolId = (await orgOf(t, 'school01')).orgId;
});
afterAll(async () => {
  await t?.close();
});

const me = () => t.as('school01');
const station = async (body: Record<string, unknown>) => {
  const res = await me().post<StationRow>(base, { planId: plan.id, venueId: '', deviceIds: [], teacherIds: [], note: '', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const checkIn = (stationId: string, code: string, as = 'school01') => t.as(as).post<StationStudent>(`${base}/${stationId}/checkIn`, { code });
const enter = (stationId: string, body: Record<string, unknown>, as = 'school01') => t.as(as).put<StationStudent>(`${base}/${stationId}/entry`, body);
const confirm = (stationId: string, s: StationStudent, as = 'school01') =>
  t.as(as).post<StationStudent>(`${base}/${stationId}/student/${s.student.id}/confirm`, {
    entries: s.fields.filter((f) => f.entry?.status === 'entered').map((f) => ({ id: f.entry!.id, version: f.entry!.version })),
  });
const resultOf = async (studentId: string) => (await t.db.select().from(physiqueResults).where(and(eq(physiqueResults.planId, plan.id), eq(physiqueResults.studentId, studentId))))[0];
const field = (s: StationStudent, name: string) => s.fields.find((f) => f.field === name)!;

describe('stations', () => {
  it('are listed per plan, keep an item at one station, and refuse items the plan does not test', async () => {
    const options = dataOf(await me().get<StationOptions>(`${base}/options?planId=${plan.id}`));
    expect(options.items).toContain('run50m');
    const sprint = await station({ name: '50米跑道', items: ['run50m'] });
    const list = dataOf(await me().get<Page<StationRow>>(`${base}/page?planId=${plan.id}`));
    expect(list.records.map((r) => r.name)).toContain('50米跑道');
    const taken = await me().post(base, { planId: plan.id, name: '另一跑道', items: ['run50m'], deviceIds: [], teacherIds: [] });
    expect(taken.status).toBe(400);
    expect(taken.body.msg).toBe('“50米跑”已在测试站“50米跑道”');
    expect((taken.body.data as { field: string }).field).toBe('items');
    const foreign = await me().post(base, { planId: plan.id, name: '跳绳', items: ['rope1min'], deviceIds: [], teacherIds: [] });
    expect(foreign.status).toBe(400);
    // The edit keeps the version; a stale one is refused.
    const saved = await me().put<{ after: StationRow }>(`${base}/${sprint.id}`, { planId: plan.id, name: '50米跑道A', items: ['run50m'], deviceIds: [], teacherIds: [], version: sprint.version });
    expect(saved.status).toBe(200);
    expect((await me().put(`${base}/${sprint.id}`, { planId: plan.id, name: '50米跑道B', items: ['run50m'], deviceIds: [], teacherIds: [], version: sprint.version })).status).toBe(409);
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'testDayStation'), eq(auditLogs.entityId, sprint.id)))).toBe(2);
  });

  it('are the school’s own: another school gets 404, a teacher without the delete button 403', async () => {
    const s = await station({ name: '体前屈', items: ['sitAndReach'] });
    expect((await t.as('school02').get(`${base}/${s.id}`)).status).toBe(404);
    expect((await t.as('school02').delete(`${base}/${s.id}`)).status).toBe(404);
    expect((await t.as('school02').get(`${base}/options?planId=${plan.id}`)).status).toBe(404);
    expect((await t.as('teacher01').delete(`${base}/${s.id}`)).status).toBe(403);
    expect((await me().delete(`${base}/${s.id}`)).status).toBe(200);
  });
});

describe('the station screen', () => {
  let jump: StationRow;
  let device: { id: string; serialNo: string };
  beforeAll(async () => {
    const made = await createDevice(t);
    device = { id: made.id, serialNo: made.serialNo };
    jump = await station({ name: '立定跳远', items: ['standingLongJump', 'bmi'], deviceIds: [device.id] });
  });

  it('checks a student in by typed 学籍号 or by the plan’s test card, and refuses another plan’s card', async () => {
    const [a, b] = plan.students;
    const byRegNo = dataOf(await checkIn(jump.id, a.regNo.toLowerCase()));
    expect(byRegNo.student).toMatchObject({ id: a.id, name: a.name, className: expect.any(String) });
    expect(byRegNo.fields.map((f) => f.field)).toEqual(['standingLongJump', 'heightCm', 'weightKg']);
    const byCard = dataOf(await checkIn(jump.id, testCardCode(plan.id, b.regNo)));
    expect(byCard.student.id).toBe(b.id);
    const wrong = await checkIn(jump.id, testCardCode(other.id, b.regNo));
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe('这是其他测试计划的测试卡，请使用本计划的测试卡');
    const outside = await checkIn(jump.id, other.students[0].regNo);
    expect(outside.status).toBe(400);
    expect(outside.body.msg).toContain('不在本测试计划的范围内');
    expect((await t.as('school01', { language: 'en-US' }).post(`${base}/${jump.id}/checkIn`, { code: '??' })).body.msg).toContain('Not recognised');
    const view = dataOf(await me().get<StationView>(`${base}/${jump.id}/station`));
    expect(view.waiting.map((w) => w.studentId).sort()).toEqual([a.id, b.id].sort());
  });

  it('takes a station device’s record of today, or a typed value parsed like the import', async () => {
    const [a] = plan.students;
    await t.db.insert(testRecords).values({ orgId: schoolId, studentId: a.id, classId: plan.classId, item: 'standingLongJump', raw: 201, source: 'device', deviceSn: device.serialNo, senderKey: device.id, testedAt: t.clock.now() });
    const shown = dataOf(await me().get<StationStudent>(`${base}/${jump.id}/student/${a.id}`));
    const rec = field(shown, 'standingLongJump').device!;
    expect(rec).toMatchObject({ value: 201, deviceSn: device.serialNo });
    const fromDevice = dataOf(await enter(jump.id, { studentId: a.id, field: 'standingLongJump', source: 'device', recordId: rec.recordId }));
    expect(field(fromDevice, 'standingLongJump').entry).toMatchObject({ value: 201, source: 'device', deviceSn: device.serialNo, status: 'entered' });
    const typed = dataOf(await enter(jump.id, { studentId: a.id, field: 'heightCm', source: 'typed', value: '1米62' }));
    expect(field(typed, 'heightCm').entry).toMatchObject({ value: 162, source: 'typed' });
    expect((await enter(jump.id, { studentId: a.id, field: 'weightKg', source: 'typed', value: '五十' })).body.msg).toBe('请填写体重（千克），例如 52.3');
  });

  it('stops a value outside the import’s plausible range until the teacher confirms it', async () => {
    const [a] = plan.students;
    const stopped = await enter(jump.id, { studentId: a.id, field: 'weightKg', source: 'typed', value: '300' });
    expect(stopped.status).toBe(400);
    expect((stopped.body.data as unknown as { field: string }).field).toBe('confirmOutOfRange');
    expect(stopped.body.msg).toBe('成绩 300 超出合理范围（10～250），请重新输入或确认数值无误');
    const kept = dataOf(await enter(jump.id, { studentId: a.id, field: 'weightKg', source: 'typed', value: '300', confirmOutOfRange: true }));
    expect(field(kept, 'weightKg').entry).toMatchObject({ value: 300, outOfRange: true });
    const retyped = dataOf(await enter(jump.id, { studentId: a.id, field: 'weightKg', source: 'typed', value: '48', version: field(kept, 'weightKg').entry!.version }));
    expect(field(retyped, 'weightKg').entry).toMatchObject({ value: 48, outOfRange: false });
  });

  it('counts a value only once the student confirmed it: then it lands in the plan’s results with the rollups', async () => {
    const [a] = plan.students;
    expect(await resultOf(a.id)).toBeUndefined();
    const shown = dataOf(await me().get<StationStudent>(`${base}/${jump.id}/student/${a.id}`));
    const done = dataOf(await confirm(jump.id, shown));
    expect(done.fields.every((f) => f.entry?.status === 'confirmed' && f.entry.confirmedBy)).toBe(true);
    const result = await resultOf(a.id);
    expect(result).toMatchObject({ standingLongJump: 201, heightCm: 162, weightKg: 48, source: 'import' });
    expect(result.standingLongJumpScore).not.toBeNull();
    expect(result.bmi).toBeCloseTo(18.3, 1);
    expect(await t.db.$count(physiqueResultLogs, eq(physiqueResultLogs.resultId, result.id))).toBe(3);
    // The score list (its per-class counts are the rollup rows) sees the new result.
    const list = dataOf(await me().get<ScoreSearchPage>(`/api/busi/web/k12/organizeTest/scoreSearch/page?current=1&size=10&planId=${plan.id}`));
    expect(list.records.map((r) => r.id)).toContain(result.id);
    expect(await t.db.$count(physiqueResultCounts, and(eq(physiqueResultCounts.planId, plan.id), eq(physiqueResultCounts.classId, plan.classId)))).toBeGreaterThan(0);
    // Source kept: station, device serial, teacher, confirmed at.
    const [entry] = await t.db.select().from(testDayEntries).where(and(eq(testDayEntries.studentId, a.id), eq(testDayEntries.field, 'standingLongJump')));
    expect(entry).toMatchObject({ stationId: jump.id, deviceSn: device.serialNo, status: 'confirmed' });
    expect(entry.confirmedAt).not.toBeNull();
    // A confirmed value changes only through an appeal.
    expect((await enter(jump.id, { studentId: a.id, field: 'heightCm', source: 'typed', value: '170', version: 2 })).status).toBe(409);
    const progress = dataOf(await me().get<TestDayProgress>(`${base}/progress?planId=${plan.id}`));
    expect(progress.stations.find((s) => s.id === jump.id)).toMatchObject({ total: 6, done: 1, waiting: 1, missing: 4 });
    expect(progress.classes[0].missingStudents.find((s) => s.id === a.id)?.stations).not.toContain('立定跳远');
  });

  it('flags an appealed value; a second teacher resolves it (the same teacher is refused), both recorded', async () => {
    const [a] = plan.students;
    const [entry] = await t.db.select().from(testDayEntries).where(and(eq(testDayEntries.studentId, a.id), eq(testDayEntries.field, 'standingLongJump')));
    const appealed = await me().post(`${base}/entry/${entry.id}/appeal`, { note: '脚踩线，要求重测', version: entry.version });
    expect(appealed.status, JSON.stringify(appealed.body)).toBe(200);
    const view = dataOf(await me().get<StationView>(`${base}/${jump.id}/station`));
    expect(view.appeals.map((x) => x.entryId)).toEqual([entry.id]);
    const same = await me().post(`${base}/entry/${entry.id}/resolve`, { outcome: 'correct', value: '195', note: '', version: entry.version + 1 });
    expect(same.status).toBe(409);
    expect(same.body.msg).toContain('另一位教师');
    const resolved = await t.as('teacher01').post(`${base}/entry/${entry.id}/resolve`, { outcome: 'correct', value: '195', note: '复核录像', version: entry.version + 1 });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    const [after] = await t.db.select().from(testDayEntries).where(eq(testDayEntries.id, entry.id));
    expect(after).toMatchObject({ status: 'confirmed', value: 195, originalValue: 201, resolution: 'correct', appealNote: '脚踩线，要求重测' });
    expect(after.resolvedBy).not.toBe(after.appealedBy);
    expect((await resultOf(a.id)).standingLongJump).toBe(195);
  });

  it('lets only one of two teachers confirming the same value write it', async () => {
    const b = plan.students[1];
    dataOf(await enter(jump.id, { studentId: b.id, field: 'standingLongJump', source: 'typed', value: '180' }));
    const shown = dataOf(await me().get<StationStudent>(`${base}/${jump.id}/student/${b.id}`));
    const answers = await Promise.all([confirm(jump.id, shown), confirm(jump.id, shown, 'teacher01')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const result = await resultOf(b.id);
    expect(await t.db.$count(physiqueResultLogs, eq(physiqueResultLogs.resultId, result.id))).toBe(1);
  });

  it('refuses everything once the plan has ended (409), like imports', async () => {
    const c = plan.students[2];
    dataOf(await checkIn(jump.id, c.regNo));
    dataOf(await enter(jump.id, { studentId: c.id, field: 'standingLongJump', source: 'typed', value: '170' }));
    const shown = dataOf(await me().get<StationStudent>(`${base}/${jump.id}/student/${c.id}`));
    expect((await me().post(`/api/busi/web/k12/organizeTest/testManage/end/${plan.id}`)).status).toBe(200);
    expect((await checkIn(jump.id, plan.students[3].regNo)).status).toBe(409);
    expect((await confirm(jump.id, shown)).status).toBe(409);
    expect(await resultOf(c.id)).toBeUndefined();
  });
});


describe('the demo', () => {
  it('has a test day in progress on the K12 school’s current plan: stations, confirmed and waiting students, one open appeal', async () => {
    const [{ planId }] = await t.db.select({ planId: testDayStations.planId }).from(testDayStations).where(and(eq(testDayStations.orgId, schoolId), eq(testDayStations.name, '身高体重')));
    const progress = dataOf(await me().get<TestDayProgress>(`${base}/progress?planId=${planId}`));
    expect(progress.stations.length).toBeGreaterThanOrEqual(3);
    expect(progress.stations[0].done).toBeGreaterThan(10);
    expect(progress.stations.some((s) => s.waiting > 0)).toBe(true);
    expect(progress.stations.reduce((n, s) => n + s.appeals, 0)).toBe(1);
    expect(progress.classes.some((c) => c.missingStudents.length > 0)).toBe(true);
  });
});
