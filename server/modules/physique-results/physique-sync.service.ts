import { and, asc, desc, eq, gte, lt } from 'drizzle-orm';
import { RESULT_KEYS, type NationalResults, type ResultKey } from '@/domain/physique/national-template';
import { SYNC_PREVIEW_MAX_ROWS } from '@/domain/physique-results/schemas';
import type { SyncChange, SyncPreview, SyncSummary } from '@/domain/physique-results/types';
import { restrictToItems } from '@/domain/physique-results/wide-row';
import type { Db, DbOrTx } from '../../db/client';
import { testRecords } from '../../db/schema/physique';
import { classScopeTest, type ClassScope } from '../../lib/data-scope';
import { finishPlanJob, getPlanInScope, startPlanJob, assertPlanOpen } from '../test-plans/test-plans.service';
import { testDay } from './physique-import.service';
import {
  deviceChanges,
  itemsFor,
  loadPlanContext,
  planScopeStudents,
  readStoredValues,
  writeResults,
  type PlanContext,
  type ResultInput,
  type ScopeStudent,
} from './physique-write';

const RESULT_KEY_SET: ReadonlySet<string> = new Set(RESULT_KEYS);

/** Start of a local (China) calendar day as an instant. */
const dayStart = (day: string) => new Date(`${day}T00:00:00+08:00`);
const nextDay = (day: string) => new Date(dayStart(day).getTime() + 86_400_000);

interface DeviceInputs {
  inputs: ResultInput[];
  /** Students of the plan's scope by id (who a change belongs to). */
  scope: Map<string, ScopeStudent>;
}

/** Each scope student's latest valid test record per item of the plan, within the plan's dates. */
async function deviceInputs(db: DbOrTx, ctx: PlanContext, classScope: ClassScope): Promise<DeviceInputs> {
  const { plan } = ctx;
  // Only the caller's classes (docs/product-rules.md#data-scopes): a class teacher syncs their own classes.
  const mine = classScopeTest(classScope);
  // A re-test plan's students it does not admit are left out (their device records do not belong to it).
  const scope = new Map((await planScopeStudents(db, ctx)).filter((s) => mine(s.classId) && !s.refusal).map((s) => [s.id, s]));
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
  for (const [studentId, all] of byStudent) {
    const s = scope.get(studentId);
    if (!s) continue;
    const results = restrictToItems(all, itemsFor(ctx, s.grade, s.gender));
    if (Object.keys(results).length === 0) continue;
    inputs.push({ studentId, classId: s.classId, grade: s.grade, gender: s.gender, results });
  }
  return { inputs, scope };
}

/**
 * What a sync of the plan would change (shown before it writes): every stored value a newer device record would
 * change, who and which item, old → new, and whether the old value was imported or edited by hand.
 */
export async function previewSync(db: Db, req: { tenantOrgId: string; planId: string; now: Date; classScope: ClassScope }): Promise<SyncPreview> {
  const plan = await getPlanInScope(db, req.tenantOrgId, req.planId);
  assertPlanOpen(plan, req.now);
  const ctx = await loadPlanContext(db, plan);
  const { inputs, scope } = await deviceInputs(db, ctx, req.classScope);
  const stored = await readStoredValues(db, ctx, inputs.map((i) => i.studentId));
  const changes: SyncChange[] = [];
  let total = 0;
  let manual = 0;
  let students = 0;
  for (const input of inputs) {
    const found = deviceChanges(stored.get(input.studentId), input.results, true).changes;
    if (found.length === 0) continue;
    students++;
    total += found.length;
    const s = scope.get(input.studentId)!;
    for (const c of found) {
      if (c.manual) manual++;
      if (changes.length < SYNC_PREVIEW_MAX_ROWS) changes.push({ studentId: s.id, name: s.name, regNo: s.regNo, className: s.className, ...c });
    }
  }
  // Hand-edited and imported values first: they are the ones the person decides about.
  changes.sort((a, b) => Number(b.manual) - Number(a.manual) || a.className.localeCompare(b.className) || a.regNo.localeCompare(b.regNo));
  return { changes, total, manual, students };
}

/**
 * Physique sync (docs/product-rules.md#plan-states): for every student in the plan's scope, the latest valid test record of each item within
 * the plan's dates becomes the plan's raw value where it changes one, and the result is rescored and written (source
 * 'sync') in one transaction, under the plan's job lock (no sync while importing and vice versa). Imported and
 * hand-edited values stay unless `replaceManual`.
 */
export async function syncPlan(
  db: Db,
  req: { tenantOrgId: string; userId: string; planId: string; now: Date; replaceManual: boolean; classScope: ClassScope },
): Promise<SyncSummary> {
  const plan = await getPlanInScope(db, req.tenantOrgId, req.planId);
  assertPlanOpen(plan, req.now);
  const job = await startPlanJob(db, { planId: plan.id, orgId: req.tenantOrgId, kind: 'sync', userId: req.userId, now: req.now });
  try {
    const ctx = await loadPlanContext(db, plan);
    const { inputs } = await deviceInputs(db, ctx, req.classScope);
    // Values written are counted from what is stored now; writeResults decides again under its lock.
    const stored = await readStoredValues(db, ctx, inputs.map((i) => i.studentId));
    let records = 0;
    for (const input of inputs) records += Object.keys(deviceChanges(stored.get(input.studentId), input.results, req.replaceManual).apply).length;
    const students = await writeResults(db, ctx, inputs, {
      source: 'sync',
      userId: req.userId,
      now: req.now,
      testedOn: testDay(plan, req.now),
      replaceManual: req.replaceManual,
    });
    await finishPlanJob(db, job.id, { status: 'done', successCount: students, failureCount: 0, now: req.now });
    return { students, records };
  } catch (error) {
    await finishPlanJob(db, job.id, { status: 'failed', error: error instanceof Error ? error.message.slice(0, 500) : 'failed', now: req.now }).catch(() => false);
    throw error;
  }
}
