import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { PgliteTransaction } from 'drizzle-orm/pglite';
import { localDate } from '@/domain/dates';
import { sampleWindow, type HeartRateBatchResult } from '@/domain/lesson-load/ingest';
import { JUMP_WINDOW_S, screenSamples, type BandBinding, type DropReason, type HeartRateSample } from '@/domain/lesson-load/samples';
import { gradeTypicalAge, zoneAge } from '@/domain/lesson-load/zones';
import type { Db, Tx } from '../../db/client';
import { heartRateDropped, heartRateDrops, lessonBands } from '../../db/schema/lesson-load';
import { lessons } from '../../db/schema/lessons';
import { classes, grades, students } from '../../db/schema/school';
import { devices } from '../../db/schema/venue';
import { notFound, uuidOr404 } from '../../lib/resource';
import type { DeviceCaller } from '../ingest/device-auth';
import { raiseAlerts } from './alerts.service';
import { heartRateConsented } from './consent';
import { ensureDayPartitions, utcDay } from './heart-rate-partitions';
import { bindBands, storeLessonLoad, writeSamples, type SampleToWrite } from './lesson-load.store';

/**
 * The heart-rate ingest (docs/product-rules.md#lesson-load, "Samples"; the device routes in heart-rate.device-routes.ts):
 * a batch of samples for one lesson is screened (window, band lent, consent, range, jump), its kept samples stored once
 * (writeSamples) and its drops counted once per band and second, so a resent batch changes nothing.
 */

interface LessonFacts {
  id: string;
  orgId: string;
  classId: string;
  deviceId: string | null;
  startedAt: Date;
  endedAt: Date | null;
}

/**
 * The lesson a device may feed: of the device's school, and the device a band or hub of it (bands are shared across
 * lessons) or the terminal that opened it; 404 otherwise, as elsewhere in the device API. `lend`: bands themselves
 * may not lend bands.
 */
async function lessonForDevice(db: Db | Tx, device: DeviceCaller, id: string, lend = false): Promise<LessonFacts> {
  const [row] = await db
    .select({ id: lessons.id, orgId: lessons.orgId, classId: lessons.classId, deviceId: lessons.deviceId, startedAt: lessons.startedAt, endedAt: lessons.endedAt })
    .from(lessons)
    .where(and(eq(lessons.id, uuidOr404(id)), eq(lessons.orgId, device.orgId)));
  const relays = lend ? device.kind === 'hub' : device.kind === 'band' || device.kind === 'hub';
  if (!row || (!relays && row.deviceId !== device.deviceId)) throw notFound();
  return row;
}

/** A band's binding in the lesson with what the zones need of its student. */
interface Bound {
  studentId: string;
  age: number;
}

/** The lesson's bands among `serials`, each with its student and the student's age for the zones on the lesson's day. */
async function boundBands(tx: Tx, lesson: LessonFacts, serials: readonly string[]): Promise<Map<string, Bound>> {
  if (serials.length === 0) return new Map();
  const rows = await tx
    .select({ serialNo: devices.serialNo, studentId: lessonBands.studentId, birthDate: students.birthDate, stage: grades.stage, gradeNo: grades.gradeNo })
    .from(lessonBands)
    .innerJoin(devices, eq(devices.id, lessonBands.deviceId))
    .innerJoin(students, eq(students.id, lessonBands.studentId))
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(and(eq(lessonBands.lessonId, lesson.id), inArray(devices.serialNo, [...serials])));
  const day = localDate(lesson.startedAt);
  return new Map(rows.map((r) => [r.serialNo, { studentId: r.studentId, age: zoneAge(r.birthDate, gradeTypicalAge(r.stage, r.gradeNo), day) }]));
}

/**
 * Each student's previous kept sample before the batch's first one (within the jump window: only that near one
 * matters), from the minutes' last sample. For an out-of-order batch this is the last kept sample of a minute that
 * ended before the batch, or none.
 */
async function previousSamples(tx: Tx, lessonId: string, firsts: Map<string, number>): Promise<Map<string, { at: number; bpm: number }>> {
  if (firsts.size === 0) return new Map();
  const ids = [...firsts.keys()];
  const { rows } = await tx.execute<{ student_id: string; at: string; bpm: number }>(sql`
    select t.s as student_id, (extract(epoch from p.last_at) * 1000)::bigint::text as at, p.last_bpm as bpm
      from unnest(${sql.param(ids)}::uuid[], ${sql.param(ids.map((id) => firsts.get(id)!))}::bigint[]) as t(s, f)
      cross join lateral (
        select m.last_at, m.last_bpm from heart_rate_minutes m
         where m.lesson_id = ${lessonId}::uuid and m.student_id = t.s
           and m.minute >= date_trunc('minute', to_timestamp((t.f - ${JUMP_WINDOW_S * 1000}) / 1000.0)) and m.minute <= to_timestamp(t.f / 1000.0)
           and m.last_at < to_timestamp(t.f / 1000.0)
         order by m.minute desc limit 1) p`);
  return new Map(rows.map((r) => [r.student_id, { at: Number(r.at), bpm: r.bpm }]));
}

/**
 * Counts drops into heart_rate_drops, each band and second once for the lesson (a resent batch's drops were counted
 * when it first came); answers nothing: the batch's own answer reports every drop it had.
 */
async function countDrops(tx: Tx, lessonId: string, dropped: readonly { band: string; at: number; reason: DropReason }[]): Promise<void> {
  if (dropped.length === 0) return;
  const { rows } = await tx.execute<{ reason: string; n: number }>(sql`
    with fresh as (
      insert into ${heartRateDropped} (lesson_id, band, at, reason)
      select ${lessonId}::uuid, b, to_timestamp(a / 1000.0), r
        from unnest(${sql.param(dropped.map((d) => d.band))}::text[], ${sql.param(dropped.map((d) => d.at))}::bigint[], ${sql.param(dropped.map((d) => d.reason))}::text[]) as t(b, a, r)
      on conflict do nothing
      returning reason)
    select reason, count(*)::int as n from fresh group by reason`);
  if (rows.length === 0) return;
  await tx
    .insert(heartRateDrops)
    .values(rows.map((r) => ({ lessonId, reason: r.reason, count: Number(r.n) })))
    .onConflictDoUpdate({ target: [heartRateDrops.lessonId, heartRateDrops.reason], set: { count: sql`${heartRateDrops.count} + excluded.count` } });
}

/** On PostgreSQL a batch holds the lesson as a foreign key would (FOR KEY SHARE): a close waits, and re-stores after it. */
const locksLesson = (tx: Tx) => !(tx instanceof PgliteTransaction);

/**
 * Ingests one batch for a lesson (POST /api/v1/device/lessons/:id/heart-rate). Samples are screened in this order:
 * outside the lesson's window (`window`), a band not lent in the lesson or, from a band, another band's sample
 * (`unbound`), no consent (`consent`), then per student the range and jump rules (screenSamples) against the
 * previous kept sample. Kept samples are stored with the student's age on the lesson's day. Idempotent: a resent
 * sample is a duplicate, a resent drop is reported but not counted again. A late batch for a closed lesson re-stores
 * its figures.
 */
export async function ingestHeartRate(db: Db, device: DeviceCaller, id: string, samples: readonly HeartRateSample[], now: Date): Promise<HeartRateBatchResult> {
  const lesson = await lessonForDevice(db, device, id);
  const window = sampleWindow(lesson.startedAt.getTime(), lesson.endedAt?.getTime() ?? null, now.getTime());
  const dropped: { band: string; at: number; reason: DropReason }[] = [];
  const inWindow: { band: string; at: number; bpm: number; intensity: number | null }[] = [];
  for (const s of samples) {
    const at = Math.floor(Date.parse(s.at) / 1000) * 1000;
    const band = s.band.toUpperCase();
    if (at < window.from || at > window.to) dropped.push({ band, at, reason: 'window' });
    else inWindow.push({ band, at, bpm: s.bpm, intensity: s.intensity ?? null });
  }
  // The day partitions first, in their own transaction (server/modules/lesson-load/heart-rate-partitions.ts).
  await ensureDayPartitions(db, new Set(inWindow.map((s) => utcDay(s.at))));

  const result = await db.transaction(async (tx) => {
    // Read again in the transaction: a close that committed meanwhile makes this a late batch, whose figures are re-stored.
    const { rows: facts } = await tx.execute<{ closed: boolean }>(sql`select ended_at is not null as closed from lessons where id = ${lesson.id} ${locksLesson(tx) ? sql`for key share` : sql``}`);
    if (facts.length === 0) throw notFound();
    const bound = await boundBands(tx, lesson, [...new Set(inWindow.map((s) => s.band))]);
    const consented = await heartRateConsented(tx, [...new Set([...bound.values()].map((b) => b.studentId))]);
    const byStudent = new Map<string, { bound: Bound; band: string; samples: { at: number; bpm: number; intensity: number | null }[] }>();
    for (const s of inWindow) {
      const b = bound.get(s.band);
      if (!b || (device.kind === 'band' && s.band !== device.serialNo)) dropped.push({ band: s.band, at: s.at, reason: 'unbound' });
      else if (!consented.has(b.studentId)) dropped.push({ band: s.band, at: s.at, reason: 'consent' });
      else {
        let group = byStudent.get(b.studentId);
        if (!group) byStudent.set(b.studentId, (group = { bound: b, band: s.band, samples: [] }));
        group.samples.push(s);
      }
    }
    const firsts = new Map([...byStudent].map(([studentId, g]) => [studentId, Math.min(...g.samples.map((s) => s.at))]));
    const previous = await previousSamples(tx, lesson.id, firsts);
    const toWrite: SampleToWrite[] = [];
    for (const [studentId, g] of byStudent) {
      const screened = screenSamples(g.samples, previous.get(studentId) ?? null);
      for (const d of screened.dropped) dropped.push({ band: g.band, at: d.at, reason: d.reason });
      for (const k of screened.kept) toWrite.push({ studentId, at: k.at, bpm: k.bpm, intensity: k.intensity, age: g.bound.age });
    }
    // In key order, so two batches of the same students lock rows in the same order.
    toWrite.sort((a, b) => (a.studentId < b.studentId ? -1 : a.studentId > b.studentId ? 1 : a.at - b.at));
    const accepted = await writeSamples(tx, lesson.id, toWrite);
    await countDrops(tx, lesson.id, dropped);
    if (accepted > 0 && facts[0].closed) await storeLessonLoad(tx, lesson.id);
    // A student above the danger threshold is kept as an alert when the samples arrive, watched or not (silent bands
    // need time to pass: the monitor's read raises those).
    if (accepted > 0 && !facts[0].closed) await raiseAlerts(tx, lesson.id, now);
    const byReason: HeartRateBatchResult['dropped'] = {};
    for (const d of dropped) byReason[d.reason] = (byReason[d.reason] ?? 0) + 1;
    return { accepted, duplicates: samples.length - accepted - dropped.length, dropped: byReason };
  });
  // After the batch and at most once a minute: a hub posts many batches at once, and holding its device row in each
  // batch's transaction would make them wait for one another.
  await db
    .update(devices)
    .set({ lastSeenAt: now })
    .where(and(eq(devices.id, device.deviceId), or(isNull(devices.lastSeenAt), lt(devices.lastSeenAt, new Date(now.getTime() - 60_000)))));
  return result;
}

/** Lends bands in a lesson (PUT /api/v1/device/lessons/:id/bands): a hub of the school or the terminal that opened it. */
export async function lendBands(tx: Tx, device: DeviceCaller, id: string, bindings: readonly BandBinding[]): Promise<{ band: string; studentId: string }[]> {
  const lesson = await lessonForDevice(tx, device, id, true);
  const normalised = bindings.map((b) => ({ ...b, band: b.band.toUpperCase() }));
  const pairs = await bindBands(tx, lesson, normalised);
  return pairs.map((p, i) => ({ band: normalised[i].band, studentId: p.studentId }));
}

/** Whether a lesson has bands lent (a heart-rate lesson): closing it stores its figures. */
export async function hasBands(tx: Tx, lessonId: string): Promise<boolean> {
  const [row] = await tx.select({ one: sql<number>`1` }).from(lessonBands).where(eq(lessonBands.lessonId, lessonId)).limit(1);
  return row !== undefined;
}
