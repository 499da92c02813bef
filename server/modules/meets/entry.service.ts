import { and, asc, eq, ilike, inArray, ne, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { nextBib, type EntryReview, type EntryRow, type EntrySave, type EntryStatus } from '@/domain/meets/entries';
import { meetStatus } from '@/domain/meets/meets';
import type { DbOrTx, Tx } from '../../db/client';
import { meetAthletes, meetEntries, meetEvents, meetGroups, meetHeats } from '../../db/schema/meets';
import { classes, students } from '../../db/schema/school';
import { AppError, fieldError } from '../../lib/app-error';
import { classScopeOf, inClassScope } from '../../lib/data-scope';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { notFound } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { tenantMeet } from './meet.service';

/** Registration (docs/product-rules.md#meets): entries, their review and the athletes' bibs. */

export interface EntryQuery {
  current: number;
  size: number;
  eventId?: string;
  classId?: string;
  name?: string;
  status?: EntryStatus;
}

const entryColumns = {
  id: meetEntries.id,
  eventId: meetEntries.eventId,
  eventName: meetEvents.name,
  groupName: meetGroups.name,
  studentId: students.id,
  studentName: students.name,
  gender: students.gender,
  classId: meetEntries.classId,
  className: classes.name,
  bib: meetAthletes.bib,
  status: meetEntries.status,
  reason: meetEntries.reason,
  seedMark: meetEntries.seedMark,
  version: meetEntries.version,
};

/** Entries of a meet within the actor's classes. */
export async function entryPage(db: DbOrTx, actor: Actor, meetId: string, q: EntryQuery): Promise<Page<EntryRow>> {
  await tenantMeet(db, actor, meetId);
  const scope = await classScopeOf(db, actor);
  const where = and(
    eq(meetEntries.meetId, meetId),
    inClassScope(scope, meetEntries.classId),
    q.eventId ? eq(meetEntries.eventId, q.eventId) : undefined,
    q.classId ? eq(meetEntries.classId, q.classId) : undefined,
    q.status ? eq(meetEntries.status, q.status) : undefined,
    q.name ? ilike(students.name, containsPattern(q.name)) : undefined,
  );
  const query = db
    .select(entryColumns)
    .from(meetEntries)
    .innerJoin(meetAthletes, eq(meetAthletes.id, meetEntries.athleteId))
    .innerJoin(students, eq(students.id, meetAthletes.studentId))
    .innerJoin(classes, eq(classes.id, meetEntries.classId))
    .innerJoin(meetEvents, eq(meetEvents.id, meetEntries.eventId))
    .innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId))
    .where(where)
    .orderBy(asc(meetGroups.sort), asc(meetEvents.sort), asc(classes.name), asc(meetAthletes.bib), asc(meetEntries.id))
    .$dynamic();
  return paginate(db, query, q);
}

/** Enters one athlete for events: the window, the group, the caps; allocates the bib on the first entry. */
export async function addEntries(tx: Tx, actor: Actor, meetId: string, body: EntrySave, now: Date): Promise<{ id: string; ids: string[]; bib: string }> {
  const meet = await tenantMeet(tx, actor, meetId);
  if (meetStatus({ ...meet, endedAt: meet.endedAt?.toISOString() }, now.toISOString().slice(0, 10)) !== 'signUp') throw new AppError(409, 'meets:v.signupClosed');
  const scope = await classScopeOf(tx, actor);
  const [student] = await tx
    .select({ id: students.id, gender: students.gender, classId: students.classId, gradeId: classes.gradeId, status: students.status })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(and(eq(students.id, body.studentId), eq(students.orgId, actor.tenantOrgId), inClassScope(scope, students.classId)));
  if (!student) throw notFound();
  if (student.status !== 'studying') throw fieldError('studentId', 'meets:v.notStudying');

  const events = await tx
    .select({ e: meetEvents, g: meetGroups })
    .from(meetEvents)
    .innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId))
    .where(and(eq(meetEvents.meetId, meetId), inArray(meetEvents.id, body.eventIds)));
  if (events.length !== body.eventIds.length) throw notFound();
  for (const { g } of events) {
    const fits = (g.gender === 'mixed' || g.gender === student.gender) && (g.gradeIds.length === 0 || g.gradeIds.includes(student.gradeId));
    if (!fits) throw fieldError('eventIds', 'meets:v.wrongGroup', { group: g.name });
  }

  let [athlete] = await tx.select().from(meetAthletes).where(and(eq(meetAthletes.meetId, meetId), eq(meetAthletes.studentId, student.id))).for('update');
  const groupId = athlete?.groupId ?? events[0].g.id;
  if (events.some(({ g }) => g.id !== groupId)) throw fieldError('eventIds', 'meets:v.oneGroup');
  if (!athlete) {
    // Serialise bib allocation within the meet (the row lock on the meet).
    await tx.execute(sql`select 1 from meets where id = ${meetId} for update`);
    const used = new Set((await tx.select({ bib: meetAthletes.bib }).from(meetAthletes).where(eq(meetAthletes.meetId, meetId))).map((r) => r.bib));
    const group = events[0].g;
    [athlete] = await tx
      .insert(meetAthletes)
      .values({ meetId, studentId: student.id, classId: student.classId, gradeId: student.gradeId, groupId, bib: nextBib(group.bibStart, used) })
      .returning();
  }
  const current = await tx
    .select({ eventId: meetEntries.eventId })
    .from(meetEntries)
    .where(and(eq(meetEntries.athleteId, athlete.id), ne(meetEntries.status, 'rejected')));
  // 请勿重复选择项目
  if (current.some((c) => body.eventIds.includes(c.eventId))) throw fieldError('eventIds', 'meets:v.sameEventTwice');
  if (current.length + body.eventIds.length > meet.athleteCap) throw fieldError('eventIds', 'meets:v.athleteCap', { cap: meet.athleteCap });
  const ids: string[] = [];
  for (const { e } of events) {
    if ((await tx.$count(meetHeats, eq(meetHeats.eventId, e.id))) > 0) throw new AppError(409, 'meets:v.arranged', { event: e.name });
    await tx.execute(sql`select 1 from meet_events where id = ${e.id} for update`);
    const classCount = await tx.$count(meetEntries, and(eq(meetEntries.eventId, e.id), eq(meetEntries.classId, student.classId), ne(meetEntries.status, 'rejected')));
    if (classCount >= e.classCap) throw fieldError('eventIds', 'meets:v.classCap', { event: e.name, cap: e.classCap });
    // A rejected entry may be entered again: it goes back to review.
    const [row] = await tx
      .insert(meetEntries)
      .values({ meetId, eventId: e.id, athleteId: athlete.id, classId: student.classId, seedMark: body.seedMark ?? null, createdBy: actor.userId })
      .onConflictDoUpdate({ target: [meetEntries.eventId, meetEntries.athleteId], set: { status: 'pending', reason: null, seedMark: body.seedMark ?? null, version: sql`${meetEntries.version} + 1` } })
      .returning({ id: meetEntries.id });
    ids.push(row.id);
  }
  return { id: athlete.id, ids, bib: athlete.bib };
}

/** Withdraws an entry before the event is arranged. */
export async function removeEntry(tx: Tx, actor: Actor, meetId: string, entryId: string) {
  await tenantMeet(tx, actor, meetId);
  const scope = await classScopeOf(tx, actor);
  const [entry] = await tx.select().from(meetEntries).where(and(eq(meetEntries.id, entryId), eq(meetEntries.meetId, meetId), inClassScope(scope, meetEntries.classId)));
  if (!entry) throw notFound();
  if ((await tx.$count(meetHeats, eq(meetHeats.eventId, entry.eventId))) > 0) throw new AppError(409, 'meets:v.arranged', { event: '' });
  await tx.delete(meetEntries).where(eq(meetEntries.id, entryId));
  // An athlete left without entries gives the bib back.
  if ((await tx.$count(meetEntries, eq(meetEntries.athleteId, entry.athleteId))) === 0) await tx.delete(meetAthletes).where(eq(meetAthletes.id, entry.athleteId));
  return entry;
}

/** Approves or rejects entries (single or batch); approval re-checks nothing the entry did not already pass. */
export async function reviewEntries(tx: Tx, actor: Actor, meetId: string, body: EntryReview) {
  await tenantMeet(tx, actor, meetId);
  const rows = await tx.select({ id: meetEntries.id, eventId: meetEntries.eventId, status: meetEntries.status }).from(meetEntries).where(and(eq(meetEntries.meetId, meetId), inArray(meetEntries.id, body.ids)));
  if (rows.length !== new Set(body.ids).size) throw notFound();
  const arranged = await tx.select({ id: meetHeats.eventId }).from(meetHeats).where(inArray(meetHeats.eventId, [...new Set(rows.map((r) => r.eventId))])).limit(1);
  if (arranged.length) throw new AppError(409, 'meets:v.arranged', { event: '' });
  await tx
    .update(meetEntries)
    .set({ status: body.status, reason: body.status === 'rejected' ? (body.reason ?? null) : null, reviewedBy: actor.userId, version: sql`${meetEntries.version} + 1` })
    .where(inArray(meetEntries.id, body.ids));
  return { before: rows, after: { ids: body.ids, status: body.status } };
}

/** Sets an athlete's bib by hand: digits, unique in the meet ('编号已被使用'). */
export async function setBib(tx: Tx, actor: Actor, meetId: string, athleteId: string, bib: string) {
  await tenantMeet(tx, actor, meetId);
  const [athlete] = await tx.select().from(meetAthletes).where(and(eq(meetAthletes.id, athleteId), eq(meetAthletes.meetId, meetId)));
  if (!athlete) throw notFound();
  const [taken] = await tx.select({ id: meetAthletes.id }).from(meetAthletes).where(and(eq(meetAthletes.meetId, meetId), eq(meetAthletes.bib, bib), ne(meetAthletes.id, athleteId)));
  if (taken) throw fieldError('bib', 'meets:v.bibTaken');
  await tx.update(meetAthletes).set({ bib, version: sql`${meetAthletes.version} + 1` }).where(eq(meetAthletes.id, athleteId));
  return { before: { bib: athlete.bib }, after: { bib } };
}

/** Students the actor may enter (search by name), with the meet's groups they fit. */
export async function entryCandidates(db: DbOrTx, actor: Actor, meetId: string, keyword: string) {
  await tenantMeet(db, actor, meetId);
  const scope = await classScopeOf(db, actor);
  return db
    .select({ id: students.id, name: students.name, regNo: students.regNo, gender: students.gender, className: classes.name, classId: classes.id })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(and(eq(students.orgId, actor.tenantOrgId), eq(students.status, 'studying'), inClassScope(scope, students.classId), keyword ? ilike(students.name, containsPattern(keyword)) : undefined))
    .orderBy(asc(students.name), asc(classes.name), asc(students.id))
    .limit(50);
}
