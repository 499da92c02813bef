import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrainingCandidate, TrainingDetail, TrainingProgress, TrainingRow, TrainingSession } from '@/domain/training/training';
import type { Page } from '@/domain/api';
import { localDate } from '@/domain/dates';
import { activityRecords } from '../../../server/db/schema/activities';
import { auditLogs } from '../../../server/db/schema/audit';
import { users } from '../../../server/db/schema/auth';
import { orgs } from '../../../server/db/schema/orgs';
import { physiqueResults } from '../../../server/db/schema/physique';
import { students } from '../../../server/db/schema/school';
import { testPlans } from '../../../server/db/schema/test-plans';
import { insertActivityRecords } from '../../../server/seed/activity-records';
import { refCheckOf } from '../../../server/modules/activities/ref-checks';
import { createTestApp, type AsAnswer, type TestApp } from '../../support/server-app';

let t: TestApp;
let k12Id: string;
let teacherUserId: string;
/** A test plan of the school with students failing the rope skipping. */
let planId: string;
const BASE = '/api/busi/web/k12/specialTraining/specialTrainingList';
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  [{ id: k12Id }] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.name, '南京市江宁区实验学校'));
  [{ id: teacherUserId }] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'teacher01'));
  const [found] = await t.db
    .select({ planId: physiqueResults.planId, n: sql<number>`count(*)::int` })
    .from(physiqueResults)
    .where(and(eq(physiqueResults.orgId, k12Id), eq(physiqueResults.rope1minLevel, 'fail'), eq(physiqueResults.invalid, false)))
    .groupBy(physiqueResults.planId)
    .orderBy(sql`count(*) desc`)
    .limit(1);
  planId = found.planId;
});
afterAll(async () => {
  await t?.close();
});

const today = () => localDate(t.clock.now());
const dayAfter = (n: number) => localDate(new Date(t.clock.now().getTime() + n * DAY));

describe('special training', () => {
  it('picks the students failing an item from a test plan, creates a plan for them and shows progress toward the target', async () => {
    const picked = (await t.as('school01').get<TrainingCandidate[]>(`${BASE}/candidates?planId=${planId}&item=rope1min&level=fail`)).body.data;
    expect(picked.length).toBeGreaterThan(0);
    const levels = await t.db
      .select({ level: physiqueResults.rope1minLevel })
      .from(physiqueResults)
      .where(and(eq(physiqueResults.planId, planId), sql`${physiqueResults.studentId} in (${sql.join(picked.map((p) => sql`${p.studentId}::uuid`), sql`, `)})`));
    expect(levels.every((l) => l.level === 'fail')).toBe(true);
    const studentIds = picked.slice(0, 5).map((p) => p.studentId);
    const created = await t.as('school01').post(`${BASE}`, {
      name: '跳绳不及格专项',
      cycle: 'daily',
      startDate: today(),
      endDate: dayAfter(13),
      items: [{ item: 'rope1min', target: 120, intensity: 'high' }],
      studentIds,
      sourcePlanId: planId,
      sourceItem: 'rope1min',
      sourceLevel: 'fail',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const plan = (created as AsAnswer<TrainingDetail>).body.data;
    expect(plan).toMatchObject({ name: '跳绳不及格专项', status: 'inProgress', studentCount: 5, sourceItem: 'rope1min', sourceLevel: 'fail' });
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'trainingPlan'), eq(auditLogs.entityId, plan.id)))).toBe(1);

    // Sessions: the first student reaches the target, the second improves half way, an invalid one counts nowhere.
    const [a, b] = studentIds;
    const baseline = picked.find((p) => p.studentId === b)!.value!;
    await insertActivityRecords(t.db, [
      { studentId: a, kind: 'training', refId: plan.id, item: 'rope1min', value: 100, measuredAt: t.clock.now(), submittedBy: teacherUserId, durationS: 600 },
      { studentId: a, kind: 'training', refId: plan.id, item: 'rope1min', value: 125, measuredAt: t.clock.now(), submittedBy: teacherUserId, durationS: 600 },
      { studentId: b, kind: 'training', refId: plan.id, item: 'rope1min', value: baseline + (120 - baseline) / 2, measuredAt: t.clock.now(), submittedBy: teacherUserId },
      { studentId: b, kind: 'training', refId: plan.id, item: 'rope1min', value: 200, measuredAt: t.clock.now(), submittedBy: teacherUserId, invalid: true },
    ]);
    const progress = (await t.as('school01').get<Page<TrainingProgress>>(`${BASE}/${plan.id}/progress?current=1&size=80`)).body.data;
    expect(progress.total).toBe(5);
    const of = (id: string) => progress.records.find((r) => r.studentId === id)!;
    expect(of(a)).toMatchObject({ sessions: 2, reachedAll: true, items: [expect.objectContaining({ best: 125, reached: true, progress: 1 })] });
    expect(of(b).reachedAll).toBe(false);
    expect(of(b).items[0].baseline).toBe(baseline);
    expect(of(b).items[0].progress).toBeCloseTo(0.5);
    const sessions = (await t.as('school01').get<Page<TrainingSession>>(`${BASE}/${plan.id}/sessions?current=1&size=10`)).body.data;
    expect(sessions.total).toBe(4);
    const row = (await t.as('school01').get<Page<TrainingRow>>(`${BASE}/page?current=1&size=10`)).body.data.records.find((r) => r.id === plan.id);
    expect(row).toMatchObject({ sessionCount: 3, reachedCount: 1 });

    // The ref check: a target student within the period is accepted; others, other items and after the end are refused.
    const check = refCheckOf('training')!;
    const [other] = await t.db.select({ id: students.id, classId: students.classId }).from(students).where(and(eq(students.orgId, k12Id), sql`${students.id} not in (${sql.join(studentIds.map((s) => sql`${s}::uuid`), sql`, `)})`)).limit(1);
    const [aRow] = await t.db.select({ classId: students.classId }).from(students).where(eq(students.id, a));
    const rec = { orgId: k12Id, studentId: a, classId: aRow.classId, item: 'rope1min', value: 130, measuredAt: t.clock.now(), refId: plan.id };
    expect(await check(t.db, rec, new Map())).toBeNull();
    expect(await check(t.db, { ...rec, studentId: other.id, classId: other.classId }, new Map())).toEqual({ key: 'training:refused.notTarget' });
    expect(await check(t.db, { ...rec, item: 'sitUp1min' }, new Map())).toEqual({ key: 'training:refused.item' });
    expect((await t.as('school01').post(`${BASE}/${plan.id}/end`)).status).toBe(200);
    expect((await t.as('school01').post(`${BASE}/${plan.id}/end`)).status).toBe(409);
    expect(await check(t.db, { ...rec, measuredAt: new Date(t.clock.now().getTime() + 1000) }, new Map())).toEqual({ key: 'training:refused.ended' });

    // Another school cannot see it; delete takes its sessions.
    expect((await t.as('school02').get(`${BASE}/${plan.id}`)).status).toBe(404);
    expect((await t.as('school02').delete(`${BASE}/${plan.id}`)).status).toBe(404);
    expect((await t.as('school01').delete(`${BASE}/${plan.id}`)).status).toBe(200);
    expect(await t.db.$count(activityRecords, eq(activityRecords.refId, plan.id))).toBe(0);
  });

  it('with every plan (全部) picks from each student\'s latest result of the item, and the plan saves without a source plan', async () => {
    // The oracle: each studying student's newest counting result that measured rope skipping, by the plan's start.
    const rows = await t.db
      .select({ studentId: physiqueResults.studentId, level: physiqueResults.rope1minLevel, start: testPlans.startDate, testedOn: physiqueResults.testedOn, status: students.status })
      .from(physiqueResults)
      .innerJoin(testPlans, eq(testPlans.id, physiqueResults.planId))
      .innerJoin(students, eq(students.id, physiqueResults.studentId))
      .where(and(eq(physiqueResults.orgId, k12Id), eq(physiqueResults.invalid, false), sql`${testPlans.deletedAt} is null`, sql`${physiqueResults.rope1minLevel} is not null`));
    const latest = new Map<string, (typeof rows)[number]>();
    for (const r of rows) {
      const seen = latest.get(r.studentId);
      if (!seen || `${r.start}|${r.testedOn ?? ''}` > `${seen.start}|${seen.testedOn ?? ''}`) latest.set(r.studentId, r);
    }
    const failing = [...latest.values()].filter((r) => r.level === 'fail' && r.status === 'studying').map((r) => r.studentId).sort();
    expect(failing.length).toBeGreaterThan(0);

    for (const query of ['?item=rope1min&level=fail', '?planId=&item=rope1min&level=fail']) {
      const picked = await t.as('school01').get(`${BASE}/candidates${query}`);
      expect(picked.status, JSON.stringify(picked.body)).toBe(200);
      expect((picked as AsAnswer<TrainingCandidate[]>).body.data.map((c) => c.studentId).sort()).toEqual(failing);
    }
    const created = await t.as('school01').post(`${BASE}`, {
      name: '全部计划跳绳专项',
      cycle: 'weekly',
      startDate: today(),
      endDate: dayAfter(6),
      items: [{ item: 'rope1min', target: 100, intensity: 'medium' }],
      studentIds: failing.slice(0, 3),
      sourcePlanId: '',
      sourceItem: 'rope1min',
      sourceLevel: 'fail',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await t.as('school01').delete(`${BASE}/${(created as AsAnswer<TrainingDetail>).body.data.id}`);
  });

  it('refuses bad input naming the field; a class-scoped teacher picks only their students', async () => {
    const base = { name: '专项', cycle: 'weekly', startDate: today(), endDate: dayAfter(30), items: [{ item: 'rope1min', target: 120, intensity: 'low' }], studentIds: [] as string[] };
    const none = await t.as('school01', { language: 'en-US' }).post(`${BASE}`, base);
    expect(none.body).toMatchObject({ msg: 'Choose at least one student', data: { field: 'studentIds' } });
    const long = await t.as('school01', { language: 'en-US' }).post(`${BASE}`, { ...base, name: '长'.repeat(21), studentIds: [k12Id] });
    expect(long.body).toMatchObject({ msg: 'The name must be 1 to 20 characters', data: { field: 'name' } });
    const unknown = await t.as('school01').post(`${BASE}`, { ...base, studentIds: [k12Id] });
    expect(unknown.body).toMatchObject({ msg: '所选学生不存在', data: { field: 'studentIds' } });
    const all = (await t.as('school01').get<TrainingCandidate[]>(`${BASE}/candidates?planId=${planId}&item=rope1min&level=fail`)).body.data;
    const mine = (await t.as('myclass01').get<TrainingCandidate[]>(`${BASE}/candidates?planId=${planId}&item=rope1min&level=fail`)).body.data;
    expect(mine.length).toBeLessThan(all.length);
    const notMine = all.find((c) => !mine.some((m) => m.classId === c.classId))!;
    const refused = await t.as('myclass01').post(`${BASE}`, { ...base, studentIds: [notMine.studentId] });
    expect(refused.body).toMatchObject({ msg: '只能选择您任教班级的学生', data: { field: 'studentIds' } });
    expect((await t.as('school01').get(`${BASE}/candidates?planId=${planId}&item=bmi&level=fail`)).status).toBe(400);
  });
});
