import { sql } from 'drizzle-orm';
import { retestRefusal, type RetestRefusal } from '@/domain/retest/retest';
import type { DbOrTx } from '../../db/client';
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
  /** Why an original plan's tested student is not admitted; a student absent from both was not tested there. */
  refused: ReadonlyMap<string, RetestRefusal>;
  /** The year (without the re-test) of every student tested in the original plan. */
  years: ReadonlyMap<string, StudentYear>;
}

/** Students with a valid complete result in the plan (the subquery the year's loader takes). */
export const testedIn = (planId: string) =>
  sql`select r.student_id from physique_results r where r.plan_id = ${planId} and r.complete and not r.invalid`;

/** The admission of a re-test plan; null for a regular plan (its scope admits every student in it). */
export async function retestAdmission(db: DbOrTx, plan: Pick<PlanRecord, 'id' | 'orgId' | 'schoolYearId' | 'retestOfPlanId'>): Promise<RetestAdmission | null> {
  if (!plan.retestOfPlanId) return null;
  const years = await studentYears(db, { orgId: plan.orgId, schoolYearId: plan.schoolYearId, students: testedIn(plan.retestOfPlanId), withoutPlanId: plan.id });
  const eligible = new Set<string>();
  const refused = new Map<string, RetestRefusal>();
  for (const [id, y] of years) {
    // Tested in the original (the subquery) unless only an exemption brought them here.
    const tested = y.results.some((r) => r.planId === plan.retestOfPlanId);
    const why = retestRefusal(tested, y.year);
    if (why) refused.set(id, why);
    else eligible.add(id);
  }
  return { originalPlanId: plan.retestOfPlanId, eligible, refused, years };
}

/** Why the admission refuses the student (null: admitted, or no admission: a regular plan). */
export function refusalOf(admission: RetestAdmission | null, studentId: string): RetestRefusal | null {
  if (!admission || admission.eligible.has(studentId)) return null;
  return admission.refused.get(studentId) ?? 'notTested';
}
