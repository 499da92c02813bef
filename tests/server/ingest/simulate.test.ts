import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContestRow, Leaderboard, LeaderboardStudentRow } from '@/domain/contests/contests';
import type { HomeworkDetail } from '@/domain/homework/homework';
import type { Envelope } from '@/domain/api';
import { localDate } from '@/domain/dates';
import { activityRecords } from '../../../server/db/schema/activities';
import { files } from '../../../server/db/schema/files';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, grades, students } from '../../../server/db/schema/school';
import { simulate, type SimulateReport } from '../../../server/simulate/fleet';
import { injectSend } from '../../../server/simulate/run';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let contest: ContestRow;
let homework: HomeworkDetail;
let grade7: string[];
let report: SimulateReport;

const data = <T>(res: { statusCode: number; body: string; json<U>(): U }) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<T>>().data;
};

/**
 * The simulator (server/simulate) fills what the console publishes through the device and app API: entries of a
 * running contest for the students in its scope, results of a published homework for its classes' students.
 */
beforeAll(async () => {
  t = await createTestApp({ rateLimits: { loginPerMinute: 1_000_000, captchaPerMinute: 1_000_000 } });
  const token = (await t.login('school01')).access_token;
  const [school] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.name, '南京市江宁区实验学校'));
  grade7 = (
    await t.db
      .select({ id: classes.id })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(classes.orgId, school.id), eq(grades.gradeNo, 7)))
      .orderBy(classes.code)
  ).map((c) => c.id);
  const today = localDate(t.clock.now());
  const later = localDate(new Date(t.clock.now().getTime() + 5 * 86_400_000));
  contest = data<ContestRow>(
    await t.request({ method: 'POST', url: '/api/busi/web/k12/onlineManagement/competitionRank', token, payload: { name: '模拟器仰卧起坐赛', startDate: today, endDate: later, gradeNos: [9], items: ['sitUp1min'], rule: 'best' } }),
  );
  homework = data<HomeworkDetail>(
    await t.request({
      method: 'POST',
      url: '/api/busi/web/k12/sportsHomework/homeworkManagement',
      token,
      payload: { name: '模拟器作业', note: '', classIds: grade7.slice(0, 2), items: [{ item: 'standingLongJump', target: 180, intensity: 'medium' }], cycle: 'daily', startDate: today, endDate: later },
    }),
  );
  report = await simulate(t.db, injectSend(t.app), { days: 2, now: t.clock.now(), appUsers: 40 });
});
afterAll(async () => {
  await t?.close();
});

describe('the simulator drives contests and homework through the API', () => {
  it('sends only what the API accepts (windows, scope and items respected), resends included', () => {
    expect(report.rejected).toBe(0);
    expect(report.duplicate).toBeGreaterThan(0);
    expect(report.contestEntries).toBeGreaterThan(0);
    expect(report.homeworkSubmissions).toBeGreaterThan(0);
  });

  it('enters students of the contest’s scope only, and the leaderboard fills', async () => {
    const entries = await t.db
      .select({ studentId: activityRecords.studentId, gradeNo: grades.gradeNo, source: activityRecords.source, item: activityRecords.item })
      .from(activityRecords)
      .innerJoin(classes, eq(classes.id, activityRecords.classId))
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(eq(activityRecords.refId, contest.id));
    expect(entries.length).toBeGreaterThan(0);
    expect(new Set(entries.map((e) => e.gradeNo))).toEqual(new Set([9]));
    expect(new Set(entries.map((e) => e.item))).toEqual(new Set(['sitUp1min']));
    const token = (await t.login('school01')).access_token;
    const board = data<Leaderboard<LeaderboardStudentRow>>(
      await t.request({ method: 'GET', url: `/api/busi/web/k12/onlineManagement/competitionRank/${contest.id}/leaderboard?item=sitUp1min`, token }),
    );
    expect(board.total).toBe(new Set(entries.map((e) => e.studentId)).size);
  });

  it('hands in the homework for its classes only, from the app (with videos the app user uploaded) and at the school’s device', async () => {
    const rows = await t.db
      .select({ classId: activityRecords.classId, source: activityRecords.source, video: activityRecords.videoFileId, submittedBy: activityRecords.submittedBy })
      .from(activityRecords)
      .where(eq(activityRecords.refId, homework.id));
    expect(new Set(rows.map((r) => r.classId)).size).toBe(2);
    for (const r of rows) expect(grade7.slice(0, 2)).toContain(r.classId);
    expect(new Set(rows.map((r) => r.source))).toEqual(new Set(['app', 'device']));
    const videos = rows.filter((r) => r.video);
    expect(videos.length).toBeGreaterThan(0);
    const stored = await t.db
      .select({ id: files.id, createdBy: files.createdBy, purpose: files.purpose })
      .from(files)
      .where(inArray(files.id, videos.map((v) => v.video!)));
    for (const v of videos) expect(stored.find((f) => f.id === v.video)).toMatchObject({ purpose: 'video', createdBy: v.submittedBy });
    // Students without an app account in this run did it at the school.
    const viaApp = new Set(
      (await t.db.select({ id: activityRecords.studentId }).from(activityRecords).where(and(eq(activityRecords.refId, homework.id), eq(activityRecords.source, 'app')))).map((r) => r.id),
    );
    const atDevice = await t.db
      .select({ id: activityRecords.studentId })
      .from(activityRecords)
      .innerJoin(students, eq(students.id, activityRecords.studentId))
      .where(and(eq(activityRecords.refId, homework.id), eq(activityRecords.source, 'device'), isNotNull(activityRecords.deviceId)));
    for (const s of atDevice) expect(viaApp.has(s.id)).toBe(false);
  });
});
