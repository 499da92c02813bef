import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { grades, schoolYears, semesters } from '../../db/schema/school';
import type { GradeRow, SchoolYearRow } from '@/domain/school/types';

/** Grades (enrolment cohorts) of the tenant organisation: current ones first, by grade number. */
export async function gradeList(db: DbOrTx, tenantOrgId: string): Promise<GradeRow[]> {
  return db
    .select({ id: grades.id, stage: grades.stage, enrolYear: grades.enrolYear, gradeNo: grades.gradeNo, graduated: grades.graduated })
    .from(grades)
    .where(eq(grades.orgId, tenantOrgId))
    .orderBy(asc(grades.graduated), asc(grades.gradeNo), desc(grades.enrolYear));
}

/** School years of the tenant organisation, newest first, each with its semesters (docs/product-rules.md#school-years). */
export async function schoolYearList(db: DbOrTx, tenantOrgId: string): Promise<SchoolYearRow[]> {
  const years = await db
    .select({ id: schoolYears.id, academicYear: schoolYears.academicYear, startYear: schoolYears.startYear, current: schoolYears.current })
    .from(schoolYears)
    .where(eq(schoolYears.orgId, tenantOrgId))
    .orderBy(desc(schoolYears.startYear));
  if (years.length === 0) return [];
  const terms = await db
    .select({
      id: semesters.id,
      schoolYearId: semesters.schoolYearId,
      code: semesters.code,
      startDate: semesters.startDate,
      endDate: semesters.endDate,
      breakStart: semesters.breakStart,
      breakEnd: semesters.breakEnd,
      current: semesters.current,
    })
    .from(semesters)
    .where(and(eq(semesters.orgId, tenantOrgId), inArray(semesters.schoolYearId, years.map((y) => y.id))))
    .orderBy(asc(semesters.startDate));
  return years.map((y) => ({
    ...y,
    semesters: terms.filter((s) => s.schoolYearId === y.id).map(({ schoolYearId: _year, ...s }) => s),
  }));
}
