import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { PERSISTENT_MIN_LESSONS, PERSISTENT_SHARE } from '@/domain/lesson-load/reports';
import { gradeTypicalAge, zoneAge } from '@/domain/lesson-load/zones';
import type { DbOrTx } from '../../db/client';
import { classes, grades, students } from '../../db/schema/school';

/**
 * Each student's age for the heart-rate zones on `day` (ISO date), from the birth date or the grade's typical age
 * (zones.ts zoneAge). The monitor (tiles) and the alerts (danger threshold) call this; the ingest reads the
 * same two columns in its bound-bands query and applies the same domain rule. Students not found are left out.
 */
export async function studentAges(db: DbOrTx, studentIds: readonly string[], day: string): Promise<Map<string, number>> {
  if (studentIds.length === 0) return new Map();
  const rows = await db
    .select({ id: students.id, birthDate: students.birthDate, stage: grades.stage, gradeNo: grades.gradeNo })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(inArray(students.id, [...new Set(studentIds)]));
  return new Map(rows.map((r) => [r.id, zoneAge(r.birthDate, gradeTypicalAge(r.stage, r.gradeNo), day)]));
}

/**
 * aboveAgeSteps in SQL: the index into ABOVE_AGES (0-based) of the student `st` (joined to its grade `sg`) on the day
 * the steps were computed for: `width_bucket` over the `from` dates for a birth date, else `byGrade` at the grade.
 * `from` and `byGrade` are date[] and int[] expressions of one day's steps (`nGrade` = byGrade's length); the term
 * summary passes one term's, the student-term flags slice each term's out of flat arrays.
 */
export const aboveAgeIndexSql = (from: SQL, byGrade: SQL, nGrade: number): SQL =>
  sql`coalesce(width_bucket(st.birth_date, ${from}), (${byGrade})[least(sg.grade_no, ${nGrade - 1}) + 1])`;

/** isPersistent in SQL: `count` of the `lessons` reaches the persistent share, over at least the minimum lessons. */
export const persistentSql = (lessons: SQL, count: SQL): SQL =>
  sql`(${lessons} >= ${PERSISTENT_MIN_LESSONS} and ${count} >= ${PERSISTENT_SHARE}::float8 * ${lessons})`;
