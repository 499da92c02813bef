import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { ContestEntryRow, ContestRow, Leaderboard, LeaderboardClassRow, LeaderboardStudentRow, ParticipationDay } from '@/domain/contests/contests';
import { ORG_TYPE } from '@/domain/constants';
import { activityRecords } from '../../../server/db/schema/activities';
import { auditLogs } from '../../../server/db/schema/audit';
import { users } from '../../../server/db/schema/auth';
import { contestScores } from '../../../server/db/schema/contests';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, grades, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { refCheckOf } from '../../../server/modules/activities/ref-checks';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { dataOf } from '../../support/factories';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';
import { insertRecords } from '../activities/records';

let t: TestApp;
let k12Id: string;
let uniId: string;
let taught: string[];
type S = { id: string; classId: string; name: string; gradeNo: number };
let k12Students: S[];
let uniStudents: S[];

const chinaDay = (d: Date, plusDays = 0) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(d.getTime() + plusDays * 86_400_000));

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  const rows = await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs);
  k12Id = rows.find((o) => o.type === ORG_TYPE.k12)!.id;
  uniId = rows.find((o) => o.type === ORG_TYPE.university)!.id;
  const [me] = await t.db.select({ id: teachers.id }).from(teachers).innerJoin(users, eq(users.id, teachers.userId)).where(eq(users.accountNum, 'myclass01'));
  taught = (await t.db.select({ classId: teacherClasses.classId }).from(teacherClasses).where(eq(teacherClasses.teacherId, me.id))).map((r) => r.classId);
  const all = await t.db
    .select({ id: students.id, classId: students.classId, name: students.name, gradeNo: grades.gradeNo, orgId: students.orgId })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId));
  k12Students = all.filter((s) => s.orgId === k12Id);
  uniStudents = all.filter((s) => s.orgId === uniId);
});
afterAll(async () => {
  await t?.close();
});

const K12 = '/api/busi/web/k12/onlineManagement/competitionRank';
const GX = '/api/busi/web/gx/onlineManagement/competition';
const rank = (over: Record<string, unknown> = {}) => ({
  name: '冬季跳绳挑战',
  startDate: chinaDay(t.clock.now()),
  endDate: chinaDay(t.clock.now(), 6),
  items: ['rope1min'],
  rule: 'best',
  prizes: '一等奖 3 名',
  ...over,
});
const check = (record: { studentId: string; classId: string; orgId: string; item: string; refId: string; measuredAt?: Date }) =>
  refCheckOf('contest')!(t.db, { value: 1, measuredAt: t.clock.now(), ...record }, new Map());

describe('ranking contests', () => {
  it('creates a contest with its rules, audited, in progress from its first day; the list filters by status', async () => {
    const c = dataOf(await t.as('school01').post<ContestRow>(K12, rank({ gradeNos: [7, 8] })));
    expect(c).toMatchObject({ type: 'rank', name: '冬季跳绳挑战', status: 'running', rule: 'best', gradeNos: [7, 8], items: ['rope1min'], participants: 0, version: 1 });
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'contest'), eq(auditLogs.entityId, c.id)));
    expect(log).toMatchObject({ action: 'create', orgId: k12Id });
    const later = dataOf(await t.as('school01').post<ContestRow>(K12, rank({ name: '下周赛', startDate: chinaDay(t.clock.now(), 7), endDate: chinaDay(t.clock.now(), 8) })));
    expect(later.status).toBe('notStarted');
    const running = dataOf(await t.as('school01').get<Page<ContestRow>>(`${K12}/page?status=running&size=80`));
    expect(running.records.map((r) => r.id)).toContain(c.id);
    expect(running.records.map((r) => r.id)).not.toContain(later.id);
  });

  it('refuses bad input with the rule’s message on the field, writing nothing', async () => {
    const before = await t.db.$count(auditLogs, eq(auditLogs.entity, 'contest'));
    const long = await t.as('school01', { language: 'en-US' }).post(K12, rank({ name: '很'.repeat(21) }));
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ msg: 'The name can be at most 20 characters', data: { field: 'name' } });
    const order = await t.as('school01').post(K12, rank({ startDate: chinaDay(t.clock.now(), 3), endDate: chinaDay(t.clock.now(), 1) }));
    expect(order.body).toMatchObject({ msg: '结束日期不能早于开始日期', data: { field: 'endDate' } });
    const past = await t.as('school01').post(K12, rank({ startDate: chinaDay(t.clock.now(), -9), endDate: chinaDay(t.clock.now(), -2) }));
    expect(past.body).toMatchObject({ data: { field: 'endDate' } });
    const [uniClass] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, uniId)).limit(1);
    expect((await t.as('school01').post(K12, rank({ classIds: [uniClass.id] }))).body).toMatchObject({ data: { field: 'classIds' } });
    expect((await t.as('school01').post(K12, rank({ items: [] }))).body).toMatchObject({ data: { field: 'items' } });
    expect((await t.as('school01').post(K12, rank({ type: 'challenge', levels: [{ name: 'a', threshold: 100 }], passLevels: 1 }))).body).toMatchObject({ data: { field: 'type' } });
    expect(await t.db.$count(auditLogs, eq(auditLogs.entity, 'contest'))).toBe(before);
  });

  it('another organisation’s contest is 404; a teacher without the delete button gets 403', async () => {
    const c = dataOf(await t.as('school01').post<ContestRow>(K12, rank({ name: '他校不可见' })));
    expect((await t.as('college01').get(`${GX}/${c.id}`)).status).toBe(404);
    expect((await t.as('college01').put(`${GX}/${c.id}/end`)).status).toBe(404);
    expect((await t.as('college01').delete(`${GX}/${c.id}`)).status).toBe(404);
    expect((await t.as('teacher01').delete(`${K12}/${c.id}`)).status).toBe(403);
  });

  it('the contest ref check accepts entries inside the window, item and scope, and refuses the rest with a reason', async () => {
    const c = dataOf(await t.as('school01').post<ContestRow>(K12, rank({ name: '七年级跳绳', gradeNos: [7] })));
    const g7 = k12Students.find((s) => s.gradeNo === 7)!;
    const other = k12Students.find((s) => s.gradeNo !== 7)!;
    const base = { studentId: g7.id, classId: g7.classId, orgId: k12Id, item: 'rope1min', refId: c.id };
    expect(await check(base)).toBeNull();
    expect(await check({ ...base, item: 'sitUp1min' })).toMatchObject({ key: 'contests:refused.item' });
    expect(await check({ ...base, studentId: other.id, classId: other.classId })).toMatchObject({ key: 'contests:refused.scope' });
    expect(await check({ ...base, measuredAt: new Date(t.clock.now().getTime() - 3 * 86_400_000) })).toMatchObject({ key: 'contests:refused.notStarted' });
    const u = uniStudents[0];
    expect(await check({ ...base, studentId: u.id, classId: u.classId, orgId: uniId })).toMatchObject({ key: 'contests:refused.unknown' });
  });

  it('early end takes effect at once: the status is ended, later entries are refused, the contest can no longer be edited or ended', async () => {
    const c = dataOf(await t.as('school01').post<ContestRow>(K12, rank({ name: '提前结束赛' })));
    const s = k12Students[0];
    const ended = dataOf(await t.as('school01').put<ContestRow>(`${K12}/${c.id}/end`));
    expect(ended).toMatchObject({ status: 'ended', version: 2 });
    expect(ended.endedAt).toBe(t.clock.now().toISOString());
    t.clock.advance(1000);
    expect(await check({ studentId: s.id, classId: s.classId, orgId: k12Id, item: 'rope1min', refId: c.id })).toMatchObject({ key: 'contests:refused.ended' });
    const edit = await t.as('school01').put(`${K12}/${c.id}`, rank({ name: '改名', version: 2 }));
    expect(edit.status).toBe(409);
    expect(edit.body).toMatchObject({ msg: '赛事已结束，不能编辑' });
    expect((await t.as('school01').put(`${K12}/${c.id}/end`)).status).toBe(409);
    const stale = dataOf(await t.as('school01').post<ContestRow>(K12, rank({ name: '版本' })));
    expect((await t.as('school01').put(`${K12}/${stale.id}`, rank({ name: '版本二', version: 1 }))).status).toBe(200);
    expect((await t.as('school01').put(`${K12}/${stale.id}`, rank({ name: '版本三', version: 1 }))).status).toBe(409);
  });
});

describe('leaderboards', () => {
  let contestId: string;
  let entrants: S[];
  let mine: S[];
  beforeAll(async () => {
    const c = dataOf(await t.as('school01').post<ContestRow>(K12, rank({ name: '排行榜测试', items: ['rope1min', 'run50m'] })));
    contestId = c.id;
    mine = k12Students.filter((s) => taught.includes(s.classId)).slice(0, 2);
    entrants = [...mine, ...k12Students.filter((s) => !taught.includes(s.classId)).slice(0, 2)];
    const now = t.clock.now();
    await insertRecords(t.db, [
      // entrants[0]: best 150; entrants[1]: best 170 (and an invalid 300 that must not count); entrants[2]: 160; entrants[3]: 170 later.
      { studentId: entrants[0].id, item: 'rope1min', value: 120, kind: 'contest', refId: contestId, measuredAt: now },
      { studentId: entrants[0].id, item: 'rope1min', value: 150, kind: 'contest', refId: contestId, measuredAt: now },
      { studentId: entrants[1].id, item: 'rope1min', value: 170, kind: 'contest', refId: contestId, measuredAt: now },
      { studentId: entrants[1].id, item: 'rope1min', value: 300, kind: 'contest', refId: contestId, measuredAt: now, invalid: true },
      { studentId: entrants[2].id, item: 'rope1min', value: 160, kind: 'contest', refId: contestId, measuredAt: now },
      { studentId: entrants[3].id, item: 'rope1min', value: 170, kind: 'contest', refId: contestId, measuredAt: new Date(now.getTime() + 1000) },
      { studentId: entrants[0].id, item: 'run50m', value: 8.1, kind: 'contest', refId: contestId, measuredAt: now },
      { studentId: entrants[2].id, item: 'run50m', value: 7.6, kind: 'contest', refId: contestId, measuredAt: now },
    ]);
  });

  it('ranks students by their best valid entry; ties share a rank; invalid entries never count', async () => {
    const b = dataOf(await t.as('school01').get<Leaderboard<LeaderboardStudentRow>>(`${K12}/${contestId}/leaderboard?by=student&item=rope1min`));
    expect(b).toMatchObject({ item: 'rope1min', rule: 'best', lowerIsBetter: false, total: 4 });
    expect(b.rows.map((r) => [r.rank, r.studentId, r.score])).toEqual([
      [1, entrants[1].id, 170],
      [1, entrants[3].id, 170],
      [3, entrants[2].id, 160],
      [4, entrants[0].id, 150],
    ]);
    // Times: lower is better.
    const run = dataOf(await t.as('school01').get<Leaderboard<LeaderboardStudentRow>>(`${K12}/${contestId}/leaderboard?item=run50m`));
    expect(run.rows.map((r) => r.studentId)).toEqual([entrants[2].id, entrants[0].id]);
    expect((await t.as('school01').get(`${K12}/${contestId}/leaderboard?item=sitUp1min`)).body).toMatchObject({ data: { field: 'item' } });
  });

  it('setting an entry invalid drops it from the board at once; restoring it brings it back', async () => {
    const [top] = await t.db
      .select({ id: activityRecords.id })
      .from(activityRecords)
      .where(and(eq(activityRecords.refId, contestId), eq(activityRecords.studentId, entrants[1].id), eq(activityRecords.value, 170)));
    await t.db.update(activityRecords).set({ invalid: true }).where(eq(activityRecords.id, top.id));
    let b = dataOf(await t.as('school01').get<Leaderboard<LeaderboardStudentRow>>(`${K12}/${contestId}/leaderboard?item=rope1min`));
    expect(b.rows.map((r) => r.studentId)).not.toContain(entrants[1].id);
    await t.db.update(activityRecords).set({ invalid: false }).where(eq(activityRecords.id, top.id));
    b = dataOf(await t.as('school01').get<Leaderboard<LeaderboardStudentRow>>(`${K12}/${contestId}/leaderboard?item=rope1min`));
    expect(b.rows.find((r) => r.studentId === entrants[1].id)?.score).toBe(170);
  });

  it('ranks classes by the mean of their participants’ scores; a class-scoped teacher sees their classes with overall ranks', async () => {
    const b = dataOf(await t.as('school01').get<Leaderboard<LeaderboardClassRow>>(`${K12}/${contestId}/leaderboard?by=class&item=rope1min`));
    const byClass = new Map<string, number[]>();
    for (const [s, v] of [[entrants[0], 150], [entrants[1], 170], [entrants[2], 160], [entrants[3], 170]] as const) byClass.set(s.classId, [...(byClass.get(s.classId) ?? []), v]);
    expect(b.total).toBe(byClass.size);
    for (const row of b.rows) {
      const vs = byClass.get(row.classId)!;
      expect(row.participants).toBe(vs.length);
      expect(row.score).toBeCloseTo(vs.reduce((a, x) => a + x, 0) / vs.length, 2);
    }
    const scoped = dataOf(await t.as('myclass01').get<Leaderboard<LeaderboardStudentRow>>(`${K12}/${contestId}/leaderboard?item=rope1min`));
    expect(scoped.rows.map((r) => r.studentId).sort()).toEqual(mine.map((s) => s.id).sort());
    expect(scoped.rows.find((r) => r.studentId === entrants[1].id)?.rank).toBe(1);
  });

  it('participation per day counts valid entries and students; the export has both boards', async () => {
    const days = dataOf(await t.as('school01').get<ParticipationDay[]>(`${K12}/${contestId}/participation`));
    expect(days.reduce((a, d) => a + d.entries, 0)).toBe(7);
    const exported = await t.as('school01', { language: 'en-US' }).get(`${K12}/${contestId}/export?item=rope1min`);
    expect(exported.status).toBe(200);
    const { rows } = await readXlsxRows(exported.res.rawPayload);
    expect(rows[0][0]).toBe('Rank');
    expect(rows.length).toBe(5);
  });

  it('lists the entries; setting one invalid needs a reason, drops it from the board at once, is audited and exported; restoring brings it back', async () => {
    const page = dataOf(await t.as('school01').get<Page<ContestEntryRow>>(`${K12}/${contestId}/entries/page?item=rope1min&size=20`));
    expect(page.total).toBe(6);
    const top = page.records.find((r) => r.studentId === entrants[3].id && r.value === 170)!;
    expect(top).toMatchObject({ name: entrants[3].name, item: 'rope1min', source: 'console', invalid: false });
    // No reason: 400 naming the field, nothing changes.
    const bare = await t.as('school01', { language: 'en-US' }).post(`${K12}/${contestId}/entries/invalid`, { ids: [top.id], reason: '  ' });
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({ msg: 'Enter the reason the entry is invalid', data: { field: 'reason' } });
    expect(dataOf(await t.as('school01').get<Leaderboard<LeaderboardStudentRow>>(`${K12}/${contestId}/leaderboard?item=rope1min`)).rows.map((r) => r.studentId)).toContain(entrants[3].id);

    expect(dataOf(await t.as('school01').post<{ changed: number }>(`${K12}/${contestId}/entries/invalid`, { ids: [top.id], reason: '代测' }))).toEqual({ changed: 1 });
    let board = dataOf(await t.as('school01').get<Leaderboard<LeaderboardStudentRow>>(`${K12}/${contestId}/leaderboard?item=rope1min`));
    expect(board.rows.map((r) => r.studentId)).not.toContain(entrants[3].id);
    const classBoard = dataOf(await t.as('school01').get<Leaderboard<LeaderboardClassRow>>(`${K12}/${contestId}/leaderboard?by=class&item=rope1min`));
    expect(classBoard.rows.reduce((a, r) => a + r.participants, 0)).toBe(3);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'contestEntry'), eq(auditLogs.action, 'invalid')));
    expect(log).toMatchObject({ entityId: contestId, after: { ids: [top.id], reason: '代测' } });
    const invalidOnly = dataOf(await t.as('school01').get<Page<ContestEntryRow>>(`${K12}/${contestId}/entries/page?invalid=true&item=rope1min`));
    expect(invalidOnly.records.map((r) => [r.id, r.invalidReason])).toContainEqual([top.id, '代测']);

    const exported = await t.as('school01', { language: 'en-US' }).get(`${K12}/${contestId}/entries/export?item=rope1min`);
    expect(exported.status).toBe(200);
    const { rows } = await readXlsxRows(exported.res.rawPayload);
    expect(rows[0].slice(0, 3)).toEqual(['Name', 'Registration no.', 'Class']);
    expect(rows.length).toBe(7);
    expect(rows.some((r) => r.includes('Invalid') && r.includes('代测'))).toBe(true);
    // Columns the list hides (class, source, status) are left out, the rest in the list's order.
    const shown = await t.as('school01', { language: 'en-US' }).get(`${K12}/${contestId}/entries/export?item=rope1min&columns=value,name,item,measuredAt,actions`);
    expect((await readXlsxRows(shown.res.rawPayload)).rows[0]).toEqual(['Value', 'Unit', 'Name', 'Registration no.', 'Item', 'Submitted at']);

    expect(dataOf(await t.as('school01').post<{ changed: number }>(`${K12}/${contestId}/entries/valid`, { ids: [top.id] }))).toEqual({ changed: 1 });
    board = dataOf(await t.as('school01').get<Leaderboard<LeaderboardStudentRow>>(`${K12}/${contestId}/leaderboard?item=rope1min`));
    expect(board.rows.find((r) => r.studentId === entrants[3].id)?.score).toBe(170);
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'contestEntry'), eq(auditLogs.action, 'valid')))).toBe(1);
  });

  it('entries of another organisation’s contest are 404; a class-scoped teacher lists and changes only their classes’ entries', async () => {
    for (const [method, path, body] of [
      ['GET', 'entries/page', undefined],
      ['GET', 'entries/export', undefined],
      ['POST', 'entries/invalid', { ids: [contestId], reason: 'x' }],
      ['POST', 'entries/valid', { ids: [contestId] }],
    ] as const)
      expect((await t.as('college01').request(method, `${GX}/${contestId}/${path}`, body)).status, path).toBe(404);
    const mineOnly = dataOf(await t.as('myclass01').get<Page<ContestEntryRow>>(`${K12}/${contestId}/entries/page?size=80`));
    expect(new Set(mineOnly.records.map((r) => r.classId)).size).toBeGreaterThan(0);
    expect(mineOnly.records.every((r) => taught.includes(r.classId))).toBe(true);
    const others = dataOf(await t.as('school01').get<Page<ContestEntryRow>>(`${K12}/${contestId}/entries/page?size=80`)).records.filter((r) => !taught.includes(r.classId));
    const refused = await t.as('myclass01').post<{ changed: number }>(`${K12}/${contestId}/entries/invalid`, { ids: [others[0].id], reason: '不是我的班' });
    expect(dataOf(refused)).toEqual({ changed: 0 });
  });

  it('deleting a contest deletes its entries and their roll-ups', async () => {
    expect((await t.as('school01').delete(`${K12}/${contestId}`)).status).toBe(200);
    expect(await t.db.$count(activityRecords, eq(activityRecords.refId, contestId))).toBe(0);
    expect(await t.db.$count(contestScores, eq(contestScores.contestId, contestId))).toBe(0);
    expect((await t.as('school01').get(`${K12}/${contestId}`)).status).toBe(404);
  });
});

describe('university contests and obstacle challenges', () => {
  const challenge = (over: Record<string, unknown> = {}) =>
    rank({ type: 'challenge', name: '跳远闯关', items: ['standingLongJump'], levels: [{ name: '第一关', threshold: 180 }, { name: '第二关', threshold: 220 }, { name: '第三关', threshold: 250 }], passLevels: 2, ...over });

  it('levels must get harder and the pass condition fit the levels', async () => {
    const order = await t.as('college01').post(GX, challenge({ levels: [{ name: 'a', threshold: 200 }, { name: 'b', threshold: 190 }] }));
    expect(order.body).toMatchObject({ msg: '每一关须比上一关更难', data: { field: 'levels.1.threshold' } });
    expect((await t.as('college01').post(GX, challenge({ passLevels: 4 }))).body).toMatchObject({ data: { field: 'passLevels' } });
    expect((await t.as('college01').post(GX, challenge({ items: ['standingLongJump', 'pullUp'] }))).body).toMatchObject({ data: { field: 'items' } });
  });

  it('an empty threshold is refused as missing, never read as 0', async () => {
    // ropeFree's range starts at 0, so a blank read as 0 used to pass every check.
    for (const threshold of ['', ' ', null]) {
      const blank = await t.as('college01').post(GX, challenge({ items: ['ropeFree'], levels: [{ name: '第 1 关', threshold }], passLevels: 1 }));
      expect(blank.status).toBe(400);
      expect(blank.body).toMatchObject({ msg: '请输入达标成绩', data: { field: 'levels.0.threshold' } });
    }
  });

  it('shows the levels each student cleared and who passed; ranking contests share the list', async () => {
    const c = dataOf(await t.as('college01').post<ContestRow>(GX, challenge()));
    expect(c).toMatchObject({ type: 'challenge', rule: 'best', passLevels: 2 });
    dataOf(await t.as('college01').post<ContestRow>(GX, rank({ name: '大学排名赛' })));
    const list = dataOf(await t.as('college01').get<Page<ContestRow>>(`${GX}/page?size=80`));
    expect(new Set(list.records.map((r) => r.type))).toEqual(new Set(['rank', 'challenge']));
    const [a, b] = uniStudents;
    await insertRecords(t.db, [
      { studentId: a.id, item: 'standingLongJump', value: 230, kind: 'contest', refId: c.id },
      { studentId: b.id, item: 'standingLongJump', value: 190, kind: 'contest', refId: c.id },
    ]);
    const board = dataOf(await t.as('college01').get<Leaderboard<LeaderboardStudentRow>>(`${GX}/${c.id}/leaderboard`));
    expect(board.rows.map((r) => [r.studentId, r.levels, r.passed])).toEqual([
      [a.id, 2, true],
      [b.id, 1, false],
    ]);
  });

  it('a contest whose last day is over is ended and cannot be edited', async () => {
    const c = dataOf(await t.as('school01').post<ContestRow>(K12, rank({ name: '过期赛', endDate: chinaDay(t.clock.now()) })));
    t.clock.advance(2 * 86_400_000);
    t.signInAgain();
    expect(dataOf(await t.as('school01').get<ContestRow>(`${K12}/${c.id}`)).status).toBe('ended');
    expect((await t.as('school01').put(`${K12}/${c.id}`, rank({ name: '过期赛', version: 1 }))).status).toBe(409);
  });
});
