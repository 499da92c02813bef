import { and, asc, count, desc, eq, ilike, inArray } from 'drizzle-orm';
import type { Page, PageQuery } from '@/domain/api';
import type { DbOrTx } from '../../db/client';
import { grades, schoolYears, semesters, teachers } from '../../db/schema/school';
import { containsPattern } from '../../lib/query';
import type { GradeRow, SchoolYearRow, TeacherRow } from '@/domain/school/types';

const offset = (q: PageQuery) => (q.current - 1) * q.size;
const page = <T>(records: T[], total: number, q: PageQuery): Page<T> => ({ records, total, current: q.current, size: q.size });

export interface TeacherFilter extends PageQuery {
  name?: string;
  workNo?: string;
}

/** Staff of the tenant organisation (docs/product-rules.md#students-and-staff); ID card numbers stay out of lists. */
export async function teacherPage(db: DbOrTx, tenantOrgId: string, q: TeacherFilter): Promise<Page<TeacherRow>> {
  const where = and(
    eq(teachers.orgId, tenantOrgId),
    q.name ? ilike(teachers.name, containsPattern(q.name)) : undefined,
    q.workNo ? ilike(teachers.workNo, containsPattern(q.workNo)) : undefined,
  );
  const [records, [{ total }]] = await Promise.all([
    db
      .select({ id: teachers.id, name: teachers.name, gender: teachers.gender, mobile: teachers.mobile, workNo: teachers.workNo, enabled: teachers.enabled })
      .from(teachers)
      .where(where)
      .orderBy(asc(teachers.workNo), asc(teachers.name), asc(teachers.id))
      .limit(q.size)
      .offset(offset(q)),
    db.select({ total: count() }).from(teachers).where(where),
  ]);
  return page(records, total, q);
}

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
