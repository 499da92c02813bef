import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AppIdentity } from '@/domain/activities/ingest';
import type { Page } from '@/domain/api';
import { dataRequestDue, type DataRequestHandle, type DataRequestListQuery, type DataRequestRow, type DataRequestSave } from '@/domain/retention/retention';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { users } from '../../db/schema/auth';
import { dataRequests } from '../../db/schema/retention';
import { classes, students } from '../../db/schema/school';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { containsPattern } from '../../lib/query';
import { paginate } from '../../lib/paginate';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';

/**
 * Parents' data requests (docs/product-rules.md#retention, "Data requests"): a parent reads and downloads their child's
 * data and asks for a correction or deletion through the app API; the child's school handles the request in its queue
 * (system/dataRequest) before the deadline: done with a note, or refused with a reason.
 */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const selectRows = (db: DbOrTx, now: Date) =>
  db
    .select({
      id: dataRequests.id,
      orgId: dataRequests.orgId,
      studentId: dataRequests.studentId,
      studentName: students.name,
      className: classes.name,
      parentName: users.name,
      kind: dataRequests.kind,
      text: dataRequests.text,
      status: dataRequests.status,
      createdAt: dataRequests.createdAt,
      dueAt: dataRequests.dueAt,
      overdue: sql<boolean>`(${dataRequests.status} = 'pending' and ${dataRequests.dueAt} < ${now.toISOString()}::timestamptz)`,
      handledAt: dataRequests.handledAt,
      note: dataRequests.note,
      version: dataRequests.version,
    })
    .from(dataRequests)
    .innerJoin(students, eq(students.id, dataRequests.studentId))
    .leftJoin(classes, eq(classes.id, students.classId))
    .leftJoin(users, eq(users.id, dataRequests.requestedBy));

type Selected = Awaited<ReturnType<typeof selectRows>>[number];
const toRow = (r: Selected): DataRequestRow => ({
  id: r.id,
  studentId: r.studentId,
  studentName: r.studentName,
  className: r.className,
  parentName: r.parentName,
  kind: r.kind,
  text: r.text,
  status: r.status,
  createdAt: iso(r.createdAt)!,
  dueAt: iso(r.dueAt)!,
  overdue: Boolean(r.overdue),
  handledAt: iso(r.handledAt),
  note: r.note,
  version: r.version,
});

// Overdue first, then the nearest deadline; handled ones after, newest first.
const ORDER = [sql`(${dataRequests.status} = 'pending') desc`, sql`case when ${dataRequests.status} = 'pending' then ${dataRequests.dueAt} end asc`, desc(dataRequests.createdAt)];

/** The school's queue: its own requests only. */
export async function dataRequestPage(db: DbOrTx, actor: Actor, q: DataRequestListQuery, now: Date): Promise<Page<DataRequestRow>> {
  const where: SQL[] = [eq(dataRequests.orgId, actor.tenantOrgId)];
  if (q.status) where.push(eq(dataRequests.status, q.status));
  if (q.keyword) where.push(or(ilike(students.name, containsPattern(q.keyword)), ilike(dataRequests.text, containsPattern(q.keyword)))!);
  const page = await paginate(db, selectRows(db, now).where(and(...where)).orderBy(...ORDER).$dynamic(), q);
  return { ...page, records: page.records.map((r) => toRow(r as Selected)) };
}

export async function dataRequestById(db: DbOrTx, actor: Actor, id: string, now: Date): Promise<DataRequestRow> {
  const [row] = await selectRows(db, now).where(and(eq(dataRequests.orgId, actor.tenantOrgId), eq(dataRequests.id, id)));
  if (!row) throw notFound();
  return toRow(row);
}

/** Marks a pending request done (with a note) or refused (with a reason); a handled one is not handled again. */
export async function handleDataRequest(tx: Tx, actor: Actor, id: string, body: DataRequestHandle, now: Date): Promise<Change<DataRequestRow>> {
  const before = await dataRequestById(tx, actor, id, now);
  await lockVersion(tx, dataRequests, id, eq(dataRequests.orgId, actor.tenantOrgId), body.version);
  if (before.status !== 'pending') throw new AppError(409, 'retention:errors.alreadyHandled');
  await tx
    .update(dataRequests)
    .set({ status: body.status, note: body.note, handledBy: actor.userId, handledAt: now, version: nextVersion(dataRequests.version) })
    .where(eq(dataRequests.id, id));
  return { before, after: await dataRequestById(tx, actor, id, now) };
}

// ---------------------------------------------------------------------------------------------------------------------
// The child's data

/** Everything the product holds about a student that a parent may ask for (个人信息保护法 第四十五条). */
export async function childData(db: DbOrTx, studentId: string) {
  const { rows: student } = await db.execute<Record<string, unknown>>(sql`
    select s.name, s.reg_no as "regNo", s.student_no as "studentNo", s.gender, s.birth_date::text as "birthDate", s.ethnicity, s.address,
      s.status, c.name as "className", o.name as "schoolName", (s.photo_file_id is not null) as "hasPhoto"
      from students s join classes c on c.id = s.class_id join orgs o on o.id = s.org_id where s.id = ${studentId}::uuid`);
  if (!student[0]) throw notFound();
  const [parents, results, activities, requests] = await Promise.all([
    db.execute(sql`select p.name, p.mobile, ps.relation from parent_students ps join parents p on p.id = ps.parent_id where ps.student_id = ${studentId}::uuid order by p.name`),
    db.execute(sql`
      select t.name as "plan", r.tested_on::text as "testedOn", r.class_name as "className", r.grade_no as "gradeNo", r.height_cm as "heightCm",
        r.weight_kg as "weightKg", r.bmi, r.vital_capacity as "vitalCapacity", r.run_50m as "run50m", r.sit_and_reach as "sitAndReach",
        r.total, r.level, r.invalid, r.exempt
        from physique_results r join test_plans t on t.id = r.plan_id where r.student_id = ${studentId}::uuid order by r.tested_on desc nulls last`),
    db.execute(sql`
      select kind, item, value, duration_s as "durationS", measured_at as "measuredAt", source, invalid
        from activity_records where student_id = ${studentId}::uuid order by measured_at desc limit 5000`),
    db.execute(sql`select kind, text, status, created_at as "createdAt", note from data_requests where student_id = ${studentId}::uuid order by created_at desc`),
  ]);
  return { student: student[0], parents: parents.rows, physiqueResults: results.rows, activities: activities.rows, dataRequests: requests.rows };
}

/** The child's data as a JSON file (UTF-8, indented: a parent can read it in any text viewer). */
export async function childDataFile(db: DbOrTx, studentId: string, now: Date) {
  const data = await childData(db, studentId);
  const body = Buffer.from(JSON.stringify({ exportedAt: now.toISOString(), ...data }, null, 2), 'utf8');
  return { body, fileName: `${String(data.student.name)}-${now.toISOString().slice(0, 10)}.json`, contentType: 'application/json; charset=utf-8' };
}

/** The school downloads the data of a request's child (button download), audited. */
export async function schoolChildDataFile(db: Db, actor: Actor, id: string, now: Date) {
  const request = await dataRequestById(db, actor, id, now);
  const file = await childDataFile(db, request.studentId, now);
  await audit(db, actor, { action: 'download', entity: 'dataRequest', entityId: id, entityName: request.studentName, after: { studentId: request.studentId } });
  return file;
}

// ---------------------------------------------------------------------------------------------------------------------
// App side

/** The children the caller is a parent of: only a parent asks (a student's own account reads, but does not ask). */
export function parentChild(identity: AppIdentity, studentId: string) {
  const child = identity.students.find((s) => s.id === studentId && s.relation !== null);
  if (!child) throw notFound();
  return child;
}

/** A parent's request for one of their children; the school's deadline runs from now. */
export async function appCreateDataRequest(tx: Tx, identity: AppIdentity, body: DataRequestSave, now: Date): Promise<DataRequestRow> {
  const child = parentChild(identity, body.studentId);
  const [row] = await tx
    .insert(dataRequests)
    .values({ orgId: child.orgId, studentId: child.id, requestedBy: identity.userId, kind: body.kind, text: body.text, createdAt: now, dueAt: dataRequestDue(now) })
    .returning({ id: dataRequests.id });
  const [saved] = await selectRows(tx, now).where(eq(dataRequests.id, row.id));
  const out = toRow(saved);
  // An app account has no console membership: the log row names the user and the school, no account.
  await audit(tx, { userId: identity.userId, accountId: null as unknown as string, tenantOrgId: child.orgId }, { action: 'create', entity: 'dataRequest', entityId: row.id, entityName: child.name, after: out });
  return out;
}

/** The requests about the caller's children (or, for a student, about themselves), newest first. */
export async function appDataRequests(db: DbOrTx, studentIds: readonly string[], now: Date): Promise<DataRequestRow[]> {
  if (studentIds.length === 0) return [];
  const rows = await selectRows(db, now)
    .where(sql`${dataRequests.studentId} = any(${sql.param([...studentIds])}::uuid[])`)
    .orderBy(desc(dataRequests.createdAt));
  return rows.map(toRow);
}

/** A parent downloads their child's data (audited: who read which child's data, when). */
export async function appChildDataFile(db: Db, identity: AppIdentity, studentId: string, now: Date) {
  const child = identity.students.find((s) => s.id === studentId);
  if (!child) throw notFound();
  const file = await childDataFile(db, child.id, now);
  await audit(db, { userId: identity.userId, accountId: null as unknown as string, tenantOrgId: child.orgId }, { action: 'download', entity: 'dataRequest', entityId: child.id, entityName: child.name, after: { studentId: child.id } });
  return file;
}
