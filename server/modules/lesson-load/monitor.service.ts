import { and, asc, desc, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Page } from '@/domain/api';
import { localDate } from '@/domain/dates';
import { isSilent, silentBands } from '@/domain/lesson-load/alerts';
import type { AlertAcknowledge, AlertView, LiveView, MonitorBands, MonitorBandsView, MonitorListQuery, MonitorRow, TileState } from '@/domain/lesson-load/monitor';
import { TREND_MINUTES, TREND_POINTS, TREND_STEP_S } from '@/domain/lesson-load/monitor';
import { lessonLoad, type LessonLoad } from '@/domain/lesson-load/summary';
import { zoneOf } from '@/domain/lesson-load/zones';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { users } from '../../db/schema/auth';
import { lessonAlerts, lessonBands } from '../../db/schema/lesson-load';
import { lessons } from '../../db/schema/lessons';
import { classes, students, teachers } from '../../db/schema/school';
import { devices, venues } from '../../db/schema/venue';
import { AppError } from '../../lib/app-error';
import { classScopeOf, inClassScope } from '../../lib/data-scope';
import { isoInstant } from '../../lib/iso';
import { paginate } from '../../lib/paginate';
import { lockVersion, nextVersion, notFound } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { studentAges } from './ages';
import { raiseAlerts, recentStudents } from './alerts.service';
import { bindBands, minuteRowsOf } from './lesson-load.store';

/**
 * The live lesson monitor (docs/product-rules.md#lesson-load): what a teacher sees of the lessons of the classes her
 * data scope covers (a lesson of another school, or of a class outside the scope, is 404).
 */

const teacher = alias(teachers, 'lesson_teacher');
const columns = {
  id: lessons.id,
  className: classes.name,
  teacherName: teacher.name,
  venueName: venues.name,
  startedAt: lessons.startedAt,
  endedAt: lessons.endedAt,
  studentCount: sql<number>`(select count(*)::int from students s where s.class_id = ${lessons.classId} and s.status = 'studying')`,
  bandCount: sql<number>`(select count(*)::int from lesson_bands b where b.lesson_id = ${lessons.id})`,
  openAlerts: sql<number>`(select count(*)::int from lesson_alerts a where a.lesson_id = ${lessons.id} and a.acknowledged_at is null)`,
  version: lessons.version,
};
const toRow = (r: Omit<MonitorRow, 'startedAt' | 'endedAt'> & { startedAt: Date; endedAt: Date | null }): MonitorRow => ({
  ...r,
  startedAt: isoInstant(r.startedAt),
  endedAt: isoInstant(r.endedAt),
});

async function visible(db: DbOrTx, actor: Actor) {
  return and(eq(lessons.orgId, actor.tenantOrgId), inClassScope(await classScopeOf(db, actor), lessons.classId));
}
const select = (db: DbOrTx) =>
  db.select(columns).from(lessons).innerJoin(classes, eq(classes.id, lessons.classId)).leftJoin(teacher, eq(teacher.id, lessons.teacherId)).leftJoin(venues, eq(venues.id, lessons.venueId));

/** The start of the organisations' calendar day of `now` (China has one offset, no daylight saving). */
const dayStart = (now: Date) => new Date(`${localDate(now)}T00:00:00+08:00`);

/** class/monitor: the lessons in progress that started today, of the classes the caller may see, newest first. */
export async function monitorPage(db: DbOrTx, actor: Actor, q: MonitorListQuery, now: Date): Promise<Page<MonitorRow>> {
  const where = and(await visible(db, actor), isNull(lessons.endedAt), gte(lessons.startedAt, dayStart(now)));
  const page = await paginate(db, select(db).where(where).orderBy(desc(lessons.startedAt), asc(lessons.id)).$dynamic(), q);
  return { ...page, records: page.records.map(toRow) };
}

/** One lesson the caller may see (in progress or not); 404 otherwise. */
export async function monitorLesson(db: DbOrTx, actor: Actor, id: string): Promise<MonitorRow> {
  const [row] = await select(db).where(and(await visible(db, actor), eq(lessons.id, id)));
  if (!row) throw notFound();
  return toRow(row);
}

/** The students a lesson is about: the class's studying students and anyone lent a band in it. */
async function roster(db: DbOrTx, lessonId: string) {
  const [l] = await db.select({ classId: lessons.classId }).from(lessons).where(eq(lessons.id, lessonId));
  const bound = db.select({ id: lessonBands.studentId }).from(lessonBands).where(eq(lessonBands.lessonId, lessonId));
  return db
    .select({ id: students.id, name: students.name, regNo: students.regNo, band: devices.serialNo })
    .from(students)
    .leftJoin(lessonBands, and(eq(lessonBands.lessonId, lessonId), eq(lessonBands.studentId, students.id)))
    .leftJoin(devices, eq(devices.id, lessonBands.deviceId))
    .where(or(and(eq(students.classId, l.classId), eq(students.status, 'studying')), inArray(students.id, bound)))
    .orderBy(asc(students.studentNo), asc(students.regNo));
}

/** The lending dialog: the roster with each student's band, and the school's bands. */
export async function monitorBands(db: DbOrTx, actor: Actor, id: string): Promise<MonitorBandsView> {
  const lesson = await monitorLesson(db, actor, id);
  const parent = alias(devices, 'band_parent');
  const [list, bands] = await Promise.all([
    roster(db, id),
    db
      .select({ serialNo: devices.serialNo, name: devices.name, parentName: parent.name })
      .from(devices)
      .leftJoin(parent, eq(parent.id, devices.parentId))
      .where(and(eq(devices.orgId, actor.tenantOrgId), eq(devices.kind, 'band'), sql`${devices.status} <> 'disabled'`))
      .orderBy(asc(devices.serialNo)),
  ]);
  return { students: list.map((s) => ({ ...s, band: s.band ?? null })), bands, version: lesson.version };
}

/**
 * Lends bands from the console: students given a band get it (lesson-load.store.ts bindBands: the school's bands, the
 * class's students, one band per student; all or nothing), students given none lose theirs. The lesson's version guards
 * against a stale dialog.
 */
export async function lendBands(tx: Tx, actor: Actor, id: string, body: MonitorBands) {
  const before = await monitorBands(tx, actor, id);
  const lesson = (await lockVersion(tx, lessons, id, eq(lessons.orgId, actor.tenantOrgId), body.version)) as { id: string; orgId: string; classId: string };
  const known = new Set(before.students.map((s) => s.id));
  const cleared = body.bindings.filter((b) => !b.band && known.has(b.studentId)).map((b) => b.studentId);
  const lent = body.bindings.filter((b) => b.band);
  if (cleared.length) await tx.delete(lessonBands).where(and(eq(lessonBands.lessonId, id), inArray(lessonBands.studentId, cleared)));
  if (lent.length) await bindBands(tx, lesson, lent.map((b) => ({ band: b.band.toUpperCase(), studentId: b.studentId })));
  await tx.update(lessons).set({ version: nextVersion(lessons.version) }).where(eq(lessons.id, id));
  const after = await monitorBands(tx, actor, id);
  const pick = (v: MonitorBandsView) => v.students.filter((s) => s.band).map((s) => ({ studentId: s.id, band: s.band }));
  return { before: pick(before), after: pick(after), answer: after };
}

const acknowledger = alias(users, 'alert_acknowledger');
async function alertsOf(db: DbOrTx, lessonId: string): Promise<AlertView[]> {
  const rows = await db
    .select({
      id: lessonAlerts.id,
      studentId: lessonAlerts.studentId,
      studentName: students.name,
      kind: lessonAlerts.kind,
      startedAt: lessonAlerts.startedAt,
      raisedAt: lessonAlerts.raisedAt,
      peakBpm: lessonAlerts.peakBpm,
      acknowledgedAt: lessonAlerts.acknowledgedAt,
      acknowledgedBy: acknowledger.name,
      note: lessonAlerts.note,
    })
    .from(lessonAlerts)
    .innerJoin(students, eq(students.id, lessonAlerts.studentId))
    .leftJoin(acknowledger, eq(acknowledger.id, lessonAlerts.acknowledgedBy))
    .where(eq(lessonAlerts.lessonId, lessonId))
    .orderBy(desc(lessonAlerts.startedAt), asc(lessonAlerts.id));
  return rows.map((r) => ({ ...r, startedAt: isoInstant(r.startedAt), raisedAt: isoInstant(r.raisedAt), acknowledgedAt: isoInstant(r.acknowledgedAt) }));
}

/** Acknowledges an open alert of the lesson with an optional note, keeping who and when; acknowledged already: 409. */
export async function acknowledgeAlert(tx: Tx, actor: Actor, id: string, alertId: string, body: AlertAcknowledge, now: Date) {
  await monitorLesson(tx, actor, id);
  const [before] = await tx.select().from(lessonAlerts).where(and(eq(lessonAlerts.id, alertId), eq(lessonAlerts.lessonId, id))).for('update');
  if (!before) throw notFound();
  if (before.acknowledgedAt) throw new AppError(409, 'lessonLoad:monitor.alreadyAcknowledged');
  const [after] = await tx
    .update(lessonAlerts)
    .set({ acknowledgedAt: now, acknowledgedBy: actor.userId, note: body.note ?? null })
    .where(eq(lessonAlerts.id, alertId))
    .returning();
  return { before, after };
}

/**
 * A lesson's running figures between polls: what the per-minute aggregates give (the class's figures and each student's
 * last reading), kept per lesson in this process and used while the lesson's minutes are unchanged (`stamp`: their
 * count, samples and latest reading, one indexed aggregate) within the same minute of `now` (a lesson in progress
 * grows by the clock). A batch of samples changes the stamp, so the next poll computes them again, on any instance.
 * `silentSeen`: the silent bands (student and last reading) already handed to raiseAlerts with this stamp.
 */
interface Running {
  stamp: string;
  minute: number;
  load: LessonLoad;
  last: Map<string, { at: number; bpm: number }>;
  silentSeen: Set<string>;
  usedAt: number;
}
/** Lessons kept at most (a school's lessons of a day are tens); the least recently read goes first. */
const RUNNING_MAX = 500;
/** A lesson not polled for this long is retired (its page closed). */
const RUNNING_IDLE_MS = 10 * 60_000;
const running = new Map<string, Running>();

function keep(id: string, entry: Running, now: number): void {
  running.delete(id);
  running.set(id, entry);
  for (const [key, e] of running) {
    if (running.size <= RUNNING_MAX && now - e.usedAt < RUNNING_IDLE_MS) break;
    running.delete(key);
  }
}

/** The stamp of a lesson's minutes: it changes with every accepted sample (samples only add up). */
async function minutesStamp(db: DbOrTx, lessonId: string): Promise<string> {
  const { rows } = await db.execute<{ stamp: string }>(sql`
    select count(*) || ':' || coalesce(sum(samples), 0) || ':' || coalesce(max(last_at)::text, '') as stamp from heart_rate_minutes where lesson_id = ${lessonId}`);
  return rows[0].stamp;
}

/**
 * The live view of a lesson at `now`: alerts raised first (so the view shows them), then a tile per student (current
 * bpm and zone for the student's age, the trend of the last TREND_MINUTES minutes from the raw samples), the class now,
 * the running figures (summary.ts lessonLoad over the per-minute aggregates) and the alerts. The running figures and
 * last readings are computed once per new batch (see Running); alerts are raised when samples arrived or a band newly
 * went silent, since nothing else can raise one.
 */
export async function liveView(db: Db, actor: Actor, id: string, now: Date): Promise<LiveView> {
  const lesson = await monitorLesson(db, actor, id);
  // Closing the lesson changes its figures too (its end), not only a batch.
  const stamp = `${await minutesStamp(db, id)}|${lesson.endedAt ?? ''}`;
  const minute = Math.floor(now.getTime() / 60_000);
  let entry = running.get(id);
  if (entry?.stamp !== stamp) entry = undefined;
  const silentNow = entry ? silentBands([...entry.last].map(([studentId, l]) => ({ key: `${studentId}@${l.at}`, lastAt: l.at })), now.getTime()) : [];
  if (!entry || silentNow.some((b) => !entry.silentSeen.has(b.key))) {
    await db.transaction((tx) => raiseAlerts(tx, id, now));
    for (const b of silentNow) entry?.silentSeen.add(b.key);
  }
  const started = new Date(lesson.startedAt);
  const end = lesson.endedAt ? new Date(lesson.endedAt) : now;
  const trendFrom = Math.floor((end.getTime() - TREND_MINUTES * 60_000) / (TREND_STEP_S * 1000)) * TREND_STEP_S * 1000;
  const figures = async (): Promise<Running> => {
    if (entry && entry.minute === minute) return entry;
    const [last, minutes] = await Promise.all([
      db.execute<{ student_id: string; last_at: string; last_bpm: number }>(sql`
        select distinct on (student_id) student_id, (extract(epoch from last_at) * 1000)::bigint::text as last_at, last_bpm
          from heart_rate_minutes where lesson_id = ${id} order by student_id, last_at desc`),
      minuteRowsOf(db, id),
    ]);
    return {
      stamp,
      minute,
      load: lessonLoad(minutes, started.getTime(), lesson.endedAt ? end.getTime() : null, now.getTime()),
      last: new Map(last.rows.map((r) => [r.student_id, { at: Number(r.last_at), bpm: Number(r.last_bpm) }])),
      silentSeen: entry?.silentSeen ?? new Set(),
      usedAt: now.getTime(),
    };
  };
  const [people, trend, run, alerts] = await Promise.all([
    roster(db, id),
    db.execute<{ student_id: string; bucket: number; bpm: number }>(sql`
      select student_id, floor((extract(epoch from at) * 1000 - ${trendFrom}) / ${TREND_STEP_S * 1000})::int as bucket, round(avg(bpm))::int as bpm
        from heart_rate_samples where lesson_id = ${id} and student_id = any(${recentStudents(id, new Date(trendFrom))}) and at >= ${new Date(trendFrom).toISOString()}::timestamptz and at <= ${end.toISOString()}::timestamptz
       group by 1, 2`),
    figures(),
    alertsOf(db, id),
  ]);
  if (!entry) for (const b of silentBands([...run.last].map(([studentId, l]) => ({ key: `${studentId}@${l.at}`, lastAt: l.at })), now.getTime())) run.silentSeen.add(b.key);
  keep(id, { ...run, usedAt: now.getTime() }, now.getTime());
  const ages = await studentAges(db, people.map((p) => p.id), localDate(started));
  const trends = new Map<string, (number | null)[]>();
  for (const r of trend.rows) {
    let list = trends.get(r.student_id);
    if (!list) trends.set(r.student_id, (list = Array<number | null>(TREND_POINTS).fill(null)));
    if (r.bucket >= 0 && r.bucket < TREND_POINTS) list[r.bucket] = Number(r.bpm);
  }
  const lastOf = run.last;
  const tiles = people.map((p) => {
    const age = ages.get(p.id) ?? 0;
    const l = lastOf.get(p.id);
    // A closed lesson shows each student's last reading; in progress, a band quiet for SILENT_AFTER_S is silent.
    const state: TileState = !l ? (p.band ? 'waiting' : 'noBand') : !lesson.endedAt && isSilent(l.at, now.getTime()) ? 'silent' : 'reading';
    return {
      id: p.id,
      name: p.name,
      band: p.band ?? null,
      age,
      state,
      bpm: l?.bpm ?? null,
      lastAt: l ? new Date(l.at).toISOString() : null,
      zone: state === 'reading' && l ? zoneOf(l.bpm, age) : null,
      trend: trends.get(p.id) ?? Array<number | null>(TREND_POINTS).fill(null),
    };
  });
  const reading = tiles.filter((t) => t.state === 'reading');
  const load = run.load;
  return {
    lesson: { ...lesson, openAlerts: alerts.filter((a) => !a.acknowledgedAt).length },
    now: now.toISOString(),
    students: tiles,
    current: {
      meanBpm: reading.length ? Math.round((reading.reduce((s, t) => s + t.bpm!, 0) / reading.length) * 10) / 10 : null,
      inTarget: reading.length ? Math.round((reading.filter((t) => t.zone === 'target').length / reading.length) * 1000) / 1000 : null,
      reading: reading.length,
    },
    load: { mainMeanBpm: load.mainMeanBpm, peakBpm: load.peakBpm, groupDensity: load.groupDensity, individualDensity: load.individualDensity, targetShare: load.targetShare },
    alerts: { open: alerts.filter((a) => !a.acknowledgedAt), history: alerts.filter((a) => a.acknowledgedAt) },
  };
}
