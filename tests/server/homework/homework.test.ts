import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeworkClassCompletion, HomeworkDetail, HomeworkRow, HomeworkStudentCompletion, HomeworkSubmission } from '@/domain/homework/homework';
import type { Page } from '@/domain/api';
import type { TodoSummary } from '@/domain/messages/messages';
import { ORG_TYPE } from '@/domain/constants';
import { localDate } from '@/domain/dates';
import { activityRecords } from '../../../server/db/schema/activities';
import { auditLogs } from '../../../server/db/schema/audit';
import { users } from '../../../server/db/schema/auth';
import { files } from '../../../server/db/schema/files';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { insertActivityRecords } from '../../../server/seed/activity-records';
import { refCheckOf, type RefCheckRecord } from '../../../server/modules/activities/ref-checks';
import { expireHomeworkVideos } from '../../../server/modules/homework/homework.service';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type AsAnswer, type TestApp } from '../../support/server-app';

let t: TestApp;
let k12Id: string;
let teacherUserId: string;
/** Two classes of the school with students; the first is one myclass01 teaches. */
let classA: string;
let classB: string;
let otherClass: string;

const DAY = 86_400_000;
const BASE = '/api/busi/web/k12/sportsHomework/homeworkManagement';

/** Moves the clock and signs everyone in again (sessions expire with the clock). */
async function advance(ms: number) {
  t.clock.advance(ms);
  t.signInAgain();
}

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  await advance(0);
  const rows = await t.db.select({ id: orgs.id, type: orgs.type, name: orgs.name }).from(orgs);
  k12Id = rows.find((o) => o.name === '南京市江宁区实验学校')!.id;
  const [teacher] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'teacher01'));
  teacherUserId = teacher.id;
  const [mine] = await t.db
    .select({ classId: teacherClasses.classId })
    .from(teacherClasses)
    .innerJoin(teachers, eq(teachers.id, teacherClasses.teacherId))
    .innerJoin(users, eq(users.id, teachers.userId))
    .where(eq(users.accountNum, 'myclass01'))
    .limit(1);
  classA = mine.classId;
  const withStudents = await t.db.selectDistinct({ id: students.classId }).from(students).where(eq(students.orgId, k12Id)).limit(20);
  classB = withStudents.map((c) => c.id).find((id) => id !== classA)!;
  const uni = rows.find((o) => o.type === ORG_TYPE.university)!;
  [{ id: otherClass }] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, uni.id)).limit(1);
});
afterAll(async () => {
  await t?.close();
});

const today = () => localDate(t.clock.now());
const dayAfter = (n: number) => localDate(new Date(t.clock.now().getTime() + n * DAY));

const homework = (over: Record<string, unknown> = {}) => ({
  name: '跳绳打卡',
  note: '每天跳绳',
  classIds: [classA, classB],
  items: [
    { item: 'rope1min', target: 120, intensity: 'medium' },
    { item: 'run50m', target: 9.5, intensity: 'high' },
  ],
  cycle: 'daily',
  startDate: today(),
  endDate: dayAfter(6),
  ...over,
});

async function publish(over: Record<string, unknown> = {}, account = 'school01'): Promise<HomeworkDetail> {
  const res = await t.as(account).post(`${BASE}`, homework(over));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res as AsAnswer<HomeworkDetail>).body.data;
}

async function studentsOf(classId: string, n: number): Promise<string[]> {
  const rows = await t.db.select({ id: students.id }).from(students).where(and(eq(students.classId, classId), eq(students.status, 'studying'))).orderBy(students.studentNo).limit(n);
  return rows.map((r) => r.id);
}

async function videoFile(createdAt: Date): Promise<string> {
  const [f] = await t.db
    .insert(files)
    .values({ orgId: k12Id, purpose: 'video', name: 'rope.mp4', hash: 'a'.repeat(64), size: 1000, mime: 'video/mp4', createdAt })
    .returning({ id: files.id });
  return f.id;
}

describe('publishing homework', () => {
  it('publishes to classes with items, cycle and period; audit row; the list shows it with its status and counts', async () => {
    const hw = await publish();
    expect(hw).toMatchObject({ name: '跳绳打卡', cycle: 'daily', status: 'inProgress', classCount: 2, periodsDue: 1, periodsTotal: 7, version: 1 });
    expect(hw.items).toEqual([
      { item: 'rope1min', target: 120, intensity: 'medium' },
      { item: 'run50m', target: 9.5, intensity: 'high' },
    ]);
    expect(hw.studentCount).toBe((await studentsOf(classA, 500)).length + (await studentsOf(classB, 500)).length);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'homework'), eq(auditLogs.entityId, hw.id)));
    expect(log).toMatchObject({ action: 'create', orgId: k12Id });
    const page = (await t.as('school01').get<Page<HomeworkRow>>(`${BASE}/page?current=1&size=10&status=inProgress`)).body.data;
    expect(page.records.map((r) => r.id)).toContain(hw.id);
    const notStarted = (await t.as('school01').get<Page<HomeworkRow>>(`${BASE}/page?current=1&size=10&status=notStarted`)).body.data;
    expect(notStarted.records.map((r) => r.id)).not.toContain(hw.id);
  });

  it('refuses bad input with the message of the rule on its field, in the request language; nothing is written', async () => {
    const before = await t.db.$count(auditLogs, eq(auditLogs.entity, 'homework'));
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '一'.repeat(21) }, 'name', 'The name must be 1 to 20 characters'],
      [{ classIds: [] }, 'classIds', 'Choose at least one class'],
      [{ endDate: dayAfter(-1) }, 'endDate', 'The end date cannot be before the start date'],
      [{ items: [{ item: 'rope1min', target: 99999, intensity: 'low' }] }, 'items.0.target', "The target is outside the item's valid range"],
      [{ items: [{ item: 'rope1min', target: 100, intensity: 'low' }, { item: 'rope1min', target: 90, intensity: 'low' }] }, 'items', 'The same item cannot be chosen twice'],
      [{ cycle: 'monthly' }, 'cycle', 'Choose a cycle'],
      [{ classIds: [otherClass] }, 'classIds', 'A chosen class does not exist'],
      [{ startDate: dayAfter(-2) }, 'startDate', 'The start date cannot be before today'],
    ];
    for (const [over, field, msg] of cases) {
      const res = await t.as('school01', { language: 'en-US' }).post(`${BASE}`, homework(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body).toMatchObject({ msg, data: { field } });
    }
    expect(await t.db.$count(auditLogs, eq(auditLogs.entity, 'homework'))).toBe(before);
  });

  it('a class-scoped teacher publishes only to their classes and sees only homework reaching them', async () => {
    const refused = await t.as('myclass01').post(`${BASE}`, homework({ classIds: [classB] }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ msg: '只能选择您任教的班级', data: { field: 'classIds' } });
    const onlyB = await publish({ name: '只有B班', classIds: [classB] });
    const own = await publish({ name: '我的班', classIds: [classA] }, 'myclass01');
    const page = (await t.as('myclass01').get<Page<HomeworkRow>>(`${BASE}/page?current=1&size=80`)).body.data;
    expect(page.records.map((r) => r.id)).toContain(own.id);
    expect(page.records.map((r) => r.id)).not.toContain(onlyB.id);
    expect((await t.as('myclass01').get(`${BASE}/${onlyB.id}`)).status).toBe(404);
  });

  it('another school’s homework is 404; another family is refused', async () => {
    const hw = await publish({ name: '别校不可见' });
    expect((await t.as('school02').get(`${BASE}/${hw.id}`)).status).toBe(404);
    expect((await t.as('school02').delete(`${BASE}/${hw.id}`)).status).toBe(404);
    expect((await t.as('school02').put(`${BASE}/${hw.id}`, homework({ version: 1 }))).status).toBe(404);
    expect((await t.as('college01').get(`${BASE}/page?current=1&size=10`)).status).toBe(403);
  });
});

describe('status, early end, edit and delete', () => {
  it('a stale save is 409; an early end takes effect at once, refuses edits and a second end', async () => {
    const hw = await publish({ name: '提前结束' });
    const saved = await t.as('school01').put(`${BASE}/${hw.id}`, homework({ name: '改名', version: hw.version }));
    expect(saved.status).toBe(200);
    expect((await t.as('school01').put(`${BASE}/${hw.id}`, homework({ name: '过期', version: hw.version }))).status).toBe(409);
    const ended = await t.as('school01').post(`${BASE}/${hw.id}/end`);
    expect(ended.status).toBe(200);
    expect((ended as AsAnswer<HomeworkDetail>).body.data.status).toBe('ended');
    const edit = await t.as('school01').put(`${BASE}/${hw.id}`, homework({ version: hw.version + 2 }));
    expect(edit.status).toBe(409);
    expect(edit.body.msg).toBe('已结束的作业不能编辑');
    expect((await t.as('school01').post(`${BASE}/${hw.id}/end`)).status).toBe(409);
    const page = (await t.as('school01').get<Page<HomeworkRow>>(`${BASE}/page?current=1&size=80&status=ended`)).body.data;
    expect(page.records.map((r) => r.id)).toContain(hw.id);
  });

  it('delete removes the homework with its submissions; a teacher without the end button is refused', async () => {
    const hw = await publish({ name: '待删除' });
    const [s] = await studentsOf(classA, 1);
    await insertActivityRecords(t.db, [{ studentId: s, kind: 'homework', refId: hw.id, item: 'rope1min', value: 130, measuredAt: t.clock.now(), submittedBy: teacherUserId }]);
    expect((await t.as('school01').delete(`${BASE}/${hw.id}`)).status).toBe(200);
    expect(await t.db.$count(activityRecords, eq(activityRecords.refId, hw.id))).toBe(0);
    expect((await t.as('school01').get(`${BASE}/${hw.id}`)).status).toBe(404);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, hw.id), eq(auditLogs.action, 'delete')));
    expect(log.before).toMatchObject({ name: '待删除' });
  });
});

describe('the homework ref check', () => {
  it('accepts a submission of a published class within the period; refuses other classes, items, early and ended', async () => {
    const hw = await publish({ name: '提交检查', classIds: [classA], cycle: 'once', startDate: today(), endDate: dayAfter(3) });
    const check = refCheckOf('homework')!;
    const [s] = await studentsOf(classA, 1);
    const rec = (over: Partial<RefCheckRecord> = {}): RefCheckRecord => ({
      orgId: k12Id,
      studentId: s,
      classId: classA,
      item: 'rope1min',
      value: 100,
      measuredAt: t.clock.now(),
      refId: hw.id,
      ...over,
    });
    expect(await check(t.db, rec(), new Map())).toBeNull();
    expect(await check(t.db, rec({ classId: classB }), new Map())).toEqual({ key: 'homework:refused.notAssigned' });
    expect(await check(t.db, rec({ item: 'sitUp1min' }), new Map())).toEqual({ key: 'homework:refused.item' });
    expect(await check(t.db, rec({ measuredAt: new Date(t.clock.now().getTime() + 5 * DAY) }), new Map())).toEqual({ key: 'homework:refused.ended' });
    expect(await check(t.db, rec({ measuredAt: new Date(t.clock.now().getTime() - 2 * DAY) }), new Map())).toEqual({ key: 'homework:refused.notStarted' });
    expect(await check(t.db, rec({ orgId: '00000000-0000-0000-0000-000000000000' }), new Map())).toEqual({ key: 'homework:refused.unknown' });
    expect((await t.as('school01').post(`${BASE}/${hw.id}/end`)).status).toBe(200);
    t.clock.advance(1000);
    expect(await check(t.db, rec({ measuredAt: t.clock.now() }), new Map())).toEqual({ key: 'homework:refused.ended' });
  });
});

describe('completion and video review', () => {
  it('counts a student done when every item reached its target in each period due; invalid records never count', async () => {
    const hw = await publish({ name: '完成度', classIds: [classA], cycle: 'daily', startDate: today(), endDate: dayAfter(2) });
    const [a, b, c] = await studentsOf(classA, 3);
    const now = t.clock.now();
    const rec = (studentId: string, item: string, value: number, invalid = false) => ({ studentId, kind: 'homework' as const, refId: hw.id, item, value, measuredAt: now, submittedBy: teacherUserId, invalid });
    await insertActivityRecords(t.db, [
      rec(a, 'rope1min', 130),
      rec(a, 'run50m', 9.1),
      rec(b, 'rope1min', 110), // below the target
      rec(b, 'run50m', 9.0),
      rec(c, 'rope1min', 150, true), // invalid: counts nowhere
      rec(c, 'run50m', 8.0),
    ]);
    const perClass = (await t.as('school01').get<HomeworkClassCompletion[]>(`${BASE}/${hw.id}/classes`)).body.data;
    const total = (await studentsOf(classA, 500)).length;
    expect(perClass).toEqual([expect.objectContaining({ classId: classA, students: total, submitted: 3, done: 1 })]);
    expect(perClass[0].rate).toBeCloseTo(1 / total);
    const perStudent = (await t.as('school01').get<Page<HomeworkStudentCompletion>>(`${BASE}/${hw.id}/students?current=1&size=80&done=yes`)).body.data;
    expect(perStudent.records.map((r) => r.studentId)).toEqual([a]);
    expect(perStudent.records[0]).toMatchObject({ submissions: 2, periodsDone: 1, periodsDue: 1, done: true });
    const listed = (await t.as('school01').get<Page<HomeworkRow>>(`${BASE}/page?current=1&size=80`)).body.data.records.find((r) => r.id === hw.id);
    expect(listed?.doneCount).toBe(1);
    // The export has the detail's three tabs as sheets, in the request's language; another school's homework is 404.
    const { res: exported, status } = await t.as('school01', { language: 'en-US' }).get(`${BASE}/${hw.id}/export`);
    expect(status).toBe(200);
    const byClass = await readXlsxRows(exported.rawPayload);
    expect(byClass.sheetNames).toHaveLength(3);
    expect(byClass.rows.slice(1).map((r) => r.slice(1, 4))).toEqual([[total, 3, 1]]);
    const byStudent = await readXlsxRows(exported.rawPayload, { sheet: 1 });
    expect(byStudent.rows.length).toBe(total + 1);
    expect(byStudent.rows.slice(1).filter((r) => r[6] === 'Done')).toHaveLength(1);
    const subs = await readXlsxRows(exported.rawPayload, { sheet: 2 });
    expect(subs.rows.length).toBe(7);
    expect((await t.as('school02').get(`${BASE}/${hw.id}/export`)).status).toBe(404);
    const admin = await t.as('district01').get(`/api/busi/web/admin/sportsHomework/homeworkManagement/${hw.id}/export`);
    expect(admin.status).toBe(200);
    // A day later today's period still runs: nobody is behind yet.
    await advance(DAY);
    expect((await t.as('school01').get<HomeworkClassCompletion[]>(`${BASE}/${hw.id}/classes`)).body.data[0]).toMatchObject({ done: 1 });
    // Once it is over, each of the three days was due and the student did one.
    await advance(2 * DAY);
    const over = (await t.as('school01').get<HomeworkClassCompletion[]>(`${BASE}/${hw.id}/classes`)).body.data;
    expect(over[0]).toMatchObject({ done: 0 });
    expect(over[0].rate).toBeCloseTo(1 / 3 / total);
  });

  it('a teacher reviews a video valid or invalid (with a reason); invalid takes the record out of completion', async () => {
    const hw = await publish({ name: '视频审核', classIds: [classA], cycle: 'once', startDate: today(), endDate: dayAfter(5), items: [{ item: 'rope1min', target: 100, intensity: 'low' }] });
    const [s] = await studentsOf(classA, 1);
    const video = await videoFile(t.clock.now());
    const [recordId] = await insertActivityRecords(t.db, [{ studentId: s, kind: 'homework', refId: hw.id, item: 'rope1min', value: 140, measuredAt: t.clock.now(), submittedBy: teacherUserId, videoFileId: video }]);
    const sub = () => t.as('school01').get(`${BASE}/${hw.id}/submissions?current=1&size=10`).then((r) => (r as AsAnswer<Page<HomeworkSubmission>>).body.data.records[0]);
    expect(await sub()).toMatchObject({ id: recordId, review: 'pending', videoFileId: video, reached: true, target: 100 });
    expect((await t.as('school01').get<HomeworkDetail>(`${BASE}/${hw.id}`)).body.data.pendingReviews).toBe(1);
    // The teacher's to-do counts the homework with videos waiting, as the homework list filtered to them shows it.
    const videosTodo = async () => (await t.as('teacher01').get<TodoSummary>('/api/busi/web/todos')).body.data.items.find((i) => i.kind === 'homeworkVideos');
    const waiting = await t.as('teacher01').get<Page<HomeworkRow>>(`${BASE}/page?current=1&size=10&review=pending`);
    expect(waiting.body.data.records.map((r) => r.id)).toContain(hw.id);
    expect(waiting.body.data.records.every((r) => r.pendingReviews > 0)).toBe(true);
    expect(await videosTodo()).toMatchObject({ count: waiting.body.data.total, to: '/k12/sportsHomework/homeworkManagement?review=pending' });

    const noReason = await t.as('teacher01').put(`${BASE}/submissions/${recordId}/review`, { verdict: 'invalid', reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body).toMatchObject({ msg: '请填写无效原因', data: { field: 'reason' } });
    expect((await t.as('teacher01').put(`${BASE}/submissions/${recordId}/review`, { verdict: 'invalid', reason: '视频中不是本人' })).status).toBe(200);
    expect((await videosTodo())?.count ?? 0).toBe(waiting.body.data.total - 1);
    expect(await sub()).toMatchObject({ review: 'invalid', reviewReason: '视频中不是本人', invalid: true, reached: false });
    expect((await t.as('school01').get<HomeworkClassCompletion[]>(`${BASE}/${hw.id}/classes`)).body.data[0].done).toBe(0);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'homeworkSubmission'), eq(auditLogs.entityId, recordId)));
    expect(log).toMatchObject({ action: 'review' });

    expect((await t.as('teacher01').put(`${BASE}/submissions/${recordId}/review`, { verdict: 'valid' })).status).toBe(200);
    expect(await sub()).toMatchObject({ review: 'valid', invalid: false, reached: true });
    expect((await t.as('school01').get<HomeworkClassCompletion[]>(`${BASE}/${hw.id}/classes`)).body.data[0].done).toBe(1);
    // Another school cannot review it.
    expect((await t.as('school02').put(`${BASE}/submissions/${recordId}/review`, { verdict: 'valid' })).status).toBe(404);
  });

  it('videos are deleted one month after upload by the expiry job; the review right ends with them', async () => {
    const hw = await publish({ name: '视频过期', classIds: [classA], cycle: 'once', startDate: today(), endDate: dayAfter(5), items: [{ item: 'rope1min', target: 100, intensity: 'low' }] });
    const [s1, s2] = await studentsOf(classA, 2);
    const [v1, v2] = [await videoFile(t.clock.now()), await videoFile(t.clock.now())];
    const [r1, r2] = await insertActivityRecords(t.db, [
      { studentId: s1, kind: 'homework', refId: hw.id, item: 'rope1min', value: 120, measuredAt: t.clock.now(), submittedBy: teacherUserId, videoFileId: v1 },
      { studentId: s2, kind: 'homework', refId: hw.id, item: 'rope1min', value: 125, measuredAt: t.clock.now(), submittedBy: teacherUserId, videoFileId: v2 },
    ]);
    expect((await t.as('school01').put(`${BASE}/submissions/${r1}/review`, { verdict: 'valid' })).status).toBe(200);
    expect(await expireHomeworkVideos(t.db, t.clock.now())).toBe(0);

    await advance(32 * DAY);
    const late = await t.as('school01').put(`${BASE}/submissions/${r2}/review`, { verdict: 'valid' });
    expect(late.status).toBe(409);
    expect(late.body.msg).toBe('视频已超过保存期限（1个月），不能再审核');
    expect(await expireHomeworkVideos(t.db, t.clock.now())).toBeGreaterThanOrEqual(2);
    const gone = await t.db.select({ id: files.id, deletedAt: files.deletedAt }).from(files).where(inArray(files.id, [v1, v2]));
    expect(gone.every((f) => f.deletedAt !== null)).toBe(true);
    const records = await t.db.select({ video: activityRecords.videoFileId }).from(activityRecords).where(inArray(activityRecords.id, [r1, r2]));
    expect(records.every((r) => r.video === null)).toBe(true);
    const subs = (await t.as('school01').get<Page<HomeworkSubmission>>(`${BASE}/${hw.id}/submissions?current=1&size=10`)).body.data.records;
    expect(Object.fromEntries(subs.map((x) => [x.id, x.review]))).toEqual({ [r1]: 'valid', [r2]: 'expired' });
    const gone2 = await t.as('school01').put(`${BASE}/submissions/${r2}/review`, { verdict: 'valid' });
    expect(gone2.status).toBe(409);
    // The file itself cannot be read any more.
    expect((await t.as('school01').get(`/api/uc/oss/files/${v2}/content`)).status).toBe(404);
    // Its record still counts: the review right ended, the value stays.
    expect(await expireHomeworkVideos(t.db, t.clock.now())).toBe(0);
  });
});

describe('a management organisation over its schools', () => {
  it('lists its schools’ homework with the school name and reads the detail; it cannot write', async () => {
    const hw = await publish({ name: '教育局可见' });
    const admin = '/api/busi/web/admin/sportsHomework/homeworkManagement';
    const page = (await t.as('district01').get<Page<HomeworkRow>>(`${admin}/page?current=1&size=80&name=${encodeURIComponent('教育局可见')}`)).body.data;
    expect(page.records).toEqual([expect.objectContaining({ id: hw.id, schoolName: '南京市江宁区实验学校' })]);
    expect((await t.as('district01').get(`${admin}/${hw.id}`)).status).toBe(200);
    expect((await t.as('district01').get(`${admin}/${hw.id}/classes`)).status).toBe(200);
    expect((await t.as('district01').delete(`${admin}/${hw.id}`)).status).toBe(404);
    expect((await t.as('district01').post(`${admin}/${hw.id}/end`)).status).toBe(404);
  });
});
