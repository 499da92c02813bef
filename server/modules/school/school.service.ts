import { and, asc, count, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import type { Page, PageQuery } from '@/domain/api';
import { ERR } from '@/domain/errors';
import type { DbOrTx } from '../../db/client';
import { classes, grades, schoolYears, semesters, students } from '../../db/schema/school';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { containsPattern } from '../../lib/query';
import type { GradeRow, SchoolYearRow, StudentRow } from '@/domain/school/types';

const offset = (q: PageQuery) => (q.current - 1) * q.size;
const page = <T>(records: T[], total: number, q: PageQuery): Page<T> => ({ records, total, current: q.current, size: q.size });
const notFound = () => new AppError(404, ERR.notFound);

const studentColumns = {
  id: students.id,
  name: students.name,
  regNo: students.regNo,
  studentNo: students.studentNo,
  gender: students.gender,
  birthDate: students.birthDate,
  ethnicity: students.ethnicity,
  classId: students.classId,
  className: classes.name,
  gradeId: classes.gradeId,
  gradeNo: grades.gradeNo,
  enabled: students.enabled,
};

function studentQuery(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(studentColumns)
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(where);
}

export interface StudentFilter extends PageQuery {
  classId?: string;
  name?: string;
  regNo?: string;
}

/** Students of the tenant organisation, by grade, class and registration number (docs/product-rules.md#students-and-staff). */
export async function studentPage(db: DbOrTx, tenantOrgId: string, q: StudentFilter): Promise<Page<StudentRow>> {
  const where = and(
    eq(students.orgId, tenantOrgId),
    q.classId ? eq(students.classId, q.classId) : undefined,
    q.name ? ilike(students.name, containsPattern(q.name)) : undefined,
    q.regNo ? ilike(students.regNo, containsPattern(q.regNo)) : undefined,
  );
  const [records, [{ total }]] = await Promise.all([
    studentQuery(db, where)
      .orderBy(asc(grades.gradeNo), asc(classes.code), asc(students.regNo), asc(students.id))
      .limit(q.size)
      .offset(offset(q)),
    db.select({ total: count() }).from(students).where(where),
  ]);
  return page(records, total, q);
}

export async function studentById(db: DbOrTx, tenantOrgId: string, id: string): Promise<StudentRow> {
  if (!isUuid(id)) throw notFound();
  const [row] = await studentQuery(db, and(eq(students.orgId, tenantOrgId), eq(students.id, id))).limit(1);
  if (!row) throw notFound();
  return row;
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
