import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { LiveView, MonitorBandsView, MonitorRow } from '@/domain/lesson-load/monitor';
import { pageAccess } from '@/domain/menus/access';
import { auditLogs } from '../../../server/db/schema/audit';
import { membershipRoles, memberships, menus, roleMenus, users } from '../../../server/db/schema/auth';
import { lessonAlerts, lessonBands } from '../../../server/db/schema/lesson-load';
import { lessons } from '../../../server/db/schema/lessons';
import { classes, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { devices } from '../../../server/db/schema/venue';
import { writeSamples } from '../../../server/modules/lesson-load/lesson-load.store';
import { DEMO, dataOf, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

/** The live lesson monitor (docs/product-rules.md#lesson-load) through HTTP: scope, tenancy, bands, alerts. */
const K12 = '/api/busi/web/k12/class/monitor';
const KEY = 'k12.class.monitor';
let t: TestApp;
let mine: { id: string; orgId: string; classId: string; version: number };
let other: { id: string };
let foreign: { id: string };
let roster: string[];
let myclassRole: string;

async function openLesson(orgId: string, classId: string, minutesAgo: number) {
  const [row] = await t.db
    .insert(lessons)
    .values({ orgId, type: 'practise', classId, clientId: `monitor-${Math.random()}`, items: ['rope'], startedAt: new Date(t.clock.now().getTime() - minutesAgo * 60_000) })
    .returning({ id: lessons.id, orgId: lessons.orgId, classId: lessons.classId, version: lessons.version });
  return row;
}
/** Gives myclass01's role these buttons of the monitor page (and its view); the caller signs in again. */
async function grant(buttons: readonly ('view' | 'edit' | 'acknowledge')[]) {
  const code = (b: 'view' | 'edit' | 'acknowledge') => (b === 'view' ? pageAccess(KEY).view : pageAccess(KEY).need(b));
  const menuIds = async (codes: string[]) => (await t.db.select({ id: menus.menuId }).from(menus).where(inArray(menus.permission, codes))).map((m) => m.id);
  await t.db.delete(roleMenus).where(and(eq(roleMenus.roleId, myclassRole), inArray(roleMenus.menuId, await menuIds([code('view'), code('edit'), code('acknowledge')]))));
  const ids = await menuIds(buttons.map(code));
  if (ids.length) await t.db.insert(roleMenus).values(ids.map((menuId) => ({ roleId: myclassRole, menuId })));
  t.signInAgain();
}
const live = (id: string, as = 'school01') => t.as(as).get<LiveView>(`${K12}/${id}/live`);
const audited = (id: string, action: string) => t.db.$count(auditLogs, and(eq(auditLogs.entityId, id), eq(auditLogs.action, action)));

beforeAll(async () => {
  t = await createTestApp();
  const school = (await orgOf(t, DEMO.school)).orgId;
  const [me] = await t.db
    .select({ roleId: membershipRoles.roleId, teacherId: teachers.id })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(membershipRoles, eq(membershipRoles.membershipId, memberships.id))
    .innerJoin(teachers, eq(teachers.userId, users.id))
    .where(eq(users.accountNum, 'myclass01'));
  myclassRole = me.roleId;
  const taughtIds = (await t.db.select({ classId: teacherClasses.classId }).from(teacherClasses).where(eq(teacherClasses.teacherId, me.teacherId))).map((r) => r.classId);
  const schoolClasses = await t.db.select({ id: classes.id, head: classes.headTeacherId, pe: classes.peTeacherId }).from(classes).where(eq(classes.orgId, school));
  const isHers = (c: (typeof schoolClasses)[number]) => taughtIds.includes(c.id) || c.head === me.teacherId || c.pe === me.teacherId;
  const taught = { classId: schoolClasses.find(isHers)!.id };
  const otherClass = schoolClasses.find((c) => !isHers(c))!;
  mine = await openLesson(school, taught.classId, 10);
  other = await openLesson(school, otherClass.id, 5);
  const school2 = (await orgOf(t, DEMO.school2)).orgId;
  const [cls2] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, school2)).limit(1);
  foreign = await openLesson(school2, cls2.id, 5);
  roster = (await t.db.select({ id: students.id }).from(students).where(and(eq(students.classId, taught.classId), eq(students.status, 'studying'))).orderBy(students.regNo).limit(3)).map((s) => s.id);
  await t.db.insert(devices).values([1, 2, 3].map((i) => ({ orgId: school, name: `心率手环 ${i}`, serialNo: `HR-MON-${i}`, kind: 'band' as const })));
  await t.db.insert(devices).values({ orgId: school, name: '终端', serialNo: 'HR-MON-TERM' });
});
afterAll(() => t?.close());

describe('lesson monitor', () => {
  it("lists today's lessons in progress of the classes the caller may see; another class under 'my classes' is 404", async () => {
    const all = dataOf<Page<MonitorRow>>(await t.as('school01').get(`${K12}/page?current=1&size=50`));
    expect(all.records.map((r) => r.id)).toEqual(expect.arrayContaining([mine.id, other.id]));
    expect(all.records.map((r) => r.id)).not.toContain(foreign.id);
    await grant(['view']);
    const hers = dataOf<Page<MonitorRow>>(await t.as('myclass01').get(`${K12}/page?current=1&size=50`));
    expect(hers.records.map((r) => r.id)).toContain(mine.id);
    expect(hers.records.map((r) => r.id)).not.toContain(other.id);
    expect((await live(other.id, 'myclass01')).status).toBe(404);
    expect((await live(mine.id, 'myclass01')).status).toBe(200);
  });

  it("answers 404 for another school's lesson", async () => {
    expect((await live(foreign.id)).status).toBe(404);
    expect((await t.as('school01').get(`${K12}/${foreign.id}/bands`)).status).toBe(404);
    expect((await t.as('school01').put(`${K12}/${foreign.id}/bands`, { bindings: [], version: 1 })).status).toBe(404);
  });

  it('lends bands from the roster: unknown band, a band twice and a stale dialog are refused with a message; the loan is audited', async () => {
    const view = dataOf<MonitorBandsView>(await t.as('school01').get(`${K12}/${mine.id}/bands`));
    expect(view.students.map((s) => s.id)).toEqual(expect.arrayContaining(roster));
    // bands only, no terminal (the demo school's own bands are listed too)
    expect(view.bands.map((b) => b.serialNo).filter((s) => s.startsWith('HR-MON'))).toEqual(['HR-MON-1', 'HR-MON-2', 'HR-MON-3']);
    const put = (body: unknown) => t.as('school01').put(`${K12}/${mine.id}/bands`, body);
    const unknown = await put({ bindings: [{ studentId: roster[0], band: 'HR-NOPE' }], version: view.version });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('手环 HR-NOPE 不是本校的心率手环');
    const twice = await put({ bindings: [{ studentId: roster[0], band: 'HR-MON-1' }, { studentId: roster[1], band: 'HR-MON-1' }], version: view.version });
    expect(twice.status).toBe(400);
    expect(twice.body.msg).toBe('同一只手环不能借给两名学生');
    const terminal = await put({ bindings: [{ studentId: roster[0], band: 'HR-MON-TERM' }], version: view.version });
    expect(terminal.status).toBe(400);
    expect(await t.db.$count(lessonBands, eq(lessonBands.lessonId, mine.id))).toBe(0);

    const ok = await put({ bindings: [{ studentId: roster[0], band: 'hr-mon-1' }, { studentId: roster[1], band: 'HR-MON-2' }, { studentId: roster[2], band: '' }], version: view.version });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await t.db.$count(lessonBands, eq(lessonBands.lessonId, mine.id))).toBe(2);
    expect(await audited(mine.id, 'lendBands')).toBe(1);
    const stale = await put({ bindings: [{ studentId: roster[0], band: '' }], version: view.version });
    expect(stale.status).toBe(409);
    expect(await t.db.$count(lessonBands, eq(lessonBands.lessonId, mine.id))).toBe(2);
    const row = dataOf<MonitorRow>(await t.as('school01').get(`${K12}/${mine.id}`));
    expect(row.bandCount).toBe(2);
  });

  it('raises a danger alert for a sustained run and a silent-band alert once, shows the tiles, and never raises them twice', async () => {
    const now = t.clock.now().getTime();
    const second = (s: number) => Math.floor(now / 1000) * 1000 + s * 1000;
    // Student 0: 40 s at 215 bpm (danger at any age) ending 20 s ago, then 100 bpm. Student 1: reported, then silent for 90 s.
    const samples = [
      ...Array.from({ length: 40 }, (_, i) => ({ studentId: roster[0], at: second(-60 + i), bpm: 215, intensity: null, age: 13 })),
      ...Array.from({ length: 20 }, (_, i) => ({ studentId: roster[0], at: second(-20 + i), bpm: 100, intensity: null, age: 13 })),
      ...Array.from({ length: 30 }, (_, i) => ({ studentId: roster[1], at: second(-120 + i), bpm: 130, intensity: null, age: 13 })),
    ];
    await t.db.transaction((tx) => writeSamples(tx, mine.id, samples));
    const view = dataOf<LiveView>(await live(mine.id));
    expect(view.alerts.open.map((a) => [a.studentId, a.kind, a.peakBpm])).toEqual(
      expect.arrayContaining([
        [roster[0], 'danger', 215],
        [roster[1], 'silent', null],
      ]),
    );
    expect(view.alerts.open).toHaveLength(2);
    expect(view.lesson.openAlerts).toBe(2);
    const tile = (id: string) => view.students.find((s) => s.id === id)!;
    expect(tile(roster[0])).toMatchObject({ state: 'reading', bpm: 100, zone: 'rest', band: 'HR-MON-1' });
    expect(tile(roster[0]).trend.filter((b) => b !== null).length).toBeGreaterThanOrEqual(5);
    expect(tile(roster[1])).toMatchObject({ state: 'silent', bpm: 130, zone: null });
    expect(tile(roster[2])).toMatchObject({ state: 'noBand', bpm: null });
    expect(view.current).toEqual({ meanBpm: 100, inTarget: 0, reading: 1 });
    expect(view.load.peakBpm).toBe(215);

    // Read again: nothing new. 90 s later the danger run is older than the look-back and student 1 still silent
    // (no second alert); student 0's band is quiet too long as well, but now every band is: that is the hub or its
    // connection, not the students, so no alert for student 0.
    await live(mine.id);
    expect(await t.db.$count(lessonAlerts, eq(lessonAlerts.lessonId, mine.id))).toBe(2);
    t.clock.advance(90_000);
    await live(mine.id);
    await live(mine.id);
    const kept = await t.db.select({ studentId: lessonAlerts.studentId, kind: lessonAlerts.kind }).from(lessonAlerts).where(eq(lessonAlerts.lessonId, mine.id));
    expect(kept.map((a) => `${a.kind}:${roster.indexOf(a.studentId)}`).sort()).toEqual(['danger:0', 'silent:1']);
  });

  it('keeps a run that began before the look-back as the alert already raised', async () => {
    const now = t.clock.now().getTime();
    const second = (s: number) => Math.floor(now / 1000) * 1000 + s * 1000;
    // Student 2 gets a band and runs at 215 for the last 200 s, read every 60 s: one alert.
    await t.db.insert(lessonBands).values({ lessonId: mine.id, studentId: roster[2], deviceId: (await t.db.select({ id: devices.id }).from(devices).where(eq(devices.serialNo, 'HR-MON-3')))[0].id });
    const run = Array.from({ length: 200 }, (_, i) => ({ studentId: roster[2], at: second(-199 + i), bpm: 215, intensity: null, age: 13 }));
    await t.db.transaction((tx) => writeSamples(tx, mine.id, run.slice(0, 80)));
    t.clock.advance(-120_000);
    await live(mine.id);
    t.clock.advance(60_000);
    await t.db.transaction((tx) => writeSamples(tx, mine.id, run.slice(80, 140)));
    await live(mine.id);
    t.clock.advance(60_000);
    await t.db.transaction((tx) => writeSamples(tx, mine.id, run.slice(140)));
    await live(mine.id);
    expect(await t.db.$count(lessonAlerts, and(eq(lessonAlerts.lessonId, mine.id), eq(lessonAlerts.studentId, roster[2]), eq(lessonAlerts.kind, 'danger')))).toBe(1);
  });

  it('shows the next batch on the next read at the same moment (the kept figures go with the batch)', async () => {
    const at = Math.floor(t.clock.now().getTime() / 1000) * 1000;
    const before = dataOf<LiveView>(await live(mine.id));
    const again = dataOf<LiveView>(await live(mine.id));
    expect(again.students).toEqual(before.students);
    expect(again.load).toEqual(before.load);
    await t.db.transaction((tx) => writeSamples(tx, mine.id, [{ studentId: roster[1], at, bpm: 141, intensity: null, age: 13 }]));
    const after = dataOf<LiveView>(await live(mine.id));
    expect(after.students.find((s) => s.id === roster[1])).toMatchObject({ state: 'reading', bpm: 141, lastAt: new Date(at).toISOString() });
    expect(after.current.reading).toBe(before.current.reading + 1);
  });

  it('acknowledges an alert with a note only with the acknowledge button; kept with who and when, audited, once', async () => {
    const view = dataOf<LiveView>(await live(mine.id));
    const alert = view.alerts.open.find((a) => a.kind === 'danger' && a.studentId === roster[0])!;
    const url = `${K12}/${mine.id}/alerts/${alert.id}/acknowledge`;
    await grant(['view', 'edit']);
    expect((await t.as('myclass01').put(url, { note: '已让学生休息' })).status).toBe(403);
    expect((await t.as('school01').put(url, { note: 'x'.repeat(201) })).status).toBe(400);
    const ok = await t.as('school01').put(url, { note: '已让学生休息' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const after = dataOf<LiveView>(await live(mine.id));
    expect(after.alerts.open.map((a) => a.id)).not.toContain(alert.id);
    const kept = after.alerts.history.find((a) => a.id === alert.id)!;
    expect(kept.note).toBe('已让学生休息');
    expect(kept.acknowledgedAt).toBeTruthy();
    expect(kept.acknowledgedBy).toBeTruthy();
    expect(await audited(mine.id, 'acknowledge')).toBe(1);
    const again = await t.as('school01').put(url, {});
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('该警报已被确认');
    // Another lesson's path with this alert: 404.
    expect((await t.as('school01').put(`${K12}/${other.id}/alerts/${alert.id}/acknowledge`, {})).status).toBe(404);
  });
});
