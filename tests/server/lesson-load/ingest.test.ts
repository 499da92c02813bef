import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { HeartRateBatchResult } from '@/domain/lesson-load/ingest';
import { heartRateDrops, heartRateMinutes, lessonBands, lessonLoadStudents, lessonLoads } from '../../../server/db/schema/lesson-load';
import { classes, students } from '../../../server/db/schema/school';
import { devices } from '../../../server/db/schema/venue';
import { hashSecret } from '../../../server/lib/tokens';
import { pruneHeartRateSamples } from '../../../server/modules/lesson-load/heart-rate-partitions';
import { DEMO, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

/**
 * The heart-rate ingest through the device API (docs/product-rules.md#lesson-load, "Samples" and "Storage"). Consent
 * is answered by the seam (server/modules/lesson-load/consent.ts), which consents every student until the
 * guardian-consent register exists; that register's tests will cover the `consent` drop (a module mock cannot: the
 * server tests share one process and its module cache).
 */

let t: TestApp;
let kids: { id: string; regNo: string }[];
let classId: string;
const SECRET = 'hr-secret';
const auth = (serial: string) => `Basic ${Buffer.from(`${serial}:${SECRET}`).toString('base64')}`;
const TERMINAL = 'HR-TERM-1';
const TERMINAL_2 = 'HR-TERM-2';
const HUB = 'HR-HUB-1';
const OTHER_HUB = 'HR-HUB-OTHER';
const BANDS = ['HR-BAND-0', 'HR-BAND-1', 'HR-BAND-2', 'HR-BAND-3'];

beforeAll(async () => {
  t = await createTestApp();
  const school = (await orgOf(t, DEMO.school)).orgId;
  const other = (await orgOf(t, DEMO.school2)).orgId;
  [{ id: classId }] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, school)).limit(1);
  kids = await t.db
    .select({ id: students.id, regNo: students.regNo })
    .from(students)
    .where(and(eq(students.classId, classId), eq(students.status, 'studying'), eq(students.enabled, true)))
    .orderBy(asc(students.regNo))
    .limit(4);
  const device = (orgId: string, serialNo: string, kind: 'terminal' | 'band' | 'hub') => ({
    orgId,
    name: serialNo,
    serialNo,
    kind,
    status: 'online' as const,
    activatedAt: new Date(),
    secretHash: hashSecret(SECRET),
  });
  await t.db
    .insert(devices)
    .values([device(school, TERMINAL, 'terminal'), device(school, TERMINAL_2, 'terminal'), device(school, HUB, 'hub'), ...BANDS.map((b) => device(school, b, 'band')), device(other, OTHER_HUB, 'hub')]);
});
afterAll(() => t?.close());

const call = (serial: string, method: 'POST' | 'PUT', url: string, payload: object, lang = 'en-US') =>
  t.app.inject({ method, url: `/api/v1/device/${url}`, headers: { authorization: auth(serial), 'accept-language': lang }, payload });
const MIN = 60_000;

/** Opens a lesson from the terminal `minutesAgo` minutes ago and lends bands 0–2 to the first three students. */
async function lesson(clientId: string, minutesAgo: number): Promise<{ id: string; start: number }> {
  const start = Math.floor((t.clock.now().getTime() - minutesAgo * MIN) / MIN) * MIN;
  const res = await call(TERMINAL, 'POST', 'lessons', { clientId, type: 'practise', classId, items: ['rope1min'], startedAt: new Date(start).toISOString() });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json<Envelope<{ id: string }>>().data.id;
  const lent = await call(HUB, 'PUT', `lessons/${id}/bands`, {
    bindings: [
      { band: BANDS[0], studentId: kids[0].id },
      { band: BANDS[1], studentId: kids[1].id },
      { band: BANDS[2].toLowerCase(), regNo: kids[2].regNo },
    ],
  });
  expect(lent.statusCode, lent.body).toBe(200);
  return { id, start };
}

const sample = (band: string, at: number, bpm: number) => ({ band, at: new Date(at).toISOString(), bpm });
/** `n` seconds of band `band` from `from`, bpm from `bpm(i)`. */
const run = (band: string, from: number, n: number, bpm: (i: number) => number = () => 130) => Array.from({ length: n }, (_, i) => sample(band, from + i * 1000, bpm(i)));

async function post(serial: string, lessonId: string, samples: object[]): Promise<HeartRateBatchResult> {
  const res = await call(serial, 'POST', `lessons/${lessonId}/heart-rate`, { samples });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<HeartRateBatchResult>>().data;
}
const minutesOf = (lessonId: string) =>
  t.db
    .select({ studentId: heartRateMinutes.studentId, minute: heartRateMinutes.minute, samples: heartRateMinutes.samples, bpmSum: heartRateMinutes.bpmSum })
    .from(heartRateMinutes)
    .where(eq(heartRateMinutes.lessonId, lessonId))
    .orderBy(heartRateMinutes.studentId, heartRateMinutes.minute);
const rawCount = async (lessonId: string) =>
  Number((await t.db.execute<{ n: number }>(sql`select count(*)::int as n from heart_rate_samples where lesson_id = ${lessonId}`)).rows[0].n);
const dropsOf = async (lessonId: string) =>
  Object.fromEntries((await t.db.select().from(heartRateDrops).where(eq(heartRateDrops.lessonId, lessonId))).map((d) => [d.reason, d.count]));

describe('lending bands (PUT /api/v1/device/lessons/:id/bands)', () => {
  it('a hub lends bands by student id or 学籍号; the lesson keeps the bindings', async () => {
    const { id } = await lesson('lend-1', 10);
    const bound = await t.db.select({ studentId: lessonBands.studentId }).from(lessonBands).where(eq(lessonBands.lessonId, id));
    expect(bound.map((b) => b.studentId).sort()).toEqual(kids.slice(0, 3).map((k) => k.id).sort());
  });

  it('refuses an unknown band with a translated message and changes nothing; a band, another school or another terminal gets 404', async () => {
    const { id } = await lesson('lend-2', 10);
    const unknown = await call(HUB, 'PUT', `lessons/${id}/bands`, { bindings: [{ band: BANDS[3], studentId: kids[3].id }, { band: 'NO-SUCH-BAND', studentId: kids[0].id }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('NO-SUCH-BAND is not a heart-rate band of this school');
    const zh = await call(HUB, 'PUT', `lessons/${id}/bands`, { bindings: [{ band: 'NO-SUCH-BAND', studentId: kids[0].id }] }, 'zh-CN');
    expect(zh.body).not.toContain('is not a heart-rate band');
    expect(await t.db.select().from(lessonBands).where(eq(lessonBands.lessonId, id))).toHaveLength(3);
    for (const serial of [BANDS[0], OTHER_HUB, TERMINAL_2]) {
      expect((await call(serial, 'PUT', `lessons/${id}/bands`, { bindings: [{ band: BANDS[3], studentId: kids[3].id }] })).statusCode, serial).toBe(404);
    }
  });
});

describe('heart-rate samples (POST /api/v1/device/lessons/:id/heart-rate)', () => {
  it('stores a batch once: the same batch again is all duplicates and changes neither the raw rows nor the minutes', async () => {
    const { id, start } = await lesson('same-twice', 20);
    const batch = [...run(BANDS[0], start + MIN, 60, (i) => 100 + i), ...run(BANDS[1], start + MIN, 60)];
    expect(await post(HUB, id, batch)).toEqual({ accepted: 120, duplicates: 0, dropped: {} });
    const before = await minutesOf(id);
    expect(before.map((m) => m.samples)).toEqual([60, 60]);
    expect(await post(HUB, id, batch)).toEqual({ accepted: 0, duplicates: 120, dropped: {} });
    expect(await minutesOf(id)).toEqual(before);
    expect(await rawCount(id)).toBe(120);
  });

  it('takes late and out-of-order batches within the lesson, folding them into the right minutes', async () => {
    const { id, start } = await lesson('out-of-order', 20);
    expect((await post(HUB, id, run(BANDS[0], start + 3 * MIN, 30))).accepted).toBe(30);
    expect((await post(HUB, id, run(BANDS[0], start + 2 * MIN + 30_000, 30).reverse())).accepted).toBe(30);
    expect((await post(HUB, id, run(BANDS[0], start + 3 * MIN + 30_000, 30))).accepted).toBe(30);
    const minutes = await minutesOf(id);
    expect(minutes.map((m) => [m.minute.getTime() - start, m.samples])).toEqual([
      [2 * MIN, 30],
      [3 * MIN, 60],
    ]);
  });

  it('drops and counts, never stores, out-of-range values, jumps, unlent bands and times outside the lesson; a resend counts them once', async () => {
    const { id, start } = await lesson('drops', 20);
    const at = start + 5 * MIN;
    const batch = [
      sample(BANDS[0], at, 100),
      sample(BANDS[0], at + 1000, 190), // +90 bpm in 1 s: a jump
      sample(BANDS[0], at + 2000, 250), // above 230
      sample(BANDS[0], at + 3000, 104),
      sample(BANDS[1], at, 20), // below 30
      sample(BANDS[3], at, 120), // not lent in this lesson
      sample(BANDS[1], start - 1000, 120), // before the start
      sample(BANDS[1], t.clock.now().getTime() + 60 * MIN, 120), // in the future
    ];
    const answer = { accepted: 2, duplicates: 0, dropped: { jump: 1, range: 2, unbound: 1, window: 2 } };
    expect(await post(HUB, id, batch)).toEqual(answer);
    expect(await dropsOf(id)).toEqual({ jump: 1, range: 2, unbound: 1, window: 2 });
    const { rows } = await t.db.execute<{ bpm: number }>(sql`select bpm from heart_rate_samples where lesson_id = ${id} order by at`);
    expect(rows.map((r) => r.bpm)).toEqual([100, 104]);
    expect(await post(HUB, id, batch)).toEqual({ ...answer, accepted: 0, duplicates: 2 });
    expect(await dropsOf(id)).toEqual({ jump: 1, range: 2, unbound: 1, window: 2 });
    // the jump is judged against the previous kept sample of an earlier batch too
    expect((await post(HUB, id, [sample(BANDS[0], at + 5000, 180)])).dropped).toEqual({ jump: 1 });
  });

  it('a band posts its own samples only; another school’s device and a terminal that did not open the lesson get 404', async () => {
    const { id, start } = await lesson('who-posts', 20);
    expect(await post(BANDS[0], id, [...run(BANDS[0], start + MIN, 5), ...run(BANDS[1], start + MIN, 5)])).toEqual({ accepted: 5, duplicates: 0, dropped: { unbound: 5 } });
    expect((await post(TERMINAL, id, run(BANDS[1], start + MIN, 5))).accepted).toBe(5);
    for (const serial of [OTHER_HUB, TERMINAL_2]) {
      const res = await call(serial, 'POST', `lessons/${id}/heart-rate`, { samples: run(BANDS[2], start + MIN, 5) });
      expect(res.statusCode, serial).toBe(404);
    }
    expect((await call(HUB, 'POST', 'lessons/not-a-lesson/heart-rate', { samples: run(BANDS[2], start, 1) })).statusCode).toBe(404);
    expect(await rawCount(id)).toBe(10);
  });

  it('refuses a batch over the limit with a translated message', async () => {
    const { id, start } = await lesson('too-many', 20);
    const res = await call(HUB, 'POST', `lessons/${id}/heart-rate`, { samples: run(BANDS[0], start, 2401) });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Too many samples in one batch');
    expect(await rawCount(id)).toBe(0);
  });
});

describe('closing a heart-rate lesson', () => {
  it('stores its figures with the close; a late batch within 60 minutes re-stores them, later samples are outside the window', async () => {
    const { id, start } = await lesson('close', 50);
    await post(HUB, id, [...run(BANDS[0], start, 10 * 60, () => 150), ...run(BANDS[1], start, 60, () => 110)]);
    const end = start + 40 * MIN;
    expect((await call(TERMINAL, 'POST', `lessons/${id}/close`, { endedAt: new Date(end).toISOString() })).statusCode).toBe(200);
    const [stored] = await t.db.select().from(lessonLoads).where(eq(lessonLoads.lessonId, id));
    expect(stored).toMatchObject({ minutes: 40, studentCount: 2, peakBpm: 150 });
    // The band of student 2 was offline: its minutes arrive after the close, the last ones within the late window.
    const late = await post(HUB, id, [...run(BANDS[2], start + 20 * MIN, 60, () => 175), sample(BANDS[2], end + 61 * MIN, 120)]);
    expect(late).toEqual({ accepted: 60, duplicates: 0, dropped: { window: 1 } });
    const [restored] = await t.db.select().from(lessonLoads).where(eq(lessonLoads.lessonId, id));
    expect(restored).toMatchObject({ studentCount: 3, peakBpm: 175 });
  });

  it("stores each student's figures beside the lesson's, and a late batch rewrites them", async () => {
    const { id, start } = await lesson('per-student', 50);
    await post(HUB, id, [...run(BANDS[0], start, 10 * 60, () => 150), ...run(BANDS[1], start, 60, () => 110)]);
    const end = start + 40 * MIN;
    expect((await call(TERMINAL, 'POST', `lessons/${id}/close`, { endedAt: new Date(end).toISOString() })).statusCode).toBe(200);
    const perStudent = async () =>
      (await t.db.select().from(lessonLoadStudents).where(eq(lessonLoadStudents.lessonId, id))).map((r) => ({ student: kids.findIndex((k) => k.id === r.studentId), measured: r.measured, peak: r.peakBpm, density: r.density })).sort((a, b) => a.student - b.student);
    expect(await perStudent()).toEqual([
      { student: 0, measured: 600, peak: 150, density: expect.any(Number) },
      { student: 1, measured: 60, peak: 110, density: expect.any(Number) },
    ]);
    // Student 1's band sends more of its minutes late, student 2's all of them: both rows are what the minutes now say.
    await post(HUB, id, [...run(BANDS[1], start + 5 * MIN, 60, () => 120), ...run(BANDS[2], start + 20 * MIN, 60, () => 175)]);
    expect(await perStudent()).toEqual([
      { student: 0, measured: 600, peak: 150, density: expect.any(Number) },
      { student: 1, measured: 120, peak: 120, density: expect.any(Number) },
      { student: 2, measured: 60, peak: 175, density: expect.any(Number) },
    ]);
  });

  it('an ordinary lesson without bands stores no figures', async () => {
    const start = t.clock.now().getTime() - 30 * MIN;
    const res = await call(TERMINAL, 'POST', 'lessons', { clientId: 'no-bands', type: 'practise', classId, items: ['rope1min'], startedAt: new Date(start).toISOString() });
    const id = res.json<Envelope<{ id: string }>>().data.id;
    expect((await call(TERMINAL, 'POST', `lessons/${id}/close`, { endedAt: new Date(start + 20 * MIN).toISOString() })).statusCode).toBe(200);
    expect(await t.db.select().from(lessonLoads).where(eq(lessonLoads.lessonId, id))).toHaveLength(0);
  });
});

describe('raw retention', () => {
  it('removes raw samples older than the days kept (whole day partitions and the default partition), keeping minutes and figures', async () => {
    const old = await lesson('old', 40 * 24 * 60);
    await post(HUB, old.id, run(BANDS[0], old.start, 120));
    await call(TERMINAL, 'POST', `lessons/${old.id}/close`, { endedAt: new Date(old.start + 40 * MIN).toISOString() });
    const recent = await lesson('recent', 20);
    await post(HUB, recent.id, run(BANDS[0], recent.start, 30));
    const oldDay = new Date(old.start).toISOString().slice(0, 10).replaceAll('-', '');
    const { rows: parts } = await t.db.execute<{ part: string }>(sql`select distinct tableoid::regclass::text as part from heart_rate_samples where lesson_id = ${old.id}`);
    expect(parts.map((p) => p.part)).toEqual([`heart_rate_samples_${oldDay}`]);
    // A row of a day without a partition of its own (written before partitions were made) sits in the default partition.
    await t.db.execute(sql`insert into heart_rate_samples_default (lesson_id, student_id, at, bpm) values (${old.id}, ${kids[3].id}, ${new Date(old.start - 400 * 86_400_000).toISOString()}, 100)`);
    const minutesBefore = await minutesOf(old.id);

    const removed = await pruneHeartRateSamples(t.db, t.clock.now(), 30);
    expect(removed.partitions).toContain(`heart_rate_samples_${oldDay}`);
    expect(removed.defaultRows).toBe(1);
    expect(await rawCount(old.id)).toBe(0);
    expect(await rawCount(recent.id)).toBe(30);
    expect(await minutesOf(old.id)).toEqual(minutesBefore);
    expect(await t.db.select().from(lessonLoads).where(eq(lessonLoads.lessonId, old.id))).toHaveLength(1);
    // Kept 60 days instead, the recent lesson's day stays either way; a second run removes nothing more.
    expect((await pruneHeartRateSamples(t.db, t.clock.now(), 30)).partitions).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('describes both routes', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, { summary?: string }>> }>();
    expect(doc.paths['/api/v1/device/lessons/{id}/heart-rate'].post.summary).toBe('Post heart-rate samples of a lesson');
    expect(doc.paths['/api/v1/device/lessons/{id}/bands'].put.summary).toBe("Lend bands to a lesson's students");
  });
});
