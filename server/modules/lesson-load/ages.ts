import { eq, inArray } from 'drizzle-orm';
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
