/**
 * The lesson-load rollups (decision 051): storeLessonLoad keeps lesson_load_school_days and lesson_load_student_terms
 * in step with the stored rows, and the term summary and the district comparison read them with the same answers as
 * the direct computation over every row. A seeded set through the real write path (minutes, then the store): a lesson
 * stored twice, a late batch adding minutes and a student, a lesson deleted, lessons in two terms.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEMESTER } from '@/domain/constants';
import { ABOVE_AGES, aboveAgeSteps, abovePeakByAge, isPersistent, typicalAgeOfGrade, type LoadCard, type LoadDistrict, type LoadSummary, type LoadSummaryQuery } from '@/domain/lesson-load/reports';
import { zoneAge } from '@/domain/lesson-load/zones';
import { memberships, users } from '../../../server/db/schema/auth';
import { lessons } from '../../../server/db/schema/lessons';
import { classes, grades, schoolYears, semesters, students, teachers } from '../../../server/db/schema/school';
import { addMinutes, foldMinutes, rebuildLessonLoadRollups, storeLessonLoad, type SampleToWrite } from '../../../server/modules/lesson-load/lesson-load.store';
import { loadDistrict, loadSummary, resolveTerm, rollupsCover } from '../../../server/modules/lesson-load/summary.service';
import { deleteLesson } from '../../../server/modules/lessons/lessons.service';
import type { Actor } from '../../../server/plugins/tenant';
import { dataOf, DEMO, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

const K12 = '/api/busi/web/k12/class/load/summary';
const ADMIN = '/api/busi/web/admin/class/load/schools';
const CARD = '/api/busi/web/k12/dataCenter/lessonLoad';
const MIN = 60_000;
let t: TestApp;
let school: string;
let district: string;
let gradeNo: number;
let classIds: string[];
/** The lessons stored in autumn 2040 (`c`: the class's index in classIds). */
let stored: { id: string; start: number; c: number }[];

/** Deterministic figures: the same set on every run. */
function random(seed: number) {
  let s = seed;
  return () => ((s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}
const rnd = random(42);

/** A closed 40-minute lesson (09:00 UTC+8 on `day`) of a class, without figures yet. */
async function newLesson(classId: string, teacherId: string | null, day: string): Promise<{ id: string; start: number }> {
  const start = Date.parse(`${day}T09:00:00+08:00`);
  const [row] = await t.db
    .insert(lessons)
    .values({ orgId: school, type: 'practise', classId, teacherId, clientId: `rollup-${day}-${rnd()}`, items: ['run'], startedAt: new Date(start), endedAt: new Date(start + 40 * MIN) })
    .returning({ id: lessons.id });
  return { id: row.id, start };
}

/** Minutes of some students (a sample every 6 s), each around their own level: some mostly under 120 bpm (below), some peaking high. */
async function addStudentMinutes(lessonId: string, start: number, kids: { id: string; level: number }[], fromMinute = 0, toMinute = 40): Promise<void> {
  const samples: SampleToWrite[] = [];
  for (const kid of kids) {
    for (let m = fromMinute; m < toMinute; m++) {
      const main = m >= 8 && m < 35;
      for (let s = 0; s < 60; s += 6) {
        const bpm = Math.round((main ? kid.level : kid.level - 30) + 25 * rnd() - 12);
        samples.push({ studentId: kid.id, at: start + m * MIN + s * 1000, bpm: Math.max(60, Math.min(215, bpm)), intensity: null, age: 13 });
      }
    }
  }
  await t.db.transaction((tx) => addMinutes(tx, lessonId, foldMinutes(samples)));
}

const store = (lessonId: string) => t.db.transaction((tx) => storeLessonLoad(tx, lessonId));

/** Both rollups as rows, sums rounded past float noise, in key order. */
async function rollups() {
  const { rows: days } = await t.db.execute(sql`select org_id, day::text, school_year, semester, lessons, meets, round(bpm_sum::numeric, 6)::text as bpm_sum, bpm_n, round(group_sum::numeric, 6)::text as group_sum, group_n,
    round(individual_sum::numeric, 6)::text as individual_sum, individual_n, round(target_sum::numeric, 6)::text as target_sum, target_n from lesson_load_school_days order by 1, 2, 3, 4`);
  const { rows: terms } = await t.db.execute(sql`select student_id, class_id, org_id, school_year, semester, lessons, below, round(density_sum::numeric, 6)::text as density_sum, density_n,
    round(main_bpm_sum::numeric, 6)::text as main_bpm_sum, main_bpm_n, above, flagged, age_on::text, shared from lesson_load_student_terms order by 1, 2, 3, 4, 5`);
  const { rows: weeks } = await t.db.execute(sql`select org_id, class_id, teacher_id, week::text, school_year, semester, lessons, meets, round(bpm_sum::numeric, 6)::text as bpm_sum, bpm_n,
    round(group_sum::numeric, 6)::text as group_sum, group_n, round(individual_sum::numeric, 6)::text as individual_sum, individual_n, round(target_sum::numeric, 6)::text as target_sum, target_n
    from lesson_load_class_weeks order by 2, 4, 5, 6, 3 nulls first`);
  return { days, terms, weeks };
}

const actorOf = (orgId: string): Actor => ({ tenantOrgId: orgId, dataScope: 'org' }) as unknown as Actor;
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const now = new Date('2041-06-01T00:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  school = (await orgOf(t, DEMO.school)).orgId;
  [{ org: district }] = await t.db.select({ org: memberships.tenantOrgId }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(eq(users.accountNum, 'district01')).limit(1);
  const cls = await t.db.select({ id: classes.id, gradeNo: grades.gradeNo }).from(classes).innerJoin(grades, eq(grades.id, classes.gradeId)).where(and(eq(classes.orgId, school), eq(grades.graduated, false))).orderBy(asc(grades.gradeNo), asc(classes.code)).limit(2);
  classIds = cls.map((c) => c.id);
  gradeNo = cls[0].gradeNo;
  const [teacherA, teacherB] = await t.db.select({ id: teachers.id }).from(teachers).where(eq(teachers.orgId, school)).orderBy(teachers.name).limit(2);
  const kidsOf = async (classId: string) => (await t.db.select({ id: students.id }).from(students).where(eq(students.classId, classId)).orderBy(students.regNo).limit(6)).map((s, i) => ({ id: s.id, level: [105, 112, 135, 150, 185, 190][i] }));
  const kids = [await kidsOf(classIds[0]), await kidsOf(classIds[1])];

  // Autumn 2040 (calendar term: no semester of the school that year), two classes, five weeks, two teachers.
  const days = ['2040-09-03', '2040-09-05', '2040-09-10', '2040-09-12', '2040-09-17', '2040-09-19', '2040-10-08', '2041-01-15'];
  stored = [];
  for (const [i, day] of days.entries()) {
    for (const c of [0, 1]) {
      const l = await newLesson(classIds[c], c === 0 ? teacherA.id : i % 2 ? teacherB.id : null, day);
      // Not every student each time: a band forgotten now and then.
      await addStudentMinutes(l.id, l.start, kids[c].filter((_, k) => (k + i) % 5 !== 0));
      await store(l.id);
      stored.push({ ...l, c });
    }
  }
  // Stored twice (a repeated close) without a change, and again after a late batch: one student's missing minutes and
  // a student who had none; another lesson's late batch moves its figures across the below/above lines.
  await store(stored[2].id);
  await addStudentMinutes(stored[3].id, stored[3].start, [kids[1][0], kids[1][4]], 0, 40);
  await store(stored[3].id);
  await store(stored[3].id);
  await addStudentMinutes(stored[4].id, stored[4].start, [{ ...kids[0][1], level: 200 }], 10, 30);
  await store(stored[4].id);
  // A deleted lesson leaves nothing behind.
  const [deleted] = await t.db.select({ id: lessons.id }).from(lessons).where(eq(lessons.id, stored[6].id));
  await t.db.transaction((tx) => deleteLesson(tx, { tenantOrgId: school, dataScope: 'org' } as unknown as Actor, 'practise', deleted.id));
  // Spring 2041 in the school's own semester (20 Feb – 10 Jul, summer break to 31 Aug): a lesson in its break counts in it.
  const [year] = await t.db.insert(schoolYears).values({ orgId: school, startYear: 2040, academicYear: '2040-2041' }).returning({ id: schoolYears.id });
  await t.db.insert(semesters).values({ orgId: school, schoolYearId: year.id, code: SEMESTER.spring, startDate: '2041-02-20', endDate: '2041-07-10', breakStart: '2041-07-11', breakEnd: '2041-08-31' });
  for (const day of ['2041-02-21', '2041-03-07', '2041-03-14', '2041-07-20']) {
    const l = await newLesson(classIds[0], teacherA.id, day);
    await addStudentMinutes(l.id, l.start, kids[0]);
    await store(l.id);
  }
});
afterAll(() => t?.close());

describe('lesson-load rollups', () => {
  it('are what a rebuild from the stored rows makes: a lesson stored again, a late batch or a deletion is never counted twice', async () => {
    const kept = await rollups();
    expect(kept.days.length).toBeGreaterThan(10);
    expect(kept.terms.length).toBeGreaterThan(10);
    // Two classes over six weeks of two terms, one of them with two teachers a week.
    expect(kept.weeks.length).toBeGreaterThan(12);
    await t.db.transaction((tx) => rebuildLessonLoadRollups(tx));
    expect(await rollups()).toEqual(kept);
  });

  it("count each student's lessons above the threshold of every age, and read the age on the term's start as zoneAge does", async () => {
    // Write side: `above` is, per age of ABOVE_AGES, the student's lessons of that class and term whose peak reached it.
    const { rows } = await t.db.execute<{ above: number[]; peaks: number[] }>(sql`
      select t.above, array(select s.peak_bpm from lesson_load_students s join lesson_loads l on l.lesson_id = s.lesson_id
                             where s.student_id = t.student_id and s.class_id = t.class_id and s.measured > 0 and s.peak_bpm is not null
                               and l.school_year = t.school_year and l.semester = t.semester) as peaks
        from lesson_load_student_terms t`);
    const byAge = abovePeakByAge();
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows) expect(r.above.map(Number)).toEqual(byAge.map((bpm) => r.peaks.filter((p) => Number(p) >= bpm).length));
    expect(new Set(rows.flatMap((r) => r.above.map(Number))).size).toBeGreaterThan(1);
    // Read side: PostgreSQL's width_bucket over aboveAgeSteps' dates is zoneAge's clamped age, birthdays on the day included.
    for (const day of ['2040-08-01', '2041-02-20', '2044-02-29']) {
      const { from } = aboveAgeSteps(day);
      const { rows: ages } = await t.db.execute<{ birth: string; i: number }>(sql`
        select d::date::text as birth, width_bucket(d::date, ${sql.param(from)}::date[]) as i from generate_series('2010-01-01'::date, '2040-12-31'::date, interval '1 day') d`);
      const wrong = ages.filter((a) => ABOVE_AGES[Number(a.i)] !== zoneAge(a.birth, 10, day));
      expect(wrong.slice(0, 3)).toEqual([]);
    }
  });

  it('the term summary from the rollups equals the direct computation over every stored row, in every grouping, the trend and each filter', async () => {
    const terms: LoadSummaryQuery[] = [
      { schoolYear: 2040, semester: SEMESTER.autumn },
      { schoolYear: 2040, semester: SEMESTER.spring },
    ];
    let flagged = 0;
    for (const term of terms) {
      expect(await rollupsCover(t.db, school, (await loadSummary(t.db, actorOf(school), term, now)).term)).toBe(true);
      const groups = [{}, { group: 'teacher' }, { group: 'grade' }, { group: 'school' }, { group: 'college' }];
      for (const q of [...groups, { gradeNo }, { classId: classIds[1] }, { group: 'teacher', classId: classIds[0] }] as Partial<LoadSummaryQuery>[]) {
        const query = new URLSearchParams(Object.entries({ ...term, ...q }).map(([k, v]) => [k, String(v)])).toString();
        const viaRollups = dataOf<LoadSummary>(await t.as('school01').get(`${K12}?${query}`));
        expect(viaRollups).toEqual(json(await loadSummary(t.db, actorOf(school), { ...term, ...q }, now, 'rows')));
        flagged += viaRollups.below.length + viaRollups.above.length;
        if (q.group === 'teacher' && !q.classId) expect(viaRollups.rows.length).toBe(term.semester === SEMESTER.autumn ? 3 : 1);
      }
      // The data centre's card reads the same class weeks: its figures and trend are the summary's.
      const direct = await loadSummary(t.db, actorOf(school), term, now, 'rows');
      const card = dataOf<LoadCard>(await t.as('school01').get(`${CARD}?schoolYear=${term.schoolYear}&semester=${term.semester}`));
      expect({ total: card.total, weeks: card.weeks }).toEqual(json({ total: direct.total, weeks: direct.weeks }));
    }
    // The set is made to flag students both ways (else the comparison would prove little).
    const autumn = dataOf<LoadSummary>(await t.as('school01').get(`${K12}?schoolYear=2040&semester=13`));
    expect(autumn.below.length).toBeGreaterThan(0);
    expect(autumn.above.length).toBeGreaterThan(0);
    expect(autumn.total.lessons).toBe(15);
    expect(autumn.weeks.map((w) => w.week)).toEqual(['2040-09-03', '2040-09-10', '2040-09-17', '2040-10-08', '2041-01-14']);
    expect(flagged).toBeGreaterThan(4);
  });

  it("keep each row's flag: persistently below, or above at the student's age on the term's first day, and whether the student has another row of the term", async () => {
    const { rows } = await t.db.execute<{ student_id: string; org_id: string; school_year: number; semester: number; lessons: number; below: number; above: number[]; flagged: boolean | null; age_on: string; shared: boolean; birth_date: string | null; grade_no: number; others: number }>(sql`
      select t.*, t.age_on::text as age_on, st.birth_date::text as birth_date, g.grade_no,
             (select count(*) from lesson_load_student_terms u where u.student_id = t.student_id and u.school_year = t.school_year and u.semester = t.semester and u.class_id <> t.class_id)::int as others
        from lesson_load_student_terms t join students st on st.id = t.student_id join classes c on c.id = st.class_id join grades g on g.id = c.grade_id`);
    for (const r of rows) {
      const { from } = await resolveTerm(t.db, r.org_id, { schoolYear: Number(r.school_year), semester: Number(r.semester) as 11 | 13 }, now);
      const above = r.above.map(Number)[ABOVE_AGES.indexOf(zoneAge(r.birth_date, typicalAgeOfGrade(Number(r.grade_no)), from))];
      expect({ ageOn: r.age_on, flagged: r.flagged, shared: r.shared }).toEqual({ ageOn: from, flagged: isPersistent(r.lessons, r.below) || isPersistent(r.lessons, above), shared: r.others > 0 });
    }
    expect(new Set(rows.map((r) => r.flagged))).toEqual(new Set([true, false]));
  });

  it("a student's birth date changed after their lessons were stored: the summary still flags them at their age now", async () => {
    // A student peaking around 170: above at 25 (from 166 bpm), not at 6 (from 182). Six years old when stored.
    const [kid] = await t.db.select({ id: students.id }).from(students).where(eq(students.classId, classIds[0])).orderBy(students.regNo).offset(6).limit(1);
    await t.db.update(students).set({ birthDate: '2034-03-01' }).where(eq(students.id, kid.id));
    // Four of the first class's autumn lessons (stored[6] was deleted).
    for (const l of [0, 2, 4, 8].map((k) => stored[k])) {
      await addStudentMinutes(l.id, l.start, [{ id: kid.id, level: 160 }]);
      await store(l.id);
    }
    const term = { schoolYear: 2040, semester: SEMESTER.autumn } as const;
    const summary = async () => dataOf<LoadSummary>(await t.as('school01').get(`${K12}?schoolYear=2040&semester=${SEMESTER.autumn}`));
    let viaRollups = await summary();
    expect(viaRollups.above.map((s) => s.studentId)).not.toContain(kid.id);
    const flagOf = async () => (await t.db.execute<{ flagged: boolean | null }>(sql`select flagged from lesson_load_student_terms where student_id = ${kid.id}`)).rows.map((r) => r.flagged);
    expect(await flagOf()).toEqual([false]);
    // The roster corrects the birth date: 25 on the term's first day. Their flag is no longer known until stored again.
    await t.db.update(students).set({ birthDate: '2010-01-01' }).where(eq(students.id, kid.id));
    expect(await flagOf()).toEqual([null]);
    viaRollups = await summary();
    expect(viaRollups).toEqual(json(await loadSummary(t.db, actorOf(school), term, now, 'rows')));
    expect(viaRollups.above.map((s) => s.studentId)).toContain(kid.id);
    // Stored again, the flag is kept at the new age.
    await store(stored[0].id);
    expect(await flagOf()).toEqual([true]);
  });

  it("flags read on another day than the term's first (its semester start moved) are not used: those rows are read", async () => {
    const term = { schoolYear: 2040, semester: SEMESTER.autumn } as const;
    const before = await loadSummary(t.db, actorOf(school), term, now, 'rows');
    expect(before.below.length + before.above.length).toBeGreaterThan(0);
    await t.db.execute(sql`update lesson_load_student_terms set flagged = false, age_on = '2000-01-01' where school_year = 2040 and semester = ${SEMESTER.autumn}`);
    expect(dataOf<LoadSummary>(await t.as('school01').get(`${K12}?schoolYear=2040&semester=${SEMESTER.autumn}`))).toEqual(json(before));
    await t.db.transaction((tx) => rebuildLessonLoadRollups(tx));
  });

  it("the district comparison from the school days equals the aggregate over every lesson row", async () => {
    for (const semester of [SEMESTER.autumn, SEMESTER.spring]) {
      const viaRollups = dataOf<LoadDistrict>(await t.as('district01').get(`${ADMIN}?schoolYear=2040&semester=${semester}`));
      expect(viaRollups).toEqual(json(await loadDistrict(t.db, actorOf(district), { schoolYear: 2040, semester }, now, 'rows')));
      expect(viaRollups.schools.find((s) => s.orgId === school)!.lessons).toBeGreaterThan(0);
    }
  });

  it("after the school's semester changes, the summary reads the per-student rows and still answers the same", async () => {
    // The semester now ends in June: the July lessons were counted in spring when stored, but are outside it now.
    await t.db.update(semesters).set({ endDate: '2041-06-30', breakStart: null, breakEnd: null }).where(and(eq(semesters.orgId, school), eq(semesters.code, SEMESTER.spring)));
    const term = { schoolYear: 2040, semester: SEMESTER.spring } as const;
    expect(await rollupsCover(t.db, school, (await loadSummary(t.db, actorOf(school), term, now)).term)).toBe(false);
    const viaService = dataOf<LoadSummary>(await t.as('school01').get(`${K12}?schoolYear=2040&semester=${SEMESTER.spring}`));
    expect(viaService).toEqual(json(await loadSummary(t.db, actorOf(school), term, now, 'rows')));
    expect(viaService.total.lessons).toBe(3);
  });
});
