import { and, asc, desc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { LoadListFilters, LoadListQuery, LoadOptions, LoadReport, LoadRow } from '@/domain/lesson-load/report';
import { curriculumTargets, lessonLoad, type LessonLoad } from '@/domain/lesson-load/summary';
import type { DbOrTx } from '../../db/client';
import { lessonLoads } from '../../db/schema/lesson-load';
import { lessons } from '../../db/schema/lessons';
import { classes, students, teachers } from '../../db/schema/school';
import { classScopeOf, inClassScope } from '../../lib/data-scope';
import { isoInstant } from '../../lib/iso';
import { paginate } from '../../lib/paginate';
import { notFound, uuidOr404 } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { computeLessonLoad, minuteRowsOf } from './lesson-load.store';

/**
 * The lesson load reports of a school (docs/product-rules.md#lesson-load, "Reports"): the lessons with heart-rate data
 * in the user's data scope, and one lesson's report. A closed lesson's list figures are its stored row (lesson_loads);
 * a lesson in progress (or one closed before its figures were stored) is computed from its minutes up to now. Every
 * figure is `lessonLoad`'s.
 */

const MINUTE = 60_000;
const hasMinutes = sql`exists (select 1 from heart_rate_minutes hm where hm.lesson_id = ${lessons.id})`;

const rowColumns = {
  id: lessons.id,
  className: classes.name,
  teacherName: teachers.name,
  startedAt: lessons.startedAt,
  endedAt: lessons.endedAt,
  stored: lessonLoads,
};
type Selected = { id: string; className: string; teacherName: string | null; startedAt: Date; endedAt: Date | null; stored: typeof lessonLoads.$inferSelect | null };

function selectRows(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(rowColumns)
    .from(lessons)
    .innerJoin(classes, eq(classes.id, lessons.classId))
    .leftJoin(teachers, eq(teachers.id, lessons.teacherId))
    .leftJoin(lessonLoads, eq(lessonLoads.lessonId, lessons.id))
    .where(where);
}

/** The school's lessons with heart-rate data that the actor's data scope reaches. */
async function visible(db: DbOrTx, actor: Actor): Promise<SQL | undefined> {
  const scope = await classScopeOf(db, actor);
  return and(eq(lessons.orgId, actor.tenantOrgId), inClassScope(scope, lessons.classId), sql`(${lessonLoads.lessonId} is not null or ${hasMinutes})`);
}

function listWhere(base: SQL | undefined, q: LoadListFilters): SQL | undefined {
  const day = (d: string) => sql`(${d}::date::timestamp at time zone ${ORG_TIME_ZONE})`;
  return and(
    base,
    q.classId ? eq(lessons.classId, q.classId) : undefined,
    q.teacherId ? eq(lessons.teacherId, q.teacherId) : undefined,
    q.from ? sql`${lessons.startedAt} >= ${day(q.from)}` : undefined,
    q.to ? sql`${lessons.startedAt} < ${day(q.to)} + interval '1 day'` : undefined,
    // Only a closed lesson has a verdict: one in progress is in neither answer.
    q.meets !== undefined ? and(isNotNull(lessonLoads.lessonId), isNotNull(lessons.endedAt), eq(lessonLoads.meetsTargets, q.meets)) : undefined,
  );
}

const lengthMinutes = (startedAt: Date, end: Date) => Math.max(1, Math.ceil((end.getTime() - startedAt.getTime()) / MINUTE));

function rowOf(r: Selected, load: LessonLoad | null, now: Date): LoadRow {
  const base = { id: r.id, className: r.className, teacherName: r.teacherName, startedAt: r.startedAt.toISOString(), endedAt: isoInstant(r.endedAt), inProgress: r.endedAt === null };
  if (load === null && r.stored) {
    const s = r.stored;
    return {
      ...base,
      minutes: s.minutes,
      studentCount: s.studentCount,
      mainMeanBpm: s.mainMeanBpm,
      groupDensity: s.groupDensity,
      individualDensity: s.individualDensity,
      targetShare: s.targetShare,
      meetsTargets: s.meetsTargets,
      targets: curriculumTargets(s),
    };
  }
  const l = load!;
  return {
    ...base,
    minutes: lengthMinutes(r.startedAt, r.endedAt ?? now),
    studentCount: l.students.length,
    mainMeanBpm: l.mainMeanBpm,
    groupDensity: l.groupDensity,
    individualDensity: l.individualDensity,
    targetShare: l.targetShare,
    meetsTargets: l.meetsTargets,
    targets: l.targets,
  };
}

/** The rows with their figures: stored ones as they are, the others computed (a page holds few lessons in progress). */
async function withFigures(db: DbOrTx, rows: readonly Selected[], now: Date): Promise<LoadRow[]> {
  return Promise.all(
    rows.map(async (r) => {
      // A stored row of a lesson reopened since (endedAt cleared) is stale: compute it.
      if (r.stored && r.endedAt) return rowOf(r, null, now);
      const computed = await computeLessonLoad(db, r.id, now);
      return rowOf(r, computed!.load, now);
    }),
  );
}

export async function loadPage(db: DbOrTx, actor: Actor, q: LoadListQuery, now: Date): Promise<Page<LoadRow>> {
  const page = await paginate(db, selectRows(db, listWhere(await visible(db, actor), q)).orderBy(desc(lessons.startedAt), asc(lessons.id)).$dynamic(), q);
  return { ...page, records: await withFigures(db, page.records, now) };
}

/** The filtered list for the workbook (newest first, at most `limit` lessons). */
export async function loadRows(db: DbOrTx, actor: Actor, q: LoadListFilters, now: Date, limit = 10_000): Promise<LoadRow[]> {
  const rows = await selectRows(db, listWhere(await visible(db, actor), q)).orderBy(desc(lessons.startedAt), asc(lessons.id)).limit(limit);
  return withFigures(db, rows, now);
}

/** The classes and teachers of the visible heart-rate lessons, by name. */
export async function loadOptions(db: DbOrTx, actor: Actor): Promise<LoadOptions> {
  const where = await visible(db, actor);
  const [cls, tea] = await Promise.all([
    db.selectDistinct({ id: classes.id, name: classes.name }).from(lessons).innerJoin(classes, eq(classes.id, lessons.classId)).leftJoin(lessonLoads, eq(lessonLoads.lessonId, lessons.id)).where(where).orderBy(asc(classes.name), asc(classes.id)),
    db.selectDistinct({ id: teachers.id, name: teachers.name }).from(lessons).innerJoin(teachers, eq(teachers.id, lessons.teacherId)).leftJoin(lessonLoads, eq(lessonLoads.lessonId, lessons.id)).where(where).orderBy(asc(teachers.name), asc(teachers.id)),
  ]);
  return { classes: cls, teachers: tea };
}

/**
 * One lesson's report, computed from its minutes (a closed lesson's stored row keeps no per-minute curve or zones):
 * the class's figures and each measured student's own curve, all from `lessonLoad`. Another school's lesson, one
 * outside the data scope or one without heart-rate data is 404.
 */
export async function loadReport(db: DbOrTx, actor: Actor, id: string, now: Date): Promise<LoadReport> {
  const [row] = await selectRows(db, and(await visible(db, actor), eq(lessons.id, uuidOr404(id)))).limit(1);
  if (!row) throw notFound();
  const rows = await minuteRowsOf(db, row.id);
  const start = row.startedAt.getTime();
  const end = row.endedAt?.getTime() ?? null;
  const load = lessonLoad(rows, start, end, now.getTime());
  const ids = load.students.map((s) => s.studentId);
  const people = ids.length
    ? await db.select({ id: students.id, name: students.name, regNo: students.regNo }).from(students).where(sql`${students.id} = any(${sql.param(ids)}::uuid[])`)
    : [];
  const byId = new Map(people.map((p) => [p.id, p]));
  const roster = ids
    .map((studentId) => {
      const p = byId.get(studentId);
      // The student's own curve is the same function on the student's minutes alone.
      const curve = lessonLoad(
        rows.filter((r) => r.studentId === studentId),
        start,
        end,
        now.getTime(),
      ).curve.map((c) => ({ minute: c.minute, meanBpm: c.meanBpm }));
      return { studentId, name: p?.name ?? '—', regNo: p?.regNo ?? '', curve };
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'zh-CN') || a.regNo.localeCompare(b.regNo));
  return { lesson: rowOf(row, load, now), load, students: roster };
}
