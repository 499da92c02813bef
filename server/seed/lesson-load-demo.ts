import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { screenSamples, type DropReason } from '@/domain/lesson-load/samples';
import { lessonLoad } from '@/domain/lesson-load/summary';
import { zoneAge } from '@/domain/lesson-load/zones';
import type { Tx } from '../db/client';
import { DAY_PARTITION_LOCK } from '../db/day-partitions';
import { heartRateDrops, lessonAlerts, lessonBands, lessonLoads, lessonLoadStudents } from '../db/schema/lesson-load';
import { lessons } from '../db/schema/lessons';
import { orgs } from '../db/schema/orgs';
import { classes, grades, semesters, students, teacherClasses, teachers } from '../db/schema/school';
import { devices, venues } from '../db/schema/venue';
import { addMinutes, foldMinutes, insertLessonLoadStudents, lessonLoadRow, lessonLoadStudentRows, rebuildLessonLoadRollups, writeSamples, type SampleToWrite } from '../modules/lesson-load/lesson-load.store';
import { fitnessOf, generateLesson, type GeneratedLesson, type HeartRateStudent, type LessonStyle } from '../simulate/heart-rate';
import { bandSerial, DEMO_BANDS, hubSerial } from '../simulate/heart-rate-traffic';
import { createRandom, type Random } from './people';

export { DEMO_BANDS } from '../simulate/heart-rate-traffic';

const SEED = 20_261_130;
const DAY = 86_400_000;
const CHINA = 8 * 3600_000;
/**
 * Closed lessons are drawn with a sample every STRIDE_S seconds, each counted STRIDE_S times in the minutes: the same
 * curves and figures as per-second samples (within a bpm or two) for a tenth of the work. The lesson in progress is per second.
 */
const STRIDE_S = 10;
/**
 * Closed lessons of the last MINUTES_DAYS days get their per-minute aggregates (curves in the lesson reports); older
 * ones only their figures (lesson_loads, what term and district reports read), as if written before per-minute
 * aggregates were kept: a term's minutes (≈ 150,000 rows) would add ten seconds to a first start.
 */
export const MINUTES_DAYS = 14;
/** How long the lesson in progress has been running when the seed runs (minutes). */
export const LIVE_LESSON_MINUTES = 20;

/**
 * A class's heart-rate lessons: weekdays (1 = Monday) and China start time, length, and how its lessons tend to go
 * (the styles of heart-rate.ts, drawn by weight).
 */
interface ClassPlan {
  orgType: 21 | 22;
  gradeNo: number;
  code: number;
  /** [weekday, 'HH:MM'] */
  slots: readonly [number, string][];
  minutes: number;
  styles: readonly [LessonStyle, number][];
  /** The class whose lesson is in progress when the seed runs. */
  live?: boolean;
}

/**
 * 七年级3班 (teacher01's, and one of myclass01's two) has good lessons with the odd miss; 八年级1班 (teacher01's) is often
 * below the mean heart rate or short of density; a university first-year class (multi0001's) has a 90-minute lesson
 * on Wednesday afternoons.
 */
const PLANS: readonly ClassPlan[] = [
  {
    orgType: ORG_TYPE.k12,
    gradeNo: 7,
    code: 3,
    slots: [
      [1, '10:00'],
      [3, '10:00'],
      [5, '10:00'],
    ],
    minutes: 40,
    styles: [
      ['good', 0.85],
      ['lowDensity', 0.15],
    ],
    live: true,
  },
  {
    orgType: ORG_TYPE.k12,
    gradeNo: 8,
    code: 1,
    slots: [
      [2, '08:55'],
      [4, '08:55'],
      [5, '14:00'],
    ],
    minutes: 40,
    styles: [
      ['light', 0.5],
      ['lowDensity', 0.2],
      ['good', 0.3],
    ],
  },
  {
    orgType: ORG_TYPE.university,
    gradeNo: 13,
    code: 1,
    slots: [[3, '14:00']],
    minutes: 90,
    styles: [
      ['good', 0.8],
      ['lowDensity', 0.2],
    ],
  },
];

const pickStyle = (rnd: Random, styles: ClassPlan['styles']): LessonStyle => {
  let x = rnd.next();
  for (const [style, weight] of styles) if ((x -= weight) < 0) return style;
  return styles[0][0];
};

/** China calendar day (YYYY-MM-DD) and weekday (1–7, Monday 1) of an instant. */
const chinaDay = (at: number) => {
  const d = new Date(at + CHINA);
  return { day: d.toISOString().slice(0, 10), weekday: d.getUTCDay() || 7 };
};

interface Roster {
  orgId: string;
  orgType: number;
  classId: string;
  classNo: string;
  teacherId: string | null;
  teacherUserId: string | null;
  gradeNo: number;
  kids: { id: string; birthDate: string | null }[];
}

export interface LessonLoadDemoReport {
  lessons: number;
  /** The lesson in progress (null when the demo has no such class). */
  liveLessonId: string | null;
  /** Seconds measured (what per-second bands would have sent and the ingest kept), and the samples stored raw. */
  samples: number;
  rawSamples: number;
}

/**
 * The demo's lesson load (docs/product-rules.md#lesson-load, #demo-data): a hub and DEMO_BANDS bands per demo school
 * (the hub is activated and calls the device API; bands are its children and never call it themselves, so they take
 * no activation place), a term so far of heart-rate lessons for two K12 classes and a university class (dated from
 * the current semester's start, or the last twelve weeks, to `now`; no lessons in the National Day week), and one
 * lesson in progress that began LIVE_LESSON_MINUTES before `now` with samples up to `now`.
 *
 * The samples come from the simulator's generator (server/simulate/heart-rate.ts) and pass the ingest's drop rules
 * (screenSamples; what is dropped is counted as the ingest counts it). Closed lessons are written as per-minute
 * aggregates only (addMinutes; those of the last MINUTES_DAYS days) plus their figures (the row storeLessonLoad
 * stores, built in memory), as if their raw samples had already been removed: writing ~100,000 raw rows per lesson
 * would make the first start minutes longer, and every report reads minutes or figures. The lesson in progress has its raw samples too (writeSamples), as the ingest writes them. Danger
 * runs and silent bands of closed lessons are kept as alerts the class's teacher acknowledged.
 */
export async function seedLessonLoadDemo(tx: Tx, now: Date): Promise<LessonLoadDemoReport> {
  const rnd = createRandom(SEED);
  const report: LessonLoadDemoReport = { lessons: 0, liveLessonId: null, samples: 0, rawSamples: 0 };
  const nowMs = Math.floor(now.getTime() / 1000) * 1000;
  const schools = await tx
    .select({ id: orgs.id, type: orgs.type })
    .from(orgs)
    .where(inArray(orgs.type, [ORG_TYPE.k12, ORG_TYPE.university]))
    .orderBy(asc(orgs.code));
  // The first school of each type: the district's second K12 school joined this year and has no bands.
  const schoolOf = new Map<number, string>();
  for (const s of schools) if (!schoolOf.has(s.type)) schoolOf.set(s.type, s.id);

  const hubs = new Map<number, string>();
  for (const [type, orgId] of schoolOf) {
    const [track] = await tx.select({ id: venues.id }).from(venues).where(eq(venues.orgId, orgId)).orderBy(asc(venues.code)).limit(1);
    const activatedAt = new Date(nowMs - 90 * DAY);
    const [hub] = await tx
      .insert(devices)
      .values({ orgId, name: '心率臂带基站', serialNo: hubSerial(type), kind: 'hub', venueId: track?.id ?? null, status: 'online', softwareVersion: 'v1.4.2', activatedAt })
      .returning({ id: devices.id });
    hubs.set(type, hub.id);
    await tx.insert(devices).values(
      Array.from({ length: DEMO_BANDS }, (_, i) => ({
        orgId,
        name: `心率臂带${String(i + 1).padStart(2, '0')}`,
        serialNo: bandSerial(type, i + 1),
        kind: 'band' as const,
        venueId: track?.id ?? null,
        parentId: hub.id,
        status: 'online' as const,
        softwareVersion: 'v1.4.2',
      })),
    );
  }
  const bandIds = new Map(
    (await tx.select({ id: devices.id, serialNo: devices.serialNo }).from(devices).where(eq(devices.kind, 'band'))).map((d) => [d.serialNo, d.id]),
  );

  const figures: Figures = { lessons: [], students: [] };
  for (const plan of PLANS) {
    const orgId = schoolOf.get(plan.orgType);
    if (!orgId) continue;
    const roster = await rosterOf(tx, orgId, plan);
    if (!roster) continue;
    const [semester] = await tx.select({ startDate: semesters.startDate, endDate: semesters.endDate }).from(semesters).where(and(eq(semesters.orgId, orgId), eq(semesters.current, true)));
    const today = chinaDay(nowMs).day;
    const inTerm = semester && semester.startDate <= today && today <= semester.endDate;
    const fromMs = inTerm ? Date.parse(`${semester.startDate}T00:00:00+08:00`) : nowMs - 12 * 7 * DAY;
    const liveStart = plan.live ? nowMs - LIVE_LESSON_MINUTES * 60_000 : null;
    for (let dayStart = fromMs; dayStart < nowMs; dayStart += DAY) {
      const { day, weekday } = chinaDay(dayStart);
      if (day.slice(5) >= '10-01' && day.slice(5) <= '10-07') continue;
      for (const [slotDay, time] of plan.slots) {
        if (slotDay !== weekday) continue;
        const startedAt = Date.parse(`${day}T${time}:00+08:00`);
        const endedAt = startedAt + plan.minutes * 60_000;
        // Only lessons over by now, and none overlapping the one in progress.
        if (endedAt > nowMs || (liveStart !== null && endedAt > liveStart)) continue;
        const style = pickStyle(rnd, plan.styles);
        await seedLesson(tx, rnd, roster, hubs.get(plan.orgType)!, bandIds, report, figures, {
          startedAt,
          endedAt,
          minutes: plan.minutes,
          style,
          danger: rnd.chance(0.08),
          silentBand: rnd.chance(0.12),
          artefacts: rnd.chance(0.25),
          keepMinutes: startedAt >= nowMs - MINUTES_DAYS * DAY,
        });
      }
    }
    if (liveStart !== null) {
      report.liveLessonId = await seedLesson(tx, rnd, roster, hubs.get(plan.orgType)!, bandIds, report, figures, {
        startedAt: liveStart,
        endedAt: null,
        minutes: plan.minutes,
        style: 'good',
        danger: true,
        silentBand: true,
        artefacts: true,
        until: nowMs,
      });
    }
  }
  for (let i = 0; i < figures.lessons.length; i += 100) await tx.insert(lessonLoads).values(figures.lessons.slice(i, i + 100));
  await insertLessonLoadStudents(tx, figures.students);
  // Written in bulk, not lesson by lesson through storeLessonLoad: their terms and the reports' rollups at once.
  await rebuildLessonLoadRollups(tx);
  return report;
}

/** The stored figures of the seeded lessons, written once all lessons are in (the students' rows after their lessons'). */
interface Figures {
  lessons: (typeof lessonLoads.$inferInsert)[];
  students: (typeof lessonLoadStudents.$inferInsert)[];
}

async function rosterOf(tx: Tx, orgId: string, plan: ClassPlan): Promise<Roster | null> {
  const [cls] = await tx
    .select({ id: classes.id, classNo: classes.classNo })
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(and(eq(classes.orgId, orgId), eq(grades.gradeNo, plan.gradeNo), eq(classes.code, plan.code)))
    .orderBy(asc(classes.classNo))
    .limit(1);
  if (!cls) return null;
  const [teacher] = await tx
    .select({ id: teachers.id, userId: teachers.userId })
    .from(teacherClasses)
    .innerJoin(teachers, eq(teachers.id, teacherClasses.teacherId))
    .where(and(eq(teacherClasses.classId, cls.id), eq(teacherClasses.subject, 'pe')))
    .orderBy(asc(teachers.workNo))
    .limit(1);
  const kids = await tx
    .select({ id: students.id, birthDate: students.birthDate })
    .from(students)
    .where(and(eq(students.classId, cls.id), eq(students.status, 'studying'), eq(students.enabled, true)))
    .orderBy(asc(students.regNo))
    .limit(DEMO_BANDS);
  return { orgId, orgType: plan.orgType, classId: cls.id, classNo: cls.classNo ?? cls.id, teacherId: teacher?.id ?? null, teacherUserId: teacher?.userId ?? null, gradeNo: plan.gradeNo, kids };
}

interface LessonSpec {
  startedAt: number;
  /** Null: in progress. */
  endedAt: number | null;
  minutes: number;
  style: LessonStyle;
  danger: boolean;
  silentBand: boolean;
  artefacts: boolean;
  until?: number;
  /** Closed lessons: write the per-minute aggregates too (MINUTES_DAYS). */
  keepMinutes?: boolean;
}

/** One lesson: the row, its bands, its samples through the drop rules, its minutes (and raw rows when in progress), its figures and alerts. */
async function seedLesson(
  tx: Tx,
  rnd: Random,
  roster: Roster,
  hubId: string,
  bandIds: Map<string, string>,
  report: LessonLoadDemoReport,
  figures: Figures,
  spec: LessonSpec,
): Promise<string> {
  const { day } = chinaDay(spec.startedAt);
  // A child or two is absent now and then; each keeps the band of their place in the roster.
  const present = roster.kids.map((k, i) => ({ ...k, band: bandSerial(roster.orgType, i + 1) })).filter(() => !rnd.chance(0.04));
  const typicalAge = roster.gradeNo <= 12 ? 5 + roster.gradeNo : 19;
  const heartStudents: HeartRateStudent[] = present.map((k) => ({ studentId: k.id, band: k.band, age: zoneAge(k.birthDate, typicalAge, day), fitness: fitnessOf(k.id) }));
  const [lesson] = await tx
    .insert(lessons)
    .values({
      orgId: roster.orgId,
      type: 'practise',
      classId: roster.classId,
      teacherId: roster.teacherId,
      deviceId: hubId,
      clientId: `hr-${roster.classNo}-${new Date(spec.startedAt).toISOString()}`,
      items: [rnd.pick(['running', 'ropeFree', 'jumpingJack'])],
      startedAt: new Date(spec.startedAt),
      endedAt: spec.endedAt === null ? null : new Date(spec.endedAt),
    })
    .returning({ id: lessons.id });
  report.lessons++;
  if (present.length) {
    await tx.insert(lessonBands).values(present.map((k) => ({ lessonId: lesson.id, studentId: k.id, deviceId: bandIds.get(k.band)!, boundAt: new Date(spec.startedAt - 120_000) })));
  }
  const generated = generateLesson({
    seed: rnd.int(1, 2 ** 31),
    startedAt: spec.startedAt,
    minutes: spec.minutes,
    students: heartStudents,
    style: spec.style,
    intensity: true,
    danger: spec.danger,
    silentBand: spec.silentBand,
    artefacts: spec.artefacts,
    until: spec.until,
    every: spec.endedAt === null ? 1 : STRIDE_S,
  });
  const { kept, drops } = screen(generated, heartStudents);
  report.samples += spec.endedAt === null ? kept.length : kept.length * STRIDE_S;
  if (spec.endedAt === null) {
    // Raw samples go to their UTC day's partition (created as the ingest creates it, under the partitions' lock).
    await tx.execute(sql`select pg_advisory_xact_lock(${DAY_PARTITION_LOCK})`);
    for (const d of new Set(kept.map((s) => new Date(s.at).toISOString().slice(0, 10)))) await tx.execute(sql`select heart_rate_partition(${d}::date)`);
    for (let i = 0; i < kept.length; i += 20_000) report.rawSamples += await writeSamples(tx, lesson.id, kept.slice(i, i + 20_000));
  } else {
    const minutes = foldMinutes(kept).map((m) => ({
      ...m,
      samples: m.samples * STRIDE_S,
      sum: m.sum * STRIDE_S,
      active: m.active * STRIDE_S,
      zones: { rest: m.zones.rest * STRIDE_S, moderate: m.zones.moderate * STRIDE_S, target: m.zones.target * STRIDE_S, high: m.zones.high * STRIDE_S, danger: m.zones.danger * STRIDE_S },
    }));
    if (spec.keepMinutes) await addMinutes(tx, lesson.id, minutes);
    // The figures storeLessonLoad would store, from the same minutes without reading them back.
    const rows = minutes.map((m) => ({ studentId: m.studentId, minute: m.minute, samples: m.samples, bpmSum: m.sum, bpmMin: m.min, bpmMax: m.max, zones: m.zones, active: m.active }));
    const endedAt = new Date(spec.endedAt);
    const stored = { id: lesson.id, orgId: roster.orgId, classId: roster.classId, startedAt: new Date(spec.startedAt), endedAt };
    const load = lessonLoad(rows, spec.startedAt, spec.endedAt, spec.endedAt);
    figures.lessons.push(lessonLoadRow(stored, load));
    figures.students.push(...lessonLoadStudentRows(stored, load));
  }
  const dropRows = Object.entries(drops).map(([reason, count]) => ({ lessonId: lesson.id, reason, count: count! }));
  if (dropRows.length) await tx.insert(heartRateDrops).values(dropRows);
  if (spec.endedAt !== null) {
    await seedAlerts(tx, lesson.id, generated, kept, roster.teacherUserId);
  }
  return lesson.id;
}

/** The generated samples through the ingest's drop rules, per student, with each student's age for the zones. */
function screen(generated: GeneratedLesson, heartStudents: readonly HeartRateStudent[]): { kept: SampleToWrite[]; drops: Partial<Record<DropReason, number>> } {
  const byStudent = new Map<string, { at: number; bpm: number; intensity: number | null }[]>();
  for (const s of generated.samples) {
    let list = byStudent.get(s.studentId);
    if (!list) byStudent.set(s.studentId, (list = []));
    list.push({ at: s.at, bpm: s.bpm, intensity: s.intensity ?? null });
  }
  const kept: SampleToWrite[] = [];
  const drops: Partial<Record<DropReason, number>> = {};
  for (const st of heartStudents) {
    const result = screenSamples(byStudent.get(st.studentId) ?? [], null);
    for (const k of result.kept) kept.push({ studentId: st.studentId, at: k.at, bpm: k.bpm, intensity: k.intensity, age: st.age });
    for (const [reason, n] of Object.entries(result.drops) as [DropReason, number][]) drops[reason] = (drops[reason] ?? 0) + n;
  }
  return { kept, drops };
}

/** A closed lesson's danger run and silent band, as the monitor raised them and the teacher acknowledged them. */
async function seedAlerts(tx: Tx, lessonId: string, generated: GeneratedLesson, kept: readonly SampleToWrite[], teacherUserId: string | null): Promise<void> {
  const rows: (typeof lessonAlerts.$inferInsert)[] = [];
  const ack = (at: number) => ({ acknowledgedAt: new Date(at + 45_000), acknowledgedBy: teacherUserId });
  if (generated.danger) {
    // The run above the threshold in the pushed drill (samples may be strided: consecutive ones count as one run).
    const { studentId, dangerBpm, from, to } = generated.danger;
    const above = kept.filter((s) => s.studentId === studentId && s.at >= from && s.at <= to + 60_000 && s.bpm >= dangerBpm);
    if (above.length) {
      const start = above[0].at;
      rows.push({ lessonId, studentId, kind: 'danger', startedAt: new Date(start), raisedAt: new Date(start + 30_000), peakBpm: Math.max(...above.map((s) => s.bpm)), ...ack(start + 30_000) });
    }
  }
  if (generated.silent) {
    const { studentId, from } = generated.silent;
    const before = kept.filter((s) => s.studentId === studentId && s.at < from).at(-1);
    if (before) rows.push({ lessonId, studentId, kind: 'silent', startedAt: new Date(before.at), raisedAt: new Date(before.at + 60_000), ...ack(before.at + 60_000) });
  }
  if (rows.length) await tx.insert(lessonAlerts).values(rows);
}
