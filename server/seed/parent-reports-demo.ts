import { and, asc, eq, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import type { Tx } from '../db/client';
import { users } from '../db/schema/auth';
import { orgs } from '../db/schema/orgs';
import { appNotifications } from '../db/schema/parent-reports';
import { testPlans } from '../db/schema/test-plans';
import { releaseReports } from '../modules/parent-reports/report-release.service';

/** Days after a plan's last day its reports were released in the demo. */
const RELEASED_AFTER_DAYS = 14;

/**
 * Reports parents read (docs/product-rules.md#physique-year, "Reports parents read"): the first K12 school released its
 * two ended regular plans' reports (not the re-test's) two weeks after each ended (school01 did), so the demo's app accounts (student001…,
 * parent001…) have last year beside this year and notifications, the older ones read. Runs after the app accounts.
 */
export async function seedParentReportsDemo(tx: Tx, today: string): Promise<void> {
  const [school] = await tx.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).orderBy(asc(orgs.code), asc(orgs.createdAt)).limit(1);
  const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.accountNum, 'school01'));
  if (!school || !admin) return;
  const ended = await tx
    .select({ id: testPlans.id, endDate: testPlans.endDate })
    .from(testPlans)
    .where(and(eq(testPlans.orgId, school.id), lt(testPlans.endDate, today), isNull(testPlans.retestOfPlanId)))
    .orderBy(asc(testPlans.startDate));
  const released = ended.slice(-2);
  for (const plan of released) {
    const at = new Date(`${plan.endDate}T09:00:00+08:00`);
    at.setDate(at.getDate() + RELEASED_AFTER_DAYS);
    await releaseReports(tx, { tenantOrgId: school.id, userId: admin.id }, plan.id, at);
  }
  // The older release's notifications were read long ago; the latest ones are waiting.
  if (released.length === 2) {
    const readAt = new Date(`${released[0].endDate}T20:00:00+08:00`);
    readAt.setDate(readAt.getDate() + RELEASED_AFTER_DAYS);
    await tx.update(appNotifications).set({ readAt }).where(and(inArray(appNotifications.planId, [released[0].id]), isNotNull(appNotifications.userId)));
  }
}
