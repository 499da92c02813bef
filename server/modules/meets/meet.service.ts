import { and, asc, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { meetStatus, type EventSave, type MeetDetail, type MeetRow, type MeetSave, type MeetStatus } from '@/domain/meets/meets';
import type { DbOrTx, Tx } from '../../db/client';
import { meetAthletes, meetEvents, meetGroups, meets } from '../../db/schema/meets';
import { grades } from '../../db/schema/school';
import { venues } from '../../db/schema/venue';
import { AppError, fieldError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { localDate } from '@/domain/dates';

/** Meets of the tenant organisation (docs/product-rules.md#meets): list, detail with groups and events, saves. */


/** SQL of the status a meet has today (the same rule as `meetStatus`). */
function statusSql(today: string): SQL<MeetStatus> {
  return sql<MeetStatus>`case when ${meets.endedAt} is not null or ${meets.endDate} < ${today}::date then 'ended'
    when ${meets.startDate} <= ${today}::date then 'inProgress'
    when ${meets.signupStart} <= ${today}::date and ${meets.signupEnd} >= ${today}::date then 'signUp' else 'notStarted' end`;
}

const rowColumns = (today: string) => ({
  id: meets.id,
  name: meets.name,
  startDate: meets.startDate,
  endDate: meets.endDate,
  signupStart: meets.signupStart,
  signupEnd: meets.signupEnd,
  status: statusSql(today),
  arrangeState: meets.arrangeState,
  groupCount: sql<number>`(select count(*)::int from meet_groups g where g.meet_id = "meets"."id")`,
  eventCount: sql<number>`(select count(*)::int from meet_events e where e.meet_id = "meets"."id")`,
  entryCount: sql<number>`(select count(*)::int from meet_entries n where n.meet_id = "meets"."id" and n.status <> 'rejected')`,
  version: meets.version,
});

export interface MeetQuery {
  current: number;
  size: number;
  name?: string;
  status?: MeetStatus;
}

export function meetPage(db: DbOrTx, actor: Actor, q: MeetQuery, now: Date): Promise<Page<MeetRow>> {
  const today = localDate(now);
  const where = and(eq(meets.orgId, actor.tenantOrgId), q.name ? ilike(meets.name, containsPattern(q.name)) : undefined, q.status ? sql`${statusSql(today)} = ${q.status}` : undefined);
  return paginate(db, db.select(rowColumns(today)).from(meets).where(where).orderBy(desc(meets.startDate), asc(meets.id)).$dynamic(), q);
}

/** The meet row of the tenant (locked for update inside a write when `lock`), or 404. */
export async function tenantMeet(db: DbOrTx, actor: Actor, id: string) {
  const [row] = await db.select().from(meets).where(and(eq(meets.id, id), eq(meets.orgId, actor.tenantOrgId)));
  if (!row) throw notFound();
  return row;
}

/** The settings of an event, as saved and as the detail answers them (one list, so the two cannot drift apart). */
const EVENT_FIELDS = ['name', 'type', 'resultKind', 'lanes', 'heatSize', 'classCap', 'rounds', 'advanceByPlace', 'finalSize', 'attempts', 'relayLegs', 'duration'] as const;
type EventField = (typeof EVENT_FIELDS)[number];
function eventFields<T extends Record<EventField, unknown>>(e: T): Pick<T, EventField> {
  return Object.fromEntries(EVENT_FIELDS.map((k) => [k, e[k]])) as Pick<T, EventField>;
}

export async function meetById(db: DbOrTx, actor: Actor, id: string, now: Date): Promise<MeetDetail> {
  const today = localDate(now);
  const [row] = await db.select(rowColumns(today)).from(meets).where(and(eq(meets.id, id), eq(meets.orgId, actor.tenantOrgId)));
  if (!row) throw notFound();
  const m = await tenantMeet(db, actor, id);
  const groups = await db.select().from(meetGroups).where(eq(meetGroups.meetId, id)).orderBy(asc(meetGroups.sort), asc(meetGroups.name));
  const events = await db
    .select({
      e: meetEvents,
      entryCount: sql<number>`(select count(*)::int from meet_entries n where n.event_id = ${meetEvents.id} and n.status <> 'rejected')`,
      heatCount: sql<number>`(select count(*)::int from meet_heats h where h.event_id = ${meetEvents.id})`,
    })
    .from(meetEvents)
    .where(eq(meetEvents.meetId, id))
    .orderBy(asc(meetEvents.sort), asc(meetEvents.name));
  return {
    ...row,
    morning: m.morning ?? null,
    afternoon: m.afternoon ?? null,
    venueIds: m.venueIds,
    athleteCap: m.athleteCap,
    pointsTable: m.pointsTable,
    relayFactor: m.relayFactor,
    recordBonus: m.recordBonus,
    changeover: m.changeover,
    minRest: m.minRest,
    drawSeed: m.drawSeed,
    groups: groups.map((g) => ({
      id: g.id,
      name: g.name,
      gender: g.gender,
      gradeIds: g.gradeIds,
      bibStart: g.bibStart,
      events: events
        .filter((x) => x.e.groupId === g.id)
        .map(({ e, entryCount, heatCount }) => ({ id: e.id, groupId: e.groupId, ...eventFields(e), venueId: e.venueId, entryCount, heatCount })),
    })),
  };
}

/** Venues and grades named by the meet must be the tenant's. */
async function assertRefs(tx: Tx, actor: Actor, body: MeetSave) {
  const venueIds = [...new Set([...body.venueIds, ...body.groups.flatMap((g) => g.events.map((e) => e.venueId).filter((v): v is string => !!v))])];
  if (venueIds.length) {
    const n = await tx.$count(venues, and(eq(venues.orgId, actor.tenantOrgId), inArray(venues.id, venueIds)));
    if (n !== venueIds.length) throw fieldError('venueIds', 'meets:v.venue');
  }
  const gradeIds = [...new Set(body.groups.flatMap((g) => g.gradeIds))];
  if (gradeIds.length) {
    const n = await tx.$count(grades, and(eq(grades.orgId, actor.tenantOrgId), inArray(grades.id, gradeIds)));
    if (n !== gradeIds.length) throw fieldError('groups', 'meets:v.grade');
  }
}

const meetValues = (body: MeetSave) => ({
  name: body.name,
  startDate: body.startDate,
  endDate: body.endDate,
  signupStart: body.signupStart,
  signupEnd: body.signupEnd,
  morning: body.morning,
  afternoon: body.afternoon,
  venueIds: body.venueIds,
  athleteCap: body.athleteCap,
  pointsTable: body.pointsTable,
  relayFactor: body.relayFactor,
  recordBonus: body.recordBonus,
  changeover: body.changeover,
  minRest: body.minRest,
});

const eventValues = (e: EventSave, sort: number) => ({ ...eventFields(e), venueId: e.venueId ?? null, sort });

export async function createMeet(tx: Tx, actor: Actor, body: MeetSave, now: Date): Promise<MeetDetail> {
  await assertRefs(tx, actor, body);
  const [m] = await tx
    .insert(meets)
    .values({ orgId: actor.tenantOrgId, ...meetValues(body) })
    .returning({ id: meets.id });
  await writeGroups(tx, m.id, body);
  return meetById(tx, actor, m.id, now);
}

/** Writes the groups and events of the body: updates those with an id, inserts the others, removes those gone. */
async function writeGroups(tx: Tx, meetId: string, body: MeetSave) {
  const oldGroups = await tx.select({ id: meetGroups.id, name: meetGroups.name }).from(meetGroups).where(eq(meetGroups.meetId, meetId));
  const oldEvents = await tx.select({ id: meetEvents.id, groupId: meetEvents.groupId, name: meetEvents.name }).from(meetEvents).where(eq(meetEvents.meetId, meetId));
  const keptGroups = new Set(body.groups.map((g) => g.id).filter(Boolean));
  const keptEvents = new Set(body.groups.flatMap((g) => g.events.map((e) => e.id)).filter(Boolean));
  for (const g of body.groups) if (g.id && !oldGroups.some((o) => o.id === g.id)) throw notFound();
  for (const e of body.groups.flatMap((g) => g.events)) if (e.id && !oldEvents.some((o) => o.id === e.id)) throw notFound();

  // An event with entries or heats cannot be removed (该项目已有编排或报名数据，不能删除).
  const gone = oldEvents.filter((e) => !keptEvents.has(e.id) || !keptGroups.has(e.groupId));
  if (gone.length) {
    const ids = gone.map((e) => e.id);
    const used = await tx
      .select({ id: meetEvents.id, name: meetEvents.name })
      .from(meetEvents)
      .where(and(inArray(meetEvents.id, ids), sql`(exists (select 1 from meet_entries n where n.event_id = ${meetEvents.id}) or exists (select 1 from meet_heats h where h.event_id = ${meetEvents.id}))`));
    if (used.length) throw new AppError(409, 'meets:v.eventInUse', { name: used.map((u) => u.name).join('、') });
    await tx.delete(meetEvents).where(inArray(meetEvents.id, ids));
  }
  const goneGroups = oldGroups.filter((g) => !keptGroups.has(g.id)).map((g) => g.id);
  if (goneGroups.length) {
    const athletes = await tx.$count(meetAthletes, inArray(meetAthletes.groupId, goneGroups));
    if (athletes) throw new AppError(409, 'meets:v.groupInUse');
    await tx.delete(meetGroups).where(inArray(meetGroups.id, goneGroups));
  }
  // Names are unique per meet/group: move kept rows out of the way before renaming.
  await tx.update(meetEvents).set({ name: sql`${meetEvents.id}::text` }).where(eq(meetEvents.meetId, meetId));
  await tx.update(meetGroups).set({ name: sql`${meetGroups.id}::text` }).where(eq(meetGroups.meetId, meetId));
  for (const [gi, g] of body.groups.entries()) {
    const values = { name: g.name, gender: g.gender, gradeIds: g.gradeIds, bibStart: g.bibStart, sort: gi };
    let groupId = g.id;
    if (groupId) await tx.update(meetGroups).set(values).where(eq(meetGroups.id, groupId));
    else [{ id: groupId }] = await tx.insert(meetGroups).values({ meetId, ...values }).returning({ id: meetGroups.id });
    for (const [ei, e] of g.events.entries()) {
      if (e.id) await tx.update(meetEvents).set({ ...eventValues(e, ei), groupId }).where(eq(meetEvents.id, e.id));
      else await tx.insert(meetEvents).values({ meetId, groupId: groupId!, ...eventValues(e, ei) });
    }
  }
}

export async function updateMeet(tx: Tx, actor: Actor, id: string, body: MeetSave, now: Date): Promise<Change<MeetDetail>> {
  await lockVersion(tx, meets, id, eq(meets.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await meetById(tx, actor, id, now);
  if (before.status === 'ended') throw new AppError(409, 'meets:v.ended');
  await assertRefs(tx, actor, body);
  await tx.update(meets).set({ ...meetValues(body), version: nextVersion(meets.version) }).where(eq(meets.id, id));
  await writeGroups(tx, id, body);
  return { before, after: await meetById(tx, actor, id, now) };
}

/** Deletes a meet with everything it holds (its records stay, without the link). */
export async function deleteMeet(tx: Tx, actor: Actor, id: string, now: Date): Promise<MeetRow> {
  const before = await meetById(tx, actor, id, now);
  await tx.delete(meets).where(eq(meets.id, id));
  return before;
}

/** Early end: takes effect at once (sign-up and result entry stop). */
export async function endMeet(tx: Tx, actor: Actor, id: string, now: Date) {
  const m = await tenantMeet(tx, actor, id);
  if (meetStatus({ ...m, endedAt: m.endedAt?.toISOString() }, localDate(now)) === 'ended') throw new AppError(409, 'meets:v.ended');
  await tx.update(meets).set({ endedAt: now, version: nextVersion(meets.version) }).where(eq(meets.id, id));
  return { before: { endedAt: null }, after: { endedAt: now.toISOString() } };
}

/** Options the meet form offers: the tenant's venues and grades. */
export async function meetFormOptions(db: DbOrTx, actor: Actor) {
  const v = await db.select({ id: venues.id, name: venues.name, type: venues.type }).from(venues).where(eq(venues.orgId, actor.tenantOrgId)).orderBy(asc(venues.code));
  const g = await db.select({ id: grades.id, stage: grades.stage, gradeNo: grades.gradeNo, enrolYear: grades.enrolYear }).from(grades).where(and(eq(grades.orgId, actor.tenantOrgId), eq(grades.graduated, false))).orderBy(asc(grades.gradeNo));
  return { venues: v, grades: g };
}

