import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import {
  periodsDue,
  reachesTarget,
  type HomeworkClassCompletion,
  type HomeworkDetail,
  type HomeworkListQuery,
  type HomeworkRow,
  type HomeworkSave,
  type HomeworkStudentCompletion,
  type HomeworkSubmission,
  type ReviewState,
  type TaskCycle,
  type TaskItem,
  type VideoReview,
} from '@/domain/homework/homework';
import type { ActivityItemKey } from '@/domain/activities/items';
import { planStatus } from '@/domain/test-plans/status';
import { localDate } from '@/domain/dates';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { activityRecords } from '../../db/schema/activities';
import { homeworkClasses, homeworkItems, homeworkReviews, homeworks } from '../../db/schema/homework';
import { classes } from '../../db/schema/school';
import { AppError, fieldError } from '../../lib/app-error';
import { classScopeOf, WHOLE_ORG, type ClassScope } from '../../lib/data-scope';
import { containsPattern } from '../../lib/query';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import { inOrgSubtree } from '../../lib/tenancy';
import type { Actor } from '../../plugins/tenant';
import type { RefCheck } from '../activities/ref-checks';
import { classScopeSql, inIds, localDay, periodOfDay, periodsDueSql, reachesSql, statusSql } from './task-sql';
import { homeworkVideoMonths } from '../retention/schedule';
import { isoInstant } from '../../lib/iso';
import { datedOwnerYears, inDatedOwnerYearsSql, inRecordYears } from '../activities/owner-years';

/**
 * Sports homework (docs/product-rules.md#homework): a school publishes it to its classes; a management organisation
 * (admin family) reads its schools' homework. Teachers whose role is scoped to their classes see homework that reaches
 * one of their classes and only those classes' students and submissions.
 */

/** Who reads: the tenant alone (school) or the tenant and the organisations below it (a bureau). */
export interface HomeworkReader {
  actor: Actor;
  subtree: boolean;
}

/** How long a video is kept: the retention schedule's months (docs/product-rules.md#retention), a whole number. */
const keepSql = (months: number) => sql.raw(`interval '${Math.trunc(months)} month'`);

async function scopeOf(db: DbOrTx, reader: HomeworkReader): Promise<ClassScope> {
  return reader.subtree ? WHOLE_ORG : classScopeOf(db, reader.actor);
}

function orgCondition(reader: HomeworkReader): SQL {
  return reader.subtree ? inOrgSubtree(sql`h.org_id`, reader.actor.tenantOrgId) : sql`h.org_id = ${reader.actor.tenantOrgId}::uuid`;
}

/** The homework reaches a class of the scope. */
const reachesScope = (scope: ClassScope): SQL =>
  scope.all ? sql`true` : sql`exists (select 1 from homework_classes hc where hc.homework_id = h.id and ${classScopeSql(scope, sql`hc.class_id`)})`;

type RawRow = {
  id: string;
  orgId: string;
  schoolName: string;
  name: string;
  note: string;
  cycle: TaskCycle;
  startDate: string;
  endDate: string;
  endedAt: Date | string | null;
  createdAt: Date | string;
  version: number;
  createdByName: string | null;
  classCount: number;
  studentCount: number;
  pendingReviews: number;
  total?: number;
};


function rowSelect(today: string, now: Date, scope: ClassScope, keepMonths: number): SQL {
  return sql`select h.id, h.org_id as "orgId", o.name as "schoolName", h.name, h.note, h.cycle,
      h.start_date::text as "startDate", h.end_date::text as "endDate", h.ended_at as "endedAt", h.created_at as "createdAt",
      h.version, u.name as "createdByName",
      (select count(*)::int from homework_classes hc where hc.homework_id = h.id and ${classScopeSql(scope, sql`hc.class_id`)}) as "classCount",
      (select count(*)::int from homework_classes hc join students s on s.class_id = hc.class_id and s.status = 'studying'
        where hc.homework_id = h.id and ${classScopeSql(scope, sql`hc.class_id`)}) as "studentCount",
      (select count(*)::int from activity_records r join files f on f.id = r.video_file_id and f.deleted_at is null
        left join homework_reviews rv on rv.record_id = r.id
        where r.kind = 'homework' and r.ref_id = h.id and ${inDatedOwnerYearsSql(sql`r.school_year`, 'h')} and rv.verdict is null and f.created_at + ${keepSql(keepMonths)} > ${now.toISOString()}::timestamptz
          and ${classScopeSql(scope, sql`r.class_id`)}) as "pendingReviews",
      ${periodsDueSql(today)} as "periodsDue"
    from homeworks h join orgs o on o.id = h.org_id left join users u on u.id = h.created_by`;
}

function toRow(raw: RawRow, now: Date, doneCount: number): HomeworkRow {
  const endedAt = isoInstant(raw.endedAt);
  return {
    id: raw.id,
    orgId: raw.orgId,
    schoolName: raw.schoolName,
    name: raw.name,
    note: raw.note,
    cycle: raw.cycle,
    startDate: raw.startDate,
    endDate: raw.endDate,
    endedAt,
    status: planStatus({ startDate: raw.startDate, endDate: raw.endDate, endedAt }, now),
    classCount: raw.classCount,
    studentCount: raw.studentCount,
    doneCount,
    pendingReviews: raw.pendingReviews,
    createdByName: raw.createdByName,
    createdAt: isoInstant(raw.createdAt),
    version: raw.version,
  };
}

/**
 * Progress of every student of the homework(s) `ids` in the scope: valid submissions, periods done (every item of the
 * homework reached in that period) out of the periods due at `today`; today's period, while it runs, is due only once
 * the student has done it (nobody is behind at breakfast). Columns: hid, sid, name, student_no, class_id,
 * class_name, due, submissions, periods_done.
 */
function progressSql(ids: readonly string[], today: string, scope: ClassScope, where: SQL = sql`true`): SQL {
  const day = localDay(sql`r.measured_at`);
  // `open`: today's period is still running, so it is due only once the student has done it.
  return sql`with h as (
      select h.*, ${periodsDueSql(today)} as due, (select count(*)::int from homework_items i where i.homework_id = h.id) as n_items,
        (case when ${statusSql('inProgress', today)} then 1 else 0 end) as open
      from homeworks h where ${inIds(sql`h.id`, ids)}
    ), prog as (
      select h.id as hid, s.id as sid, s.name, coalesce(s.student_no, s.reg_no) as student_no, s.class_id, c.name as class_name,
        h.due - h.open + x.cur as due,
        (select count(*)::int from activity_records r
          where r.kind = 'homework' and r.ref_id = h.id and ${inDatedOwnerYearsSql(sql`r.school_year`, 'h')} and r.student_id = s.id and not r.invalid) as submissions,
        x.closed + x.cur as periods_done
      from h join homework_classes hc on hc.homework_id = h.id
        join students s on s.class_id = hc.class_id and s.status = 'studying'
        join classes c on c.id = s.class_id
        cross join lateral (
          select count(*) filter (where d.p < h.due - h.open)::int as closed, count(*) filter (where h.open = 1 and d.p = h.due - 1)::int as cur
          from (
            select ${periodOfDay(day)} as p from activity_records r
              join homework_items i on i.homework_id = h.id and i.item = r.item
            where r.kind = 'homework' and r.ref_id = h.id and ${inDatedOwnerYearsSql(sql`r.school_year`, 'h')} and r.student_id = s.id and not r.invalid
              and ${reachesSql(sql`i.target`)}
            group by 1 having count(distinct r.item) = h.n_items
          ) d
        ) x
      where ${classScopeSql(scope, sql`s.class_id`)} and ${where}
    )`;
}

/** Students done with every period due, per homework. */
async function doneCounts(db: DbOrTx, ids: readonly string[], today: string, scope: ClassScope): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.execute<{ hid: string; n: number }>(
    sql`${progressSql(ids, today, scope)} select hid, count(*) filter (where due > 0 and periods_done >= due)::int as n from prog group by hid`,
  );
  return new Map(rows.map((r) => [r.hid, r.n]));
}

/** Homework of the school (or of the bureau's schools), newest first. */
export async function homeworkPage(db: DbOrTx, reader: HomeworkReader, q: HomeworkListQuery, now: Date): Promise<Page<HomeworkRow>> {
  const today = localDate(now);
  const scope = await scopeOf(db, reader);
  const where = sql.join(
    [
      orgCondition(reader),
      reachesScope(scope),
      q.name ? sql`h.name ilike ${containsPattern(q.name)}` : undefined,
      q.status ? statusSql(q.status, today) : undefined,
      q.classId ? sql`exists (select 1 from homework_classes hc where hc.homework_id = h.id and hc.class_id = ${q.classId}::uuid)` : undefined,
      q.schoolId && reader.subtree ? sql`h.org_id = ${q.schoolId}::uuid` : undefined,
    ].filter((c): c is SQL => c !== undefined),
    sql` and `,
  );
  // Videos waiting for review are counted per row by the row's select, so that filter applies to its result.
  const shown = q.review === 'pending' ? sql`where "pendingReviews" > 0` : sql``;
  const months = await homeworkVideoMonths(db);
  const { rows } = await db.execute<RawRow>(
    sql`select *, count(*) over()::int as total from (${rowSelect(today, now, scope, months)} where ${where}) x ${shown}
      order by "startDate" desc, "createdAt" desc, id limit ${q.size} offset ${(q.current - 1) * q.size}`,
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && q.current > 1) {
    const { rows: counted } = await db.execute<{ n: number }>(
      q.review === 'pending' ? sql`select count(*)::int as n from (${rowSelect(today, now, scope, months)} where ${where}) x ${shown}` : sql`select count(*)::int as n from homeworks h where ${where}`,
    );
    total = counted[0].n;
  }
  const done = await doneCounts(
    db,
    rows.map((r) => r.id),
    today,
    scope,
  );
  return { records: rows.map((r) => toRow(r, now, done.get(r.id) ?? 0)), total, current: q.current, size: q.size };
}

/** One homework the reader may see (another organisation's, or one outside a teacher's classes, is 404). */
export async function homeworkById(db: DbOrTx, reader: HomeworkReader, id: string, now: Date): Promise<HomeworkDetail> {
  const today = localDate(now);
  const scope = await scopeOf(db, reader);
  const { rows } = await db.execute<RawRow>(sql`${rowSelect(today, now, scope, await homeworkVideoMonths(db))} where h.id = ${id}::uuid and ${orgCondition(reader)} and ${reachesScope(scope)}`);
  const raw = rows[0];
  if (!raw) throw notFound();
  const [classRows, itemRows, done] = await Promise.all([
    db
      .select({ id: classes.id, name: classes.name })
      .from(homeworkClasses)
      .innerJoin(classes, eq(classes.id, homeworkClasses.classId))
      .where(eq(homeworkClasses.homeworkId, id))
      .orderBy(classes.name),
    db.select().from(homeworkItems).where(eq(homeworkItems.homeworkId, id)).orderBy(homeworkItems.sort),
    doneCounts(db, [id], today, scope),
  ]);
  const row = toRow(raw, now, done.get(id) ?? 0);
  const visible = scope.all ? classRows : classRows.filter((c) => scope.classIds.includes(c.id));
  return {
    ...row,
    classIds: classRows.map((c) => c.id),
    classes: visible,
    items: itemRows.map((i) => ({ item: i.item as ActivityItemKey, target: i.target, intensity: i.intensity })),
    periodsDue: periodsDue({ ...row, endedAt: row.endedAt }, now),
    periodsTotal: periodsDue({ ...row, endedAt: null }, new Date(`${row.endDate}T12:00:00+08:00`)),
  };
}

/** The classes a homework is published to must be the school's own and, for a class-scoped teacher, their own. */
async function checkClasses(tx: Tx, actor: Actor, classIds: readonly string[]): Promise<void> {
  const found = await tx
    .select({ id: classes.id })
    .from(classes)
    .where(and(eq(classes.orgId, actor.tenantOrgId), sql`${classes.id} in (${sql.join(
      classIds.map((c) => sql`${c}::uuid`),
      sql`, `,
    )})`));
  if (found.length !== classIds.length) throw fieldError('classIds', 'activities:task.classUnknown');
  const scope = await classScopeOf(tx, actor);
  if (!scope.all && classIds.some((c) => !scope.classIds.includes(c))) throw fieldError('classIds', 'activities:task.classNotYours');
}

async function writeParts(tx: Tx, id: string, body: HomeworkSave): Promise<void> {
  await tx.delete(homeworkClasses).where(eq(homeworkClasses.homeworkId, id));
  await tx.delete(homeworkItems).where(eq(homeworkItems.homeworkId, id));
  await tx.insert(homeworkClasses).values(body.classIds.map((classId) => ({ homeworkId: id, classId })));
  await tx.insert(homeworkItems).values(body.items.map((i: TaskItem, sort) => ({ homeworkId: id, item: i.item, target: i.target, intensity: i.intensity, sort })));
}

const school = (actor: Actor): HomeworkReader => ({ actor, subtree: false });

/** Publishes a homework to classes. A homework cannot start before today. */
export async function createHomework(tx: Tx, actor: Actor, body: HomeworkSave, now: Date): Promise<HomeworkDetail> {
  if (body.startDate < localDate(now)) throw fieldError('startDate', 'activities:task.startInPast');
  await checkClasses(tx, actor, body.classIds);
  const [row] = await tx
    .insert(homeworks)
    .values({ orgId: actor.tenantOrgId, name: body.name, note: body.note ?? '', cycle: body.cycle, startDate: body.startDate, endDate: body.endDate, createdBy: actor.userId })
    .returning({ id: homeworks.id });
  await writeParts(tx, row.id, body);
  return homeworkById(tx, school(actor), row.id, now);
}

/** An ended homework (after its last day or ended early) cannot be edited (409). */
export async function updateHomework(tx: Tx, actor: Actor, id: string, body: HomeworkSave, now: Date): Promise<Change<HomeworkDetail>> {
  await lockVersion(tx, homeworks, id, eq(homeworks.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await homeworkById(tx, school(actor), id, now);
  if (before.status === 'ended') throw new AppError(409, 'homework:endedNotEditable');
  // A start already passed stays; a new one cannot be in the past.
  if (body.startDate !== before.startDate && body.startDate < localDate(now)) throw fieldError('startDate', 'activities:task.startInPast');
  await checkClasses(tx, actor, body.classIds);
  await tx
    .update(homeworks)
    .set({ name: body.name, note: body.note ?? '', cycle: body.cycle, startDate: body.startDate, endDate: body.endDate, version: nextVersion(homeworks.version) })
    .where(eq(homeworks.id, id));
  await writeParts(tx, id, body);
  return { before, after: await homeworkById(tx, school(actor), id, now) };
}

/** Ends a homework at once (docs/product-rules.md#plan-states): submissions after it are refused. */
export async function endHomework(tx: Tx, actor: Actor, id: string, now: Date): Promise<Change<HomeworkDetail>> {
  const before = await homeworkById(tx, school(actor), id, now);
  if (before.status === 'ended') throw new AppError(409, 'homework:alreadyEnded');
  await tx
    .update(homeworks)
    .set({ endedAt: now, version: nextVersion(homeworks.version) })
    .where(eq(homeworks.id, id));
  return { before, after: await homeworkById(tx, school(actor), id, now) };
}

/** Deletes a homework with its submissions and their reviews; their videos go to the file store's deletion. */
export async function deleteHomework(tx: Tx, actor: Actor, id: string, now: Date): Promise<HomeworkDetail> {
  const before = await homeworkById(tx, school(actor), id, now);
  const years = inRecordYears(activityRecords.schoolYear, datedOwnerYears(before));
  await tx.execute(sql`update files set deleted_at = ${now.toISOString()}::timestamptz
    where deleted_at is null and id in (select video_file_id from activity_records where kind = 'homework' and ref_id = ${id}::uuid and ${years})`);
  await tx.delete(activityRecords).where(and(eq(activityRecords.kind, 'homework'), eq(activityRecords.refId, id), years));
  await tx.delete(homeworks).where(eq(homeworks.id, id));
  return before;
}

/** Completion per class of the homework (students in the reader's scope). */
export async function classCompletion(db: DbOrTx, reader: HomeworkReader, id: string, now: Date): Promise<HomeworkClassCompletion[]> {
  await homeworkById(db, reader, id, now);
  const scope = await scopeOf(db, reader);
  const { rows } = await db.execute<HomeworkClassCompletion & Record<string, unknown>>(sql`${progressSql([id], localDate(now), scope)}
    select hc.class_id as "classId", c.name as "className",
      count(p.sid)::int as students,
      count(p.sid) filter (where p.submissions > 0)::int as submitted,
      count(p.sid) filter (where p.due > 0 and p.periods_done >= p.due)::int as done,
      coalesce(avg(case when p.due > 0 then least(p.periods_done, p.due)::float8 / p.due else 0 end), 0)::float8 as rate
    from homework_classes hc join classes c on c.id = hc.class_id
      left join prog p on p.class_id = hc.class_id
    where hc.homework_id = ${id}::uuid and ${classScopeSql(scope, sql`hc.class_id`)}
    group by hc.class_id, c.name order by c.name`);
  return rows;
}

export interface StudentCompletionQuery {
  current: number;
  size: number;
  classId?: string;
  name?: string;
  done?: 'yes' | 'no';
}

/** Completion per student, paged (class, then student number). */
export async function studentCompletion(db: DbOrTx, reader: HomeworkReader, id: string, q: StudentCompletionQuery, now: Date): Promise<Page<HomeworkStudentCompletion>> {
  await homeworkById(db, reader, id, now);
  const scope = await scopeOf(db, reader);
  const filters = sql.join(
    [
      sql`true`,
      q.classId ? sql`s.class_id = ${q.classId}::uuid` : undefined,
      q.name ? sql`(s.name ilike ${containsPattern(q.name)} or s.student_no ilike ${containsPattern(q.name)})` : undefined,
    ].filter((c): c is SQL => c !== undefined),
    sql` and `,
  );
  const doneCond = q.done === 'yes' ? sql`due > 0 and periods_done >= due` : q.done === 'no' ? sql`not (due > 0 and periods_done >= due)` : sql`true`;
  const { rows } = await db.execute<HomeworkStudentCompletion & { total: number } & Record<string, unknown>>(sql`${progressSql([id], localDate(now), scope, filters)}
    select sid as "studentId", name as "studentName", student_no as "studentNo", class_id as "classId", class_name as "className",
      submissions, least(periods_done, due) as "periodsDone", due as "periodsDue", (due > 0 and periods_done >= due) as done,
      count(*) over()::int as total
    from prog where ${doneCond} order by class_name, student_no, name limit ${q.size} offset ${(q.current - 1) * q.size}`);
  return { records: rows.map(({ total: _total, ...r }) => r), total: rows[0]?.total ?? 0, current: q.current, size: q.size };
}

export interface SubmissionQuery {
  current: number;
  size: number;
  classId?: string;
  studentId?: string;
  name?: string;
  review?: 'pending' | 'valid' | 'invalid' | 'none';
}

const reviewSql = (now: Date, keepMonths: number) => sql`(case when rv.verdict is not null then rv.verdict
    when rv.video_expired_at is not null then 'expired'
    when r.video_file_id is null then 'none'
    when f.id is null or f.created_at + ${keepSql(keepMonths)} <= ${now.toISOString()}::timestamptz then 'expired'
    else 'pending' end)`;

/** Every submission of the homework with its value, target, video and review, newest first. */
export async function submissionPage(db: DbOrTx, reader: HomeworkReader, id: string, q: SubmissionQuery, now: Date): Promise<Page<HomeworkSubmission>> {
  const homework = await homeworkById(db, reader, id, now);
  const keepMonths = await homeworkVideoMonths(db);
  const scope = await scopeOf(db, reader);
  const where = sql.join(
    [
      sql`r.kind = 'homework' and r.ref_id = ${id}::uuid and ${inRecordYears(sql`r.school_year`, datedOwnerYears(homework))}`,
      classScopeSql(scope, sql`r.class_id`),
      q.classId ? sql`r.class_id = ${q.classId}::uuid` : undefined,
      q.studentId ? sql`r.student_id = ${q.studentId}::uuid` : undefined,
      q.name ? sql`(s.name ilike ${containsPattern(q.name)} or s.student_no ilike ${containsPattern(q.name)})` : undefined,
      q.review ? sql`${reviewSql(now, keepMonths)} = ${q.review}` : undefined,
    ].filter((c): c is SQL => c !== undefined),
    sql` and `,
  );
  const { rows } = await db.execute<
    Omit<HomeworkSubmission, 'measuredAt' | 'reviewedAt' | 'videoUntil' | 'reached'> & {
      measuredAt: Date | string;
      reviewedAt: Date | string | null;
      videoUntil: Date | string | null;
      target: number;
      total: number;
    }
  >(sql`select r.id, r.student_id as "studentId", s.name as "studentName", c.name as "className", r.item, r.value, i.target,
      r.measured_at as "measuredAt", r.source, case when f.deleted_at is null then r.video_file_id end as "videoFileId",
      ${reviewSql(now, keepMonths)} as review, rv.reason as "reviewReason", rv.reviewed_at as "reviewedAt",
      case when f.id is not null and f.deleted_at is null then f.created_at + ${keepSql(keepMonths)} end as "videoUntil", r.invalid,
      count(*) over()::int as total
    from activity_records r join students s on s.id = r.student_id join classes c on c.id = r.class_id
      join homework_items i on i.homework_id = r.ref_id and i.item = r.item
      left join files f on f.id = r.video_file_id
      left join homework_reviews rv on rv.record_id = r.id
    where ${where}
    order by r.measured_at desc, r.id limit ${q.size} offset ${(q.current - 1) * q.size}`);
  return {
    records: rows.map(({ total: _total, ...r }) => ({
      ...r,
      item: r.item,
      review: r.review as ReviewState,
      reached: !r.invalid && reachesTarget(r.item, r.value, r.target),
      measuredAt: isoInstant(r.measuredAt),
      reviewedAt: isoInstant(r.reviewedAt),
      videoUntil: isoInstant(r.videoUntil),
    })),
    total: rows[0]?.total ?? 0,
    current: q.current,
    size: q.size,
  };
}

/**
 * A teacher's verdict on a submission's video (docs/product-rules.md#homework): valid, or invalid with a reason, which
 * makes the record invalid (it counts in no completion). Only while the video is kept: afterwards 409.
 */
export async function reviewSubmission(tx: Tx, actor: Actor, recordId: string, body: VideoReview, now: Date): Promise<{ before: unknown; after: { recordId: string; verdict: string; reason: string | null } }> {
  const scope = await classScopeOf(tx, actor);
  const { rows } = await tx.execute<{ id: string; schoolYear: number; homeworkId: string; fileId: string | null; fileAt: Date | string | null; verdict: string | null; reason: string | null }>(sql`
    select r.id, r.school_year as "schoolYear", r.ref_id as "homeworkId", f.id as "fileId", f.created_at as "fileAt", rv.verdict, rv.reason
    from activity_records r join homeworks h on h.id = r.ref_id
      left join files f on f.id = r.video_file_id and f.deleted_at is null
      left join homework_reviews rv on rv.record_id = r.id
    where r.id = ${recordId}::uuid and r.kind = 'homework' and h.org_id = ${actor.tenantOrgId}::uuid and ${classScopeSql(scope, sql`r.class_id`)}
    for update of r`);
  const rec = rows[0];
  if (!rec) throw notFound();
  if (!rec.fileId || !rec.fileAt) throw new AppError(409, 'homework:noVideo');
  const until = new Date(rec.fileAt);
  until.setMonth(until.getMonth() + (await homeworkVideoMonths(tx)));
  if (until <= now) throw new AppError(409, 'homework:reviewExpired');
  const reason = body.verdict === 'invalid' ? body.reason : null;
  await tx
    .insert(homeworkReviews)
    .values({ recordId, schoolYear: rec.schoolYear, homeworkId: rec.homeworkId, verdict: body.verdict, reason, reviewedBy: actor.userId, reviewedAt: now })
    .onConflictDoUpdate({ target: homeworkReviews.recordId, set: { verdict: body.verdict, reason, reviewedBy: actor.userId, reviewedAt: now } });
  const invalid = body.verdict === 'invalid';
  await tx
    .update(activityRecords)
    .set({ invalid, invalidReason: reason, invalidAt: invalid ? now : null, invalidBy: invalid ? actor.userId : null })
    .where(and(eq(activityRecords.id, recordId), eq(activityRecords.schoolYear, rec.schoolYear)));
  return { before: { verdict: rec.verdict, reason: rec.reason }, after: { recordId, verdict: body.verdict, reason } };
}

/**
 * The video expiry job (docs/product-rules.md#homework): a submission's video is deleted one month after its upload (the
 * file row is marked deleted at once, so nobody can play it; the file store's sweep removes the bytes), the record
 * forgets it and its review right ends. Returns how many videos went.
 */
export async function expireHomeworkVideos(db: Db, now: Date, keepMonths?: number): Promise<number> {
  const months = keepMonths ?? (await homeworkVideoMonths(db));
  const at = sql`${now.toISOString()}::timestamptz`;
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: string; schoolYear: number; refId: string; fileId: string }>(sql`
      select r.id, r.school_year as "schoolYear", r.ref_id as "refId", r.video_file_id as "fileId" from activity_records r
        join files f on f.id = r.video_file_id
        join homeworks h on h.id = r.ref_id
      where r.kind = 'homework' and f.created_at + ${keepSql(months)} <= ${at}
      for update of r`);
    if (rows.length === 0) return 0;
    await tx.execute(sql`update files set deleted_at = ${at} where deleted_at is null and ${inIds(
      sql`id`,
      rows.map((r) => r.fileId),
    )}`);
    await tx
      .insert(homeworkReviews)
      .values(rows.map((r) => ({ recordId: r.id, schoolYear: r.schoolYear, homeworkId: r.refId, videoExpiredAt: now })))
      .onConflictDoUpdate({ target: homeworkReviews.recordId, set: { videoExpiredAt: now } });
    // Each record by its whole key, so only its year's partition is touched.
    await tx.execute(sql`update activity_records set video_file_id = null where (id, school_year) in (${sql.join(
      rows.map((r) => sql`(${r.id}::uuid, ${sql.raw(String(Number(r.schoolYear)))})`),
      sql`, `,
    )})`);
    return rows.length;
  });
}

/** Classes a homework can be published to: the school's classes in the actor's scope, by grade. */
export async function homeworkOptions(db: DbOrTx, actor: Actor) {
  const scope = await classScopeOf(db, actor);
  const { rows } = await db.execute<{ id: string; name: string; gradeNo: number }>(sql`
    select c.id, c.name, g.grade_no as "gradeNo" from classes c join grades g on g.id = c.grade_id
    where c.org_id = ${actor.tenantOrgId}::uuid and c.enabled and not g.graduated and ${classScopeSql(scope, sql`c.id`)}
    order by g.grade_no, c.code`);
  return { classes: rows };
}

/**
 * The 'homework' ref check of the ingestion path (docs/product-rules.md#activities): a submission is accepted only for a
 * homework of the student's organisation that was published to the student's class, for one of its items, measured
 * within its period and before an early end.
 */
export const homeworkRefCheck: RefCheck = async (db, record, cache) => {
  if (!record.refId) return { key: 'homework:refused.unknown' };
  const cacheKey = `homework:${record.refId}`;
  let hw = cache.get(cacheKey) as
    | { orgId: string; startDate: string; endDate: string; endedAt: Date | null; classIds: Set<string>; items: Set<string> }
    | null
    | undefined;
  if (hw === undefined) {
    const [row] = await db.select().from(homeworks).where(eq(homeworks.id, record.refId)).limit(1);
    if (row) {
      const [cls, its] = await Promise.all([
        db.select({ id: homeworkClasses.classId }).from(homeworkClasses).where(eq(homeworkClasses.homeworkId, row.id)),
        db.select({ item: homeworkItems.item }).from(homeworkItems).where(eq(homeworkItems.homeworkId, row.id)),
      ]);
      hw = { orgId: row.orgId, startDate: row.startDate, endDate: row.endDate, endedAt: row.endedAt, classIds: new Set(cls.map((c) => c.id)), items: new Set(its.map((i) => i.item)) };
    } else hw = null;
    cache.set(cacheKey, hw);
  }
  if (!hw || hw.orgId !== record.orgId) return { key: 'homework:refused.unknown' };
  if (!hw.classIds.has(record.classId)) return { key: 'homework:refused.notAssigned' };
  if (!hw.items.has(record.item)) return { key: 'homework:refused.item' };
  const day = localDate(record.measuredAt);
  if (day < hw.startDate) return { key: 'homework:refused.notStarted' };
  if (hw.endedAt && record.measuredAt >= hw.endedAt) return { key: 'homework:refused.ended' };
  if (day > hw.endDate) return { key: 'homework:refused.ended' };
  return null;
};
