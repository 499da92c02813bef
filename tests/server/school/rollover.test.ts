import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SchoolView } from '@/domain/data-center/types';
import { defaultSchoolYear } from '@/domain/school/school-years';
import type { RolloverPreview, RolloverSummary } from '@/domain/school/rollover';
import { auditLogs } from '../../../server/db/schema/audit';
import { classes, grades, majors, schoolRollovers, schoolYears, semesters, studentClassHistory, students } from '../../../server/db/schema/school';
import { waitForJob } from '../../support/jobs';
import { dataOf, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let k12Id: string;
let smallId: string;

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  k12Id = (await orgOf(t, 'school01')).orgId;
  smallId = (await orgOf(t, 'school02')).orgId;
});
afterAll(async () => {
  await t?.close();
});

const ROLLOVER = 'k12/org/acayear/rollover';

/** Starts a rollover (a job, docs/product-rules.md#jobs) and waits for it: the job as it ended. */
async function rollover(url: string, account: string, payload: unknown, lang = 'zh-CN') {
  const res = await t.as(account, { language: lang }).post<{ id: string }>(`/api/busi/web/${url}`, payload);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (await waitForJob(t, await t.as(account).token(), res.body.data.id, lang)).at(-1)!;
}
const lastOf = async (url: string, account: string) => dataOf(await t.as(account).get<RolloverSummary>(`/api/busi/web/${url}/last`));

/** Everything a rollover may touch in one organisation, without versions (an undo raises them, as every save does). */
async function snapshot(orgId: string) {
  return {
    grades: await t.db
      .select({ id: grades.id, stage: grades.stage, gradeNo: grades.gradeNo, enrolYear: grades.enrolYear, graduated: grades.graduated })
      .from(grades)
      .where(eq(grades.orgId, orgId))
      .orderBy(asc(grades.id)),
    classes: await t.db
      .select({ id: classes.id, gradeId: classes.gradeId, code: classes.code, name: classes.name })
      .from(classes)
      .where(eq(classes.orgId, orgId))
      .orderBy(asc(classes.id)),
    students: await t.db
      .select({ id: students.id, classId: students.classId, status: students.status })
      .from(students)
      .where(eq(students.orgId, orgId))
      .orderBy(asc(students.id)),
    history: await t.db.$count(studentClassHistory, eq(studentClassHistory.orgId, orgId)),
    years: await t.db
      .select({ id: schoolYears.id, startYear: schoolYears.startYear, current: schoolYears.current })
      .from(schoolYears)
      .where(eq(schoolYears.orgId, orgId))
      .orderBy(asc(schoolYears.startYear)),
    semesters: await t.db.select({ id: semesters.id, current: semesters.current }).from(semesters).where(eq(semesters.orgId, orgId)).orderBy(asc(semesters.id)),
  };
}

/**
 * Last year's school dashboard, class names left out: a rollover may rename classes that carry their grade, which
 * also reorders classes of equal rank (ties go by name).
 */
async function lastYearDashboard(year: number) {
  const view = dataOf(await t.as('school01').get<SchoolView>(`/api/busi/web/k12/dataCenter/school?schoolYear=${year}`));
  const { asOf: _asOf, ...rest } = view;
  return { ...rest, ranking: { ...view.ranking, rows: view.ranking.rows.map(({ name: _n, ...r }) => r).sort((a, b) => a.id.localeCompare(b.id)) } };
}

const commitBody = (p: RolloverPreview, extra: Record<string, unknown> = {}) => ({
  academicYear: p.to.academicYear,
  year: p.to.exists ? undefined : defaultSchoolYear(p.to.startYear),
  renameClasses: true,
  entering: p.entering.map((e) => ({ stage: e.stage, classes: e.classes })),
  ...extra,
});

describe('year rollover', () => {
  it('is the administrators’: a PE teacher is refused', async () => {
    expect((await t.as('teacher01').get(`/api/busi/web/${ROLLOVER}/preview`)).status).toBe(403);
    expect((await t.as('teacher01').post(`/api/busi/web/${ROLLOVER}`, {})).status).toBe(403);
    expect((await t.as('teacher01').post(`/api/busi/web/${ROLLOVER}/undo`, undefined)).status).toBe(403);
  });

  it('previews every class moving up, the top grades graduating and the entering classes, writing nothing', async () => {
    const before = await snapshot(k12Id);
    const audits = await t.db.$count(auditLogs);
    const p = dataOf(await t.as('school01').get<RolloverPreview>(`/api/busi/web/${ROLLOVER}/preview`));
    expect(p.from.academicYear).toBe('2026-2027');
    expect(p.to).toMatchObject({ academicYear: '2027-2028', exists: false, semesters: [] });
    const top = before.grades.filter((g) => [6, 9, 12].includes(g.gradeNo) && !g.graduated);
    expect(p.graduating.map((g) => g.gradeId).sort()).toEqual(top.map((g) => g.id).sort());
    expect(p.graduating.every((g) => g.students > 0 && g.classes.length > 0)).toBe(true);
    const movingClasses = before.classes.filter((c) => before.grades.some((g) => g.id === c.gradeId && !g.graduated && ![6, 9, 12].includes(g.gradeNo)));
    expect(p.moves).toHaveLength(movingClasses.length);
    const oneA = p.moves.find((m) => m.name === '一年级1班')!;
    expect(oneA).toMatchObject({ fromGrade: 1, toGrade: 2, newName: '二年级1班' });
    // Each stage taught gets an entering cohort with the present first grade's classes.
    const firsts = before.grades.filter((g) => [1, 7, 10].includes(g.gradeNo));
    expect(p.entering.map((e) => e.gradeNo).sort((a, b) => a - b)).toEqual(firsts.map((g) => g.gradeNo).sort((a, b) => a - b));
    const primary = p.entering.find((e) => e.stage === 'primary')!;
    expect(primary.enrolYear).toBe(2027);
    expect(primary.classes.map((c) => c.name)).toEqual(before.classes.filter((c) => c.gradeId === firsts.find((g) => g.gradeNo === 1)!.id).sort((a, b) => a.code - b.code).map((c) => c.name));
    expect(await snapshot(k12Id)).toEqual(before);
    expect(await t.db.$count(auditLogs)).toBe(audits);
  });

  it('refuses bad input naming the field, in the request’s language, writing nothing', async () => {
    const before = await snapshot(k12Id);
    const p = dataOf(await t.as('school01').get<RolloverPreview>(`/api/busi/web/${ROLLOVER}/preview`));
    const wrongYear = await t.as('school01', { language: 'en-US' }).post(`/api/busi/web/${ROLLOVER}`, commitBody(p, { academicYear: '2029-2030', year: defaultSchoolYear(2029) }));
    expect(wrongYear.status).toBe(400);
    expect(wrongYear.body).toMatchObject({ msg: 'The new school year must be 2027-2028', data: { field: 'academicYear' } });
    const noDates = await t.as('school01').post(`/api/busi/web/${ROLLOVER}`, commitBody(p, { year: undefined }));
    expect(noDates.body).toMatchObject({ msg: '请填写新学年的学期日期', data: { field: 'year' } });
    const dupCode = commitBody(p);
    dupCode.entering[0].classes = [
      { code: 1, name: 'A' },
      { code: 1, name: 'B' },
    ];
    const dup = await t.as('school01', { language: 'zh-TW' }).post(`/api/busi/web/${ROLLOVER}`, dupCode);
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({ data: { field: 'entering.0.classes.1.code' } });
    const tooBig = commitBody(p);
    tooBig.entering[0].classes = [{ code: 100, name: 'A' }];
    expect((await t.as('school01').post(`/api/busi/web/${ROLLOVER}`, tooBig)).body).toMatchObject({ msg: '班级编号不能大于99', data: { field: 'entering.0.classes.0.code' } });
    expect(await snapshot(k12Id)).toEqual(before);
  });

  it('commits in one transaction: a failure midway leaves nothing', async () => {
    const before = await snapshot(k12Id);
    // Make the graduation step fail after the school year was created.
    await t.db.execute(sql`create function fail_graduation() returns trigger language plpgsql as $$ begin raise exception 'boom'; end $$`);
    await t.db.execute(sql`create trigger fail_graduation before update on students for each row when (new.status = 'graduated') execute function fail_graduation()`);
    try {
      const p = dataOf(await t.as('school01').get<RolloverPreview>(`/api/busi/web/${ROLLOVER}/preview`));
      const failed = await rollover(ROLLOVER, 'school01', commitBody(p), 'en-US');
      expect(failed).toMatchObject({ state: 'failed', error: 'The task failed and wrote nothing. Try again, or contact your administrator.' });
    } finally {
      await t.db.execute(sql`drop trigger fail_graduation on students`);
      await t.db.execute(sql`drop function fail_graduation()`);
    }
    expect(await snapshot(k12Id)).toEqual(before);
    expect(await t.db.$count(schoolRollovers)).toBe(0);
  });

  it('rolls over: cohorts move up, top grades graduate with their history, entering classes open, the new year is current; last year’s dashboard is unchanged; undo restores exactly', async () => {
    const before = await snapshot(k12Id);
    const small = await snapshot(smallId);
    const dashboard = await lastYearDashboard(2026);
    const olderDashboard = await lastYearDashboard(2025);
    const p = dataOf(await t.as('school01').get<RolloverPreview>(`/api/busi/web/${ROLLOVER}/preview`));
    const entering = p.entering.map((e) => (e.stage === 'primary' ? { stage: e.stage, classes: [...e.classes, { code: 9, name: '一年级9班' }] } : { stage: e.stage, classes: e.classes }));
    const job = await rollover(ROLLOVER, 'school01', commitBody(p, { entering }));
    expect(job).toMatchObject({ state: 'done', result: { message: '已从2026-2027升级到2027-2028' } });
    const summary = await lastOf(ROLLOVER, 'school01');
    const enteringCount = entering.reduce((n, e) => n + e.classes.length, 0);
    expect(summary).toMatchObject({ fromYear: '2026-2027', toYear: '2027-2028', graduated: p.graduating.length, enteringClasses: enteringCount, undoneAt: null });
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'schoolRollover'), eq(auditLogs.entityId, summary.id)));
    expect(log).toMatchObject({ action: 'rollover', orgId: k12Id });

    const after = await snapshot(k12Id);
    for (const g of before.grades) {
      const now = after.grades.find((x) => x.id === g.id)!;
      if (g.graduated) expect(now).toEqual(g);
      else if ([6, 9, 12].includes(g.gradeNo)) expect(now).toMatchObject({ gradeNo: g.gradeNo, graduated: true });
      else expect(now).toMatchObject({ gradeNo: g.gradeNo + 1, graduated: false });
    }
    const oneA = p.moves.find((m) => m.name === '一年级1班')!;
    expect(after.classes.find((c) => c.id === oneA.classId)).toMatchObject({ name: '二年级1班', gradeId: oneA.gradeId });
    // Graduates: status graduated, same class, history kept (no class change, so no new history rows).
    const gradClassIds = new Set(p.graduating.flatMap((g) => g.classes.map((c) => c.id)));
    const graduates = after.students.filter((s) => gradClassIds.has(s.classId));
    expect(graduates.length).toBe(p.graduating.reduce((n, g) => n + g.students, 0));
    // Studying students graduate; a suspended or transferred-out student keeps that status.
    for (const s of graduates) {
      const was = before.students.find((b) => b.id === s.id)!;
      expect(s.status).toBe(was.status === 'studying' ? 'graduated' : was.status);
    }
    expect(graduates.some((s) => s.status === 'graduated')).toBe(true);
    expect(after.students.filter((s) => !gradClassIds.has(s.classId))).toEqual(before.students.filter((s) => !gradClassIds.has(s.classId)));
    expect(after.history).toBe(before.history);
    // Entering cohorts and classes.
    const newGrades = after.grades.filter((g) => !before.grades.some((b) => b.id === g.id));
    expect(newGrades.map((g) => `${g.stage}:${g.gradeNo}:${g.enrolYear}`).sort()).toEqual(p.entering.map((e) => `${e.stage}:${e.gradeNo}:2027`).sort());
    const newClasses = after.classes.filter((c) => !before.classes.some((b) => b.id === c.id));
    expect(newClasses).toHaveLength(enteringCount);
    expect(newClasses.filter((c) => c.name === '一年级1班')).toHaveLength(1);
    // The new year exists with its semesters and is current.
    expect(after.years.filter((y) => y.current).map((y) => y.startYear)).toEqual([2027]);
    expect(after.semesters.filter((s) => s.current)).toHaveLength(1);
    expect(after.semesters).toHaveLength(before.semesters.length + 2);
    // Last year's (and the year before's) dashboards show the same grades, classes and figures.
    expect(await lastYearDashboard(2026)).toEqual(dashboard);
    expect(await lastYearDashboard(2025)).toEqual(olderDashboard);
    // A graduate's own report still shows their results.
    const graduate = graduates[0];
    const report = await t.as('school01').get(`/api/busi/web/k12/dataCenter/student/${graduate.id}`);
    expect(report.status).toBe(200);
    // Another school is untouched, and cannot undo this one.
    expect(await snapshot(smallId)).toEqual(small);
    const other = await t.as('school02').post(`/api/busi/web/${ROLLOVER}/undo`, undefined);
    expect(other.status).toBe(409);
    expect(other.body.msg).toBe('没有可撤销的学年升级');
    expect(dataOf(await t.as('school02').get<RolloverSummary | null>(`/api/busi/web/${ROLLOVER}/last`))).toBeNull();
    // A second rollover in a row would move to 2028-2029 (the cohorts say 2027 now).
    expect(dataOf(await t.as('school01').get<RolloverPreview>(`/api/busi/web/${ROLLOVER}/preview`)).to.academicYear).toBe('2028-2029');

    const undone = await t.as('school01').post<RolloverSummary>(`/api/busi/web/${ROLLOVER}/undo`, undefined);
    expect(undone.status).toBe(200);
    expect(undone.body.data.undoneAt).not.toBeNull();
    expect(await snapshot(k12Id)).toEqual(before);
    expect(await lastYearDashboard(2026)).toEqual(dashboard);
    const [undoLog] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'schoolRollover'), eq(auditLogs.action, 'undoRollover')));
    expect(undoLog).toMatchObject({ orgId: k12Id, entityId: summary.id });
    // Only the last rollover, once.
    expect((await t.as('school01').post(`/api/busi/web/${ROLLOVER}/undo`, undefined)).status).toBe(409);
    expect(dataOf(await t.as('school01').get<RolloverSummary>(`/api/busi/web/${ROLLOVER}/last`))).toMatchObject({ id: summary.id, undoneAt: expect.any(String) });
  });

  it('refuses an undo once new data depends on the rollover (409 naming it), and allows it again when that data is gone', async () => {
    const before = await snapshot(smallId);
    const p = dataOf(await t.as('school02').get<RolloverPreview>(`/api/busi/web/${ROLLOVER}/preview`));
    expect(p.graduating.map((g) => g.gradeNo)).toEqual([6]);
    expect(p.entering).toHaveLength(1);
    expect((await rollover(ROLLOVER, 'school02', commitBody(p, { renameClasses: false }))).state).toBe('done');
    const after = await snapshot(smallId);
    // Names stay when the school keeps them.
    expect(after.classes.filter((c) => before.classes.some((b) => b.id === c.id))).toEqual(before.classes);
    const newClass = after.classes.find((c) => !before.classes.some((b) => b.id === c.id))!;

    // A student enrolled in an entering class.
    const [kid] = await t.db.insert(students).values({ orgId: smallId, classId: newClass.id, name: '新生甲', regNo: 'G2027000001', gender: 'male' }).returning({ id: students.id });
    const refused = await t.as('school02', { language: 'en-US' }).post(`/api/busi/web/${ROLLOVER}/undo`, undefined);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe('1 students added since depend on this rollover; it cannot be undone');
    await t.db.delete(students).where(eq(students.id, kid.id));

    // A graduate whose status was changed since.
    const graduate = after.students.find((s) => s.status === 'graduated')!;
    await t.db.update(students).set({ status: 'transferred', version: sql`${students.version} + 1` }).where(eq(students.id, graduate.id));
    const changed = await t.as('school02').post(`/api/busi/web/${ROLLOVER}/undo`, undefined);
    expect(changed.status).toBe(409);
    expect(changed.body.msg).toBe('升级后学生已被修改（1条），不能撤销');
    await t.db.update(students).set({ status: 'graduated', version: sql`${students.version} - 1` }).where(eq(students.id, graduate.id));

    expect((await t.as('school02').post(`/api/busi/web/${ROLLOVER}/undo`, undefined)).status).toBe(200);
    expect(await snapshot(smallId)).toEqual(before);
    expect(await t.db.$count(grades, and(eq(grades.orgId, smallId), inArray(grades.enrolYear, [2027])))).toBe(0);
  });

  it('uses a new school year that exists already, keeping it on undo', async () => {
    const created = await t.as('school02').post('/api/busi/web/k12/org/acayear', defaultSchoolYear(2027));
    expect(created.status).toBe(200);
    const p = dataOf(await t.as('school02').get<RolloverPreview>(`/api/busi/web/${ROLLOVER}/preview`));
    expect(p.to).toMatchObject({ academicYear: '2027-2028', exists: true });
    expect(p.to.semesters).toHaveLength(2);
    const before = await snapshot(smallId);
    expect((await rollover(ROLLOVER, 'school02', commitBody(p))).state).toBe('done');
    expect((await t.as('school02').post(`/api/busi/web/${ROLLOVER}/undo`, undefined)).status).toBe(200);
    expect(await snapshot(smallId)).toEqual(before);
  });

  it('the school-year list shows the year a rollover made current ahead of its first day, and a save keeps it there', async () => {
    const p = dataOf(await t.as('school02').get<RolloverPreview>(`/api/busi/web/${ROLLOVER}/preview`));
    expect((await rollover(ROLLOVER, 'school02', commitBody(p))).state).toBe('done');
    const currentYears = async () =>
      (await t.as('school02').get<{ records: { academicYear: string; current: boolean }[] }>('/api/busi/web/k12/org/acayear/page?current=1&size=10')).body
        .data.records.filter((y) => y.current)
        .map((y) => y.academicYear);
    expect(await currentYears()).toEqual(['2027-2028']);
    const [older] = await t.db.select().from(schoolYears).where(and(eq(schoolYears.orgId, smallId), eq(schoolYears.startYear, 2026)));
    const detail = dataOf(await t.as('school02').get<{ version: number }>(`/api/busi/web/k12/org/acayear/${older.id}`));
    const saved = await t.as('school02').put(`/api/busi/web/k12/org/acayear/${older.id}`, { ...defaultSchoolYear(2026), version: detail.version });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await currentYears()).toEqual(['2027-2028']);
    expect((await t.db.select().from(schoolYears).where(and(eq(schoolYears.orgId, smallId), eq(schoolYears.current, true)))).map((y) => y.startYear)).toEqual([2027]);
    expect((await t.as('school02').post(`/api/busi/web/${ROLLOVER}/undo`, undefined)).status).toBe(200);
    expect(await currentYears()).toEqual(['2026-2027']);
  });
});

describe('university rollover', () => {
  const GX = 'gx/org/acayear/rollover';

  it('graduates each class when its major’s years are over, moves the others up a year, opens no classes, and undoes exactly', async () => {
    const uni = { id: (await orgOf(t, 'college01')).orgId };
    const uniMajors = await t.db.select().from(majors).where(eq(majors.orgId, uni.id)).orderBy(asc(majors.code), asc(majors.name));
    // One three-year major and one five-year major beside the four-year ones.
    const [three, five] = uniMajors;
    await t.db.update(majors).set({ schoolLength: 3 }).where(eq(majors.id, three.id));
    await t.db.update(majors).set({ schoolLength: 5 }).where(eq(majors.id, five.id));
    try {
      const before = await snapshot(uni.id);
      const cohorts = await t.db.select().from(grades).where(eq(grades.orgId, uni.id));
      const yearOf = (gradeId: string) => cohorts.find((g) => g.id === gradeId)!.gradeNo - 12;
      const uniClasses = await t.db.select({ id: classes.id, gradeId: classes.gradeId, majorId: classes.majorId }).from(classes).where(eq(classes.orgId, uni.id));
      const lengthOf = (majorId: string | null) => (majorId === three.id ? 3 : majorId === five.id ? 5 : 4);
      const leaving = new Set(uniClasses.filter((c) => yearOf(c.gradeId) >= lengthOf(c.majorId)).map((c) => c.id));
      expect(leaving.size).toBeGreaterThan(0);

      const p = dataOf(await t.as('college01').get<RolloverPreview>(`/api/busi/web/${GX}/preview`));
      expect(new Set(p.graduating.flatMap((g) => g.classes.map((c) => c.id)))).toEqual(leaving);
      expect(p.entering).toEqual([]);
      // The fourth year keeps its five-year classes, so that cohort does not leave whole; the third year loses only the three-year major.
      expect(p.graduating.every((g) => !g.wholeCohort)).toBe(true);
      expect(p.moves.map((m) => m.classId).sort()).toEqual(uniClasses.filter((c) => !leaving.has(c.id)).map((c) => c.id).sort());
      expect(p.moves.every((m) => m.toGrade === Math.min(m.fromGrade + 1, 16))).toBe(true);

      const job = await rollover(GX, 'college01', commitBody(p, { entering: [] }));
      expect(job.state, job.error ?? '').toBe('done');
      const after = await snapshot(uni.id);
      for (const s of after.students) {
        const was = before.students.find((b) => b.id === s.id)!;
        expect(s.status, s.id).toBe(leaving.has(s.classId) && was.status === 'studying' ? 'graduated' : was.status);
      }
      for (const g of before.grades) expect(after.grades.find((x) => x.id === g.id)).toMatchObject({ gradeNo: Math.min(g.gradeNo + 1, 16), graduated: false });

      expect((await t.as('college01').post(`/api/busi/web/${GX}/undo`, undefined)).status).toBe(200);
      expect(await snapshot(uni.id)).toEqual(before);
    } finally {
      await t.db.update(majors).set({ schoolLength: 4 }).where(inArray(majors.id, [three.id, five.id]));
    }
  });
});
