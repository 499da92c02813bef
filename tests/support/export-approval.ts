import { eq } from 'drizzle-orm';
import { EXPORT_APPROVAL_ROWS } from '@/domain/security/settings';
import { memberships, users } from '../../server/db/schema/auth';
import { orgs } from '../../server/db/schema/orgs';
import { orgSecuritySettings } from '../../server/db/schema/security';
import type { TestApp } from './server-app';

/**
 * Raises the export approval threshold of the organisation `account` works in to its maximum, for tests that export a
 * whole school's people and are not about the approval (docs/product-rules.md#personal-data-access).
 */
export async function allowLargeExports(t: TestApp, account: string): Promise<void> {
  const [m] = await t.db.select({ org: memberships.tenantOrgId }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(eq(users.accountNum, account)).limit(1);
  const value = { exportApprovalRows: EXPORT_APPROVAL_ROWS.max };
  await t.db.insert(orgSecuritySettings).values({ orgId: m.org, value }).onConflictDoUpdate({ target: orgSecuritySettings.orgId, set: { value } });
}

/**
 * Raises the export approval threshold of every organisation to its maximum, for suites that export seeded data of
 * several organisations and are not about the approval (docs/product-rules.md#personal-data-access).
 */
export async function allowLargeExportsEverywhere(t: TestApp): Promise<void> {
  const value = { exportApprovalRows: EXPORT_APPROVAL_ROWS.max };
  const all = await t.db.select({ id: orgs.id }).from(orgs);
  if (all.length) await t.db.insert(orgSecuritySettings).values(all.map((o) => ({ orgId: o.id, value }))).onConflictDoUpdate({ target: orgSecuritySettings.orgId, set: { value } });
}
