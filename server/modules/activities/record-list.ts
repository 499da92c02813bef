import { asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PageQuery } from '@/domain/api';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { DbOrTx } from '../../db/client';
import { activityRecords } from '../../db/schema/activities';
import { orgs } from '../../db/schema/orgs';
import { classes, grades, students } from '../../db/schema/school';
import { devices } from '../../db/schema/venue';

/** The rows of the activity-record lists (exercise records, contest entries): one selection for both, the caller's filter. */
export function activityRecordQuery(db: DbOrTx, where: SQL | undefined) {
  return db
    .select({
      id: activityRecords.id,
      orgId: activityRecords.orgId,
      orgName: orgs.name,
      studentId: activityRecords.studentId,
      name: students.name,
      regNo: students.regNo,
      gender: students.gender,
      gradeNo: grades.gradeNo,
      classId: activityRecords.classId,
      className: classes.name,
      item: activityRecords.item,
      value: activityRecords.value,
      durationS: activityRecords.durationS,
      source: activityRecords.source,
      deviceSn: devices.serialNo,
      measuredAt: activityRecords.measuredAt,
      invalid: activityRecords.invalid,
      invalidReason: activityRecords.invalidReason,
      invalidAt: activityRecords.invalidAt,
    })
    .from(activityRecords)
    .innerJoin(students, eq(students.id, activityRecords.studentId))
    .innerJoin(classes, eq(classes.id, activityRecords.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .innerJoin(orgs, eq(orgs.id, activityRecords.orgId))
    .leftJoin(devices, eq(devices.id, activityRecords.deviceId))
    .where(where);
}

export type ActivityRecordSelected = Awaited<ReturnType<typeof activityRecordQuery>>[number];

/** Newest first; the id keeps pages apart when two records share a time. */
const ORDER = [desc(activityRecords.measuredAt), asc(activityRecords.id)];

/** One page of the filtered records and the filtered total, queried together. */
export async function activityRecordPage(db: DbOrTx, where: SQL | undefined, q: PageQuery): Promise<{ rows: ActivityRecordSelected[]; total: number }> {
  const [rows, total] = await Promise.all([
    activityRecordQuery(db, where)
      .orderBy(...ORDER)
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    activityRecordCount(db, where),
  ]);
  return { rows, total };
}

/** How many records match (a page's total, an export's rows for its approval). */
export async function activityRecordCount(db: DbOrTx, where: SQL | undefined): Promise<number> {
  // The tables a filter may name (student keyword, grade), without the display-only joins.
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(activityRecords)
    .innerJoin(students, eq(students.id, activityRecords.studentId))
    .innerJoin(classes, eq(classes.id, activityRecords.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(where);
  return total;
}

/** The filtered records of an export, newest first: one more than `max`, so the caller can refuse an export over it. */
export function activityRecordExportRows(db: DbOrTx, where: SQL | undefined, max: number) {
  return activityRecordQuery(db, where)
    .orderBy(...ORDER)
    .limit(max + 1);
}

/** When a record was measured, in an export: the China wall clock, sortable as text. */
export const exportTimeFormat = new Intl.DateTimeFormat('sv-SE', { timeZone: ORG_TIME_ZONE, dateStyle: 'short', timeStyle: 'medium' });
