import { and, asc, desc, eq, gte, lt } from 'drizzle-orm';
import { RESULT_KEYS, type NationalResults, type ResultKey } from '@/domain/physique/national-template';
import type { SyncSummary } from '@/domain/physique-results/types';
import { restrictToItems } from '@/domain/physique-results/wide-row';
import type { Db } from '../../db/client';
import { testRecords } from '../../db/schema/physique';
import { finishPlanJob, getPlanInScope, startPlanJob, assertPlanOpen } from '../test-plan/test-plan.service';
import { testDay } from './physique-import.service';
import { itemsFor, loadPlanContext, planScopeStudents, writeResults, type ResultInput } from './physique-write';

const RESULT_KEY_SET: ReadonlySet<string> = new Set(RESULT_KEYS);

/** Start of a local (China) calendar day as an instant. */
const dayStart = (day: string) => new Date(`${day}T00:00:00+08:00`);
const nextDay = (day: string) => new Date(dayStart(day).getTime() + 86_400_000);

/**
 * Physique sync (spec §4): for every student in the plan's scope, the latest valid test record of each item within
 * the plan's dates becomes the plan's raw value, and the result is rescored and written (source 'sync') in one
 * transaction, under the plan's job lock (no sync while importing and vice versa).
 */
export async function syncPlan(db: Db, req: { tenantOrgId: string; userId: string; planId: string; now: Date }): Promise<SyncSummary> {
  const plan = await getPlanInScope(db, req.tenantOrgId, req.planId);
  assertPlanOpen(plan, req.now);
  const job = await startPlanJob(db, { planId: plan.id, orgId: req.tenantOrgId, kind: 'sync', userId: req.userId, now: req.now });
  try {
    const ctx = await loadPlanContext(db, plan);
    const scope = new Map((await planScopeStudents(db, ctx)).map((s) => [s.id, s]));
    const latest = await db
      .selectDistinctOn([testRecords.studentId, testRecords.item], { studentId: testRecords.studentId, item: testRecords.item, raw: testRecords.raw })
      .from(testRecords)
      .where(
        and(
          eq(testRecords.orgId, plan.orgId),
          eq(testRecords.invalid, false),
          gte(testRecords.testedAt, dayStart(plan.startDate)),
          lt(testRecords.testedAt, nextDay(plan.endDate)),
        ),
      )
      .orderBy(asc(testRecords.studentId), asc(testRecords.item), desc(testRecords.testedAt));

    const byStudent = new Map<string, NationalResults>();
    for (const r of latest) {
      if (!scope.has(r.studentId) || !RESULT_KEY_SET.has(r.item)) continue;
      const results = byStudent.get(r.studentId) ?? {};
      results[r.item as ResultKey] = r.raw;
      byStudent.set(r.studentId, results);
    }
    const inputs: ResultInput[] = [];
    let records = 0;
    for (const [studentId, all] of byStudent) {
      const s = scope.get(studentId);
      if (!s) continue;
      const results = restrictToItems(all, itemsFor(ctx, s.grade, s.gender));
      const n = Object.keys(results).length;
      if (n === 0) continue;
      records += n;
      inputs.push({ studentId, classId: s.classId, grade: s.grade, gender: s.gender, results });
    }
    const students = await writeResults(db, ctx, inputs, { source: 'sync', userId: req.userId, now: req.now, testedOn: testDay(plan, req.now) });
    await finishPlanJob(db, job.id, { status: 'done', successCount: students, failureCount: 0, now: req.now });
    return { students, records };
  } catch (error) {
    await finishPlanJob(db, job.id, { status: 'failed', error: error instanceof Error ? error.message.slice(0, 500) : 'failed', now: req.now }).catch(() => false);
    throw error;
  }
}
