import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heartRateMinutes, lessonBands, lessonLoads } from '../../../server/db/schema/lesson-load';
import { lessons } from '../../../server/db/schema/lessons';
import { classes, students } from '../../../server/db/schema/school';
import { devices } from '../../../server/db/schema/venue';
import { ensureDayPartitions, utcDay } from '../../../server/modules/lesson-load/heart-rate-partitions';
import { bindBands, storeLessonLoad, writeSamples } from '../../../server/modules/lesson-load/lesson-load.store';
import { DEMO, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

/** The lesson-load storage (docs/decisions/047-heart-rate-storage.md) on the real database. */
let t: TestApp;
let lesson: { id: string; orgId: string; classId: string };
let studentIds: string[];
const start = Date.UTC(2026, 9, 12, 1, 0);

beforeAll(async () => {
  t = await createTestApp();
  const school = { id: (await orgOf(t, DEMO.school)).orgId };
  const [cls] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, school.id)).limit(1);
  studentIds = (await t.db.select({ id: students.id }).from(students).where(eq(students.classId, cls.id)).limit(2)).map((s) => s.id);
  const [row] = await t.db
    .insert(lessons)
    .values({ orgId: school.id, type: 'practise', classId: cls.id, clientId: 'store-test', items: ['rope'], startedAt: new Date(start), endedAt: new Date(start + 40 * 60_000) })
    .returning({ id: lessons.id });
  lesson = { id: row.id, orgId: school.id, classId: cls.id };
  await t.db.insert(devices).values(studentIds.map((_, i) => ({ orgId: school.id, name: `band ${i}`, serialNo: `HR-STORE-${i}`, kind: 'band' as const })));
});
afterAll(() => t?.close());

describe('lesson-load storage', () => {
  it('writes samples once into the day partition and folds them into minutes; a resend changes nothing', async () => {
    // Through the ingest's own path: it holds the partitions' advisory lock, as the app's hourly job does beside it.
    await ensureDayPartitions(t.db, [utcDay(start)]);
    const samples = Array.from({ length: 120 }, (_, i) => ({ studentId: studentIds[0], at: start + i * 1000, bpm: i < 60 ? 100 : 150, intensity: null, age: 13 }));
    await t.db.transaction(async (tx) => expect(await writeSamples(tx, lesson.id, samples)).toBe(120));
    await t.db.transaction(async (tx) => expect(await writeSamples(tx, lesson.id, samples.slice(50, 70))).toBe(0));
    const minutes = await t.db.select().from(heartRateMinutes).where(eq(heartRateMinutes.lessonId, lesson.id)).orderBy(heartRateMinutes.minute);
    expect(minutes.map((m) => [m.samples, m.bpmSum, m.zoneRest, m.zoneTarget, m.active])).toEqual([
      [60, 6000, 60, 0, 0],
      [60, 9000, 0, 60, 60],
    ]);
    const { rows } = await t.db.execute<{ part: string }>(sql`select tableoid::regclass::text as part from heart_rate_samples where lesson_id = ${lesson.id} limit 1`);
    expect(rows[0].part).toBe('heart_rate_samples_20261012');
  });

  it('stores a closed lesson figures', async () => {
    await t.db.transaction((tx) => storeLessonLoad(tx, lesson.id));
    const [load] = await t.db.select().from(lessonLoads).where(eq(lessonLoads.lessonId, lesson.id));
    expect(load).toMatchObject({ minutes: 40, studentCount: 1, peakBpm: 150, meetsTargets: false });
  });

  it('lends bands: a band of another student in the lesson is refused, all or nothing', async () => {
    await t.db.transaction((tx) => bindBands(tx, lesson, [{ band: 'HR-STORE-0', studentId: studentIds[0] }]));
    const refused = await t.db.transaction((tx) => bindBands(tx, lesson, [{ band: 'HR-STORE-0', studentId: studentIds[1] }])).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect(await t.db.select().from(lessonBands).where(eq(lessonBands.lessonId, lesson.id))).toHaveLength(1);
    // a swap in one request is fine
    await t.db.transaction((tx) => bindBands(tx, lesson, [{ band: 'HR-STORE-1', studentId: studentIds[0] }, { band: 'HR-STORE-0', studentId: studentIds[1] }]));
    const bound = await t.db.select().from(lessonBands).where(eq(lessonBands.lessonId, lesson.id));
    expect(bound).toHaveLength(2);
  });
});
