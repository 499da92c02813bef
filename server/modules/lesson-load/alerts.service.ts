import { and, eq, lt, sql } from 'drizzle-orm';
import { dangerRuns, DANGER_GAP_S, silentBands } from '@/domain/lesson-load/alerts';
import { zoneThresholds } from '@/domain/lesson-load/zones';
import { localDate } from '@/domain/dates';
import type { Tx } from '../../db/client';
import { lessonAlerts } from '../../db/schema/lesson-load';
import { lessons } from '../../db/schema/lessons';
import { studentAges } from './ages';

/**
 * How far back each call reads raw samples for danger runs (s): a run lasts DANGER_SUSTAIN_S, and a hub's batch may
 * hold the last minute; a run that began earlier is the one already raised (see below).
 */
export const ALERT_LOOKBACK_S = 120;

/**
 * The students with a sample since `from` (their minutes' rows; a small table), as an array for `student_id = any(…)`:
 * with it the raw table's key (lesson, student, at) is read as one range per student, not every sample of the lesson
 * filtered by time (docs/decisions/053-live-monitor-updates.md).
 */
export const recentStudents = (lessonId: string, from: Date) =>
  sql`array(select distinct student_id from heart_rate_minutes where lesson_id = ${lessonId} and minute >= date_trunc('minute', ${from.toISOString()}::timestamptz))`;

/**
 * Raises a lesson's safety alerts at `now` (docs/product-rules.md#lesson-load, src/domain/lesson-load/alerts.ts), once
 * per condition (the unique index on lesson, student, kind, start; on conflict nothing): a student at or above the
 * danger threshold for their age for DANGER_SUSTAIN_S within the last ALERT_LOOKBACK_S of raw samples, and a band lent
 * in the lesson whose last sample is SILENT_AFTER_S old. Only while the lesson is in progress. Called on each monitor
 * read and after each ingest batch; answers how many alerts are new.
 */
export async function raiseAlerts(tx: Tx, lessonId: string, now: Date): Promise<number> {
  const [lesson] = await tx.select({ startedAt: lessons.startedAt, endedAt: lessons.endedAt }).from(lessons).where(eq(lessons.id, lessonId));
  if (!lesson || lesson.endedAt) return 0;
  const from = new Date(Math.max(lesson.startedAt.getTime(), now.getTime() - ALERT_LOOKBACK_S * 1000));
  const { rows: samples } = await tx.execute<{ student_id: string; at: string; bpm: number }>(sql`
    select student_id, (extract(epoch from at) * 1000)::bigint::text as at, bpm from heart_rate_samples
     where lesson_id = ${lessonId} and student_id = any(${recentStudents(lessonId, from)}) and at >= ${from.toISOString()}::timestamptz and at <= ${now.toISOString()}::timestamptz
     order by student_id, at`);
  const byStudent = new Map<string, { at: number; bpm: number }[]>();
  for (const s of samples) {
    let list = byStudent.get(s.student_id);
    if (!list) byStudent.set(s.student_id, (list = []));
    list.push({ at: Number(s.at), bpm: Number(s.bpm) });
  }
  const ages = await studentAges(tx, [...byStudent.keys()], localDate(lesson.startedAt));
  const raised: (typeof lessonAlerts.$inferInsert)[] = [];
  for (const [studentId, list] of byStudent) {
    const age = ages.get(studentId);
    if (age === undefined) continue;
    for (const run of dangerRuns(list, zoneThresholds(age).danger)) {
      // A run from the window's first sample may have begun before it: then it is the condition already raised.
      if (run.from === list[0].at && run.from - from.getTime() <= DANGER_GAP_S * 1000) {
        const [earlier] = await tx
          .select({ id: lessonAlerts.id })
          .from(lessonAlerts)
          .where(and(eq(lessonAlerts.lessonId, lessonId), eq(lessonAlerts.studentId, studentId), eq(lessonAlerts.kind, 'danger'), lt(lessonAlerts.startedAt, from)))
          .limit(1);
        if (earlier) continue;
      }
      raised.push({ lessonId, studentId, kind: 'danger', startedAt: new Date(run.from), raisedAt: now, peakBpm: run.peak });
    }
  }
  // A band lent in the lesson that reported and then stopped: its last sample is the per-minute aggregates' last_at.
  const { rows: last } = await tx.execute<{ student_id: string; last_at: string; last_bpm: number }>(sql`
    select distinct on (m.student_id) m.student_id, (extract(epoch from m.last_at) * 1000)::bigint::text as last_at, m.last_bpm
      from heart_rate_minutes m join lesson_bands b on b.lesson_id = m.lesson_id and b.student_id = m.student_id
     where m.lesson_id = ${lessonId}
     order by m.student_id, m.last_at desc`);
  const bands = last.map((r) => ({ studentId: r.student_id, lastAt: Number(r.last_at) }));
  for (const b of silentBands(bands, now.getTime())) raised.push({ lessonId, studentId: b.studentId, kind: 'silent', startedAt: new Date(b.lastAt), raisedAt: now, peakBpm: null });
  if (raised.length === 0) return 0;
  const inserted = await tx.insert(lessonAlerts).values(raised).onConflictDoNothing().returning({ id: lessonAlerts.id });
  return inserted.length;
}
