import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { scoreStudent } from '@/domain/physique/score';
import type { Gender, Grade } from '@/domain/physique/standard';
import { engineInputOf, WIDE_SCORE_FIELDS, wideFromScore } from '@/domain/physique-results/wide-row';
import { fieldMask } from '@/domain/physique-results/value-source';
import type { ResultKey } from '@/domain/physique/national-template';
import { planItemsForGrade } from '@/domain/test-plans/items';
import type { Tx } from '../db/client';
import { memberships } from '../db/schema/auth';
import { orgs } from '../db/schema/orgs';
import { physiqueResults } from '../db/schema/physique';
import { schoolYears } from '../db/schema/school';
import { testPlans } from '../db/schema/test-plans';
import { retestAdmission } from '../modules/retest/retest-admission';
import { createRetest } from '../modules/retest/retest.service';
import { createRandom } from './people';
import { demoResults } from './physique-demo';

const SEED = 20_260_310;
/** Share of the eligible students with a re-test result, and of those the share aimed at passing. */
const RETESTED_SHARE = 0.7;
const PASSING_SHARE = 0.5;

/**
 * The re-test demo (docs/product-rules.md#physique-year, "Re-test"): last school year's ended autumn plan of the K12
 * school and of the university gets its re-test plan in January (made by the re-test service, so the demo obeys
 * the rules), with results for part of the students it admits: some now pass (the year counts 60), some still fail.
 */
export async function seedRetestDemo(tx: Tx, opts: { lastStartYear: number }): Promise<void> {
  const rnd = createRandom(SEED);
  const schools = await tx.select({ id: orgs.id, type: orgs.type }).from(orgs).where(inArray(orgs.type, [ORG_TYPE.k12, ORG_TYPE.university])).orderBy(asc(orgs.code));
  for (const school of schools) {
    const [plan] = await tx
      .select({ plan: testPlans })
      .from(testPlans)
      .innerJoin(schoolYears, eq(schoolYears.id, testPlans.schoolYearId))
      .where(and(eq(testPlans.orgId, school.id), eq(schoolYears.startYear, opts.lastStartYear), isNull(testPlans.retestOfPlanId)))
      .orderBy(asc(testPlans.startDate))
      .limit(1);
    const [member] = await tx.select({ userId: memberships.userId }).from(memberships).where(eq(memberships.tenantOrgId, school.id)).limit(1);
    if (!plan || !member) continue;
    // At the end of the autumn semester, before the winter break.
    const startDate = `${opts.lastStartYear + 1}-01-05`;
    const endDate = `${opts.lastStartYear + 1}-01-15`;
    const made = await createRetest(tx, { tenantOrgId: school.id, orgType: school.type, userId: member.userId }, { planId: plan.plan.id, name: `${opts.lastStartYear}-${opts.lastStartYear + 1}学年补测`, startDate, endDate }, new Date(`${startDate}T00:00:00+08:00`));
    const [retest] = await tx.select().from(testPlans).where(eq(testPlans.id, made.id));
    const admission = (await retestAdmission(tx, retest))!;
    const eligible = [...admission.eligible].sort();
    if (eligible.length === 0) continue;
    const originals = await tx.select().from(physiqueResults).where(and(eq(physiqueResults.planId, plan.plan.id), inArray(physiqueResults.studentId, eligible)));
    const rows: (typeof physiqueResults.$inferInsert)[] = [];
    for (const o of originals.sort((a, b) => a.studentId.localeCompare(b.studentId))) {
      if (!rnd.chance(RETESTED_SHARE)) continue;
      const grade = o.gradeNo as Grade;
      const gender = o.gender as Gender;
      const raw = demoResults(rnd, grade, gender, planItemsForGrade(grade, '2014'), rnd.chance(PASSING_SHARE) ? 74 : 48, false);
      const score = scoreStudent({ grade, gender, results: engineInputOf(raw) });
      const wide = wideFromScore(raw, score);
      const testedOn = `${opts.lastStartYear + 1}-01-${String(5 + rnd.int(0, 10)).padStart(2, '0')}`;
      const row: typeof physiqueResults.$inferInsert = {
        orgId: school.id,
        planId: retest.id,
        // A re-test plan belongs to its original plan's school year.
        schoolYear: o.schoolYear,
        studentId: o.studentId,
        classId: o.classId,
        gradeNo: o.gradeNo,
        className: o.className,
        gender: o.gender,
        testedOn,
        source: 'import',
        importedFields: fieldMask((Object.keys(raw) as ResultKey[]).filter((k) => raw[k] != null)),
        updatedAt: new Date(`${testedOn}T09:30:00Z`),
      };
      for (const f of WIDE_SCORE_FIELDS) Object.assign(row, { [f]: wide[f] });
      rows.push(row);
    }
    if (rows.length > 0) await tx.insert(physiqueResults).values(rows);
  }
}
