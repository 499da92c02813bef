import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dangerRuns } from '@/domain/lesson-load/alerts';
import { CURRICULUM_TARGETS, zoneThresholds } from '@/domain/lesson-load/zones';
import type { DbHandle } from '../../../server/db/client';
import { heartRateDrops, heartRateMinutes, heartRateSamples, lessonAlerts, lessonBands, lessonLoadStudents, lessonLoads } from '../../../server/db/schema/lesson-load';
import { lessons } from '../../../server/db/schema/lessons';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, grades } from '../../../server/db/schema/school';
import { devices } from '../../../server/db/schema/venue';
import { storeLessonLoad } from '../../../server/modules/lesson-load/lesson-load.store';
import { DEMO_BANDS, LIVE_LESSON_MINUTES, MINUTES_DAYS } from '../../../server/seed/lesson-load-demo';
import { testDb } from '../../support/server-db';

/** The demo's lesson load (server/seed/lesson-load-demo.ts): what class/monitor and class/load show on a fresh demo. */
let h: DbHandle;
let k12Id: string;
let uniId: string;
const classOf = async (orgId: string, gradeNo: number, code: number) =>
  (
    await h.db
      .select({ id: classes.id })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(classes.orgId, orgId), eq(grades.gradeNo, gradeNo), eq(classes.code, code)))
  )[0].id;

beforeAll(async () => {
  h = await testDb();
  const schools = await h.db.select({ id: orgs.id, type: orgs.type }).from(orgs).orderBy(asc(orgs.code));
  k12Id = schools.find((o) => o.type === 21)!.id;
  uniId = schools.find((o) => o.type === 22)!.id;
});
afterAll(() => h?.close());

describe('demo lesson load', () => {
  it('gives each demo school a hub (activated, within its activation places) and bands under it', async () => {
    for (const orgId of [k12Id, uniId]) {
      const rows = await h.db.select().from(devices).where(and(eq(devices.orgId, orgId), inArray(devices.kind, ['hub', 'band'])));
      const hubs = rows.filter((d) => d.kind === 'hub');
      expect(hubs).toHaveLength(1);
      expect(hubs[0].activatedAt).not.toBeNull();
      const bands = rows.filter((d) => d.kind === 'band');
      expect(bands).toHaveLength(DEMO_BANDS);
      for (const b of bands) expect(b).toMatchObject({ parentId: hubs[0].id, activatedAt: null });
      const [org] = await h.db.select({ places: orgs.activatableDevices }).from(orgs).where(eq(orgs.id, orgId));
      expect(await h.db.$count(devices, and(eq(devices.orgId, orgId), isNotNull(devices.activatedAt)))).toBeLessThanOrEqual(org.places!);
    }
  });

  it('has a term of closed lessons with figures: one class mostly meets the targets, another often falls below', async () => {
    const good = await h.db.select().from(lessonLoads).where(eq(lessonLoads.classId, await classOf(k12Id, 7, 3)));
    const below = await h.db.select().from(lessonLoads).where(eq(lessonLoads.classId, await classOf(k12Id, 8, 1)));
    const uni = await h.db.select().from(lessonLoads).where(eq(lessonLoads.orgId, uniId));
    // Three lessons a week over at least ten weeks (a term so far, or the last twelve weeks), one a week at university.
    expect(good.length).toBeGreaterThanOrEqual(25);
    expect(below.length).toBeGreaterThanOrEqual(25);
    expect(uni.length).toBeGreaterThanOrEqual(8);
    const share = (list: (typeof lessonLoads.$inferSelect)[]) => list.filter((l) => l.meetsTargets).length / list.length;
    expect(share(good)).toBeGreaterThanOrEqual(0.6);
    expect(share(below)).toBeLessThan(0.5);
    expect(share(uni)).toBeGreaterThanOrEqual(0.5);
    for (const l of [...good, ...below, ...uni]) {
      expect(l.studentCount).toBeGreaterThan(30);
      if (l.meetsTargets) {
        expect(l.mainMeanBpm).toBeGreaterThanOrEqual(CURRICULUM_TARGETS.meanBpmMin);
        expect(l.mainMeanBpm).toBeLessThanOrEqual(CURRICULUM_TARGETS.meanBpmMax);
      }
    }
    // Some lessons of the below class miss on the mean, some on density.
    expect(below.some((l) => l.mainMeanBpm! < CURRICULUM_TARGETS.meanBpmMin)).toBe(true);
    expect([...good, ...below].some((l) => l.groupDensity! < CURRICULUM_TARGETS.groupDensity)).toBe(true);
  });

  it('keeps the minutes of the last weeks’ lessons, and their stored figures are what the store computes from them', async () => {
    const recent = await h.db
      .select({ id: lessons.id, startedAt: lessons.startedAt })
      .from(lessons)
      .innerJoin(lessonLoads, eq(lessonLoads.lessonId, lessons.id))
      .where(eq(lessons.orgId, k12Id))
      .orderBy(sql`${lessons.startedAt} desc`)
      .limit(3);
    expect(recent.length).toBe(3);
    const seeded = await h.db.select().from(lessonLoads).where(eq(lessonLoads.lessonId, recent[0].id));
    expect(await h.db.$count(heartRateMinutes, eq(heartRateMinutes.lessonId, recent[0].id))).toBeGreaterThan(30 * 35);
    // Each student's figures are seeded beside the lesson's, as the store writes them.
    const perStudent = () => h.db.select().from(lessonLoadStudents).where(eq(lessonLoadStudents.lessonId, recent[0].id)).orderBy(lessonLoadStudents.studentId);
    const seededStudents = await perStudent();
    expect(seededStudents).toHaveLength(seeded[0].studentCount);
    await h.db.transaction((tx) => storeLessonLoad(tx, recent[0].id));
    expect(await perStudent()).toEqual(seededStudents);
    const [recomputed] = await h.db.select().from(lessonLoads).where(eq(lessonLoads.lessonId, recent[0].id));
    const figures = (l: typeof lessonLoads.$inferSelect) => [l.mainMeanBpm, l.peakBpm, l.recoveryBpm, l.groupDensity, l.individualDensity, l.targetShare, l.meetsTargets, l.studentCount, l.minutes];
    expect(figures(recomputed)).toEqual(figures(seeded[0]));
    // Older lessons: figures only.
    const [oldest] = await h.db.select().from(lessonLoads).where(eq(lessonLoads.orgId, k12Id)).orderBy(asc(lessonLoads.startedAt)).limit(1);
    if (oldest.startedAt.getTime() < Date.now() - (MINUTES_DAYS + 1) * 86_400_000) expect(await h.db.$count(heartRateMinutes, eq(heartRateMinutes.lessonId, oldest.lessonId))).toBe(0);
  });

  it('keeps the danger runs and silent bands of closed lessons as acknowledged alerts', async () => {
    const alerts = await h.db.select().from(lessonAlerts).innerJoin(lessons, eq(lessons.id, lessonAlerts.lessonId)).where(isNotNull(lessons.endedAt));
    expect(alerts.some((a) => a.lesson_alerts.kind === 'danger')).toBe(true);
    expect(alerts.some((a) => a.lesson_alerts.kind === 'silent')).toBe(true);
    for (const a of alerts) expect(a.lesson_alerts.acknowledgedAt).not.toBeNull();
  });

  it('has one lesson in progress, from its hub, with bands lent and samples up to the seed: a danger run, a silent band, drops', async () => {
    const live = await h.db.select().from(lessons).where(isNull(lessons.endedAt));
    expect(live).toHaveLength(1);
    const lesson = live[0];
    const [hub] = await h.db.select().from(devices).where(eq(devices.id, lesson.deviceId!));
    expect(hub.kind).toBe('hub');
    expect(lesson.classId).toBe(await classOf(k12Id, 7, 3));
    expect(await h.db.$count(lessonLoads, eq(lessonLoads.lessonId, lesson.id))).toBe(0);
    const bound = await h.db.select().from(lessonBands).where(eq(lessonBands.lessonId, lesson.id));
    expect(bound.length).toBeGreaterThan(30);
    const raw = await h.db.select().from(heartRateSamples).where(eq(heartRateSamples.lessonId, lesson.id)).orderBy(asc(heartRateSamples.studentId), asc(heartRateSamples.at));
    const last = Math.max(...raw.map((r) => r.at.getTime()));
    expect(last - lesson.startedAt.getTime()).toBeGreaterThan((LIVE_LESSON_MINUTES - 1) * 60_000);
    // Raw samples and minutes agree.
    const [{ n }] = await h.db.select({ n: sql<number>`sum(${heartRateMinutes.samples})::int` }).from(heartRateMinutes).where(eq(heartRateMinutes.lessonId, lesson.id));
    expect(n).toBe(raw.length);
    const byStudent = new Map<string, typeof raw>();
    for (const r of raw) byStudent.set(r.studentId, [...(byStudent.get(r.studentId) ?? []), r]);
    const runs = [...byStudent.values()].flatMap((list) => dangerRuns(list.map((r) => ({ at: r.at.getTime(), bpm: r.bpm })), zoneThresholds(12).danger - 1));
    expect(runs.some((r) => r.to - r.from >= 30_000)).toBe(true);
    const gaps = [...byStudent.values()].map((list) => Math.max(...list.slice(1).map((r, i) => r.at.getTime() - list[i].at.getTime())));
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(60_000);
    const drops = await h.db.select().from(heartRateDrops).where(eq(heartRateDrops.lessonId, lesson.id));
    expect(Object.fromEntries(drops.map((d) => [d.reason, d.count]))).toEqual({ range: 1, jump: 1 });
  });
});
