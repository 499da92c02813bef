import { and, asc, desc, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import {
  type CaseAction,
  type CaseDetail,
  type CaseDetailData,
  type CaseEventKind,
  type CaseOpen,
  type CaseRow,
  type CaseSave,
  type CaseTraining,
  type CaseTrainingRow,
  type WarningKind,
} from '@/domain/warnings/warnings';
import type { DbOrTx, Tx } from '../../db/client';
import { users } from '../../db/schema/auth';
import { trainingPlans, trainingPlanStudents } from '../../db/schema/homework';
import { classes, schoolYears, students, teachers } from '../../db/schema/school';
import { warningCaseEvents, warningCases, warningCaseTrainings } from '../../db/schema/warnings';
import { AppError, fieldError } from '../../lib/app-error';
import { classScopeOf, inClassScope } from '../../lib/data-scope';
import { isoInstant } from '../../lib/iso';
import { CANDIDATES_MAX, type LinkChange } from '../../lib/linked';
import { paginate } from '../../lib/paginate';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { createTraining } from '../training/training.service';
import { computeWarnings, schoolYearOf, viewerOf } from './warnings.service';

/**
 * A warning followed up as a case (docs/product-rules.md#warnings): opened from a warning that holds, assigned to a
 * teacher, actions recorded (parent contacted, re-test, notes, special-training plans linked or made), closed with a
 * note and reopened; every step in its history (who, when, what). A teacher scoped to classes sees their students' cases.
 */

const assigned = sql<string | null>`(select t.name from teachers t where t.id = ${warningCases.assignedTeacherId})`;
const rowColumns = {
  id: warningCases.id,
  studentId: warningCases.studentId,
  studentName: students.name,
  regNo: students.regNo,
  className: classes.name,
  kind: warningCases.kind,
  academicYear: schoolYears.academicYear,
  detail: warningCases.detail,
  status: warningCases.status,
  assignedTeacherId: warningCases.assignedTeacherId,
  assignedTeacherName: assigned,
  openedByName: users.name,
  openedAt: warningCases.openedAt,
  closedAt: warningCases.closedAt,
  version: warningCases.version,
};

type RawCase = Omit<CaseRow, 'openedAt' | 'closedAt' | 'detail'> & { openedAt: Date | string; closedAt: Date | string | null; detail: unknown };
const toRow = (r: RawCase): CaseRow => ({ ...r, detail: r.detail as CaseDetailData, openedAt: isoInstant(r.openedAt), closedAt: isoInstant(r.closedAt) });

function baseQuery(db: DbOrTx) {
  return db
    .select(rowColumns)
    .from(warningCases)
    .innerJoin(students, eq(students.id, warningCases.studentId))
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(schoolYears, eq(schoolYears.id, warningCases.schoolYearId))
    .leftJoin(users, eq(users.id, warningCases.openedBy));
}

export async function casePage(db: DbOrTx, actor: Actor, q: { current: number; size: number; status?: 'open' | 'closed'; kind?: WarningKind }): Promise<Page<CaseRow>> {
  const scope = await classScopeOf(db, actor);
  const page = await paginate(
    db,
    baseQuery(db)
      .where(
        and(
          eq(warningCases.orgId, actor.tenantOrgId),
          inClassScope(scope, students.classId),
          q.status ? eq(warningCases.status, q.status) : undefined,
          q.kind ? eq(warningCases.kind, q.kind) : undefined,
        ),
      )
      .orderBy(desc(warningCases.openedAt), asc(warningCases.id))
      .$dynamic(),
    q,
  );
  return { ...page, records: page.records.map((r) => toRow(r as RawCase)) };
}

/** The case (another organisation's, or a student outside the caller's classes: 404) with its history and trainings. */
export async function caseById(db: DbOrTx, actor: Actor, id: string): Promise<CaseDetail> {
  const scope = await classScopeOf(db, actor);
  const [row] = await baseQuery(db).where(and(eq(warningCases.id, id), eq(warningCases.orgId, actor.tenantOrgId), inClassScope(scope, students.classId)));
  if (!row) throw notFound();
  const [events, trainings] = await Promise.all([
    db
      .select({ id: warningCaseEvents.id, kind: warningCaseEvents.kind, note: warningCaseEvents.note, detail: warningCaseEvents.detail, byName: users.name, at: warningCaseEvents.at })
      .from(warningCaseEvents)
      .leftJoin(users, eq(users.id, warningCaseEvents.byUser))
      .where(eq(warningCaseEvents.caseId, id))
      .orderBy(asc(warningCaseEvents.at), asc(warningCaseEvents.seq)),
    caseTrainingRows(db, id),
  ]);
  return {
    ...toRow(row as RawCase),
    events: events.map((e) => ({ ...e, kind: e.kind as CaseEventKind, at: isoInstant(e.at) })),
    trainings,
  };
}

function caseTrainingRows(db: DbOrTx, caseId: string): Promise<CaseTrainingRow[]> {
  return db
    .select({ id: trainingPlans.id, name: trainingPlans.name, startDate: trainingPlans.startDate, endDate: trainingPlans.endDate })
    .from(warningCaseTrainings)
    .innerJoin(trainingPlans, eq(trainingPlans.id, warningCaseTrainings.trainingPlanId))
    .where(eq(warningCaseTrainings.caseId, caseId))
    .orderBy(asc(trainingPlans.startDate), asc(trainingPlans.id));
}

async function event(tx: Tx, actor: Actor, caseId: string, kind: CaseEventKind, now: Date, extra: { note?: string | null; detail?: string | null; trainingPlanId?: string | null } = {}) {
  await tx.insert(warningCaseEvents).values({ caseId, kind, note: extra.note ?? null, detail: extra.detail ?? null, trainingPlanId: extra.trainingPlanId ?? null, byUser: actor.userId || null, at: now });
}

async function teacherName(tx: DbOrTx, actor: Actor, teacherId: string | null | undefined): Promise<string | null> {
  if (!teacherId) return null;
  const [t] = await tx.select({ name: teachers.name }).from(teachers).where(and(eq(teachers.id, teacherId), eq(teachers.orgId, actor.tenantOrgId)));
  if (!t) throw fieldError('assignedTeacherId', 'warnings:case.teacherUnknown');
  return t.name;
}

/** Opens a case from a warning that holds now (refused otherwise), one per student, kind and school year. */
export async function openCase(tx: Tx, actor: Actor, body: CaseOpen, now: Date): Promise<CaseDetail> {
  const year = await schoolYearOf(tx, actor.tenantOrgId, body.schoolYear);
  if (!year) throw fieldError('schoolYear', 'warnings:case.noWarning');
  const viewer = await viewerOf(tx, actor);
  const [student] = await tx
    .select({ id: students.id })
    .from(students)
    .where(and(eq(students.id, body.studentId), eq(students.orgId, actor.tenantOrgId), inClassScope(viewer.classScope, students.classId)));
  if (!student) throw notFound();
  const warning = (await computeWarnings(tx, viewer, year, now, { studentId: body.studentId })).find((w) => w.kind === body.kind);
  if (!warning) throw new AppError(400, 'warnings:case.noWarning');
  const name = await teacherName(tx, actor, body.assignedTeacherId);
  const detail: CaseDetailData = {
    items: warning.items.length ? warning.items : undefined,
    bmiBand: warning.bmiBand,
    bmi: warning.bmi,
    lastTotal: warning.lastTotal,
    thisTotal: warning.thisTotal,
    declinePoints: warning.declinePoints,
    planName: warning.planName,
  };
  const [made] = await tx
    .insert(warningCases)
    .values({
      orgId: actor.tenantOrgId,
      studentId: body.studentId,
      schoolYearId: year.id,
      kind: body.kind,
      detail: detail as Record<string, unknown>,
      measure: warning.declinePoints ?? warning.bmi,
      assignedTeacherId: body.assignedTeacherId ?? null,
      openedBy: actor.userId || null,
      openedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: warningCases.id });
  if (!made) throw new AppError(409, 'warnings:case.exists');
  await event(tx, actor, made.id, 'opened', now, { note: body.note });
  if (name) await event(tx, actor, made.id, 'assigned', now, { detail: name });
  return caseById(tx, actor, made.id);
}

/** Assigns the case and opens or closes it (a closing names what was done); each change is a history row. */
export async function saveCase(tx: Tx, actor: Actor, id: string, body: CaseSave, now: Date): Promise<Change<CaseDetail>> {
  const before = await caseById(tx, actor, id);
  await lockVersion(tx, warningCases, id, eq(warningCases.orgId, actor.tenantOrgId), body.version);
  const teacherId = body.assignedTeacherId === undefined ? before.assignedTeacherId : body.assignedTeacherId;
  const name = await teacherName(tx, actor, teacherId);
  await tx
    .update(warningCases)
    .set({
      assignedTeacherId: teacherId,
      status: body.status,
      closedAt: body.status === 'closed' ? (before.status === 'closed' ? undefined : now) : null,
      version: nextVersion(warningCases.version),
    })
    .where(eq(warningCases.id, id));
  let noted = false;
  if (teacherId !== before.assignedTeacherId) await event(tx, actor, id, 'assigned', now, { detail: name });
  if (body.status !== before.status) {
    await event(tx, actor, id, body.status === 'closed' ? 'closed' : 'reopened', now, { note: body.note });
    noted = true;
  }
  if (body.note && !noted) await event(tx, actor, id, 'note', now, { note: body.note });
  return { before, after: await caseById(tx, actor, id) };
}

/** Records an action (parent contacted, re-test, a note) in the history. */
export async function addCaseAction(tx: Tx, actor: Actor, id: string, body: CaseAction, now: Date): Promise<Change<CaseDetail>> {
  const before = await caseById(tx, actor, id);
  await lockVersion(tx, warningCases, id, eq(warningCases.orgId, actor.tenantOrgId), body.version);
  await tx.update(warningCases).set({ version: nextVersion(warningCases.version) }).where(eq(warningCases.id, id));
  await event(tx, actor, id, body.kind, now, { note: body.note });
  return { before, after: await caseById(tx, actor, id) };
}

/** Makes a special-training plan for the case's student (the training module's rules) and links it. */
export async function createCaseTraining(tx: Tx, actor: Actor, id: string, body: CaseTraining, now: Date): Promise<Change<CaseDetail>> {
  const before = await caseById(tx, actor, id);
  const plan = await createTraining(tx, actor, { ...body, studentIds: [before.studentId] }, now);
  await tx.insert(warningCaseTrainings).values({ caseId: id, trainingPlanId: plan.id, linkedAt: now });
  await tx.update(warningCases).set({ version: nextVersion(warningCases.version) }).where(eq(warningCases.id, id));
  await event(tx, actor, id, 'trainingCreated', now, { detail: plan.name, trainingPlanId: plan.id });
  return { before, after: await caseById(tx, actor, id) };
}

// ── Linked training plans (registerLinked) ───────────────────────────────────

export const caseTrainingPage = (db: DbOrTx, _actor: Actor, owner: { id: string }, q: { current: number; size: number }) =>
  paginate(
    db,
    db
      .select({ id: trainingPlans.id, name: trainingPlans.name, startDate: trainingPlans.startDate, endDate: trainingPlans.endDate })
      .from(warningCaseTrainings)
      .innerJoin(trainingPlans, eq(trainingPlans.id, warningCaseTrainings.trainingPlanId))
      .where(eq(warningCaseTrainings.caseId, owner.id))
      .orderBy(asc(trainingPlans.startDate), asc(trainingPlans.id))
      .$dynamic(),
    q,
  );

/** Training plans of the organisation the case's student trains in, not linked yet. */
export const caseTrainingCandidates = (db: DbOrTx, actor: Actor, owner: { id: string; studentId: string }) =>
  db
    .select({ id: trainingPlans.id, name: trainingPlans.name, startDate: trainingPlans.startDate, endDate: trainingPlans.endDate })
    .from(trainingPlans)
    .where(
      and(
        eq(trainingPlans.orgId, actor.tenantOrgId),
        inArray(trainingPlans.id, db.select({ id: trainingPlanStudents.planId }).from(trainingPlanStudents).where(eq(trainingPlanStudents.studentId, owner.studentId))),
        notExists(
          db
            .select({ one: sql`1` })
            .from(warningCaseTrainings)
            .where(and(eq(warningCaseTrainings.caseId, owner.id), eq(warningCaseTrainings.trainingPlanId, trainingPlans.id))),
        ),
      ),
    )
    .orderBy(desc(trainingPlans.startDate))
    .limit(CANDIDATES_MAX);

export async function linkCaseTrainings(tx: Tx, actor: Actor, owner: { id: string; studentId: string }, ids: readonly string[], now: Date): Promise<LinkChange> {
  const plans = await tx
    .select({ id: trainingPlans.id, name: trainingPlans.name, startDate: trainingPlans.startDate, endDate: trainingPlans.endDate })
    .from(trainingPlans)
    .where(
      and(
        eq(trainingPlans.orgId, actor.tenantOrgId),
        inArray(trainingPlans.id, [...ids]),
        inArray(trainingPlans.id, tx.select({ id: trainingPlanStudents.planId }).from(trainingPlanStudents).where(eq(trainingPlanStudents.studentId, owner.studentId))),
      ),
    );
  if (plans.length !== ids.length) throw notFound();
  const added = await tx
    .insert(warningCaseTrainings)
    .values(plans.map((p) => ({ caseId: owner.id, trainingPlanId: p.id, linkedAt: now })))
    .onConflictDoNothing()
    .returning({ id: warningCaseTrainings.trainingPlanId });
  const records = plans.filter((p) => added.some((a) => a.id === p.id));
  for (const p of records) await event(tx, actor, owner.id, 'trainingLinked', now, { detail: p.name, trainingPlanId: p.id });
  if (records.length) await tx.update(warningCases).set({ version: nextVersion(warningCases.version) }).where(eq(warningCases.id, owner.id));
  return { records };
}

export async function unlinkCaseTrainings(tx: Tx, actor: Actor, owner: { id: string }, ids: readonly string[], now: Date): Promise<LinkChange> {
  const removed = await tx
    .delete(warningCaseTrainings)
    .where(and(eq(warningCaseTrainings.caseId, owner.id), inArray(warningCaseTrainings.trainingPlanId, [...ids])))
    .returning({ id: warningCaseTrainings.trainingPlanId });
  if (removed.length !== ids.length) throw notFound();
  const plans = await tx.select({ id: trainingPlans.id, name: trainingPlans.name }).from(trainingPlans).where(inArray(trainingPlans.id, [...ids]));
  for (const p of plans) await event(tx, actor, owner.id, 'trainingUnlinked', now, { detail: p.name, trainingPlanId: p.id });
  await tx.update(warningCases).set({ version: nextVersion(warningCases.version) }).where(eq(warningCases.id, owner.id));
  return { records: plans };
}
