import { and, eq, inArray } from 'drizzle-orm';
import { CLOCK_SKEW_MS } from '@/domain/activities/ingest';
import type { LessonOpen, MatchTeam } from '@/domain/activities/lessons';
import type { Tx } from '../../db/client';
import { lessons } from '../../db/schema/lessons';
import { classes, students, teachers } from '../../db/schema/school';
import { fieldError } from '../../lib/app-error';
import { notFound, uuidOr404 } from '../../lib/resource';
import { registerRefCheck } from '../activities/ref-checks';
import type { DeviceCaller } from '../ingest/device-auth';

/** Opens a lesson for the device's school; the same `clientId` again answers the lesson it opened. */
export async function openLesson(tx: Tx, device: DeviceCaller, body: LessonOpen): Promise<{ id: string }> {
  const [existing] = await tx
    .select({ id: lessons.id })
    .from(lessons)
    .where(and(eq(lessons.deviceId, device.deviceId), eq(lessons.clientId, body.clientId)));
  if (existing) return existing;
  const [cls] = await tx.select({ id: classes.id }).from(classes).where(and(eq(classes.id, body.classId), eq(classes.orgId, device.orgId)));
  if (!cls) throw fieldError('classId', 'activities:lessons.rules.classUnknown');
  if (body.teacherId) {
    const [teacher] = await tx.select({ id: teachers.id }).from(teachers).where(and(eq(teachers.id, body.teacherId), eq(teachers.orgId, device.orgId)));
    if (!teacher) throw fieldError('teacherId', 'activities:lessons.rules.teacherUnknown');
  }
  let teams: MatchTeam[] | null = null;
  if (body.teams) {
    const ids = body.teams.flatMap((team) => team.studentIds);
    const inClass = await tx
      .select({ id: students.id })
      .from(students)
      .where(and(inArray(students.id, ids), eq(students.classId, body.classId)));
    if (new Set(ids).size !== ids.length || inClass.length !== ids.length) throw fieldError('teams', 'activities:lessons.rules.teamStudents');
    teams = body.teams;
  }
  const [row] = await tx
    .insert(lessons)
    .values({
      orgId: device.orgId,
      type: body.type,
      classId: body.classId,
      teacherId: body.teacherId ?? null,
      venueId: device.venueId,
      deviceId: device.deviceId,
      clientId: body.clientId,
      items: [...new Set(body.items)],
      teams,
      startedAt: new Date(body.startedAt),
    })
    .returning({ id: lessons.id });
  return row;
}

/** Closes a lesson the device opened; closing again moves the end. */
export async function closeLesson(tx: Tx, device: DeviceCaller, id: string, body: { endedAt: string }): Promise<void> {
  const lessonId = uuidOr404(id);
  const [row] = await tx
    .select({ startedAt: lessons.startedAt })
    .from(lessons)
    .where(and(eq(lessons.id, lessonId), eq(lessons.deviceId, device.deviceId)))
    .for('update');
  if (!row) throw notFound();
  const endedAt = new Date(body.endedAt);
  if (endedAt < row.startedAt) throw fieldError('endedAt', 'activities:lessons.rules.endBeforeStart');
  await tx.update(lessons).set({ endedAt }).where(eq(lessons.id, lessonId));
}

interface LessonFacts {
  orgId: string;
  classId: string;
  items: string[];
  teamStudents: Set<string> | null;
  startedAt: Date;
  endedAt: Date | null;
}

/**
 * A record of kind 'lesson' (docs/product-rules.md#lessons): the lesson exists in the student's school, the student is
 * of its class (a match: in one of its teams), the item is one of the lesson's, and the value was measured while the
 * lesson ran (a device clock's skew allowed).
 */
registerRefCheck('lesson', async (db, record, cache) => {
  const key = `lesson:${record.refId}`;
  let facts = cache.get(key) as LessonFacts | null | undefined;
  if (facts === undefined) {
    const [row] = await db
      .select({ orgId: lessons.orgId, classId: lessons.classId, items: lessons.items, teams: lessons.teams, startedAt: lessons.startedAt, endedAt: lessons.endedAt })
      .from(lessons)
      .where(eq(lessons.id, record.refId!));
    facts = row ? { ...row, teamStudents: row.teams ? new Set(row.teams.flatMap((t) => t.studentIds)) : null } : null;
    cache.set(key, facts);
  }
  if (!facts || facts.orgId !== record.orgId) return { key: 'activities:lessons.rules.unknown' };
  if (facts.teamStudents ? !facts.teamStudents.has(record.studentId) : facts.classId !== record.classId) return { key: 'activities:lessons.rules.notInLesson' };
  if (!facts.items.includes(record.item)) return { key: 'activities:lessons.rules.itemNotInLesson' };
  const t = record.measuredAt.getTime();
  if (t < facts.startedAt.getTime() - CLOCK_SKEW_MS || (facts.endedAt && t > facts.endedAt.getTime() + CLOCK_SKEW_MS)) return { key: 'activities:lessons.rules.outsideLesson' };
  return null;
});
