import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { drawHeats } from '@/domain/meets/draw';
import type { DrawRequest } from '@/domain/meets/entries';
import { meetDays, usesLanes } from '@/domain/meets/meets';
import { newSeed } from '@/domain/meets/random';
import { findConflicts, generateSchedule, minutesOf, type ScheduleHeat, type Session, type Slot } from '@/domain/meets/schedule';
import type { DbOrTx, Tx } from '../../db/client';
import { meetAthletes, meetEntries, meetEvents, meetGroups, meetHeats, meetRelayMembers, meetResults, meets } from '../../db/schema/meets';
import { classes, students } from '../../db/schema/school';
import { AppError } from '../../lib/app-error';
import { notFound } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { entryBib, entryName, teamMembers } from './entry.service';
import { tenantMeet } from './meet.service';

/**
 * Arrangement (docs/product-rules.md#meets): the draw into heats and lanes, the schedule, manual moves. Each runs in
 * the request's one transaction; a heat with entered results is never rearranged.
 */

async function assertNoResults(tx: Tx, meetId: string, eventIds?: string[]) {
  const [r] = await tx
    .select({ id: meetResults.id })
    .from(meetResults)
    .innerJoin(meetHeats, eq(meetHeats.id, meetResults.heatId))
    .where(and(eq(meetResults.meetId, meetId), ne(meetResults.state, 'pending'), eventIds ? inArray(meetHeats.eventId, eventIds) : undefined))
    .limit(1);
  if (r) throw new AppError(409, 'meets:v.hasResults');
}

/** Groups the approved entries of the events into heats with lanes; replaces their earlier grouping. */
export async function drawMeet(tx: Tx, actor: Actor, meetId: string, body: DrawRequest) {
  const meet = await tenantMeet(tx, actor, meetId);
  await tx.execute(sql`select 1 from meets where id = ${meetId} for update`);
  const events = await tx
    .select()
    .from(meetEvents)
    .where(and(eq(meetEvents.meetId, meetId), body.eventIds ? inArray(meetEvents.id, body.eventIds) : undefined))
    .orderBy(asc(meetEvents.sort));
  if (body.eventIds && events.length !== body.eventIds.length) throw notFound();
  const eventIds = events.map((e) => e.id);
  if (!eventIds.length) throw new AppError(409, 'meets:v.noEvents');
  await assertNoResults(tx, meetId, eventIds);
  await tx.delete(meetHeats).where(inArray(meetHeats.eventId, eventIds));
  const entries = await tx
    .select({ id: meetEntries.id, eventId: meetEntries.eventId, classId: meetEntries.classId, mark: meetEntries.seedMark })
    .from(meetEntries)
    .where(and(inArray(meetEntries.eventId, eventIds), eq(meetEntries.status, 'approved')));
  const seed = body.seed ?? newSeed();
  // Every event drawn in memory first, then written in two statements (heats, then lanes): one insert per event was
  // 120 statements for a 60-event meet, each with its own round trip and foreign-key checks.
  const heatRows: { id: string; meet_id: string; event_id: string; round: number; no: number; venue_id: string | null }[] = [];
  const laneRows: { meet_id: string; heat_id: string; entry_id: string; lane: number }[] = [];
  const byEvent = new Map<string, typeof entries>();
  for (const x of entries) {
    const list = byEvent.get(x.eventId);
    if (list) list.push(x);
    else byEvent.set(x.eventId, [x]);
  }
  let heatCount = 0;
  for (const [i, e] of events.entries()) {
    const athletes = byEvent.get(e.id);
    if (!athletes?.length) continue;
    // Each event draws from its own stream of the seed, so adding an event does not change the others' draws.
    const heats = drawHeats(athletes, { mode: body.mode, seed: (seed + i * 7919) >>> 0, kind: e.resultKind, heatSize: e.heatSize, lanes: usesLanes(e.type) ? e.lanes : 0 });
    for (const h of heats) {
      const heatId = randomUUID();
      heatRows.push({ id: heatId, meet_id: meetId, event_id: e.id, round: 0, no: h.no, venue_id: e.venueId });
      for (const a of h.athletes) laneRows.push({ meet_id: meetId, heat_id: heatId, entry_id: a.id, lane: a.lane });
    }
    if (e.rounds === 'heatsFinal') heatRows.push({ id: randomUUID(), meet_id: meetId, event_id: e.id, round: 1, no: 1, venue_id: e.venueId });
    heatCount += heats.length;
  }
  // The rows travel as one JSON parameter: no bind-parameter limit (65,535) however large the meet.
  if (heatRows.length) {
    await tx.execute(sql`insert into meet_heats (id, meet_id, event_id, round, no, venue_id)
      select id, meet_id, event_id, round, no, venue_id
      from jsonb_to_recordset(${JSON.stringify(heatRows)}::jsonb) as r(id uuid, meet_id uuid, event_id uuid, round smallint, no smallint, venue_id uuid)`);
  }
  if (laneRows.length) {
    await tx.execute(sql`insert into meet_results (meet_id, heat_id, entry_id, lane)
      select meet_id, heat_id, entry_id, lane
      from jsonb_to_recordset(${JSON.stringify(laneRows)}::jsonb) as r(meet_id uuid, heat_id uuid, entry_id uuid, lane smallint)`);
  }
  await tx.update(meets).set({ arrangeState: 'grouped', drawSeed: seed, drawMode: body.mode, version: sql`${meets.version} + 1` }).where(eq(meets.id, meetId));
  return { before: { drawSeed: meet.drawSeed, arrangeState: meet.arrangeState }, after: { drawSeed: seed, mode: body.mode, heatCount } };
}

/** Cancels the grouping of some events (or clears the whole arrangement): back to ungrouped. */
export async function clearArrangement(tx: Tx, actor: Actor, meetId: string, eventIds?: string[]) {
  const meet = await tenantMeet(tx, actor, meetId);
  await assertNoResults(tx, meetId, eventIds);
  await tx.delete(meetHeats).where(and(eq(meetHeats.meetId, meetId), eventIds ? inArray(meetHeats.eventId, eventIds) : undefined));
  const left = await tx.$count(meetHeats, eq(meetHeats.meetId, meetId));
  const state = left === 0 ? 'ungrouped' : meet.arrangeState;
  await tx.update(meets).set({ arrangeState: state, version: sql`${meets.version} + 1` }).where(eq(meets.id, meetId));
  return { before: { arrangeState: meet.arrangeState }, after: { arrangeState: state } };
}

/** Moves an athlete to a lane of a heat of the same event and round; an athlete already there swaps places. */
export async function moveLane(tx: Tx, actor: Actor, meetId: string, resultId: string, heatId: string, lane: number) {
  await tenantMeet(tx, actor, meetId);
  const [from] = await tx.select({ r: meetResults, h: meetHeats }).from(meetResults).innerJoin(meetHeats, eq(meetHeats.id, meetResults.heatId)).where(and(eq(meetResults.id, resultId), eq(meetResults.meetId, meetId)));
  const [to] = await tx.select().from(meetHeats).where(and(eq(meetHeats.id, heatId), eq(meetHeats.meetId, meetId)));
  if (!from || !to || to.eventId !== from.h.eventId || to.round !== from.h.round) throw notFound();
  const [event] = await tx.select().from(meetEvents).where(eq(meetEvents.id, to.eventId));
  const max = usesLanes(event.type) ? event.lanes : event.heatSize;
  if (lane < 1 || lane > max) throw new AppError(400, 'meets:v.lane', { max });
  await assertNoResults(tx, meetId, [event.id]);
  const [occupant] = await tx.select().from(meetResults).where(and(eq(meetResults.heatId, heatId), eq(meetResults.lane, lane)));
  if (!occupant && to.id !== from.h.id) {
    const inHeat = await tx.$count(meetResults, eq(meetResults.heatId, heatId));
    if (inHeat >= event.heatSize) throw new AppError(409, 'meets:v.headcountOverLanes');
  }
  // Park the moving row on lane 0 so the unique (heat, lane) holds during the swap.
  await tx.update(meetResults).set({ lane: 0 }).where(eq(meetResults.id, resultId));
  if (occupant) await tx.update(meetResults).set({ heatId: from.h.id, lane: from.r.lane }).where(eq(meetResults.id, occupant.id));
  await tx.update(meetResults).set({ heatId, lane }).where(eq(meetResults.id, resultId));
  return { before: { heatId: from.h.id, lane: from.r.lane }, after: { heatId, lane } };
}

/** The meet's sessions as schedule sessions (day index, minutes). */
function sessionsOf(meet: typeof meets.$inferSelect): Session[] {
  return meetDays(meet.startDate, meet.endDate).flatMap((_, day) =>
    [meet.morning, meet.afternoon].filter((s): s is { start: string; end: string } => !!s).map((s) => ({ day, start: minutesOf(s.start), end: minutesOf(s.end) })),
  );
}

/** Heats of a meet in the shape the schedule works on (an event without a venue has a venue of its own). */
async function scheduleHeats(db: DbOrTx, meetId: string): Promise<{ heats: ScheduleHeat[]; slots: Slot[] }> {
  const rows = await db
    .select({ h: meetHeats, duration: meetEvents.duration, type: meetEvents.type, venueId: meetEvents.venueId })
    .from(meetHeats)
    .innerJoin(meetEvents, eq(meetEvents.id, meetHeats.eventId))
    .innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId))
    .where(eq(meetHeats.meetId, meetId))
    .orderBy(asc(meetHeats.round), asc(meetGroups.sort), asc(meetEvents.sort), asc(meetHeats.no));
  // A team's runners (and reserves) are in its heat as much as an athlete is in theirs.
  const members = await db
    .select({ heatId: meetResults.heatId, athleteId: sql<string>`coalesce(${meetEntries.athleteId}, ${meetRelayMembers.athleteId})` })
    .from(meetResults)
    .innerJoin(meetEntries, eq(meetEntries.id, meetResults.entryId))
    .leftJoin(meetRelayMembers, eq(meetRelayMembers.entryId, meetEntries.id))
    .where(eq(meetResults.meetId, meetId));
  const byHeat = new Map<string, string[]>();
  for (const m of members) byHeat.set(m.heatId, [...(byHeat.get(m.heatId) ?? []), m.athleteId]);
  const heats = rows.map(({ h, duration, type, venueId }) => ({
    id: h.id,
    eventId: h.eventId,
    round: h.round,
    // Without a venue, an event runs on "the track" or "the field" of its type.
    venueId: h.venueId ?? venueId ?? `type:${usesLanes(type) ? 'track' : type}`,
    duration,
    athleteIds: byHeat.get(h.id) ?? [],
  }));
  const slots = rows
    .filter(({ h }) => h.day != null && h.startMin != null && h.endMin != null)
    .map(({ h }) => ({ heatId: h.id, day: h.day!, start: h.startMin!, end: h.endMin!, venueId: heats.find((x) => x.id === h.id)!.venueId }));
  return { heats, slots };
}

/** Generates the schedule; an existing one is wiped only when the request confirms it. */
export async function scheduleMeet(tx: Tx, actor: Actor, meetId: string, confirm: boolean) {
  const meet = await tenantMeet(tx, actor, meetId);
  await tx.execute(sql`select 1 from meets where id = ${meetId} for update`);
  if (meet.arrangeState === 'ungrouped') throw new AppError(409, 'meets:v.notGrouped');
  if (meet.arrangeState === 'scheduled' && !confirm) throw new AppError(409, 'meets:v.scheduleWipes');
  const { heats } = await scheduleHeats(tx, meetId);
  const { slots, unplaced } = generateSchedule(heats, { sessions: sessionsOf(meet), changeover: meet.changeover, minRest: meet.minRest });
  if (unplaced.length) throw new AppError(409, 'meets:v.scheduleFull', { count: unplaced.length });
  await tx.update(meetHeats).set({ day: null, startMin: null, endMin: null }).where(eq(meetHeats.meetId, meetId));
  // One statement for every slot.
  if (slots.length) {
    await tx.execute(sql`update meet_heats h set day = s.day, start_min = s.start_min, end_min = s.end_min
      from (select * from jsonb_to_recordset(${JSON.stringify(slots.map((s) => ({ id: s.heatId, day: s.day, start_min: s.start, end_min: s.end })))}::jsonb)
        as x(id uuid, day smallint, start_min smallint, end_min smallint)) s where h.id = s.id`);
  }
  await tx.update(meets).set({ arrangeState: 'scheduled', version: sql`${meets.version} + 1` }).where(eq(meets.id, meetId));
  return { before: { arrangeState: meet.arrangeState }, after: { arrangeState: 'scheduled', slots: slots.length } };
}

/** Moves a heat to another time (and venue); answers the conflicts the schedule now has. */
export async function moveSlot(tx: Tx, actor: Actor, meetId: string, heatId: string, slot: { day: number; start: string; venueId?: string | null }) {
  const meet = await tenantMeet(tx, actor, meetId);
  const [row] = await tx.select({ h: meetHeats, duration: meetEvents.duration }).from(meetHeats).innerJoin(meetEvents, eq(meetEvents.id, meetHeats.eventId)).where(and(eq(meetHeats.id, heatId), eq(meetHeats.meetId, meetId)));
  if (!row) throw notFound();
  if (slot.day >= meetDays(meet.startDate, meet.endDate).length) throw new AppError(400, 'meets:v.day');
  const start = minutesOf(slot.start);
  await tx
    .update(meetHeats)
    .set({ day: slot.day, startMin: start, endMin: start + row.duration, venueId: slot.venueId === undefined ? row.h.venueId : slot.venueId })
    .where(eq(meetHeats.id, heatId));
  return { before: { day: row.h.day, startMin: row.h.startMin }, after: { day: slot.day, startMin: start } };
}

export async function scheduleConflicts(db: DbOrTx, actor: Actor, meetId: string) {
  const meet = await tenantMeet(db, actor, meetId);
  const { heats, slots } = await scheduleHeats(db, meetId);
  return findConflicts(heats, slots, { changeover: meet.changeover, minRest: meet.minRest });
}

/** The arrangement as the arrange and calendar screens show it: heats with their slot and athletes by lane. */
export async function arrangement(db: DbOrTx, actor: Actor, meetId: string) {
  const meet = await tenantMeet(db, actor, meetId);
  const heats = await db
    .select({
      id: meetHeats.id,
      eventId: meetHeats.eventId,
      eventName: meetEvents.name,
      groupName: meetGroups.name,
      type: meetEvents.type,
      round: meetHeats.round,
      no: meetHeats.no,
      day: meetHeats.day,
      startMin: meetHeats.startMin,
      endMin: meetHeats.endMin,
      venueId: sql<string | null>`coalesce(${meetHeats.venueId}, ${meetEvents.venueId})`,
    })
    .from(meetHeats)
    .innerJoin(meetEvents, eq(meetEvents.id, meetHeats.eventId))
    .innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId))
    .where(eq(meetHeats.meetId, meetId))
    .orderBy(asc(meetGroups.sort), asc(meetEvents.sort), asc(meetHeats.round), asc(meetHeats.no));
  const lanes = await db
    .select({ id: meetResults.id, heatId: meetResults.heatId, entryId: meetResults.entryId, kind: meetEntries.kind, lane: meetResults.lane, name: entryName, className: classes.name, bib: entryBib, classId: meetEntries.classId })
    .from(meetResults)
    .innerJoin(meetEntries, eq(meetEntries.id, meetResults.entryId))
    .leftJoin(meetAthletes, eq(meetAthletes.id, meetEntries.athleteId))
    .leftJoin(students, eq(students.id, meetAthletes.studentId))
    .innerJoin(classes, eq(classes.id, meetEntries.classId))
    .where(eq(meetResults.meetId, meetId))
    .orderBy(asc(meetResults.lane));
  const members = await teamMembers(db, [...new Set(lanes.filter((l) => l.kind === 'team').map((l) => l.entryId))]);
  const byHeat = new Map<string, (Omit<(typeof lanes)[number], 'entryId' | 'kind'> & { members: { name: string; leg: number | null }[] })[]>();
  for (const { entryId, kind: _kind, ...l } of lanes) byHeat.set(l.heatId, [...(byHeat.get(l.heatId) ?? []), { ...l, members: (members.get(entryId) ?? []).map((m) => ({ name: m.name, leg: m.leg })) }]);
  return {
    arrangeState: meet.arrangeState,
    drawSeed: meet.drawSeed,
    drawMode: meet.drawMode,
    days: meetDays(meet.startDate, meet.endDate),
    heats: heats.map((h) => ({ ...h, athletes: byHeat.get(h.id) ?? [] })),
    conflicts: findConflicts(...(await scheduleArgs(db, meetId)), { changeover: meet.changeover, minRest: meet.minRest }),
  };
}

async function scheduleArgs(db: DbOrTx, meetId: string): Promise<[ScheduleHeat[], Slot[]]> {
  const { heats, slots } = await scheduleHeats(db, meetId);
  return [heats, slots];
}

