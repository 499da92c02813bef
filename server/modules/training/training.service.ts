import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { type TaskCycle, type TaskItem } from '@/domain/homework/homework';
import { ACTIVITY_ITEMS, type ActivityItemKey } from '@/domain/activities/items';
import {
  progressToward,
  type PickLevel,
  type TrainingCandidate,
  type TrainingDetail,
  type TrainingProgress,
  type TrainingRow,
  type TrainingSave,
  type TrainingSession,
} from '@/domain/training/training';
import { planStatus } from '@/domain/test-plans/status';
import { localDate } from '@/domain/dates';
import type { DbOrTx, Tx } from '../../db/client';
import { activityRecords } from '../../db/schema/activities';
import { trainingPlanItems, trainingPlans, trainingPlanStudents } from '../../db/schema/homework';
import { physiqueResults } from '../../db/schema/physique';
import { classes, students } from '../../db/schema/school';
import { testPlans } from '../../db/schema/test-plans';
import { AppError, fieldError } from '../../lib/app-error';
import { classScopeOf, type ClassScope } from '../../lib/data-scope';
import { containsPattern } from '../../lib/query';
import { nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import type { RefCheck } from '../activities/ref-checks';
import { countsInAggregates } from '../physique-results/physique-results.sql';
import { classScopeSql, inIds, statusSql } from '../homework/task-sql';
import { isoInstant } from '../../lib/iso';
import { datedOwnerYears, inDatedOwnerYearsSql, inRecordYears, yearsOfAll, type DatedOwner } from '../activities/owner-years';

/**
 * Special-training plans (docs/product-rules.md#special-training): chosen students train items toward targets. A
 * teacher scoped to their classes sees plans with a student of theirs, and only those students.
 */

const visible = (scope: ClassScope): SQL =>
  scope.all ? sql`true` : sql`exists (select 1 from training_plan_students ps where ps.plan_id = h.id and ${classScopeSql(scope, sql`ps.class_id`)})`;

type RawRow = {
  id: string;
  name: string;
  cycle: TaskCycle;
  startDate: string;
  endDate: string;
  endedAt: Date | string | null;
  createdAt: Date | string;
  version: number;
  createdByName: string | null;
  studentCount: number;
  sessionCount: number;
  total?: number;
};


function rowSelect(scope: ClassScope): SQL {
  return sql`select h.id, h.name, h.cycle, h.start_date::text as "startDate", h.end_date::text as "endDate", h.ended_at as "endedAt",
      h.created_at as "createdAt", h.version, u.name as "createdByName",
      (select count(*)::int from training_plan_students ps where ps.plan_id = h.id and ${classScopeSql(scope, sql`ps.class_id`)}) as "studentCount",
      (select count(*)::int from activity_records r
        where r.kind = 'training' and r.ref_id = h.id and ${inDatedOwnerYearsSql(sql`r.school_year`, 'h')} and not r.invalid and ${classScopeSql(scope, sql`r.class_id`)}) as "sessionCount"
    from training_plans h left join users u on u.id = h.created_by`;
}

/** Best valid value per plan, student and item (times: the lowest). */
async function bests(db: DbOrTx, plans: readonly (DatedOwner & { id: string })[]): Promise<Map<string, Map<string, Map<string, number>>>> {
  if (plans.length === 0) return new Map();
  const planIds = plans.map((p) => p.id);
  const lower = [...ACTIVITY_ITEMS.values()].filter((i) => i.lowerIsBetter).map((i) => i.key);
  const { rows } = await db.execute<{ planId: string; studentId: string; item: string; best: number }>(sql`
    select r.ref_id as "planId", r.student_id as "studentId", r.item,
      case when r.item in (${sql.join(
        lower.map((k) => sql`${k}`),
        sql`, `,
      )}) then min(r.value) else max(r.value) end as best
    from activity_records r where r.kind = 'training' and ${inIds(sql`r.ref_id`, planIds)}
      and ${inRecordYears(sql`r.school_year`, yearsOfAll(plans.map(datedOwnerYears)))} and not r.invalid
    group by r.ref_id, r.student_id, r.item`);
  const out = new Map<string, Map<string, Map<string, number>>>();
  for (const r of rows) {
    const plan = out.get(r.planId) ?? new Map<string, Map<string, number>>();
    out.set(r.planId, plan);
    const student = plan.get(r.studentId) ?? new Map<string, number>();
    plan.set(r.studentId, student);
    student.set(r.item, r.best);
  }
  return out;
}

const reaches = (item: string, value: number | undefined, target: number) =>
  value !== undefined && (ACTIVITY_ITEMS.get(item as ActivityItemKey)?.lowerIsBetter ? value <= target : value >= target);

async function itemsOf(db: DbOrTx, planIds: readonly string[]) {
  if (planIds.length === 0) return [];
  return db.select().from(trainingPlanItems).where(inArray(trainingPlanItems.planId, [...planIds])).orderBy(asc(trainingPlanItems.sort));
}

async function reachedCounts(db: DbOrTx, plans: readonly (DatedOwner & { id: string })[]): Promise<Map<string, number>> {
  const planIds = plans.map((p) => p.id);
  const [best, items] = await Promise.all([bests(db, plans), itemsOf(db, planIds)]);
  const out = new Map<string, number>();
  for (const id of planIds) {
    const its = items.filter((i) => i.planId === id);
    let n = 0;
    for (const values of best.get(id)?.values() ?? []) if (its.length > 0 && its.every((i) => reaches(i.item, values.get(i.item), i.target))) n++;
    out.set(id, n);
  }
  return out;
}

function toRow(raw: RawRow, now: Date, reached: number): TrainingRow {
  const endedAt = isoInstant(raw.endedAt);
  return {
    id: raw.id,
    name: raw.name,
    cycle: raw.cycle,
    startDate: raw.startDate,
    endDate: raw.endDate,
    endedAt,
    status: planStatus({ startDate: raw.startDate, endDate: raw.endDate, endedAt }, now),
    studentCount: raw.studentCount,
    sessionCount: raw.sessionCount,
    reachedCount: reached,
    createdByName: raw.createdByName,
    createdAt: isoInstant(raw.createdAt),
    version: raw.version,
  };
}

export async function trainingPage(db: DbOrTx, actor: Actor, q: { current: number; size: number; name?: string; status?: 'notStarted' | 'inProgress' | 'ended' }, now: Date): Promise<Page<TrainingRow>> {
  const scope = await classScopeOf(db, actor);
  const today = localDate(now);
  const where = sql.join(
    [sql`h.org_id = ${actor.tenantOrgId}::uuid`, visible(scope), q.name ? sql`h.name ilike ${containsPattern(q.name)}` : undefined, q.status ? statusSql(q.status, today) : undefined].filter(
      (c): c is SQL => c !== undefined,
    ),
    sql` and `,
  );
  const { rows } = await db.execute<RawRow>(
    sql`select *, count(*) over()::int as total from (${rowSelect(scope)} where ${where}) x order by "startDate" desc, "createdAt" desc, id limit ${q.size} offset ${(q.current - 1) * q.size}`,
  );
  const reached = await reachedCounts(db, rows);
  return { records: rows.map((r) => toRow(r, now, reached.get(r.id) ?? 0)), total: rows[0]?.total ?? 0, current: q.current, size: q.size };
}

export async function trainingById(db: DbOrTx, actor: Actor, id: string, now: Date): Promise<TrainingDetail> {
  const scope = await classScopeOf(db, actor);
  const { rows } = await db.execute<RawRow>(sql`${rowSelect(scope)} where h.id = ${id}::uuid and h.org_id = ${actor.tenantOrgId}::uuid and ${visible(scope)}`);
  if (!rows[0]) throw notFound();
  const [plan] = await db.select().from(trainingPlans).where(eq(trainingPlans.id, id));
  const [items, kids, reached, source] = await Promise.all([
    itemsOf(db, [id]),
    db
      .select({ id: students.id, name: students.name, className: classes.name })
      .from(trainingPlanStudents)
      .innerJoin(students, eq(students.id, trainingPlanStudents.studentId))
      .innerJoin(classes, eq(classes.id, trainingPlanStudents.classId))
      .where(and(eq(trainingPlanStudents.planId, id), scope.all ? undefined : inArray(trainingPlanStudents.classId, [...scope.classIds, '00000000-0000-0000-0000-000000000000'])))
      .orderBy(asc(classes.name), asc(students.name)),
    reachedCounts(db, [rows[0]]),
    plan.sourcePlanId ? db.select({ name: testPlans.name }).from(testPlans).where(eq(testPlans.id, plan.sourcePlanId)) : Promise.resolve([]),
  ]);
  return {
    ...toRow(rows[0], now, reached.get(id) ?? 0),
    items: items.map((i) => ({ item: i.item as ActivityItemKey, target: i.target, intensity: i.intensity })),
    students: kids,
    sourcePlanName: source[0]?.name ?? null,
    sourceItem: plan.sourceItem,
    sourceLevel: plan.sourceLevel as PickLevel | null,
  };
}

/** Creates a plan for students of the school (a class-scoped teacher: of their classes). */
export async function createTraining(tx: Tx, actor: Actor, body: TrainingSave, now: Date): Promise<TrainingDetail> {
  if (body.startDate < localDate(now)) throw fieldError('startDate', 'activities:task.startInPast');
  const found = await tx
    .select({ id: students.id, classId: students.classId })
    .from(students)
    .where(and(eq(students.orgId, actor.tenantOrgId), inArray(students.id, body.studentIds)));
  if (found.length !== body.studentIds.length) throw fieldError('studentIds', 'activities:task.studentUnknown');
  const scope = await classScopeOf(tx, actor);
  if (!scope.all && found.some((s) => !scope.classIds.includes(s.classId))) throw fieldError('studentIds', 'activities:task.studentNotYours');
  if (body.sourcePlanId) {
    const [p] = await tx.select({ id: testPlans.id }).from(testPlans).where(and(eq(testPlans.id, body.sourcePlanId), eq(testPlans.orgId, actor.tenantOrgId)));
    if (!p) throw fieldError('sourcePlanId', 'activities:task.planRequired');
  }
  const [row] = await tx
    .insert(trainingPlans)
    .values({
      orgId: actor.tenantOrgId,
      name: body.name,
      cycle: body.cycle,
      startDate: body.startDate,
      endDate: body.endDate,
      sourcePlanId: body.sourcePlanId ?? null,
      sourceItem: body.sourceItem ?? null,
      sourceLevel: body.sourceLevel ?? null,
      createdBy: actor.userId,
    })
    .returning({ id: trainingPlans.id });
  await tx.insert(trainingPlanItems).values(body.items.map((i: TaskItem, sort) => ({ planId: row.id, item: i.item, target: i.target, intensity: i.intensity, sort })));
  await tx.insert(trainingPlanStudents).values(found.map((s) => ({ planId: row.id, studentId: s.id, classId: s.classId })));
  return trainingById(tx, actor, row.id, now);
}

export async function endTraining(tx: Tx, actor: Actor, id: string, now: Date): Promise<Change<TrainingDetail>> {
  const before = await trainingById(tx, actor, id, now);
  if (before.status === 'ended') throw new AppError(409, 'training:alreadyEnded');
  await tx
    .update(trainingPlans)
    .set({ endedAt: now, version: nextVersion(trainingPlans.version) })
    .where(eq(trainingPlans.id, id));
  return { before, after: await trainingById(tx, actor, id, now) };
}

/** Deletes a plan with its sessions. */
export async function deleteTraining(tx: Tx, actor: Actor, id: string, now: Date): Promise<TrainingDetail> {
  const before = await trainingById(tx, actor, id, now);
  await tx.delete(activityRecords).where(and(eq(activityRecords.kind, 'training'), eq(activityRecords.refId, id), inRecordYears(activityRecords.schoolYear, datedOwnerYears(before))));
  await tx.delete(trainingPlans).where(eq(trainingPlans.id, id));
  return before;
}

const levelColumn = (item: string) => physiqueResults[`${item}Level` as keyof typeof physiqueResults] as unknown as SQL;
const rawColumn = (item: string) => physiqueResults[item as keyof typeof physiqueResults] as unknown as SQL;

/**
 * Students whose result of an item is at a level (e.g. failing the rope skipping), in the actor's scope: in one test
 * plan, or, with no plan chosen (全部), in each student's latest counting result that measured the item (the newest
 * plan by its start date), so a student who has since improved is not picked on an old result.
 */
export async function trainingCandidates(db: DbOrTx, actor: Actor, q: { planId?: string; item: string; level: PickLevel; classId?: string }): Promise<TrainingCandidate[]> {
  const scope = await classScopeOf(db, actor);
  if (q.planId) {
    const [plan] = await db.select({ id: testPlans.id }).from(testPlans).where(and(eq(testPlans.id, q.planId), eq(testPlans.orgId, actor.tenantOrgId)));
    if (!plan) throw fieldError('planId', 'activities:task.planRequired');
  }
  const latest = db
    .selectDistinctOn([physiqueResults.studentId], { id: physiqueResults.id })
    .from(physiqueResults)
    .innerJoin(testPlans, eq(testPlans.id, physiqueResults.planId))
    .where(and(eq(physiqueResults.orgId, actor.tenantOrgId), countsInAggregates, sql`${levelColumn(q.item)} is not null`))
    .orderBy(physiqueResults.studentId, sql`${testPlans.startDate} desc`, sql`${physiqueResults.testedOn} desc nulls last`, physiqueResults.id);
  return db
    .select({ studentId: students.id, name: students.name, studentNo: sql<string>`coalesce(${students.studentNo}, ${students.regNo})`, classId: students.classId, className: classes.name, value: sql<number | null>`${rawColumn(q.item)}` })
    .from(physiqueResults)
    .innerJoin(students, and(eq(students.id, physiqueResults.studentId), eq(students.status, 'studying')))
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(
      and(
        q.planId ? eq(physiqueResults.planId, q.planId) : inArray(physiqueResults.id, latest),
        eq(physiqueResults.orgId, actor.tenantOrgId),
        countsInAggregates,
        sql`${levelColumn(q.item)} = ${q.level}`,
        scope.all ? undefined : inArray(students.classId, [...scope.classIds, '00000000-0000-0000-0000-000000000000']),
        q.classId ? eq(students.classId, q.classId) : undefined,
      ),
    )
    .orderBy(asc(classes.name), asc(students.studentNo))
    .limit(1000);
}

/** What the plan form chooses from: the school's test plans. */
export async function trainingOptions(db: DbOrTx, actor: Actor) {
  const plans = await db
    .select({ id: testPlans.id, name: testPlans.name, startDate: testPlans.startDate })
    .from(testPlans)
    .where(and(eq(testPlans.orgId, actor.tenantOrgId), sql`${testPlans.deletedAt} is null`))
    .orderBy(sql`${testPlans.startDate} desc`);
  return { plans };
}

/** Progress per student toward each item's target (best valid session against the physique baseline), paged. */
export async function trainingProgress(db: DbOrTx, actor: Actor, id: string, q: { current: number; size: number; classId?: string; name?: string }, now: Date): Promise<Page<TrainingProgress>> {
  const plan = await trainingById(db, actor, id, now);
  const scope = await classScopeOf(db, actor);
  const where = and(
    eq(trainingPlanStudents.planId, id),
    scope.all ? undefined : inArray(trainingPlanStudents.classId, [...scope.classIds, '00000000-0000-0000-0000-000000000000']),
    q.classId ? eq(trainingPlanStudents.classId, q.classId) : undefined,
    q.name ? sql`${students.name} ilike ${containsPattern(q.name)}` : undefined,
  );
  const ofPlan = sql`r.kind = 'training' and r.ref_id = ${id}::uuid and ${inRecordYears(sql`r.school_year`, datedOwnerYears(plan))}`;
  const sessions = sql<number>`(select count(*)::int from activity_records r where ${ofPlan} and r.student_id = ${students.id} and not r.invalid)`;
  const lastAt = sql<Date | string | null>`(select max(r.measured_at) from activity_records r where ${ofPlan} and r.student_id = ${students.id} and not r.invalid)`;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ studentId: students.id, name: students.name, className: classes.name, sessions, lastAt })
      .from(trainingPlanStudents)
      .innerJoin(students, eq(students.id, trainingPlanStudents.studentId))
      .innerJoin(classes, eq(classes.id, trainingPlanStudents.classId))
      .where(where)
      .orderBy(asc(classes.name), asc(students.name))
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    db.select({ total: sql<number>`count(*)::int` }).from(trainingPlanStudents).innerJoin(students, eq(students.id, trainingPlanStudents.studentId)).where(where),
  ]);
  const best = (await bests(db, [plan])).get(id);
  const [source] = await db.select({ planId: trainingPlans.sourcePlanId }).from(trainingPlans).where(eq(trainingPlans.id, id));
  const baselines = new Map<string, Record<string, number | null>>();
  const physiqueItems = plan.items.map((i) => i.item).filter((k) => k in physiqueResults);
  if (source?.planId && physiqueItems.length > 0 && rows.length > 0) {
    const cols = Object.fromEntries(physiqueItems.map((k) => [k, sql<number | null>`${rawColumn(k)}`]));
    const found = await db
      .select({ studentId: physiqueResults.studentId, ...cols })
      .from(physiqueResults)
      .where(and(eq(physiqueResults.planId, source.planId), inArray(physiqueResults.studentId, rows.map((r) => r.studentId)), countsInAggregates));
    for (const f of found) baselines.set(f.studentId, f as unknown as Record<string, number | null>);
  }
  return {
    records: rows.map((r) => {
      const values = best?.get(r.studentId);
      const items = plan.items.map((i) => {
        const b = values?.get(i.item) ?? null;
        const baseline = baselines.get(r.studentId)?.[i.item] ?? null;
        const lower = ACTIVITY_ITEMS.get(i.item)?.lowerIsBetter ?? false;
        return { item: i.item, target: i.target, baseline, best: b, reached: reaches(i.item, b ?? undefined, i.target), progress: progressToward(b, i.target, baseline, lower) };
      });
      return { studentId: r.studentId, name: r.name, className: r.className, sessions: r.sessions, lastAt: isoInstant(r.lastAt), items, reachedAll: items.length > 0 && items.every((i) => i.reached) };
    }),
    total,
    current: q.current,
    size: q.size,
  };
}

/** Sessions of the plan, newest first. */
export async function trainingSessions(db: DbOrTx, actor: Actor, id: string, q: { current: number; size: number; classId?: string; name?: string }, now: Date): Promise<Page<TrainingSession>> {
  const plan = await trainingById(db, actor, id, now);
  const scope = await classScopeOf(db, actor);
  const where = sql.join(
    [
      sql`r.kind = 'training' and r.ref_id = ${id}::uuid and ${inRecordYears(sql`r.school_year`, datedOwnerYears(plan))}`,
      classScopeSql(scope, sql`r.class_id`),
      q.classId ? sql`r.class_id = ${q.classId}::uuid` : undefined,
      q.name ? sql`s.name ilike ${containsPattern(q.name)}` : undefined,
    ].filter((c): c is SQL => c !== undefined),
    sql` and `,
  );
  const { rows } = await db.execute<Omit<TrainingSession, 'measuredAt'> & { measuredAt: Date | string; total: number }>(sql`
    select r.id, s.name as "studentName", c.name as "className", r.item, r.value, r.duration_s as "durationS", r.measured_at as "measuredAt", r.source, r.invalid,
      count(*) over()::int as total
    from activity_records r join students s on s.id = r.student_id join classes c on c.id = r.class_id
    where ${where} order by r.measured_at desc, r.id limit ${q.size} offset ${(q.current - 1) * q.size}`);
  return { records: rows.map(({ total: _t, ...r }) => ({ ...r, measuredAt: isoInstant(r.measuredAt) })), total: rows[0]?.total ?? 0, current: q.current, size: q.size };
}

/**
 * The 'training' ref check (docs/product-rules.md#activities): a session is accepted for a target student of a plan of
 * their organisation, for one of its items, measured within its period and before an early end.
 */
export const trainingRefCheck: RefCheck = async (db, record, cache) => {
  if (!record.refId) return { key: 'training:refused.unknown' };
  const cacheKey = `training:${record.refId}`;
  let plan = cache.get(cacheKey) as { orgId: string; startDate: string; endDate: string; endedAt: Date | null; items: Set<string> } | null | undefined;
  if (plan === undefined) {
    const [row] = await db.select().from(trainingPlans).where(eq(trainingPlans.id, record.refId)).limit(1);
    plan = row
      ? {
          orgId: row.orgId,
          startDate: row.startDate,
          endDate: row.endDate,
          endedAt: row.endedAt,
          items: new Set((await db.select({ item: trainingPlanItems.item }).from(trainingPlanItems).where(eq(trainingPlanItems.planId, row.id))).map((i) => i.item)),
        }
      : null;
    cache.set(cacheKey, plan);
  }
  if (!plan || plan.orgId !== record.orgId) return { key: 'training:refused.unknown' };
  // The plan's target students, read once per batch rather than one query per record.
  const targetsKey = `training-targets:${record.refId}`;
  let targets = cache.get(targetsKey) as Set<string> | undefined;
  if (!targets) {
    const rows = await db.select({ id: trainingPlanStudents.studentId }).from(trainingPlanStudents).where(eq(trainingPlanStudents.planId, record.refId));
    targets = new Set(rows.map((r) => r.id));
    cache.set(targetsKey, targets);
  }
  if (!targets.has(record.studentId)) return { key: 'training:refused.notTarget' };
  if (!plan.items.has(record.item)) return { key: 'training:refused.item' };
  const day = localDate(record.measuredAt);
  if (day < plan.startDate) return { key: 'training:refused.notStarted' };
  if ((plan.endedAt && record.measuredAt >= plan.endedAt) || day > plan.endDate) return { key: 'training:refused.ended' };
  return null;
};
