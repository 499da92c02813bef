/**
 * Lesson-load reports over a term (docs/product-rules.md#lesson-load: reports) through HTTP: a hand-made term of stored
 * lesson rows, grouped by class, teacher, grade and school; the persistently-below and -above rules; the data scope;
 * the district's comparison of its subtree; the data-centre card (kept until a lesson's figures change); the wall's
 * scene of today's lessons; 403 without the export button.
 */
import { and, eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '@/domain/dates';
import { pageAccess } from '@/domain/menus/access';
import type { LessonsSceneData, LoadCard, LoadDistrict, LoadSummary } from '@/domain/lesson-load/reports';
import type { WallSceneAnswer } from '@/domain/data-center/types';
import type { ScreenLinkCreated } from '@/domain/wall/wall';
import { menus, roleMenus, users } from '../../../server/db/schema/auth';
import { lessonLoadStudents, lessonLoads } from '../../../server/db/schema/lesson-load';
import { lessons } from '../../../server/db/schema/lessons';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, grades, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { rebuildLessonLoadRollups, writeSamples } from '../../../server/modules/lesson-load/lesson-load.store';
import { dataOf, DEMO, orgOf } from '../../support/factories';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';

const K12 = '/api/busi/web/k12/class/load/summary';
const ADMIN = '/api/busi/web/admin/class/load/schools';
const CARD = '/api/busi/web/k12/dataCenter/lessonLoad';
const TERM = 'schoolYear=2040&semester=13';
let t: TestApp;
let school: string;
let classA: { id: string; name: string; gradeNo: number };
let classB: { id: string; name: string; gradeNo: number };
let teacherA: { id: string; name: string };
let teacherB: { id: string; name: string };
let studentIds: string[];

/** A stored lesson of a class on a day (UTC+8 09:00). */
async function lesson(orgId: string, cls: string, teacherId: string | null, day: string, f: { bpm: number; gd: number; id: number; ts: number; meets: boolean }, perStudent: { id: string; density: number; peak: number }[] = []) {
  const startedAt = new Date(`${day}T09:00:00+08:00`);
  const [row] = await t.db
    .insert(lessons)
    .values({ orgId, type: 'practise', classId: cls, teacherId, clientId: `sum-${Math.random()}`, items: ['run'], startedAt, endedAt: new Date(startedAt.getTime() + 40 * 60_000) })
    .returning({ id: lessons.id });
  await t.db.insert(lessonLoads).values({
    lessonId: row.id, orgId, classId: cls, startedAt, minutes: 40, studentCount: perStudent.length,
    mainMeanBpm: f.bpm, peakBpm: 190, recoveryBpm: 20, groupDensity: f.gd, individualDensity: f.id, targetShare: f.ts, meetsTargets: f.meets,
  });
  // Each student's row, as storeLessonLoad writes it beside the lesson's.
  if (perStudent.length) {
    await t.db.insert(lessonLoadStudents).values(perStudent.map((s) => ({ lessonId: row.id, studentId: s.id, orgId, classId: cls, startedAt, measured: 2000, meanBpm: 130, mainMeanBpm: 140, peakBpm: s.peak, density: s.density })));
  }
  // The term and district rollups the reports read, as storeLessonLoad keeps them (rollups.test.ts checks that path).
  await rebuildLessonLoadRollups(t.db);
  return row.id;
}

const summary = async (account: string, query = '') => dataOf<LoadSummary>(await t.as(account).get(`${K12}?${TERM}${query}`));

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  school = (await orgOf(t, DEMO.school)).orgId;
  // Class A is one of myclass01's two classes; class B of another grade is not theirs.
  const [mine] = await t.db
    .select({ id: teacherClasses.classId })
    .from(teacherClasses)
    .innerJoin(teachers, eq(teachers.id, teacherClasses.teacherId))
    .innerJoin(users, eq(users.id, teachers.userId))
    .where(eq(users.accountNum, 'myclass01'))
    .limit(1);
  const classRow = async (id: string) => (await t.db.select({ id: classes.id, name: classes.name, gradeNo: grades.gradeNo }).from(classes).innerJoin(grades, eq(grades.id, classes.gradeId)).where(eq(classes.id, id)))[0];
  classA = await classRow(mine.id);
  const myAll = (await t.db.select({ id: teacherClasses.classId }).from(teacherClasses).innerJoin(teachers, eq(teachers.id, teacherClasses.teacherId)).innerJoin(users, eq(users.id, teachers.userId)).where(eq(users.accountNum, 'myclass01'))).map((r) => r.id);
  const [other] = await t.db
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(and(eq(classes.orgId, school), ne(grades.gradeNo, classA.gradeNo), eq(grades.graduated, false)))
    .limit(20);
  classB = await classRow(myAll.includes(other.id) ? (await t.db.select({ id: classes.id }).from(classes).where(and(eq(classes.orgId, school), ne(classes.id, other.id))).limit(1))[0].id : other.id);
  [teacherA, teacherB] = await t.db.select({ id: teachers.id, name: teachers.name }).from(teachers).where(eq(teachers.orgId, school)).orderBy(teachers.name).limit(2);
  studentIds = (await t.db.select({ id: students.id }).from(students).where(eq(students.classId, classA.id)).orderBy(students.regNo).limit(3)).map((s) => s.id);
  const [s1, s2, s3] = studentIds;
  // Class A, teacher A: 4 lessons in weeks of 3, 10 and 17 September 2040. s1's density is under 50 % in 3 of 4
  // (persistently below), s2 peaks in the high zone in 3 of 4 (persistently above), s3 neither.
  const st = (d1: number, p2: number, d3 = 0.7) => [
    { id: s1, density: d1, peak: 150 },
    { id: s2, density: 0.7, peak: p2 },
    { id: s3, density: d3, peak: 150 },
  ];
  await lesson(school, classA.id, teacherA.id, '2040-09-03', { bpm: 150, gd: 0.8, id: 0.6, ts: 0.5, meets: true }, st(0.3, 200));
  await lesson(school, classA.id, teacherA.id, '2040-09-05', { bpm: 130, gd: 0.6, id: 0.4, ts: 0.3, meets: false }, st(0.2, 205));
  await lesson(school, classA.id, teacherA.id, '2040-09-12', { bpm: 146, gd: 0.9, id: 0.7, ts: 0.6, meets: true }, st(0.45, 150));
  await lesson(school, classA.id, teacherA.id, '2040-09-19', { bpm: 160, gd: 0.7, id: 0.5, ts: 0.4, meets: false }, st(0.6, 210, 0.4));
  // Class B, teacher B: 2 lessons.
  await lesson(school, classB.id, teacherB.id, '2040-09-05', { bpm: 140, gd: 0.75, id: 0.55, ts: 0.45, meets: true });
  await lesson(school, classB.id, teacherB.id, '2040-09-20', { bpm: 120, gd: 0.5, id: 0.3, ts: 0.2, meets: false });
  // Outside the term (spring 2041): never counted in autumn 2040.
  await lesson(school, classA.id, teacherA.id, '2041-03-05', { bpm: 100, gd: 0.1, id: 0.1, ts: 0.1, meets: false }, st(0.1, 220));
});
afterAll(() => t?.close());

describe('term summary', () => {
  it("figures of a hand-made term by class: lessons, share meeting the targets, means of the lessons' figures", async () => {
    const s = await summary('school01');
    expect(s.term).toEqual({ schoolYear: 2040, semester: 13, from: '2040-08-01', to: '2041-01-31' });
    expect(s.total).toEqual({ lessons: 6, meetsShare: 0.5, mainMeanBpm: 141, groupDensity: 0.708, individualDensity: 0.508, targetShare: 0.408 });
    const a = s.rows.find((r) => r.id === classA.id)!;
    expect(a).toMatchObject({ name: classA.name, lessons: 4, meetsShare: 0.5, mainMeanBpm: 146.5, groupDensity: 0.75, individualDensity: 0.55, targetShare: 0.45 });
    expect(s.rows.find((r) => r.id === classB.id)).toMatchObject({ lessons: 2, meetsShare: 0.5, mainMeanBpm: 130, groupDensity: 0.625 });
    expect(s.rows).toHaveLength(2);
    // Weeks by their Monday: 3, 10 (none), 17 September.
    expect(s.weeks.map((w) => [w.week, w.lessons, w.meetsShare])).toEqual([
      ['2040-09-03', 3, 0.667],
      ['2040-09-10', 1, 1],
      ['2040-09-17', 2, 0],
    ]);
  });

  it('groups by teacher, grade and school', async () => {
    const byTeacher = await summary('school01', '&group=teacher');
    expect(byTeacher.rows.map((r) => [r.name, r.lessons]).sort()).toEqual([[teacherA.name, 4], [teacherB.name, 2]].sort());
    const byGrade = await summary('school01', '&group=grade');
    expect(byGrade.rows.map((r) => [Number(r.id), r.lessons]).sort()).toEqual([[classA.gradeNo, 4], [classB.gradeNo, 2]].sort());
    const bySchool = await summary('school01', '&group=school');
    expect(bySchool.rows).toEqual([expect.objectContaining({ id: school, lessons: 6, meetsShare: 0.5 })]);
    // One class only.
    expect((await summary('school01', `&classId=${classB.id}`)).total.lessons).toBe(2);
    expect((await t.as('school01').get(`${K12}?${TERM}&group=nonsense`)).status).toBe(400);
  });

  it('flags students persistently below (density) and above (peak in the high zone)', async () => {
    const s = await summary('school01');
    expect(s.below.map((r) => [r.studentId, r.lessons, r.count, r.share])).toEqual([[studentIds[0], 4, 3, 0.75]]);
    expect(s.above.map((r) => [r.studentId, r.lessons, r.count])).toEqual([[studentIds[1], 4, 3]]);
    expect(s.below[0].className).toBe(classA.name);
  });

  it('a teacher scoped to her classes sees those classes only', async () => {
    const s = await summary('myclass01');
    expect(s.rows.map((r) => r.id)).toEqual([classA.id]);
    expect(s.total.lessons).toBe(4);
  });

  it('another school sees none of it', async () => {
    expect((await summary('school02')).total.lessons).toBe(0);
  });

  it('exports the term as a workbook; without the export button 403', async () => {
    const res = await t.as('school01').get(`${K12}/export?${TERM}`);
    expect(res.status).toBe(200);
    const { rows } = await readXlsxRows(res.res.rawPayload);
    expect(rows.some((r) => r[0] === classA.name && Number(r[1]) === 4)).toBe(true);
    const codes = [pageAccess('k12.class.load').need('export')];
    const menuIds = (await t.db.select({ id: menus.menuId }).from(menus).where(inArray(menus.permission, codes))).map((m) => m.id);
    const kept = await t.db.select().from(roleMenus).where(inArray(roleMenus.menuId, menuIds));
    await t.db.delete(roleMenus).where(inArray(roleMenus.menuId, menuIds));
    try {
      t.signInAgain();
      expect((await t.as('school01').get(`${K12}/export?${TERM}`)).status).toBe(403);
      expect((await t.as('school01').get(`${K12}?${TERM}`)).status).toBe(200);
    } finally {
      await t.db.insert(roleMenus).values(kept);
      t.signInAgain();
    }
  });
});

describe('district comparison', () => {
  it("compares the district's schools; a school outside its subtree is not in it; a school cannot open it", async () => {
    // A school of no district, with a lesson in the term.
    const [lone] = await t.db.insert(orgs).values({ type: 21, code: '98', name: '区外学校' }).returning({ id: orgs.id });
    const [g] = await t.db.insert(grades).values({ orgId: lone.id, stage: 'junior', enrolYear: 2039, gradeNo: 7 }).returning({ id: grades.id });
    const [c] = await t.db.insert(classes).values({ orgId: lone.id, gradeId: g.id, code: 1, name: '区外1班' }).returning({ id: classes.id });
    await lesson(lone.id, c.id, null, '2040-09-06', { bpm: 150, gd: 0.8, id: 0.6, ts: 0.5, meets: true });

    const d = dataOf<LoadDistrict>(await t.as('district01').get(`${ADMIN}?${TERM}`));
    expect(d.schools.some((s) => s.orgId === lone.id)).toBe(false);
    expect(d.schools.find((s) => s.orgId === school)).toMatchObject({ lessons: 6, meetsShare: 0.5, mainMeanBpm: 141 });
    expect(d.total.lessons).toBe(6);
    const school2 = (await orgOf(t, DEMO.school2)).orgId;
    expect(d.schools.find((s) => s.orgId === school2)).toMatchObject({ lessons: 0, meetsShare: null });
    expect((await t.as('school01').get(`${ADMIN}?${TERM}`)).status).toBe(403);
    const file = await t.as('district01').get(`${ADMIN}/export?${TERM}`);
    expect(file.status).toBe(200);
    expect((await readXlsxRows(file.res.rawPayload)).rows.some((r) => Number(r[1]) === 6)).toBe(true);
  });
});

describe('data-centre card', () => {
  it("shows this term's figures of the school, a grade and a class, and a new lesson's figures at once", async () => {
    const card = async (q: string) => dataOf<LoadCard>(await t.as('school01').get(`${CARD}?${TERM}${q}`));
    expect((await card('')).total.lessons).toBe(6);
    expect((await card(`&gradeNo=${classB.gradeNo}`)).total.lessons).toBe(2);
    const a = await card(`&classId=${classA.id}`);
    expect(a.total).toMatchObject({ lessons: 4, meetsShare: 0.5 });
    expect(a.weeks.map((w) => w.week)).toEqual(['2040-09-03', '2040-09-10', '2040-09-17']);
    // Kept answers are retired by a write of lesson_loads.
    await lesson(school, classA.id, teacherA.id, '2040-10-08', { bpm: 150, gd: 0.8, id: 0.6, ts: 0.5, meets: true });
    expect((await card(`&classId=${classA.id}`)).total).toMatchObject({ lessons: 5, meetsShare: 0.6 });
    // A bureau names one of its schools; an organisation outside it is not found.
    expect(dataOf<LoadCard>(await t.as('district01').get(`/api/busi/web/admin/dataCenter/lessonLoad?${TERM}&orgId=${school}`)).total.lessons).toBe(7);
    expect((await t.as('school02').get(`${CARD}?${TERM}&orgId=${school}`)).status).toBe(404);
  });
});

describe('wall scene of today', () => {
  it('counts lessons in progress and finished and shows class figures, never a student name', async () => {
    const now = t.clock.now();
    const link = dataOf<ScreenLinkCreated>(await t.as('school01').post('/api/busi/web/k12/dataCenter/screenLink', { name: '今日体育课', playlist: { scenes: ['lessons'] } }));
    const scene = async () => {
      const res = await t.request({ url: `/api/screen/${link.token}/scene/lessons` });
      expect(res.statusCode).toBe(200);
      return { res, data: (res.json() as { data: WallSceneAnswer }).data.data as LessonsSceneData };
    };
    // The demo's own lessons of today (its lesson in progress) count too: the test adds to them.
    const before = (await scene()).data;
    // A finished lesson earlier today (stored) and one in progress with a minute of samples, inside today's local day.
    const midnight = new Date(`${localDate(now)}T00:00:00+08:00`).getTime();
    const startedAt = new Date(midnight + (now.getTime() - midnight) / 4);
    const endedAt = new Date(midnight + (now.getTime() - midnight) / 2);
    const [done] = await t.db.insert(lessons).values({ orgId: school, type: 'practise', classId: classB.id, clientId: 'wall-done', items: ['run'], startedAt, endedAt }).returning({ id: lessons.id });
    await t.db.insert(lessonLoads).values({ lessonId: done.id, orgId: school, classId: classB.id, startedAt, minutes: 40, studentCount: 1, mainMeanBpm: 150, peakBpm: 180, recoveryBpm: 20, groupDensity: 0.8, individualDensity: 0.6, targetShare: 0.5, meetsTargets: true });
    const liveStart = new Date(Math.max(endedAt.getTime(), Math.floor((now.getTime() - 5 * 60_000) / 60_000) * 60_000));
    const [live] = await t.db.insert(lessons).values({ orgId: school, type: 'practise', classId: classA.id, clientId: 'wall-live', items: ['run'], startedAt: liveStart }).returning({ id: lessons.id });
    const samples = studentIds.flatMap((s) => Array.from({ length: 60 }, (_, i) => ({ studentId: s, at: liveStart.getTime() + i * 1000, bpm: 140, intensity: null, age: 13 })));
    await t.db.transaction((tx) => writeSamples(tx, live.id, samples));

    const { res, data } = await scene();
    expect(data).toMatchObject({ scene: 'lessons', inProgress: before.inProgress + 1, finished: before.finished + 1, meetsTargets: before.meetsTargets + 1 });
    expect(data.rows.find((r) => r.name === classA.name)).toMatchObject({ inProgress: 1, finished: 0, meanBpm: 140, density: 1 });
    expect(data.rows.find((r) => r.name === classB.name)).toMatchObject({ inProgress: 0, finished: 1, meanBpm: 150, density: 0.6 });
    const names = (await t.db.select({ name: students.name }).from(students).where(inArray(students.id, studentIds))).map((s) => s.name);
    for (const n of names) expect(res.body).not.toContain(n);
  });
});
