import { and, eq, sql } from 'drizzle-orm';
import { LEVEL_BANDS } from '@/domain/constants';
import { retestRefusal, type RetestRefusal } from '@/domain/retest/retest';
import type { DbOrTx } from '../../db/client';
import { physiqueExemptions } from '../../db/schema/physique-year';
import type { PlanRecord } from '../test-plans/test-plans.service';
import { studentYears, type StudentYear } from '../physique-results/year-results';

/**
 * Whom a re-test plan admits (docs/product-rules.md#physique-year, "Re-test"): the original plan's students with a
 * valid complete result there whose year may be re-tested (`retestRefusal` → `retestEligible`), the year judged without
 * the re-test plan's own results. Everyone else is refused with a reason.
 */
export interface RetestAdmission {
  originalPlanId: string;
  /** Students the re-test admits. */
  eligible: ReadonlySet<string>;
  /** Students with a valid complete result in the original plan (the others are refused as not tested). */
  tested: ReadonlySet<string>;
  /** Why a tested student with a failing result this year is refused (the rest are exempt or passed). */
  refused: ReadonlyMap<string, RetestRefusal>;
  /** Tested students exempt this year. */
  exempt: ReadonlySet<string>;
  /** The year (without the re-test) of every tested student with a failing result this year. */
  years: ReadonlyMap<string, StudentYear>;
}

/** Students with a valid complete result in the plan. */
export const testedIn = (planId: string) => sql`select r.student_id from physique_results r where r.plan_id = ${planId} and r.complete and not r.invalid`;

/**
 * Of those, the ones with a valid complete failing result in a regular plan of the year: only they may have a failing
 * year (yearResult takes a regular plan's total), so only their years are read (a few hundred, not the whole school).
 */
const failingIn = (plan: Pick<PlanRecord, 'orgId' | 'schoolYearId'>, planId: string) =>
  sql`${testedIn(planId)} and exists (select 1 from physique_results f join test_plans fp on fp.id = f.plan_id
    where f.student_id = r.student_id and fp.org_id = ${plan.orgId} and fp.school_year_id = ${plan.schoolYearId}
    and fp.retest_of_plan_id is null and fp.deleted_at is null and f.complete and not f.invalid and f.total < ${LEVEL_BANDS.pass})`;

/** What a re-test of `originalPlanId` would admit, judged without the results of `withoutPlanId` (the re-test itself). */
export async function admissionOf(db: DbOrTx, plan: Pick<PlanRecord, 'orgId' | 'schoolYearId'>, originalPlanId: string, withoutPlanId?: string): Promise<RetestAdmission> {
  const [years, [{ ids }], exempt] = await Promise.all([
    studentYears(db, { orgId: plan.orgId, schoolYearId: plan.schoolYearId, students: failingIn(plan, originalPlanId), withoutPlanId }),
    // One text value, not a row per student: on PGlite handing rows to JavaScript is what costs.
    db.execute<{ ids: string }>(sql`select coalesce(json_agg(t.student_id), '[]')::text as ids from (${testedIn(originalPlanId)}) t`).then((r) => r.rows),
    db
      .select({ studentId: physiqueExemptions.studentId })
      .from(physiqueExemptions)
      .where(
        and(
          eq(physiqueExemptions.orgId, plan.orgId),
          eq(physiqueExemptions.schoolYearId, plan.schoolYearId),
          eq(physiqueExemptions.status, 'approved'),
          eq(physiqueExemptions.kind, 'exempt'),
          sql`${physiqueExemptions.studentId} in (${testedIn(originalPlanId)})`,
        ),
      ),
  ]);
  const eligible = new Set<string>();
  const refused = new Map<string, RetestRefusal>();
  for (const [id, y] of years) {
    const why = retestRefusal(true, y.year);
    if (why) refused.set(id, why);
    else eligible.add(id);
  }
  return { originalPlanId, eligible, tested: new Set(JSON.parse(ids) as string[]), refused, exempt: new Set(exempt.map((x) => x.studentId)), years };
}

/** The admission of a re-test plan; null for a regular plan (its scope admits every student in it). */
export async function retestAdmission(db: DbOrTx, plan: Pick<PlanRecord, 'id' | 'orgId' | 'schoolYearId' | 'retestOfPlanId'>): Promise<RetestAdmission | null> {
  if (!plan.retestOfPlanId) return null;
  return admissionOf(db, plan, plan.retestOfPlanId, plan.id);
}

/** Why the admission refuses the student (null: admitted, or no admission: a regular plan). */
export function refusalOf(admission: RetestAdmission | null, studentId: string): RetestRefusal | null {
  if (!admission || admission.eligible.has(studentId)) return null;
  if (!admission.tested.has(studentId)) return 'notTested';
  // A tested student without a failing result this year passed, unless exempt.
  return admission.refused.get(studentId) ?? (admission.exempt.has(studentId) ? 'exempt' : 'passed');
}
