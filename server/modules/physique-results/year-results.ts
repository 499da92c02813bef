import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { yearResult, type ExemptionKind, type YearPlanResult, type YearResult } from '@/domain/physique-year/year-result';
import type { DbOrTx } from '../../db/client';
import { physiqueResults } from '../../db/schema/physique';
import { physiqueExemptions } from '../../db/schema/physique-year';
import { testPlans } from '../../db/schema/test-plans';
import { countsInAggregates } from './physique-results.sql';

/** One student's school year: the valid results yearResult reads, the approved exemption and the year's result. */
export interface StudentYear {
  results: YearPlanResult[];
  exemption: ExemptionKind | null;
  year: YearResult;
}

export interface YearResultsRequest {
  orgId: string;
  schoolYearId: string;
  /** The students: ids, or an SQL subquery of student ids (e.g. a plan's results). */
  students: readonly string[] | SQL;
  /** A plan whose results are left out (a re-test plan judging its own admission: docs/product-rules.md#physique-year). */
  withoutPlanId?: string;
}

/**
 * The school year's result of each student asked for (docs/product-rules.md#physique-year, "The year's result"): their
 * valid results in the year's plans (countsInAggregates: never invalid ones, never a binned plan's) and their approved
 * exemption, decided by `yearResult`. A student with neither is absent from the map.
 */
export async function studentYears(db: DbOrTx, req: YearResultsRequest): Promise<Map<string, StudentYear>> {
  if (Array.isArray(req.students) && req.students.length === 0) return new Map();
  const studentIn = (column: typeof physiqueResults.studentId | typeof physiqueExemptions.studentId) =>
    Array.isArray(req.students) ? inArray(column, [...req.students]) : sql`${column} in (${req.students})`;
  const [results, exemptions] = await Promise.all([
    db
      .select({
        studentId: physiqueResults.studentId,
        planId: physiqueResults.planId,
        retestOfPlanId: testPlans.retestOfPlanId,
        startDate: testPlans.startDate,
        complete: physiqueResults.complete,
        total: physiqueResults.total,
      })
      .from(physiqueResults)
      .innerJoin(testPlans, eq(testPlans.id, physiqueResults.planId))
      .where(
        and(
          eq(testPlans.orgId, req.orgId),
          eq(testPlans.schoolYearId, req.schoolYearId),
          studentIn(physiqueResults.studentId),
          countsInAggregates,
          req.withoutPlanId ? ne(physiqueResults.planId, req.withoutPlanId) : undefined,
        ),
      ),
    db
      .select({ studentId: physiqueExemptions.studentId, kind: physiqueExemptions.kind })
      .from(physiqueExemptions)
      .where(
        and(
          eq(physiqueExemptions.orgId, req.orgId),
          eq(physiqueExemptions.schoolYearId, req.schoolYearId),
          eq(physiqueExemptions.status, 'approved'),
          studentIn(physiqueExemptions.studentId),
        ),
      ),
  ]);
  const byStudent = new Map<string, { results: YearPlanResult[]; exemption: ExemptionKind | null }>();
  const entry = (id: string) => {
    let e = byStudent.get(id);
    if (!e) byStudent.set(id, (e = { results: [], exemption: null }));
    return e;
  };
  for (const { studentId, ...r } of results) entry(studentId).results.push(r);
  for (const x of exemptions) entry(x.studentId).exemption = x.kind;
  const out = new Map<string, StudentYear>();
  for (const [id, e] of byStudent) out.set(id, { ...e, year: yearResult(e.results, e.exemption) });
  return out;
}
