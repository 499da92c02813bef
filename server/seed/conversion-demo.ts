import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { conversionSaveSchema } from '@/domain/conversion/conversion';
import type { DbOrTx } from '../db/client';
import { conversionTables, planConversions } from '../db/schema/conversion';
import { orgs } from '../db/schema/orgs';
import { schoolYears } from '../db/schema/school';
import { testPlans } from '../db/schema/test-plans';

/**
 * The 中考体育 conversion demo (docs/product-rules.md#physique-year: 中考体育 conversion): the demo district publishes
 * ONE table, a sample (marked `sample`, so every screen says it is not an official table), for the junior stage, total
 * basis, full marks 50; the K12 demo school (grades 1–12) applies it to its current plan, so its junior students'
 * reports and the score export show exam points. The steps are made up for the demo, not any region's table.
 */
export async function seedConversionDemo(db: DbOrTx, currentStartYear: number): Promise<void> {
  const [district] = await db.select({ id: orgs.id }).from(orgs).where(and(eq(orgs.type, ORG_TYPE.management), isNull(orgs.parentId))).orderBy(asc(orgs.code)).limit(1);
  if (!district) return;
  // The same rules as a district's save (ascending thresholds, points within the full marks).
  const table = conversionSaveSchema.parse({
    name: '示例：中考体育总分换算表',
    stage: 'junior',
    year: currentStartYear + 1,
    basis: 'total',
    maxPoints: 50,
    note: '演示用示例，非任何地区的官方换算表。',
    rows: [
      { min: 40, points: 20 },
      { min: 50, points: 25 },
      { min: 60, points: 30 },
      { min: 65, points: 33 },
      { min: 70, points: 36 },
      { min: 75, points: 39 },
      { min: 80, points: 42 },
      { min: 85, points: 45 },
      { min: 90, points: 48 },
      { min: 95, points: 50 },
    ],
  });
  const [made] = await db
    .insert(conversionTables)
    .values({ orgId: district.id, name: table.name, stage: table.stage, year: table.year, basis: table.basis, maxPoints: table.maxPoints, rows: table.rows, note: table.note ?? null, sample: true, tableVersion: 1 })
    .returning({ id: conversionTables.id });
  // The current plan of the district's K12 school(s) with junior grades.
  const plans = await db
    .select({ id: testPlans.id })
    .from(testPlans)
    .innerJoin(orgs, eq(orgs.id, testPlans.orgId))
    .innerJoin(schoolYears, eq(schoolYears.id, testPlans.schoolYearId))
    .where(
      and(
        eq(orgs.parentId, district.id),
        eq(orgs.type, ORG_TYPE.k12),
        eq(schoolYears.startYear, currentStartYear),
        isNull(testPlans.retestOfPlanId),
        sql`exists (select 1 from test_plan_items i where i.plan_id = ${testPlans.id} and i.grade_no between 7 and 9)`,
      ),
    );
  if (plans.length) await db.insert(planConversions).values(plans.map((p) => ({ planId: p.id, tableId: made.id })));
}
