import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { ReportRelease } from '@/domain/parent-reports/parent-reports';
import { planStatus } from '@/domain/test-plans/status';
import type { DbOrTx, Tx } from '../../db/client';
import { users } from '../../db/schema/auth';
import { appNotifications, reportReleases } from '../../db/schema/parent-reports';
import { physiqueResults } from '../../db/schema/physique';
import { parentStudents, parents, students } from '../../db/schema/school';
import { testPlans } from '../../db/schema/test-plans';
import { AppError } from '../../lib/app-error';
import { inOrgSubtree } from '../../lib/tenancy';
import type { Actor } from '../../plugins/tenant';
import { lockPlanInScope } from '../test-plans/test-plans.service';

/** Notification rows per insert statement (a large school's release writes tens of thousands). */
const INSERT_CHUNK = 2000;

const releaseColumns = { planId: reportReleases.planId, releasedAt: reportReleases.releasedAt, releasedBy: users.name };
const toRelease = (r: { planId: string; releasedAt: Date; releasedBy: string | null }): ReportRelease => ({ ...r, releasedAt: r.releasedAt.toISOString() });

/** The released plans of the tenant (a management organisation: of its schools), for the test plan list. */
export async function reportReleasesOf(db: DbOrTx, actor: Actor): Promise<ReportRelease[]> {
  const rows = await db
    .select(releaseColumns)
    .from(reportReleases)
    .innerJoin(testPlans, eq(testPlans.id, reportReleases.planId))
    .leftJoin(users, eq(users.id, reportReleases.releasedBy))
    .where(inOrgSubtree(reportReleases.orgId, actor.tenantOrgId));
  return rows.map(toRelease);
}

async function releaseOf(db: DbOrTx, planId: string): Promise<ReportRelease | null> {
  const [row] = await db.select(releaseColumns).from(reportReleases).leftJoin(users, eq(users.id, reportReleases.releasedBy)).where(eq(reportReleases.planId, planId));
  return row ? toRelease(row) : null;
}

/**
 * The app accounts a release tells (docs/product-rules.md#physique-year, "Reports parents read"): of every studying
 * student with a valid result in the plan, the student's own account and its parents' accounts, one row per account and
 * student (a parent of two children gets two).
 */
async function accountsToNotify(tx: DbOrTx, planId: string): Promise<{ userId: string; studentId: string; orgId: string }[]> {
  const tested = and(eq(physiqueResults.planId, planId), eq(physiqueResults.invalid, false), eq(students.enabled, true), eq(students.status, 'studying'));
  const own = await tx
    .select({ userId: students.userId, studentId: students.id, orgId: students.orgId })
    .from(physiqueResults)
    .innerJoin(students, eq(students.id, physiqueResults.studentId))
    .where(and(tested, isNotNull(students.userId)));
  const family = await tx
    .select({ userId: parents.userId, studentId: students.id, orgId: students.orgId })
    .from(physiqueResults)
    .innerJoin(students, eq(students.id, physiqueResults.studentId))
    .innerJoin(parentStudents, eq(parentStudents.studentId, students.id))
    .innerJoin(parents, eq(parents.id, parentStudents.parentId))
    .where(and(tested, isNotNull(parents.userId)));
  const seen = new Set<string>();
  const out: { userId: string; studentId: string; orgId: string }[] = [];
  for (const r of [...own, ...family]) {
    const key = `${r.userId}:${r.studentId}`;
    if (!r.userId || seen.has(key)) continue;
    seen.add(key);
    out.push({ userId: r.userId, studentId: r.studentId, orgId: r.orgId });
  }
  return out;
}

/**
 * Releases a plan's reports to the families: only an ended plan (its results are final), once; the notifications of
 * every app account concerned are written in the same transaction, in bulk.
 */
export async function releaseReports(tx: Tx, actor: Pick<Actor, 'tenantOrgId' | 'userId'>, planId: string, now: Date): Promise<{ before: null; after: ReportRelease }> {
  const plan = await lockPlanInScope(tx, actor.tenantOrgId, planId); // another organisation's plan: 404
  if (planStatus(plan, now) !== 'ended') throw new AppError(409, 'parentReports:release.notEnded', { name: plan.name });
  if (await releaseOf(tx, planId)) throw new AppError(409, 'parentReports:release.already', { name: plan.name });
  await tx.insert(reportReleases).values({ planId, orgId: plan.orgId, releasedBy: actor.userId, releasedAt: now });
  const accounts = await accountsToNotify(tx, planId);
  for (let i = 0; i < accounts.length; i += INSERT_CHUNK) {
    await tx.insert(appNotifications).values(accounts.slice(i, i + INSERT_CHUNK).map((a) => ({ ...a, kind: 'reportReleased' as const, planId, createdAt: now })));
  }
  const after = (await releaseOf(tx, planId))!;
  return { before: null, after: { ...after, notified: accounts.length } };
}

/** Withdraws a release: the reports are hidden from the app again and the release's notifications go with it. */
export async function withdrawReports(tx: Tx, actor: Actor, planId: string): Promise<{ before: ReportRelease; after: null }> {
  const plan = await lockPlanInScope(tx, actor.tenantOrgId, planId);
  const before = await releaseOf(tx, planId);
  if (!before) throw new AppError(409, 'parentReports:release.notYetReleased', { name: plan.name });
  await tx.delete(appNotifications).where(and(eq(appNotifications.planId, planId), eq(appNotifications.kind, 'reportReleased')));
  await tx.delete(reportReleases).where(eq(reportReleases.planId, planId));
  return { before, after: null };
}

/** The released plans among `planIds` (the app's reads). */
export async function releasedPlans(db: DbOrTx, planIds: readonly string[]): Promise<Map<string, Date>> {
  if (planIds.length === 0) return new Map();
  const rows = await db.select({ planId: reportReleases.planId, releasedAt: reportReleases.releasedAt }).from(reportReleases).where(inArray(reportReleases.planId, [...planIds]));
  return new Map(rows.map((r) => [r.planId, r.releasedAt]));
}
