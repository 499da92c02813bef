import { eq, inArray } from 'drizzle-orm';
import { zoneAge } from '@/domain/lesson-load/zones';
import type { DbOrTx } from '../../db/client';
import { classes, grades, students } from '../../db/schema/school';

/** A K12 grade's typical age is 5 + the grade number; a university student's 19 (docs/product-rules.md#lesson-load). */
const UNIVERSITY_AGE = 19;
const typicalAge = (stage: string, gradeNo: number) => (stage === 'university' ? UNIVERSITY_AGE : 5 + gradeNo);

/**
 * Each student's age for the heart-rate zones on `day` (ISO date), from the birth date or the grade's typical age
 * (zones.ts zoneAge). The one place the server reads it: the ingest (zone seconds), the monitor (tiles) and the alerts
 * (danger threshold) all call this. Students not found are left out.
 */
export async function studentAges(db: DbOrTx, studentIds: readonly string[], day: string): Promise<Map<string, number>> {
  if (studentIds.length === 0) return new Map();
  const rows = await db
    .select({ id: students.id, birthDate: students.birthDate, stage: grades.stage, gradeNo: grades.gradeNo })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(inArray(students.id, [...new Set(studentIds)]));
  return new Map(rows.map((r) => [r.id, zoneAge(r.birthDate, typicalAge(r.stage, r.gradeNo), day)]));
}
