import { and, eq, inArray, notInArray } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { LoadOptions, LoadReport, LoadRow } from '@/domain/lesson-load/report';
import { pageAccess } from '@/domain/menus/access';
import { membershipRoles, memberships, menus, roleMenus, users } from '../../../server/db/schema/auth';
import { lessons } from '../../../server/db/schema/lessons';
import { classes, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { storeLessonLoad, writeSamples, type SampleToWrite } from '../../../server/modules/lesson-load/lesson-load.store';
import { pageTexts } from '../../support/pdf-text';
import { DEMO, dataOf, orgOf } from '../../support/factories';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';

/**
 * The lesson load reports (docs/product-rules.md#lesson-load, "Reports") through HTTP: the list of lessons with heart-rate
 * data and one lesson's report, its workbook and PDF, against a lesson computed by hand.
 */
let t: TestApp;
const BASE = '/api/busi/web/k12/class/load';
const MIN = 60_000;
// 2026-10-12 09:00 in Beijing.
const A_START = Date.UTC(2026, 9, 12, 1, 0);
const C_START = Date.UTC(2026, 9, 14, 1, 0);
let lessonA: string;
let lessonB: string;
let lessonC: string;
let lessonD: string;
let mineClass: string;
let otherClass: string;
let teacherId: string;
let pupils: { id: string; name: string }[];

/** Samples of one student: each run of minutes at one bpm, every second. */
function run(studentId: string, start: number, parts: [minutes: number, bpm: number][]): SampleToWrite[] {
  const out: SampleToWrite[] = [];
  let at = start;
  for (const [minutes, bpm] of parts) {
    for (let s = 0; s < minutes * 60; s++) out.push({ studentId, at: at + s * 1000, bpm, intensity: null, age: 13 });
    at += minutes * MIN;
  }
  return out;
}

async function lessonWith(orgId: string, classId: string, startedAt: number, endedAt: number | null, samples: (ids: string[]) => SampleToWrite[], teacher: string | null = null) {
  const ids = (await t.db.select({ id: students.id }).from(students).where(eq(students.classId, classId)).orderBy(students.regNo).limit(2)).map((s) => s.id);
  const [row] = await t.db
    .insert(lessons)
    .values({ orgId, type: 'practise', classId, teacherId: teacher, clientId: `report-${startedAt}-${classId}`, items: ['rope'], startedAt: new Date(startedAt), endedAt: endedAt === null ? null : new Date(endedAt) })
    .returning({ id: lessons.id });
  await t.db.transaction((tx) => writeSamples(tx, row.id, samples(ids)));
  if (endedAt !== null) await t.db.transaction((tx) => storeLessonLoad(tx, row.id));
  return { id: row.id, studentIds: ids };
}

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  const school = (await orgOf(t, DEMO.school)).orgId;
  const school2 = (await orgOf(t, DEMO.school2)).orgId;
  const [me] = await t.db.select({ id: teachers.id }).from(teachers).innerJoin(users, eq(users.id, teachers.userId)).where(eq(users.accountNum, 'myclass01'));
  const mine = (await t.db.select({ classId: teacherClasses.classId }).from(teacherClasses).where(eq(teacherClasses.teacherId, me.id))).map((r) => r.classId);
  mineClass = mine[0];
  const [other] = await t.db.select({ id: classes.id }).from(classes).where(and(eq(classes.orgId, school), notInArray(classes.id, mine))).limit(1);
  otherClass = other.id;
  teacherId = me.id;
  // A: 30 minutes, main part minutes 8–24. Student 1: 100, then 150 through the main part, then 110; student 2: 100, 130, 100.
  const a = await lessonWith(
    school,
    mineClass,
    A_START,
    A_START + 30 * MIN,
    ([s1, s2]) => [
      ...run(s1, A_START, [
        [8, 100],
        [17, 150],
        [5, 110],
      ]),
      ...run(s2, A_START, [
        [8, 100],
        [17, 130],
        [5, 100],
      ]),
    ],
    me.id,
  );
  lessonA = a.id;
  pupils = await Promise.all(a.studentIds.map(async (id) => (await t.db.select({ id: students.id, name: students.name }).from(students).where(eq(students.id, id)))[0]));
  // B: in progress for 10 minutes, one student at 160.
  // Now on a whole minute, so the lesson in progress has run exactly 10 minutes.
  t.clock.advance(MIN - (t.clock.now().getTime() % MIN));
  const bStart = t.clock.now().getTime() - 10 * MIN;
  lessonB = (await lessonWith(school, mineClass, bStart, null, ([s1]) => run(s1, bStart, [[10, 160]]))).id;
  // C: another class, 30 minutes at 150: meets every target.
  lessonC = (await lessonWith(school, otherClass, C_START, C_START + 30 * MIN, ([s1]) => run(s1, C_START, [[30, 150]]))).id;
  // D: the second school's.
  const [cls2] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, school2)).limit(1);
  lessonD = (await lessonWith(school2, cls2.id, C_START, C_START + 30 * MIN, ([s1]) => run(s1, C_START, [[30, 150]]))).id;
});
afterAll(() => t?.close());

/** The list, read down to this file's lessons (the demo's term of lessons is listed beside them). */
const list = async (query = '', as = DEMO.school as string) => {
  const ours = new Set([lessonA, lessonB, lessonC, lessonD]);
  const rows: LoadRow[] = [];
  for (let current = 1; ; current++) {
    const page = dataOf(await t.as(as).get<Page<LoadRow>>(`${BASE}/page?size=80&current=${current}${query}`));
    rows.push(...page.records);
    if (rows.length >= page.total || page.records.length === 0) break;
  }
  return rows.filter((r) => ours.has(r.id));
};

describe('the lessons list', () => {
  it('lists the lessons with heart-rate data: stored figures, a lesson in progress computed up to now, which target was missed', async () => {
    const rows = await list();
    expect(rows.map((r) => r.id)).toEqual([lessonB, lessonC, lessonA]);
    const a = rows.find((r) => r.id === lessonA)!;
    expect(a).toMatchObject({
      minutes: 30,
      studentCount: 2,
      mainMeanBpm: 140,
      inProgress: false,
      meetsTargets: false,
      targets: { groupDensity: false, individualDensity: true, meanBpm: true },
      teacherName: expect.any(String),
    });
    expect(a.groupDensity).toBeCloseTo(0.567, 3);
    expect(a.individualDensity).toBeCloseTo(0.567, 3);
    expect(a.targetShare).toBeCloseTo(0.283, 3);
    const b = rows.find((r) => r.id === lessonB)!;
    expect(b).toMatchObject({ inProgress: true, minutes: 10, studentCount: 1, mainMeanBpm: 160, endedAt: null });
    expect(rows.find((r) => r.id === lessonC)).toMatchObject({ meetsTargets: true, mainMeanBpm: 150 });
  });

  it('filters by class, teacher, dates and the verdict (a lesson in progress has none yet)', async () => {
    expect((await list(`&classId=${otherClass}`)).map((r) => r.id)).toEqual([lessonC]);
    expect((await list(`&teacherId=${teacherId}`)).map((r) => r.id)).toEqual([lessonA]);
    expect((await list('&from=2026-10-12&to=2026-10-13')).map((r) => r.id)).toEqual([lessonA]);
    expect((await list('&from=2026-10-13&to=2026-10-14')).map((r) => r.id)).toEqual([lessonC]);
    expect((await list('&meets=true')).map((r) => r.id)).toEqual([lessonC]);
    expect((await list('&meets=false')).map((r) => r.id)).toEqual([lessonA]);
    const refused = await t.as(DEMO.school).get(`${BASE}/page?meets=maybe`);
    expect(refused.status).toBe(400);
  });

  it('offers the classes and teachers of those lessons', async () => {
    const options = dataOf(await t.as(DEMO.school).get<LoadOptions>(`${BASE}/options`));
    // beside the demo's classes and teachers of its own lessons
    expect(options.classes.map((c) => c.id)).toEqual(expect.arrayContaining([mineClass, otherClass]));
    expect(options.teachers.map((c) => c.id)).toEqual(expect.arrayContaining([teacherId]));
  });

  it('keeps a "my classes" teacher to their classes, and each school to its own', async () => {
    expect((await list('', 'myclass01')).map((r) => r.id)).toEqual([lessonB, lessonA]);
    expect((await t.as('myclass01').get(`${BASE}/${lessonC}`)).status).toBe(404);
    expect((await list('', DEMO.school2)).map((r) => r.id)).toEqual([lessonD]);
    expect((await t.as(DEMO.school).get(`${BASE}/${lessonD}`)).status).toBe(404);
    expect((await t.as(DEMO.school).get(`${BASE}/${lessonD}/print`)).status).toBe(404);
    expect((await t.as(DEMO.school2).get(`${BASE}/${lessonA}/export`)).status).toBe(404);
  });

  it('exports the filtered list as a workbook', async () => {
    // this file's teacher: the demo's lessons are another teacher's
    const res = await t.as(DEMO.school).get(`${BASE}/export?meets=false&teacherId=${teacherId}`);
    expect(res.status).toBe(200);
    const book = XLSX.read(res.res.rawPayload);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]], { header: 1 });
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual(expect.arrayContaining([30, 2, 140, '未达标：群体练习密度 ≥ 75%']));
  });
});

describe("a lesson's report", () => {
  it('answers the hand-computed figures, each student with their own curve, and the students below the band', async () => {
    const r = dataOf(await t.as(DEMO.school).get<LoadReport>(`${BASE}/${lessonA}`));
    expect(r.load.mainPart).toEqual({ from: 8, to: 25 });
    expect(r.load.curve).toHaveLength(30);
    expect(r.load.curve[0]).toEqual({ minute: 0, meanBpm: 100, students: 2 });
    expect(r.load.curve[10].meanBpm).toBe(140);
    expect(r.load.curve[29].meanBpm).toBe(105);
    expect(r.load).toMatchObject({ mainMeanBpm: 140, peakBpm: 150, recoveryBpm: 35, meetsTargets: false });
    const [s1, s2] = pupils;
    const one = r.load.students.find((s) => s.studentId === s1.id)!;
    expect(one).toMatchObject({ measured: 1800, mainMeanBpm: 150, peakBpm: 150, density: 0.567, zones: { rest: 780, moderate: 0, target: 1020, high: 0, danger: 0 } });
    const two = r.load.students.find((s) => s.studentId === s2.id)!;
    expect(two).toMatchObject({ mainMeanBpm: 130, zones: { rest: 780, moderate: 1020, target: 0, high: 0, danger: 0 } });
    const named = r.students.find((s) => s.studentId === s2.id)!;
    expect(named.name).toBe(s2.name);
    expect(named.curve.slice(7, 9)).toEqual([
      { minute: 7, meanBpm: 100 },
      { minute: 8, meanBpm: 130 },
    ]);
  });

  it('computes a lesson in progress up to now', async () => {
    const r = dataOf(await t.as('myclass01').get<LoadReport>(`${BASE}/${lessonB}`));
    expect(r.lesson.inProgress).toBe(true);
    expect(r.load).toMatchObject({ mainPart: { from: 0, to: 10 }, mainMeanBpm: 160, groupDensity: 1, individualDensity: 1 });
  });

  it('prints an A4 PDF with the figures, the zones and each student', async () => {
    const res = await t.as(DEMO.school).get(`${BASE}/${lessonA}/print`);
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toContain('application/pdf');
    const pdf = await PDFDocument.load(res.res.rawPayload);
    const [w, h] = [pdf.getPage(0).getWidth(), pdf.getPage(0).getHeight()];
    expect([Math.round(w), Math.round(h)]).toEqual([595, 842]);
    const text = pageTexts(pdf).join('\n');
    expect(text).toContain('课堂负荷报告');
    expect(text).toContain('未达标：群体练习密度 ≥ 75%');
    expect(text).toContain('56.7%');
    for (const p of pupils) expect(text).toContain(p.name);
    expect(text).toContain('偏低');
  });

  it("exports the lesson's figures: a row per student and the class curve per minute", async () => {
    const res = await t.as(DEMO.school).get(`${BASE}/${lessonA}/export`);
    expect(res.status).toBe(200);
    const book = XLSX.read(res.res.rawPayload);
    expect(book.SheetNames).toEqual(['课堂指标', '学生', '全班心率曲线']);
    const studentsSheet = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets['学生'], { header: 1 });
    expect(studentsSheet).toHaveLength(3);
    const two = studentsSheet.find((r) => r[0] === pupils[1].name)!;
    expect(two.slice(2, 7)).toEqual([30, 117, 130, 130, 0.567]);
    expect(two.at(-1)).toBe('偏低');
    const curve = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets['全班心率曲线'], { header: 1 });
    expect(curve).toHaveLength(31);
    expect(curve[9]).toEqual([9, '基本部分', 140, 2]);
  });

  it('refuses the report, its print and its export without their buttons (403)', async () => {
    const roleIds = (
      await t.db
        .select({ roleId: membershipRoles.roleId })
        .from(membershipRoles)
        .innerJoin(memberships, eq(memberships.id, membershipRoles.membershipId))
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(eq(users.accountNum, DEMO.school))
    ).map((r) => r.roleId);
    const codes = (['detail', 'print', 'export'] as const).map((a) => pageAccess('k12.class.load').need(a));
    const menuIds = (await t.db.select({ id: menus.menuId }).from(menus).where(inArray(menus.permission, codes))).map((m) => m.id);
    const where = and(inArray(roleMenus.roleId, roleIds), inArray(roleMenus.menuId, menuIds));
    const kept = await t.db.select().from(roleMenus).where(where);
    expect(kept.length).toBeGreaterThanOrEqual(3);
    await t.db.delete(roleMenus).where(where);
    try {
      expect((await t.as(DEMO.school).get(`${BASE}/${lessonA}`)).status).toBe(403);
      expect((await t.as(DEMO.school).get(`${BASE}/${lessonA}/print`)).status).toBe(403);
      expect((await t.as(DEMO.school).get(`${BASE}/${lessonA}/export`)).status).toBe(403);
      expect((await t.as(DEMO.school).get(`${BASE}/export`)).status).toBe(403);
      expect((await t.as(DEMO.school).get(`${BASE}/page`)).status).toBe(200);
    } finally {
      await t.db.insert(roleMenus).values(kept);
    }
  });
});
