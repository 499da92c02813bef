import { and, asc, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { legsIssue, nextBib, type EntryReview, type EntryRow, type EntrySave, type EntryStatus, type TeamMember, type TeamSave } from '@/domain/meets/entries';
import { meetStatus } from '@/domain/meets/meets';
import type { DbOrTx, Tx } from '../../db/client';
import { meetAthletes, meetEntries, meetEvents, meetGroups, meetHeats, meetRelayMembers } from '../../db/schema/meets';
import { classes, students } from '../../db/schema/school';
import { AppError, fieldError } from '../../lib/app-error';
import { classScopeOf, inClassScope } from '../../lib/data-scope';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { lockVersion, notFound } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { tenantMeet } from './meet.service';
import { localDate } from '@/domain/dates';

/**
 * Registration (docs/product-rules.md#meets): entries (athletes, and relay teams of a class), their review and the
 * bibs of athletes and teams.
 */

/** An entry's name and bib in lists: the athlete's (meet_athletes and students left-joined) or the team's. */
export const entryName = sql<string>`coalesce(${meetEntries.teamName}, ${students.name})`;
export const entryBib = sql<string>`coalesce(${meetEntries.bib}, ${meetAthletes.bib})`;
/** A team's runners in leg order ('张三、李四…'), null for an athlete's entry. */
export const teamLegNames = sql<string | null>`(select string_agg(s.name, '、' order by m.leg) from meet_relay_members m join meet_athletes a on a.id = m.athlete_id join students s on s.id = a.student_id where m.entry_id = ${meetEntries.id} and m.leg is not null)`;

/** The members of teams by entry id: legs in order, then the reserves. */
export async function teamMembers(db: DbOrTx, entryIds: readonly string[]): Promise<Map<string, TeamMember[]>> {
  const out = new Map<string, TeamMember[]>();
  if (!entryIds.length) return out;
  const rows = await db
    .select({ entryId: meetRelayMembers.entryId, athleteId: meetRelayMembers.athleteId, studentId: students.id, name: students.name, leg: meetRelayMembers.leg })
    .from(meetRelayMembers)
    .innerJoin(meetAthletes, eq(meetAthletes.id, meetRelayMembers.athleteId))
    .innerJoin(students, eq(students.id, meetAthletes.studentId))
    .where(inArray(meetRelayMembers.entryId, [...entryIds]))
    .orderBy(sql`${meetRelayMembers.leg} asc nulls last`, asc(students.name));
  for (const { entryId, ...m } of rows) out.set(entryId, [...(out.get(entryId) ?? []), m]);
  return out;
}

/** Bibs in use in a meet: the athletes' and the teams'. */
async function usedBibs(tx: Tx, meetId: string): Promise<Set<string>> {
  const athletes = await tx.select({ bib: meetAthletes.bib }).from(meetAthletes).where(eq(meetAthletes.meetId, meetId));
  const teams = await tx.select({ bib: meetEntries.bib }).from(meetEntries).where(and(eq(meetEntries.meetId, meetId), sql`${meetEntries.bib} is not null`));
  return new Set([...athletes.map((r) => r.bib), ...teams.map((r) => r.bib!)]);
}

/** Athletes left without entries and teams give their bibs back. */
async function dropIdleAthletes(tx: Tx, athleteIds: readonly string[]) {
  if (!athleteIds.length) return;
  await tx
    .delete(meetAthletes)
    .where(
      and(
        inArray(meetAthletes.id, [...athleteIds]),
        sql`not exists (select 1 from meet_entries n where n.athlete_id = ${meetAthletes.id})`,
        sql`not exists (select 1 from meet_relay_members m where m.athlete_id = ${meetAthletes.id})`,
      ),
    );
}

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
  studentName: entryName,
  gender: students.gender,
  classId: meetEntries.classId,
  className: classes.name,
  bib: entryBib,
  kind: meetEntries.kind,
  athleteId: meetEntries.athleteId,
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
    // A team is found by its name or any member's.
    q.name
      ? sql`(${ilike(entryName, containsPattern(q.name))} or exists (select 1 from meet_relay_members m join meet_athletes a on a.id = m.athlete_id join students s on s.id = a.student_id where m.entry_id = ${meetEntries.id} and s.name ilike ${containsPattern(q.name)}))`
      : undefined,
  );
  const query = db
    .select(entryColumns)
    .from(meetEntries)
    .leftJoin(meetAthletes, eq(meetAthletes.id, meetEntries.athleteId))
    .leftJoin(students, eq(students.id, meetAthletes.studentId))
    .innerJoin(classes, eq(classes.id, meetEntries.classId))
    .innerJoin(meetEvents, eq(meetEvents.id, meetEntries.eventId))
    .innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId))
    .where(where)
    .orderBy(asc(meetGroups.sort), asc(meetEvents.sort), asc(classes.name), asc(entryBib), asc(meetEntries.id))
    .$dynamic();
  const page = await paginate(db, query, q);
  const members = await teamMembers(db, page.records.filter((r) => r.kind === 'team').map((r) => r.id));
  return { ...page, records: page.records.map((r) => ({ ...r, members: members.get(r.id) ?? [] })) };
}

/** Enters one athlete for events: the window, the group, the caps; allocates the bib on the first entry. */
export async function addEntries(tx: Tx, actor: Actor, meetId: string, body: EntrySave, now: Date): Promise<{ id: string; ids: string[]; bib: string }> {
  const meet = await tenantMeet(tx, actor, meetId);
  if (meetStatus({ ...meet, endedAt: meet.endedAt?.toISOString() }, localDate(now)) !== 'signUp') throw new AppError(409, 'meets:v.signupClosed');
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
  for (const { e, g } of events) {
    if (e.type === 'relay') throw fieldError('eventIds', 'meets:v.relayIsTeam', { event: e.name });
    const fits = (g.gender === 'mixed' || g.gender === student.gender) && (g.gradeIds.length === 0 || g.gradeIds.includes(student.gradeId));
    if (!fits) throw fieldError('eventIds', 'meets:v.wrongGroup', { group: g.name });
  }

  let [athlete] = await tx.select().from(meetAthletes).where(and(eq(meetAthletes.meetId, meetId), eq(meetAthletes.studentId, student.id))).for('update');
  const groupId = athlete?.groupId ?? events[0].g.id;
  if (events.some(({ g }) => g.id !== groupId)) throw fieldError('eventIds', 'meets:v.oneGroup');
  if (!athlete) {
    // Serialise bib allocation within the meet (the row lock on the meet).
    await tx.execute(sql`select 1 from meets where id = ${meetId} for update`);
    const used = await usedBibs(tx, meetId);
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
  const members = (await tx.select({ id: meetRelayMembers.athleteId }).from(meetRelayMembers).where(eq(meetRelayMembers.entryId, entryId))).map((m) => m.id);
  await tx.delete(meetEntries).where(eq(meetEntries.id, entryId));
  await dropIdleAthletes(tx, entry.athleteId ? [entry.athleteId] : members);
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
  if (taken || (await tx.$count(meetEntries, and(eq(meetEntries.meetId, meetId), eq(meetEntries.bib, bib))))) throw fieldError('bib', 'meets:v.bibTaken');
  await tx.update(meetAthletes).set({ bib, version: sql`${meetAthletes.version} + 1` }).where(eq(meetAthletes.id, athleteId));
  return { before: { bib: athlete.bib }, after: { bib } };
}

/** Sets a team's bib by hand: unique in the meet among athletes and teams. */
export async function setTeamBib(tx: Tx, actor: Actor, meetId: string, entryId: string, bib: string) {
  await tenantMeet(tx, actor, meetId);
  const [team] = await tx.select().from(meetEntries).where(and(eq(meetEntries.id, entryId), eq(meetEntries.meetId, meetId), eq(meetEntries.kind, 'team')));
  if (!team) throw notFound();
  const athlete = await tx.$count(meetAthletes, and(eq(meetAthletes.meetId, meetId), eq(meetAthletes.bib, bib)));
  const other = await tx.$count(meetEntries, and(eq(meetEntries.meetId, meetId), eq(meetEntries.bib, bib), ne(meetEntries.id, entryId)));
  if (athlete || other) throw fieldError('bib', 'meets:v.bibTaken');
  await tx.update(meetEntries).set({ bib, version: sql`${meetEntries.version} + 1` }).where(eq(meetEntries.id, entryId));
  return { before: { bib: team.bib }, after: { bib } };
}

/**
 * Checks a relay team against the rules (docs/product-rules.md#meets) and makes sure every member is an athlete of the
 * meet (allocating bibs): a relay event of the meet, a class of the actor's, runners = the event's legs, members of
 * the class who fit the group, no member in another team of the event, the class cap counting teams.
 */
async function prepareTeam(tx: Tx, actor: Actor, meetId: string, body: TeamSave, now: Date, self?: string) {
  const meet = await tenantMeet(tx, actor, meetId);
  if (meetStatus({ ...meet, endedAt: meet.endedAt?.toISOString() }, localDate(now)) !== 'signUp') throw new AppError(409, 'meets:v.signupClosed');
  const [row] = await tx.select({ e: meetEvents, g: meetGroups }).from(meetEvents).innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId)).where(and(eq(meetEvents.id, body.eventId), eq(meetEvents.meetId, meetId)));
  if (!row) throw notFound();
  const { e, g } = row;
  if (e.type !== 'relay') throw fieldError('eventId', 'meets:v.notRelay');
  const scope = await classScopeOf(tx, actor);
  const [klass] = await tx.select().from(classes).where(and(eq(classes.id, body.classId), eq(classes.orgId, actor.tenantOrgId), inClassScope(scope, classes.id)));
  if (!klass) throw notFound();
  const issue = legsIssue(body.legs, e.relayLegs);
  if (issue) throw fieldError('legs', 'meets:v.relayMembers');
  const ids = [...body.legs, ...body.reserves];
  const people = await tx
    .select({ id: students.id, name: students.name, gender: students.gender, classId: students.classId, status: students.status })
    .from(students)
    .where(and(eq(students.orgId, actor.tenantOrgId), inArray(students.id, ids)));
  if (people.length !== ids.length) throw notFound();
  for (const p of people) {
    if (p.classId !== klass.id) throw fieldError('legs', 'meets:v.memberClass', { name: p.name });
    if (p.status !== 'studying') throw fieldError('legs', 'meets:v.notStudying');
    const fits = (g.gender === 'mixed' || g.gender === p.gender) && (g.gradeIds.length === 0 || g.gradeIds.includes(klass.gradeId));
    if (!fits) throw fieldError('legs', 'meets:v.wrongGroup', { group: g.name });
  }
  if ((await tx.$count(meetHeats, eq(meetHeats.eventId, e.id))) > 0) throw new AppError(409, 'meets:v.arranged', { event: e.name });
  // Serialise the event's entries (caps, members) and the meet's bibs.
  await tx.execute(sql`select 1 from meet_events where id = ${e.id} for update`);
  await tx.execute(sql`select 1 from meets where id = ${meetId} for update`);
  const others = and(eq(meetEntries.eventId, e.id), ne(meetEntries.status, 'rejected'), self ? ne(meetEntries.id, self) : undefined);
  const [sameName] = await tx.select({ id: meetEntries.id }).from(meetEntries).where(and(eq(meetEntries.eventId, e.id), eq(meetEntries.teamName, body.teamName), self ? ne(meetEntries.id, self) : undefined));
  if (sameName) throw fieldError('teamName', 'meets:v.teamNameTaken');
  if (!self && (await tx.$count(meetEntries, and(others, eq(meetEntries.classId, klass.id)))) >= e.classCap) throw fieldError('classId', 'meets:v.teamCap', { event: e.name, cap: e.classCap });
  const [busy] = await tx
    .select({ name: students.name, team: meetEntries.teamName })
    .from(meetRelayMembers)
    .innerJoin(meetEntries, eq(meetEntries.id, meetRelayMembers.entryId))
    .innerJoin(meetAthletes, eq(meetAthletes.id, meetRelayMembers.athleteId))
    .innerJoin(students, eq(students.id, meetAthletes.studentId))
    .where(and(others, inArray(meetAthletes.studentId, ids)))
    .limit(1);
  if (busy) throw fieldError('legs', 'meets:v.memberInTeam', { name: busy.name, team: busy.team ?? '' });

  const existing = await tx.select().from(meetAthletes).where(and(eq(meetAthletes.meetId, meetId), inArray(meetAthletes.studentId, ids)));
  if (existing.some((a) => a.groupId !== g.id)) throw fieldError('legs', 'meets:v.oneGroup');
  const used = await usedBibs(tx, meetId);
  const athleteOf = new Map(existing.map((a) => [a.studentId, a.id]));
  for (const id of ids) {
    if (athleteOf.has(id)) continue;
    const bib = nextBib(g.bibStart, used);
    used.add(bib);
    const [a] = await tx.insert(meetAthletes).values({ meetId, studentId: id, classId: klass.id, gradeId: klass.gradeId, groupId: g.id, bib }).returning({ id: meetAthletes.id });
    athleteOf.set(id, a.id);
  }
  const members = ids.map((id, i) => ({ athleteId: athleteOf.get(id)!, leg: i < body.legs.length ? i + 1 : null }));
  return { event: e, group: g, klass, members, used };
}

/** Enters a relay team (pending review) with the next free bib of its group's range. */
export async function addTeam(tx: Tx, actor: Actor, meetId: string, body: TeamSave, now: Date): Promise<{ id: string; bib: string }> {
  const { group, klass, members, used } = await prepareTeam(tx, actor, meetId, body, now);
  const bib = nextBib(group.bibStart, used);
  const [row] = await tx
    .insert(meetEntries)
    .values({ meetId, eventId: body.eventId, kind: 'team', teamName: body.teamName, bib, classId: klass.id, seedMark: body.seedMark ?? null, createdBy: actor.userId })
    .returning({ id: meetEntries.id });
  await tx.insert(meetRelayMembers).values(members.map((m) => ({ entryId: row.id, ...m })));
  return { id: row.id, bib };
}

/** Changes a team's name, runners, order and reserves before the draw; the changed team goes back to review. */
export async function updateTeam(tx: Tx, actor: Actor, meetId: string, entryId: string, body: TeamSave, now: Date) {
  await tenantMeet(tx, actor, meetId);
  const scope = await classScopeOf(tx, actor);
  const before = await lockVersion(tx, meetEntries, entryId, and(eq(meetEntries.meetId, meetId), eq(meetEntries.kind, 'team'), inClassScope(scope, meetEntries.classId))!, body.version ?? -1);
  if (before.eventId !== body.eventId || before.classId !== body.classId) throw notFound();
  const old = (await tx.delete(meetRelayMembers).where(eq(meetRelayMembers.entryId, entryId)).returning({ id: meetRelayMembers.athleteId })).map((m) => m.id);
  const { members } = await prepareTeam(tx, actor, meetId, body, now, entryId);
  await tx.insert(meetRelayMembers).values(members.map((m) => ({ entryId, ...m })));
  await tx
    .update(meetEntries)
    .set({ teamName: body.teamName, seedMark: body.seedMark ?? null, status: 'pending', reason: null, version: sql`${meetEntries.version} + 1` })
    .where(eq(meetEntries.id, entryId));
  await dropIdleAthletes(tx, old);
  return { before: { teamName: before.teamName, members: old }, after: { ...body, members } };
}

/**
 * Students the actor may enter (search by name). For a relay's team form (`eventId`), only those who may run in it:
 * of `classId` when given, fitting the event's group, and not already in a team of the event.
 */
export async function entryCandidates(db: DbOrTx, actor: Actor, meetId: string, keyword: string, classId?: string, eventId?: string) {
  await tenantMeet(db, actor, meetId);
  const scope = await classScopeOf(db, actor);
  let fits: SQL | undefined;
  if (eventId) {
    const [row] = await db.select({ g: meetGroups }).from(meetEvents).innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId)).where(and(eq(meetEvents.id, eventId), eq(meetEvents.meetId, meetId)));
    if (!row) throw notFound();
    fits = and(
      row.g.gender === 'mixed' ? undefined : eq(students.gender, row.g.gender),
      row.g.gradeIds.length ? inArray(classes.gradeId, row.g.gradeIds) : undefined,
      sql`not exists (select 1 from meet_relay_members m join meet_athletes a on a.id = m.athlete_id join meet_entries n on n.id = m.entry_id where a.student_id = ${students.id} and n.event_id = ${eventId} and n.status <> 'rejected')`,
    );
  }
  return db
    .select({ id: students.id, name: students.name, regNo: students.regNo, gender: students.gender, className: classes.name, classId: classes.id })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(
      and(
        eq(students.orgId, actor.tenantOrgId),
        eq(students.status, 'studying'),
        inClassScope(scope, students.classId),
        classId ? eq(students.classId, classId) : undefined,
        fits,
        keyword ? ilike(students.name, containsPattern(keyword)) : undefined,
      ),
    )
    .orderBy(asc(students.name), asc(classes.name), asc(students.id))
    .limit(50);
}
