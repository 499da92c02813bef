/**
 * Warning cases (docs/product-rules.md#warnings): a warning becomes a case, assigned, acted on, closed and reopened
 * with its history; training plans made or linked; the principal's card, the district's count per school and the
 * wall's scene of counts; tenancy and data scope.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import { localDate } from '@/domain/dates';
import type { WallSceneAnswer } from '@/domain/data-center/types';
import type { ScreenLinkCreated } from '@/domain/wall/wall';
import { WARNING_KINDS, type CaseDetail, type CaseRow, type CaseTrainingRow, type DistrictWarningRow, type WarningOptions, type WarningRow, type WarningSummary } from '@/domain/warnings/warnings';
import { auditLogs } from '../../../server/db/schema/audit';
import { trainingPlans } from '../../../server/db/schema/homework';
import { createTestApp, type TestApp } from '../../support/server-app';
import { dataOf, orgOf } from '../../support/factories';

const K12 = '/api/busi/web/k12/physiqueManage/warning';
const GX = '/api/busi/web/gx/physiqueManage/warning';
let t: TestApp;

const warnings = async (account: string, query = '', base = K12) => dataOf<Page<WarningRow>>(await t.as(account).get(`${base}/warnings?current=1&size=80${query}`));
const detail = async (id: string, account = 'school01', base = K12) => dataOf<CaseDetail>(await t.as(account).get(`${base}/${id}`));
// Days in the schools' time zone, as the server reads plan dates (a UTC day is yesterday there after 16:00 UTC).
const today = () => localDate(t.clock.now());
const inDays = (n: number) => localDate(new Date(t.clock.now().getTime() + n * 86_400_000));

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('warning cases', () => {
  it('the demo holds cases of every state, with actions and a linked training plan', async () => {
    const open = dataOf<Page<CaseRow>>(await t.as('school01').get(`${K12}/page?current=1&size=20&status=open`));
    const closed = dataOf<Page<CaseRow>>(await t.as('school01').get(`${K12}/page?current=1&size=20&status=closed`));
    expect(open.total).toBeGreaterThan(0);
    expect(closed.total).toBeGreaterThan(0);
    const all = [...open.records, ...closed.records];
    const details = await Promise.all(all.map((c) => detail(c.id)));
    expect(details.some((d) => d.trainings.length > 0)).toBe(true);
    expect(details.some((d) => d.events.some((e) => e.kind === 'parentContacted'))).toBe(true);
    expect(dataOf<Page<CaseRow>>(await t.as('college01').get(`${GX}/page?current=1&size=20`)).total).toBeGreaterThan(0);
  });

  it('opens a case from a warning, assigns, records actions, closes with a note and reopens, all in its history', async () => {
    const row = (await warnings('school01', '&kind=decline&caseStatus=none')).records[0];
    const options = dataOf<WarningOptions>(await t.as('school01').get(`${K12}/options`));
    const [teacherA, teacherB] = options.teachers;
    const opened = await t.as('school01').post(`${K12}/cases`, { studentId: row.studentId, kind: 'decline', assignedTeacherId: teacherA.id, note: '期中后关注' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const made = opened.body.data as CaseDetail;
    expect(made).toMatchObject({ status: 'open', kind: 'decline', assignedTeacherName: teacherA.name, studentId: row.studentId });
    expect(made.detail.declinePoints).toBe(row.declinePoints);
    expect(made.events.map((e) => e.kind)).toEqual(['opened', 'assigned']);
    expect(made.events[0]).toMatchObject({ note: '期中后关注', byName: '陈丽华' });
    // The list shows the case on its warning.
    const listed = (await warnings('school01', `&kind=decline&classId=${row.classId}`)).records.find((r) => r.id === row.id)!;
    expect(listed).toMatchObject({ caseId: made.id, caseStatus: 'open', assignedTeacherName: teacherA.name });
    // One case per warning; no case without a warning.
    expect((await t.as('school01').post(`${K12}/cases`, { studentId: row.studentId, kind: 'decline' })).status).toBe(409);
    const missing = new Set((await warnings('school01', `&kind=missing&classId=${row.classId}`)).records.map((r) => r.studentId));
    const tested = (await warnings('school01', `&kind=failingItem&classId=${row.classId}`)).records.find((r) => !missing.has(r.studentId))!;
    const refused = await t.as('school01').post(`${K12}/cases`, { studentId: tested.studentId, kind: 'missing' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('该学生当前没有这一预警，不能建立个案');

    // An action, a reassignment; a stale save is refused and changes nothing.
    const acted = await t.as('school01').post(`${K12}/${made.id}/actions`, { kind: 'parentContacted', note: '已电话联系家长', version: made.version });
    expect(acted.status, JSON.stringify(acted.body)).toBe(200);
    const v2 = (acted.body.data as CaseDetail).version;
    expect((await t.as('school01').post(`${K12}/${made.id}/actions`, { kind: 'retest', note: 'x', version: made.version })).status).toBe(409);
    expect((await t.as('school01').post(`${K12}/${made.id}/actions`, { kind: 'retest', note: '', version: v2 })).status).toBe(400);
    // Closing needs a note.
    const noNote = await t.as('school01').put(`${K12}/${made.id}/case`, { assignedTeacherId: teacherB.id, status: 'closed', note: '', version: v2 });
    expect(noNote.status).toBe(400);
    expect(noNote.body.msg).toBe('结案时请填写说明');
    const closed = await t.as('school01').put(`${K12}/${made.id}/case`, { assignedTeacherId: teacherB.id, status: 'closed', note: '复测后恢复', version: v2 });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const after = closed.body.data as CaseDetail;
    expect(after).toMatchObject({ status: 'closed', assignedTeacherName: teacherB.name });
    expect(after.closedAt).not.toBeNull();
    const reopened = await t.as('school01').put(`${K12}/${made.id}/case`, { assignedTeacherId: teacherB.id, status: 'open', note: '', version: after.version });
    expect(reopened.status).toBe(200);
    const final = await detail(made.id);
    expect(final.events.map((e) => e.kind)).toEqual(['opened', 'assigned', 'parentContacted', 'assigned', 'closed', 'reopened']);
    expect(final.events.find((e) => e.kind === 'closed')?.note).toBe('复测后恢复');
    expect(final.events.every((e) => e.byName && e.at)).toBe(true);
    expect(final.closedAt).toBeNull();
    // Every write is in the operation log.
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'warningCase'), eq(auditLogs.entityId, made.id)))).toBe(4);
  });

  it('makes a special-training plan for the student and links or unlinks existing ones', async () => {
    const row = (await warnings('school01', '&kind=failingItem&caseStatus=none')).records[0];
    const made = dataOf<CaseDetail>(await t.as('school01').post(`${K12}/cases`, { studentId: row.studentId, kind: 'failingItem' }));
    const created = await t.as('school01').post(`${K12}/${made.id}/training`, {
      name: '耐力提升训练',
      cycle: 'daily',
      startDate: today(),
      endDate: inDays(20),
      items: [{ item: 'rope1min', target: 90, intensity: 'medium' }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const withPlan = created.body.data as CaseDetail;
    expect(withPlan.trainings.map((p) => p.name)).toEqual(['耐力提升训练']);
    expect(withPlan.events.at(-1)).toMatchObject({ kind: 'trainingCreated', detail: '耐力提升训练' });
    // The plan is the training module's own, with the student in it.
    const plan = dataOf<{ students: { id: string }[] }>(await t.as('school01').get(`/api/busi/web/k12/specialTraining/specialTrainingList/${withPlan.trainings[0].id}`));
    expect(plan.students.map((s) => s.id)).toEqual([row.studentId]);
    // A bad training is refused and nothing is made.
    const before = await t.db.$count(trainingPlans);
    expect((await t.as('school01').post(`${K12}/${made.id}/training`, { name: '', cycle: 'daily', startDate: today(), endDate: inDays(2), items: [] })).status).toBe(400);
    expect(await t.db.$count(trainingPlans)).toBe(before);

    // Unlink, then the plan is a candidate and links again.
    const trainingId = withPlan.trainings[0].id;
    expect((await t.as('school01').delete(`${K12}/${made.id}/trainings/${trainingId}`)).status).toBe(200);
    const candidates = dataOf<CaseTrainingRow[]>(await t.as('school01').get(`${K12}/${made.id}/candidates`));
    expect(candidates.map((c) => c.id)).toContain(trainingId);
    expect((await t.as('school01').post(`${K12}/${made.id}/trainings`, { trainingPlanIds: [trainingId] })).status).toBe(200);
    const linked = dataOf<Page<CaseTrainingRow>>(await t.as('school01').get(`${K12}/${made.id}/trainings?current=1&size=10`));
    expect(linked.records.map((r) => r.id)).toEqual([trainingId]);
    expect((await detail(made.id)).events.map((e) => e.kind).slice(-3)).toEqual(['trainingCreated', 'trainingUnlinked', 'trainingLinked']);
    // A plan the student is not in cannot be linked.
    const other = dataOf<Page<{ id: string }>>(await t.as('school01').get('/api/busi/web/k12/specialTraining/specialTrainingList/page?current=1&size=20')).records.find((p) => p.id !== trainingId);
    if (other) expect((await t.as('school01').post(`${K12}/${made.id}/trainings`, { trainingPlanIds: [other.id] })).status).toBe(404);
  });

  it("another school's case is 404 on every route, and a teacher sees only their classes' cases", async () => {
    const [theirs] = dataOf<Page<CaseRow>>(await t.as('school01').get(`${K12}/page?current=1&size=10`)).records;
    const d = await detail(theirs.id);
    expect((await t.as('school02').get(`${K12}/${theirs.id}`)).status).toBe(404);
    expect((await t.as('school02').put(`${K12}/${theirs.id}/case`, { assignedTeacherId: null, status: 'closed', note: '越权', version: d.version })).status).toBe(404);
    expect((await t.as('school02').post(`${K12}/${theirs.id}/actions`, { kind: 'note', note: '越权', version: d.version })).status).toBe(404);
    expect((await t.as('school02').post(`${K12}/cases`, { studentId: theirs.studentId, kind: theirs.kind })).status).toBe(404);
    expect((await detail(theirs.id)).version).toBe(d.version);
    // myclass01 teaches two classes: their cases only.
    const mine = dataOf<Page<CaseRow>>(await t.as('myclass01').get(`${K12}/page?current=1&size=80`));
    const myClasses = new Set((await warnings('myclass01')).records.map((r) => r.className));
    expect(mine.records.every((c) => myClasses.has(c.className))).toBe(true);
    const outside = dataOf<Page<CaseRow>>(await t.as('school01').get(`${K12}/page?current=1&size=80`)).records.find((c) => !myClasses.has(c.className))!;
    expect((await t.as('myclass01').get(`${K12}/${outside.id}`)).status).toBe(404);
  });
});

describe('counts: the principal card, the district, the wall', () => {
  it("the school's card counts the list's warnings by kind and the cases by state", async () => {
    const summary = dataOf<WarningSummary>(await t.as('school01').get(`${K12}/summary`));
    for (const kind of WARNING_KINDS) expect(summary.byKind[kind], kind).toBe((await warnings('school01', `&kind=${kind}`)).total);
    const open = dataOf<Page<CaseRow>>(await t.as('school01').get(`${K12}/page?current=1&size=10&status=open`)).total;
    const closed = dataOf<Page<CaseRow>>(await t.as('school01').get(`${K12}/page?current=1&size=10&status=closed`)).total;
    expect(summary).toMatchObject({ openCases: open, closedCases: closed });
    expect(summary.academicYear).toBeTruthy();
  });

  it('the district lists each school with its counts', async () => {
    const rows = dataOf<DistrictWarningRow[]>(await t.as('district01').get('/api/busi/web/admin/dataCenter/overview/warnings'));
    const school = await orgOf(t, 'school01');
    const college = await orgOf(t, 'college01');
    const k12 = rows.find((r) => r.orgId === school.orgId)!;
    const summary = dataOf<WarningSummary>(await t.as('school01').get(`${K12}/summary`));
    expect(k12).toMatchObject({ orgName: school.name, students: summary.students, openCases: summary.openCases, closedCases: summary.closedCases, byKind: summary.byKind });
    expect(rows.find((r) => r.orgId === college.orgId)!.students).toBeGreaterThan(0);
    // A school cannot read the district's route.
    expect((await t.as('school01').get('/api/busi/web/admin/dataCenter/overview/warnings')).status).toBe(403);
  });

  it("the wall's warnings scene answers counts and never a student's name", async () => {
    const made = await t.as('school01').post('/api/busi/web/k12/dataCenter/screenLink', { name: '预警大屏', playlist: { scenes: ['warnings'], intervalSeconds: 20, refreshSeconds: 60 } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const link = made.body.data as ScreenLinkCreated;
    const res = await t.request({ url: `/api/screen/${link.token}/scene/warnings` });
    expect(res.statusCode).toBe(200);
    const answer = res.json<{ data: WallSceneAnswer }>().data;
    const summary = dataOf<WarningSummary>(await t.as('school01').get(`${K12}/summary`));
    expect(answer.data).toEqual({ scene: 'warnings', counts: { byKind: summary.byKind, students: summary.students, openCases: summary.openCases, closedCases: summary.closedCases }, schools: [] });
    const names = (await warnings('school01')).records.map((r) => r.name);
    for (const name of names) expect(res.body).not.toContain(name);
    expect(res.body).not.toMatch(/"(name|studentId|regNo)"/);
  });
});
