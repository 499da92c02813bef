import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Page } from '@/domain/api';
import { CLOCK_SKEW_MS } from '@/domain/activities/ingest';
import { ACTIVITY_ITEMS, type ActivityItemKey } from '@/domain/activities/items';
import { lessonResults, type LessonDetail, type LessonListQuery, type LessonOpen, type LessonRow, type LessonType, type MatchTeam } from '@/domain/lessons/lessons';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { DbOrTx, Tx } from '../../db/client';
import { activityRecords } from '../../db/schema/activities';
import { lessons } from '../../db/schema/lessons';
import { orgs } from '../../db/schema/orgs';
import { classes, students, teachers } from '../../db/schema/school';
import { devices, venues } from '../../db/schema/venue';
import { fieldError } from '../../lib/app-error';
import { classScopeOf, inClassScope } from '../../lib/data-scope';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { inOrgSubtree } from '../../lib/tenancy';
import type { Actor } from '../../plugins/tenant';
import { notFound, uuidOr404 } from '../../lib/resource';
import { registerRefCheck } from '../activities/ref-checks';
import type { DeviceCaller } from '../ingest/device-auth';
import { isoInstant } from '../../lib/iso';
import { hasBands } from '../lesson-load/heart-rate.service';
import { removeLessonLoad, storeLessonLoad } from '../lesson-load/lesson-load.store';
import { inLessonYearsSql, inRecordYears, lessonYears } from '../activities/owner-years';

/** Opens a lesson for the device's school; the same `clientId` again answers the lesson it opened. */
export async function openLesson(tx: Tx, device: DeviceCaller, body: LessonOpen): Promise<{ id: string }> {
  const [existing] = await tx
    .select({ id: lessons.id })
    .from(lessons)
    .where(and(eq(lessons.deviceId, device.deviceId), eq(lessons.clientId, body.clientId)));
  if (existing) return existing;
  const [cls] = await tx.select({ id: classes.id }).from(classes).where(and(eq(classes.id, body.classId), eq(classes.orgId, device.orgId)));
  if (!cls) throw fieldError('classId', 'lessons:rules.classUnknown');
  if (body.teacherId) {
    const [teacher] = await tx.select({ id: teachers.id }).from(teachers).where(and(eq(teachers.id, body.teacherId), eq(teachers.orgId, device.orgId)));
    if (!teacher) throw fieldError('teacherId', 'lessons:rules.teacherUnknown');
  }
  let teams: MatchTeam[] | null = null;
  if (body.teams) {
    const ids = body.teams.flatMap((team) => team.studentIds);
    const inClass = await tx
      .select({ id: students.id })
      .from(students)
      .where(and(inArray(students.id, ids), eq(students.classId, body.classId)));
    if (new Set(ids).size !== ids.length || inClass.length !== ids.length) throw fieldError('teams', 'lessons:rules.teamStudents');
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
  if (endedAt < row.startedAt) throw fieldError('endedAt', 'lessons:rules.endBeforeStart');
  await tx.update(lessons).set({ endedAt }).where(eq(lessons.id, lessonId));
  // A heart-rate lesson (bands lent in it) stores its figures with the close (docs/product-rules.md#lesson-load).
  if (await hasBands(tx, lessonId)) await storeLessonLoad(tx, lessonId);
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
  if (!facts || facts.orgId !== record.orgId) return { key: 'lessons:rules.unknown' };
  if (facts.teamStudents ? !facts.teamStudents.has(record.studentId) : facts.classId !== record.classId) return { key: 'lessons:rules.notInLesson' };
  if (!facts.items.includes(record.item)) return { key: 'lessons:rules.itemNotInLesson' };
  const t = record.measuredAt.getTime();
  if (t < facts.startedAt.getTime() - CLOCK_SKEW_MS || (facts.endedAt && t > facts.endedAt.getTime() + CLOCK_SKEW_MS)) return { key: 'lessons:rules.outsideLesson' };
  return null;
});

const teacher = alias(teachers, 'lesson_teacher');
/** A listed lesson's records, only in the school years they can be in (owner-years.ts). */
const ofLessonRow = sql`ar.kind = 'lesson' and ar.ref_id = "lessons"."id" and ${inLessonYearsSql(sql`ar.school_year`, '"lessons"')}`;
const rowColumns = {
  id: lessons.id,
  type: lessons.type,
  orgName: orgs.name,
  classId: lessons.classId,
  className: classes.name,
  teacherName: teacher.name,
  venueName: venues.name,
  deviceName: devices.name,
  items: lessons.items,
  startedAt: lessons.startedAt,
  endedAt: lessons.endedAt,
  // Written out in full: drizzle leaves a single-table subquery's columns unqualified.
  studentCount: sql<number>`(select count(distinct ar.student_id)::int from activity_records ar where ${ofLessonRow} and not ar.invalid)`,
  recordCount: sql<number>`(select count(*)::int from activity_records ar where ${ofLessonRow} and not ar.invalid)`,
  version: lessons.version,
};
type Selected = Omit<LessonRow, 'startedAt' | 'endedAt'> & { startedAt: Date; endedAt: Date | null };
const toRow = (r: Selected): LessonRow => ({ ...r, startedAt: r.startedAt.toISOString(), endedAt: isoInstant(r.endedAt) });

function selectRows(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(rowColumns)
    .from(lessons)
    .innerJoin(orgs, eq(orgs.id, lessons.orgId))
    .innerJoin(classes, eq(classes.id, lessons.classId))
    .leftJoin(teacher, eq(teacher.id, lessons.teacherId))
    .leftJoin(venues, eq(venues.id, lessons.venueId))
    .leftJoin(devices, eq(devices.id, lessons.deviceId))
    .where(where);
}

/** Lessons of one type the actor may see: its school (a management organisation: its schools), within its data scope. */
async function visible(db: DbOrTx, actor: Actor, type: LessonType): Promise<SQL | undefined> {
  const scope = await classScopeOf(db, actor);
  return and(eq(lessons.type, type), inOrgSubtree(lessons.orgId, actor.tenantOrgId), inClassScope(scope, lessons.classId));
}

function listWhere(base: SQL | undefined, q: Omit<LessonListQuery, 'current' | 'size'>) {
  const day = (d: string) => sql`(${d}::date::timestamp at time zone ${ORG_TIME_ZONE})`;
  return and(
    base,
    q.classId ? eq(lessons.classId, q.classId) : undefined,
    q.keyword ? or(ilike(classes.name, containsPattern(q.keyword)), ilike(teacher.name, containsPattern(q.keyword))) : undefined,
    q.from ? sql`${lessons.startedAt} >= ${day(q.from)}` : undefined,
    q.to ? sql`${lessons.startedAt} < ${day(q.to)} + interval '1 day'` : undefined,
  );
}

export async function lessonPage(db: DbOrTx, actor: Actor, type: LessonType, q: LessonListQuery): Promise<Page<LessonRow>> {
  const page = await paginate(db, selectRows(db, listWhere(await visible(db, actor, type), q)).orderBy(desc(lessons.startedAt), asc(lessons.id)).$dynamic(), q);
  return { ...page, records: page.records.map(toRow) };
}

export async function lessonRows(db: DbOrTx, actor: Actor, type: LessonType, q: Omit<LessonListQuery, 'current' | 'size'>, limit = 10_000): Promise<LessonRow[]> {
  return (await selectRows(db, listWhere(await visible(db, actor, type), q)).orderBy(desc(lessons.startedAt), asc(lessons.id)).limit(limit)).map(toRow);
}

/** One lesson with each student's best value per item, the class average and ranking, and a match's teams and result. */
export async function lessonDetail(db: DbOrTx, actor: Actor, type: LessonType, id: string): Promise<LessonDetail> {
  const [row] = await selectRows(db, and(await visible(db, actor, type), eq(lessons.id, uuidOr404(id)))).limit(1);
  if (!row) throw notFound();
  const [facts] = await db.select({ teams: lessons.teams }).from(lessons).where(eq(lessons.id, row.id));
  const lower = row.items.filter((i) => ACTIVITY_ITEMS.get(i as ActivityItemKey)?.lowerIsBetter);
  const values = await db
    .select({
      studentId: activityRecords.studentId,
      name: students.name,
      item: activityRecords.item,
      best: sql<number>`case when ${activityRecords.item} = any(${sql.param(lower)}::text[]) then min(${activityRecords.value}) else max(${activityRecords.value}) end`.mapWith(Number),
      attempts: sql<number>`count(*)::int`,
    })
    .from(activityRecords)
    .innerJoin(students, eq(students.id, activityRecords.studentId))
    .where(
      and(
        eq(activityRecords.kind, 'lesson'),
        eq(activityRecords.refId, row.id),
        inRecordYears(activityRecords.schoolYear, lessonYears(row.startedAt)),
        eq(activityRecords.invalid, false),
      ),
    )
    .groupBy(activityRecords.studentId, students.name, activityRecords.item);
  const results = lessonResults({ type: row.type, items: row.items, teams: facts.teams }, values);
  return { lesson: toRow(row), ...results };
}

/** Deletes a lesson with its records (they belong to it alone). */
export async function deleteLesson(tx: Tx, actor: Actor, type: LessonType, id: string): Promise<LessonRow> {
  const [row] = await selectRows(tx, and(await visible(tx, actor, type), eq(lessons.id, uuidOr404(id)))).limit(1);
  if (!row) throw notFound();
  await tx
    .delete(activityRecords)
    .where(and(eq(activityRecords.kind, 'lesson'), eq(activityRecords.refId, row.id), inRecordYears(activityRecords.schoolYear, lessonYears(row.startedAt))));
  // Its stored heart-rate figures go with it, out of the term and district rollups too.
  await removeLessonLoad(tx, row.id);
  await tx.delete(lessons).where(eq(lessons.id, row.id));
  return toRow(row);
}
