import { and, desc, eq, inArray } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import type { Tx } from '../db/client';
import { orgs } from '../db/schema/orgs';
import { classes, grades, students } from '../db/schema/school';
import { recordConsentsInBulk } from '../modules/consent/consent.service';

/** Students of each school left without any consent, so the coverage screen has someone to list. */
const MISSING_PER_SCHOOL = 2;

/**
 * The demo's guardian consent register (docs/product-rules.md#consent): the schools recorded signed forms for every
 * purpose of nearly all students (so photos, videos, heart rates and full names on the boards keep working in the
 * demo); the last students of each school's last class have none yet. The demo's forms were not scanned.
 */
export async function seedConsentDemo(tx: Tx, now: Date): Promise<number> {
  const schools = await tx
    .select({ id: orgs.id })
    .from(orgs)
    .where(inArray(orgs.type, [ORG_TYPE.k12, ORG_TYPE.university]));
  let recorded = 0;
  for (const school of schools) {
    const roll = await tx
      .select({ id: students.id })
      .from(students)
      .innerJoin(classes, eq(classes.id, students.classId))
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(students.orgId, school.id), eq(students.status, 'studying')))
      .orderBy(desc(grades.gradeNo), desc(classes.code), desc(students.regNo));
    const given = roll.slice(MISSING_PER_SCHOOL).map((s) => s.id);
    recorded += await recordConsentsInBulk(tx, { orgId: school.id, studentIds: given, now });
  }
  return recorded;
}
