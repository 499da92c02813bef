import { and, eq, inArray, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { ERR } from '@/domain/errors';
import { PLAN_MSG, type PlanMessageKey } from '@/domain/test-plans/messages';
import { planStatus } from '@/domain/test-plans/status';
import type { PlanJob, PlanJobKind, PlanJobStatus } from '@/domain/test-plans/types';
import type { ItemKey } from '@/domain/physique/standard';
import type { Db, DbOrTx } from '../../db/client';
import { physiqueResults } from '../../db/schema/physique';
import { orgs } from '../../db/schema/orgs';
import { classes } from '../../db/schema/school';
import { planJobs, testPlanItems, testPlans } from '../../db/schema/test-plans';
import { AppError, isUniqueViolation } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { dropJob, ensureHolderLock, holdJob, jobHeld, PROCESS_HOLDER_ID } from './plan-job-holder';

/**
 * The test-plan API other modules use (physique import, sync, results): find a plan in the caller's
 * scope, check it is open, and take / release the per-plan job lock of docs/product-rules.md#plan-states.
 */

/** A test plan as stored. */
export type PlanRecord = typeof testPlans.$inferSelect;

/** An AppError with a testPlan message (the error catalogue of errors.ts covers the generic ones). */
export function planError(status: number, key: PlanMessageKey, params: Record<string, string | number> = {}): AppError {
  return new AppError(status, key, params);
}

const notFound = () => new AppError(404, ERR.notFound);

/**
 * SQL: `orgIdColumn` is the tenant organisation or one of its descendants (orgs whose parent chain
 * reaches it): a school reads its own rows, a management organisation (admin family) its schools' rows.
 */
export function inOrgTree(orgIdColumn: SQLWrapper, tenantOrgId: string): SQL {
  return sql`${orgIdColumn} in (with recursive tree(id) as (select ${orgs.id} from ${orgs} where ${orgs.id} = ${tenantOrgId} union select o.id from ${orgs} o join tree on o.parent_id = tree.id) select id from tree)`;
}

/** Ids of the tenant organisation and every organisation below it. */
export async function orgTreeIds(db: DbOrTx, tenantOrgId: string): Promise<string[]> {
  const rows = await db.select({ id: orgs.id }).from(orgs).where(inOrgTree(orgs.id, tenantOrgId));
  return rows.map((r) => r.id);
}

/** SQL: the plan is live, not in the recycle bin. */
export const planNotBinned: SQL = isNull(testPlans.deletedAt);

/**
 * SQL on `physique_results`: the result's plan is not in the recycle bin. Results of a deleted plan
 * stay hidden from every search, dashboard, report and export until the plan is restored; it is part
 * of `countsInAggregates` (server/modules/physique-results/physique-results.sql.ts). An uncorrelated `not in`, so
 * PostgreSQL hashes the (few) binned ids once instead of probing test_plans per row. `planIdNotBinned` says the
 * same of another table's plan column.
 */
export const planIdNotBinned = (planId: SQLWrapper): SQL => sql`${planId} not in (select bp.id from test_plans bp where bp.deleted_at is not null)`;
export const resultPlanNotBinned: SQL = planIdNotBinned(physiqueResults.planId);

/**
 * The plan `planId` if it belongs to the tenant organisation or to one of its schools (admin family)
 * and is not in the recycle bin; HTTP 404 otherwise, so another organisation's plan is never served nor revealed.
 */
export async function getPlanInScope(db: DbOrTx, tenantOrgId: string, planId: string): Promise<PlanRecord> {
  if (!isUuid(planId)) throw notFound();
  const [plan] = await db
    .select()
    .from(testPlans)
    .where(and(eq(testPlans.id, planId), inOrgTree(testPlans.orgId, tenantOrgId), planNotBinned))
    .limit(1);
  if (!plan) throw notFound();
  return plan;
}

/**
 * `getPlanInScope` that also locks the plan row until the transaction ends (call inside one), so
 * job starts, edits, early end and deletion of one plan take turns and each sees the latest row.
 */
export async function lockPlanInScope(tx: DbOrTx, tenantOrgId: string, planId: string, where: { binned: boolean } = { binned: false }): Promise<PlanRecord> {
  if (!isUuid(planId)) throw notFound();
  const [plan] = await tx
    .select()
    .from(testPlans)
    .where(and(eq(testPlans.id, planId), inOrgTree(testPlans.orgId, tenantOrgId), where.binned ? sql`${testPlans.deletedAt} is not null` : planNotBinned))
    .for('update');
  if (!plan) throw notFound();
  return plan;
}

/** Refuses (409) work that needs participation open: imports and syncs of an ended plan (docs/product-rules.md#plan-states). */
export function assertPlanOpen(plan: Pick<PlanRecord, 'startDate' | 'endDate' | 'endedAt'>, now: Date): void {
  if (planStatus(plan, now) === 'ended') throw planError(409, PLAN_MSG.ended);
}

/** Refuses (409) editing an ended plan (docs/product-rules.md#plan-states). */
export function assertPlanEditable(plan: Pick<PlanRecord, 'startDate' | 'endDate' | 'endedAt'>, now: Date): void {
  if (planStatus(plan, now) === 'ended') throw planError(409, PLAN_MSG.endedNoEdit);
}

/** Items the plan tests, per grade number (1–16). */
export async function planItemsByGrade(db: DbOrTx, planId: string): Promise<Map<number, ItemKey[]>> {
  const rows = await db
    .select({ gradeNo: testPlanItems.gradeNo, item: testPlanItems.item })
    .from(testPlanItems)
    .where(eq(testPlanItems.planId, planId));
  const out = new Map<number, ItemKey[]>();
  for (const r of rows) {
    const list = out.get(r.gradeNo) ?? [];
    list.push(r.item as ItemKey);
    out.set(r.gradeNo, list);
  }
  return out;
}

/**
 * SQL condition on the `classes` table: the class is in the plan's scope (grades, classes or
 * colleges). Join students → classes and add it to read the students a plan covers.
 */
export function classInPlanScope(planId: string): SQL {
  return sql`exists (select 1 from test_plan_scopes s where s.plan_id = ${planId} and (s.class_id = ${classes.id} or s.grade_id = ${classes.gradeId} or s.college_id = ${classes.collegeId}))`;
}

export const jobRunningError = (kind: PlanJobKind) => planError(409, kind === 'import' ? PLAN_MSG.importRunning : PLAN_MSG.syncRunning);

/**
 * The live import or sync running on the plan, if any. A row marked running whose holder is gone
 * (its server process died mid-way: plan-job-holder.ts) is marked failed on the way, however young.
 */
export async function runningPlanJob(db: DbOrTx, planId: string, now: Date): Promise<PlanJob | null> {
  const rows = await db
    .select()
    .from(planJobs)
    .where(and(eq(planJobs.planId, planId), eq(planJobs.status, 'running')));
  for (const job of rows) {
    if (await jobHeld(db, job)) return toPlanJob(job);
    await db
      .update(planJobs)
      .set({ status: 'failed', error: 'holder gone', finishedAt: now })
      .where(and(eq(planJobs.id, job.id), eq(planJobs.status, 'running')));
  }
  return null;
}

const toPlanJob = ({ holderId: _holder, ...job }: typeof planJobs.$inferSelect): PlanJob => job;

export interface StartPlanJobInput {
  planId: string;
  /** The tenant organisation of the request (the plan must be in its scope). */
  orgId: string;
  kind: PlanJobKind;
  userId: string;
  fileName?: string | null;
  /** The request clock (app.now()); defaults to the wall clock. */
  now?: Date;
}

/**
 * Takes the plan's job lock for an import or sync (docs/product-rules.md#plan-states: no import while a sync runs, no sync
 * while importing, no deletion while either runs). Commits at once, so call it with the app's db
 * (not inside the import's transaction), run the work, then `finishPlanJob` in a finally block.
 * 404 for a plan out of scope; 409 (translated) for an ended plan or while another job runs. Race-free
 * across requests and server instances: the plan row is locked and a partial unique index allows
 * one running job per plan. The lock lasts as long as this process runs the job, however long that
 * is, and no longer: if the process dies the next start takes over at once (plan-job-holder.ts).
 */
export async function startPlanJob(db: Db, input: StartPlanJobInput): Promise<PlanJob> {
  const now = input.now ?? new Date();
  await ensureHolderLock(db);
  let taken: string | null = null;
  try {
    return await db.transaction(async (tx) => {
      const plan = await lockPlanInScope(tx, input.orgId, input.planId);
      assertPlanOpen(plan, now);
      const running = await runningPlanJob(tx, plan.id, now);
      if (running) throw jobRunningError(running.kind);
      const [job] = await tx
        .insert(planJobs)
        .values({
          orgId: plan.orgId,
          planId: plan.id,
          kind: input.kind,
          startedBy: input.userId,
          fileName: input.fileName ?? null,
          holderId: PROCESS_HOLDER_ID,
          startedAt: now,
        })
        .returning();
      // Held from before the commit, so no request of this process sees the row without its holder.
      taken = job.id;
      holdJob(job.id);
      return toPlanJob(job);
    });
  } catch (error) {
    if (taken) dropJob(taken);
    // Two instances racing past the row lock (e.g. a plan locked by neither yet) still meet the unique index.
    if (isUniqueViolation(error)) {
      const running = await db
        .select({ kind: planJobs.kind })
        .from(planJobs)
        .where(and(eq(planJobs.planId, input.planId), eq(planJobs.status, 'running')))
        .limit(1);
      throw jobRunningError(running[0]?.kind ?? input.kind);
    }
    throw error;
  }
}

export interface FinishPlanJobInput {
  status: Exclude<PlanJobStatus, 'running'>;
  successCount?: number | null;
  failureCount?: number | null;
  error?: string | null;
  now?: Date;
}

/** Releases the job lock with the outcome; false when the job was no longer running (e.g. taken for dead). */
export async function finishPlanJob(db: DbOrTx, jobId: string, result: FinishPlanJobInput): Promise<boolean> {
  dropJob(jobId);
  const rows = await db
    .update(planJobs)
    .set({
      status: result.status,
      successCount: result.successCount ?? null,
      failureCount: result.failureCount ?? null,
      error: result.error ?? null,
      finishedAt: result.now ?? new Date(),
    })
    .where(and(eq(planJobs.id, jobId), eq(planJobs.status, 'running')))
    .returning({ id: planJobs.id });
  return rows.length > 0;
}

/** Plans of these ids that exist in the tenant's scope (helper for bulk checks). */
export async function plansInScope(db: DbOrTx, tenantOrgId: string, planIds: readonly string[]): Promise<PlanRecord[]> {
  const ids = planIds.filter(isUuid);
  if (ids.length === 0) return [];
  return db
    .select()
    .from(testPlans)
    .where(and(inArray(testPlans.id, ids), inOrgTree(testPlans.orgId, tenantOrgId), planNotBinned));
}
