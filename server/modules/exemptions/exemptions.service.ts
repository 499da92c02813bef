import { aliasedTable, and, asc, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import type { AppIdentity } from '@/domain/activities/ingest';
import {
  CERTIFICATE_MIMES,
  type AppExemptionRow,
  type AppExemptionSave,
  type ExemptionDecide,
  type ExemptionListQuery,
  type ExemptionOptions,
  type ExemptionRow,
  type ExemptionSave,
  type ExemptionStudentOption,
} from '@/domain/exemptions/exemptions';
import type { DbOrTx, Tx } from '../../db/client';
import { users } from '../../db/schema/auth';
import { files } from '../../db/schema/files';
import { physiqueResults } from '../../db/schema/physique';
import { physiqueExemptions } from '../../db/schema/physique-year';
import { classes, grades, schoolYears, students } from '../../db/schema/school';
import { testPlans } from '../../db/schema/test-plans';
import { AppError, fieldError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { classScopeOf, inClassScope, type ClassScope } from '../../lib/data-scope';
import { isoInstant } from '../../lib/iso';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';

/**
 * 免测/缓测 requests (docs/product-rules.md#physique-year, "Exemptions"). A requester sees and asks for the students of
 * the classes of their data scope; a decided request is final (approve or refuse with a note, guarded by `version`);
 * approving 免予执行 flags the student's results of that school year `exempt`, which every rate and average leaves out
 * (countsInAggregates and the rollup triggers), and the results written later are flagged by a trigger.
 */

const requester = aliasedTable(users, 'requester');
const decider = aliasedTable(users, 'decider');

const columns = {
  id: physiqueExemptions.id,
  studentId: physiqueExemptions.studentId,
  name: students.name,
  regNo: students.regNo,
  gender: students.gender,
  classId: students.classId,
  className: classes.name,
  gradeNo: grades.gradeNo,
  schoolYearId: physiqueExemptions.schoolYearId,
  academicYear: schoolYears.academicYear,
  kind: physiqueExemptions.kind,
  reason: physiqueExemptions.reason,
  certificateFileId: physiqueExemptions.certificateFileId,
  certificateName: files.name,
  status: physiqueExemptions.status,
  requestedVia: physiqueExemptions.requestedVia,
  requestedByName: requester.name,
  requestedAt: physiqueExemptions.requestedAt,
  decidedByName: decider.name,
  decidedAt: physiqueExemptions.decidedAt,
  decisionNote: physiqueExemptions.decisionNote,
  version: physiqueExemptions.version,
};

type Selected = { [K in keyof typeof columns]: (typeof columns)[K]['_']['data'] } & { certificateName: string | null; requestedByName: string | null; decidedByName: string | null };

const toRow = (r: Selected): ExemptionRow => ({
  ...r,
  requestedAt: isoInstant(r.requestedAt)!,
  decidedAt: isoInstant(r.decidedAt),
});

function selectRows(db: DbOrTx) {
  return db
    .select(columns)
    .from(physiqueExemptions)
    .innerJoin(students, eq(students.id, physiqueExemptions.studentId))
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .innerJoin(schoolYears, eq(schoolYears.id, physiqueExemptions.schoolYearId))
    .leftJoin(files, eq(files.id, physiqueExemptions.certificateFileId))
    .leftJoin(requester, eq(requester.id, physiqueExemptions.requestedBy))
    .leftJoin(decider, eq(decider.id, physiqueExemptions.decidedBy));
}

/** The tenant's requests within the actor's data scope (another school's or class's: not there). */
const visible = (actor: Actor, scope: ClassScope): SQL | undefined => and(eq(physiqueExemptions.orgId, actor.tenantOrgId), inClassScope(scope, students.classId));

function listWhere(actor: Actor, scope: ClassScope, q: Omit<ExemptionListQuery, 'current' | 'size'>): SQL | undefined {
  return and(
    visible(actor, scope),
    q.schoolYearId ? eq(physiqueExemptions.schoolYearId, q.schoolYearId) : undefined,
    q.status ? eq(physiqueExemptions.status, q.status) : undefined,
    q.kind ? eq(physiqueExemptions.kind, q.kind) : undefined,
    q.classId ? eq(students.classId, q.classId) : undefined,
    q.keyword ? or(ilike(students.name, containsPattern(q.keyword)), ilike(students.regNo, containsPattern(q.keyword))) : undefined,
  );
}

// Pending first (what an approver has to do), then the newest.
const ORDER = [sql`case ${physiqueExemptions.status} when 'pending' then 0 else 1 end`, desc(physiqueExemptions.requestedAt), asc(physiqueExemptions.id)];

export async function exemptionPage(db: DbOrTx, actor: Actor, q: ExemptionListQuery): Promise<Page<ExemptionRow>> {
  const scope = await classScopeOf(db, actor);
  const page = await paginate(db, selectRows(db).where(listWhere(actor, scope, q)).orderBy(...ORDER).$dynamic(), q);
  return { ...page, records: page.records.map((r) => toRow(r as Selected)) };
}

export async function exemptionRows(db: DbOrTx, actor: Actor, q: Omit<ExemptionListQuery, 'current' | 'size'>): Promise<ExemptionRow[]> {
  const scope = await classScopeOf(db, actor);
  const rows = await selectRows(db).where(listWhere(actor, scope, q)).orderBy(...ORDER).limit(EXPORT_MAX);
  return rows.map((r) => toRow(r as Selected));
}
const EXPORT_MAX = 20_000;

export async function exemptionById(db: DbOrTx, actor: Actor, id: string): Promise<ExemptionRow> {
  const scope = await classScopeOf(db, actor);
  const [row] = await selectRows(db).where(and(visible(actor, scope), eq(physiqueExemptions.id, id)));
  if (!row) throw notFound();
  return toRow(row as Selected);
}

/** The form's choices: the school's years (current first) and the classes of the requester's scope. */
export async function exemptionOptions(db: DbOrTx, actor: Actor): Promise<ExemptionOptions> {
  const scope = await classScopeOf(db, actor);
  const [years, cls] = await Promise.all([
    db
      .select({ id: schoolYears.id, academicYear: schoolYears.academicYear, current: schoolYears.current })
      .from(schoolYears)
      .where(eq(schoolYears.orgId, actor.tenantOrgId))
      .orderBy(desc(schoolYears.current), desc(schoolYears.startYear)),
    db
      .select({ id: classes.id, name: classes.name })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(classes.orgId, actor.tenantOrgId), eq(grades.graduated, false), inClassScope(scope, classes.id)))
      .orderBy(asc(grades.gradeNo), asc(classes.code)),
  ]);
  return { schoolYears: years, classes: cls };
}

const STUDENT_PICK_MAX = 20;
/** Students of the requester's classes by name or 学籍号 (the form's picker). */
export async function exemptionStudents(db: DbOrTx, actor: Actor, q: { keyword?: string }): Promise<ExemptionStudentOption[]> {
  const scope = await classScopeOf(db, actor);
  return db
    .select({ id: students.id, name: students.name, regNo: students.regNo, className: classes.name })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(
      and(
        eq(students.orgId, actor.tenantOrgId),
        eq(students.status, 'studying'),
        inClassScope(scope, students.classId),
        q.keyword ? or(ilike(students.name, containsPattern(q.keyword)), ilike(students.regNo, containsPattern(q.keyword))) : undefined,
      ),
    )
    .orderBy(asc(classes.code), asc(students.name))
    .limit(STUDENT_PICK_MAX);
}

/** A certificate must be the school's own stored image or PDF (by content); the app also needs it to be the caller's. */
async function checkCertificate(tx: DbOrTx, orgId: string, fileId: string | null | undefined, ownerUserId?: string): Promise<void> {
  if (!fileId) return;
  const [file] = await tx
    .select({ mime: files.mime, createdBy: files.createdBy, deletedAt: files.deletedAt })
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.orgId, orgId)));
  if (!file || file.deletedAt || (ownerUserId && file.createdBy !== ownerUserId)) throw fieldError('certificateFileId', 'exemptions:certificateMissing');
  if (!CERTIFICATE_MIMES.includes(file.mime)) throw fieldError('certificateFileId', 'exemptions:certificateType');
}

/** One open (pending) or approved request per student and school year; a refused one may be asked again. */
async function refuseDuplicate(tx: DbOrTx, studentId: string, schoolYearId: string): Promise<void> {
  const [open] = await tx
    .select({ id: physiqueExemptions.id })
    .from(physiqueExemptions)
    .where(and(eq(physiqueExemptions.studentId, studentId), eq(physiqueExemptions.schoolYearId, schoolYearId), ne(physiqueExemptions.status, 'refused')));
  if (open) throw fieldError('studentId', 'exemptions:duplicate', {}, 409);
}

interface NewRequest {
  orgId: string;
  studentId: string;
  schoolYearId: string;
  kind: ExemptionSave['kind'];
  reason: string;
  certificateFileId: string | null;
  requestedBy: string;
  requestedVia: 'console' | 'app';
  now: Date;
}

async function insertRequest(tx: Tx, r: NewRequest): Promise<string> {
  await refuseDuplicate(tx, r.studentId, r.schoolYearId);
  const [row] = await tx
    .insert(physiqueExemptions)
    .values({ ...r, requestedAt: r.now, status: 'pending' })
    .onConflictDoNothing() // a request of the same student and year committed meanwhile (the partial unique index)
    .returning({ id: physiqueExemptions.id });
  if (!row) throw fieldError('studentId', 'exemptions:duplicate', {}, 409);
  return row.id;
}

export async function createExemption(tx: Tx, actor: Actor, body: ExemptionSave, now: Date): Promise<ExemptionRow> {
  const scope = await classScopeOf(tx, actor);
  const [student] = await tx
    .select({ id: students.id })
    .from(students)
    .where(and(eq(students.id, body.studentId), eq(students.orgId, actor.tenantOrgId), inClassScope(scope, students.classId)));
  // Another school's student, or one outside the requester's classes: the same answer, naming nothing.
  if (!student) throw fieldError('studentId', 'exemptions:studentNotYours');
  const [year] = await tx.select({ id: schoolYears.id }).from(schoolYears).where(and(eq(schoolYears.id, body.schoolYearId), eq(schoolYears.orgId, actor.tenantOrgId)));
  if (!year) throw fieldError('schoolYearId', 'exemptions:schoolYearRequired');
  await checkCertificate(tx, actor.tenantOrgId, body.certificateFileId);
  const id = await insertRequest(tx, {
    orgId: actor.tenantOrgId,
    studentId: body.studentId,
    schoolYearId: body.schoolYearId,
    kind: body.kind,
    reason: body.reason,
    certificateFileId: body.certificateFileId ?? null,
    requestedBy: actor.userId,
    requestedVia: 'console',
    now,
  });
  return exemptionById(tx, actor, id);
}

/**
 * Approve or refuse (button audit). Only a pending request is decided, once: `version` makes a second approver's
 * stale decision a 409, and a decided request answers 409 too. Approving 免予执行 flags the year's results.
 */
export async function decideExemption(tx: Tx, actor: Actor, id: string, body: ExemptionDecide, now: Date): Promise<Change<ExemptionRow>> {
  const before = await exemptionById(tx, actor, id);
  await lockVersion(tx, physiqueExemptions, id, eq(physiqueExemptions.orgId, actor.tenantOrgId), body.version);
  if (before.status !== 'pending') throw new AppError(409, 'exemptions:alreadyDecided');
  await tx
    .update(physiqueExemptions)
    .set({ status: body.decision, decidedBy: actor.userId, decidedAt: now, decisionNote: body.note || null, version: nextVersion(physiqueExemptions.version) })
    .where(eq(physiqueExemptions.id, id));
  if (body.decision === 'approved' && before.kind === 'exempt') {
    // One statement: the rollup and count triggers move these results out of every rate and average.
    await tx
      .update(physiqueResults)
      .set({ exempt: true })
      .where(
        and(
          eq(physiqueResults.studentId, before.studentId),
          eq(physiqueResults.exempt, false),
          inArray(physiqueResults.planId, tx.select({ id: testPlans.id }).from(testPlans).where(eq(testPlans.schoolYearId, before.schoolYearId))),
        ),
      );
  }
  return { before, after: await exemptionById(tx, actor, id) };
}

/** Only a pending request may be deleted (a decided one is the school's record). */
export async function deleteExemption(tx: Tx, actor: Actor, id: string): Promise<ExemptionRow> {
  const before = await exemptionById(tx, actor, id);
  if (before.status !== 'pending') throw new AppError(409, 'exemptions:onlyPendingDeleted');
  await tx.delete(physiqueExemptions).where(eq(physiqueExemptions.id, id));
  return before;
}

// ── The app API: a parent's requests for their own children ─────────────────────────────────────────────────

const appColumns = {
  id: physiqueExemptions.id,
  studentId: physiqueExemptions.studentId,
  studentName: students.name,
  academicYear: schoolYears.academicYear,
  kind: physiqueExemptions.kind,
  reason: physiqueExemptions.reason,
  certificateFileId: physiqueExemptions.certificateFileId,
  status: physiqueExemptions.status,
  requestedVia: physiqueExemptions.requestedVia,
  requestedAt: physiqueExemptions.requestedAt,
  decidedAt: physiqueExemptions.decidedAt,
  decisionNote: physiqueExemptions.decisionNote,
};

/** The requests of the given children (the caller's own, checked by the route), newest first. */
export async function appExemptions(db: DbOrTx, studentIds: readonly string[]): Promise<AppExemptionRow[]> {
  if (!studentIds.length) return [];
  const rows = await db
    .select(appColumns)
    .from(physiqueExemptions)
    .innerJoin(students, eq(students.id, physiqueExemptions.studentId))
    .innerJoin(schoolYears, eq(schoolYears.id, physiqueExemptions.schoolYearId))
    .where(inArray(physiqueExemptions.studentId, [...studentIds]))
    .orderBy(desc(physiqueExemptions.requestedAt), asc(physiqueExemptions.id));
  return rows.map((r) => ({ ...r, requestedAt: isoInstant(r.requestedAt)!, decidedAt: isoInstant(r.decidedAt) }));
}

/**
 * A parent's request for one of their children (the route checked the child is theirs: 404 otherwise), for the
 * school's current school year; the certificate must be a file this parent uploaded for that school.
 */
export async function appCreateExemption(tx: Tx, identity: AppIdentity, body: AppExemptionSave, now: Date): Promise<AppExemptionRow> {
  const student = identity.students.find((s) => s.id === body.studentId);
  if (!student) throw notFound();
  const [year] = await tx.select({ id: schoolYears.id }).from(schoolYears).where(and(eq(schoolYears.orgId, student.orgId), eq(schoolYears.current, true)));
  if (!year) throw new AppError(400, 'exemptions:noCurrentYear');
  await checkCertificate(tx, student.orgId, body.certificateFileId, identity.userId);
  const id = await insertRequest(tx, {
    orgId: student.orgId,
    studentId: student.id,
    schoolYearId: year.id,
    kind: body.kind,
    reason: body.reason,
    certificateFileId: body.certificateFileId ?? null,
    requestedBy: identity.userId,
    requestedVia: 'app',
    now,
  });
  const [row] = (await appExemptions(tx, [student.id])).filter((r) => r.id === id);
  // An app account has no console membership: the log row names the user and the school, no account.
  await audit(tx, { userId: identity.userId, accountId: null as unknown as string, tenantOrgId: student.orgId }, { action: 'create', entity: 'physiqueExemption', entityId: id, entityName: student.name, after: row });
  return row;
}
