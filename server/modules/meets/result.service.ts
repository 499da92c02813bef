import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { lanePreference } from '@/domain/meets/draw';
import { usesLanes } from '@/domain/meets/meets';
import { advancers, bestAttempt, rankResults } from '@/domain/meets/ranking';
import { isNewRecord } from '@/domain/meets/points';
import type { HeatResults, InvalidRequest, ResultRow, ResultStep } from '@/domain/meets/results';
import type { DbOrTx, Tx } from '../../db/client';
import { meetAthletes, meetEntries, meetEvents, meetGroups, meetHeats, meetRecords, meetResults } from '../../db/schema/meets';
import { classes, students } from '../../db/schema/school';
import { AppError } from '../../lib/app-error';
import { notFound } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { entryBib, entryName, teamLegNames } from './entry.service';
import { tenantMeet } from './meet.service';
import { deleteRecord } from './record.service';
import { localDate } from '@/domain/dates';

/**
 * Results (docs/product-rules.md#meets): entry per heat (state entered), review (confirmed) and publication
 * (published) by a reviewer; places per round; advancement to the final once every heat is published; records
 * flagged for review.
 */

const resultColumns = {
  id: meetResults.id,
  heatId: meetResults.heatId,
  entryId: meetResults.entryId,
  lane: meetResults.lane,
  studentName: entryName,
  legNames: teamLegNames,
  className: classes.name,
  bib: entryBib,
  mark: meetResults.mark,
  attempts: meetResults.attempts,
  failuresAtBest: meetResults.failuresAtBest,
  failures: meetResults.failures,
  status: meetResults.status,
  state: meetResults.state,
  place: meetResults.place,
  invalid: meetResults.invalid,
  invalidReason: meetResults.invalidReason,
  newRecord: meetResults.newRecord,
  qualified: meetResults.qualified,
  version: meetResults.version,
};

export async function heatResults(db: DbOrTx, actor: Actor, meetId: string, heatId: string): Promise<ResultRow[]> {
  await tenantMeet(db, actor, meetId);
  const [heat] = await db.select({ id: meetHeats.id }).from(meetHeats).where(and(eq(meetHeats.id, heatId), eq(meetHeats.meetId, meetId)));
  if (!heat) throw notFound();
  return db
    .select(resultColumns)
    .from(meetResults)
    .innerJoin(meetEntries, eq(meetEntries.id, meetResults.entryId))
    .leftJoin(meetAthletes, eq(meetAthletes.id, meetEntries.athleteId))
    .leftJoin(students, eq(students.id, meetAthletes.studentId))
    .innerJoin(classes, eq(classes.id, meetEntries.classId))
    .where(eq(meetResults.heatId, heatId))
    .orderBy(asc(meetResults.lane));
}

async function heatOf(tx: Tx, meetId: string, heatId: string) {
  const [row] = await tx
    .select({ h: meetHeats, e: meetEvents })
    .from(meetHeats)
    .innerJoin(meetEvents, eq(meetEvents.id, meetHeats.eventId))
    .where(and(eq(meetHeats.id, heatId), eq(meetHeats.meetId, meetId)));
  if (!row) throw notFound();
  return row;
}

/** Enters (or corrects) the results of one heat; confirmed and published results are locked. */
export async function enterResults(tx: Tx, actor: Actor, meetId: string, heatId: string, body: HeatResults) {
  const meet = await tenantMeet(tx, actor, meetId);
  if (meet.endedAt) throw new AppError(409, 'meets:v.ended');
  const { e } = await heatOf(tx, meetId, heatId);
  const rows = await tx.select().from(meetResults).where(and(eq(meetResults.heatId, heatId), inArray(meetResults.id, body.results.map((r) => r.id)))).for('update');
  if (rows.length !== body.results.length) throw notFound();
  for (const line of body.results) {
    const row = rows.find((r) => r.id === line.id)!;
    if (row.state === 'confirmed' || row.state === 'published') throw new AppError(409, 'meets:v.resultLocked');
    if (line.version !== undefined && line.version !== row.version) throw new AppError(409, 'errors:staleWrite');
    const attempts = line.attempts ?? null;
    const mark = line.status !== 'ok' ? null : attempts?.length ? bestAttempt(e.resultKind, attempts) : (line.mark ?? null);
    await tx
      .update(meetResults)
      .set({ mark, attempts, failuresAtBest: line.failuresAtBest ?? null, failures: line.failures ?? null, status: line.status, state: 'entered', enteredBy: actor.userId, version: sql`${meetResults.version} + 1` })
      .where(eq(meetResults.id, row.id));
  }
  await placeRound(tx, e.id, (await heatOf(tx, meetId, heatId)).h.round);
  return { before: rows, after: body.results };
}

/** Places of every result of an event's round (over all its heats). */
async function placeRound(tx: Tx, eventId: string, round: number) {
  const [event] = await tx.select().from(meetEvents).where(eq(meetEvents.id, eventId));
  const rows = await tx
    .select({ r: meetResults })
    .from(meetResults)
    .innerJoin(meetHeats, eq(meetHeats.id, meetResults.heatId))
    .where(and(eq(meetHeats.eventId, eventId), eq(meetHeats.round, round)));
  const places = rankResults(event.resultKind, rows.map(({ r }) => r));
  const values = rows.map(({ r }) => ({ id: r.id, place: places.get(r.id) ?? null }));
  if (values.length)
    await tx.execute(sql`update meet_results m set place = x.place from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as x(id uuid, place smallint) where m.id = x.id`);
}

/** Confirms entered results, or publishes confirmed ones (then advancement and record checks). */
export async function stepResults(tx: Tx, actor: Actor, meetId: string, body: ResultStep, now: Date) {
  const meet = await tenantMeet(tx, actor, meetId);
  const heats = await tx.select().from(meetHeats).where(and(eq(meetHeats.meetId, meetId), inArray(meetHeats.id, body.heatIds)));
  if (heats.length !== new Set(body.heatIds).size) throw notFound();
  const from = body.step === 'confirm' ? 'entered' : 'confirmed';
  const to = body.step === 'confirm' ? 'confirmed' : 'published';
  const rows = await tx.select({ id: meetResults.id, state: meetResults.state }).from(meetResults).where(inArray(meetResults.heatId, body.heatIds));
  if (!rows.length || rows.some((r) => r.state !== from && r.state !== to)) throw new AppError(409, body.step === 'confirm' ? 'meets:v.notEntered' : 'meets:v.notConfirmed');
  await tx
    .update(meetResults)
    .set(body.step === 'confirm' ? { state: to, confirmedBy: actor.userId } : { state: to, publishedAt: now })
    .where(and(inArray(meetResults.heatId, body.heatIds), eq(meetResults.state, from)));
  if (to === 'published') {
    for (const eventId of new Set(heats.map((h) => h.eventId))) {
      await advance(tx, meetId, eventId);
      await flagRecords(tx, meet.orgId, meetId, eventId, now);
    }
  }
  return { before: { state: from, heatIds: body.heatIds }, after: { state: to } };
}

/** Once every heat of round 0 of a heats→final event is published, fills the final with the advancers. */
async function advance(tx: Tx, meetId: string, eventId: string) {
  const [event] = await tx.select().from(meetEvents).where(eq(meetEvents.id, eventId));
  if (event.rounds !== 'heatsFinal') return;
  const [final] = await tx.select().from(meetHeats).where(and(eq(meetHeats.eventId, eventId), eq(meetHeats.round, 1)));
  if (!final || (await tx.$count(meetResults, eq(meetResults.heatId, final.id))) > 0) return;
  const rows = await tx.select({ r: meetResults, no: meetHeats.no }).from(meetResults).innerJoin(meetHeats, eq(meetHeats.id, meetResults.heatId)).where(and(eq(meetHeats.eventId, eventId), eq(meetHeats.round, 0)));
  if (rows.some(({ r }) => r.state !== 'published')) return;
  const ids = advancers(event.resultKind, rows.map(({ r, no }) => ({ ...r, heatNo: no })), event.advanceByPlace, event.finalSize);
  const pref = usesLanes(event.type) ? lanePreference(event.lanes) : ids.map((_, i) => ids.length - i);
  const entryOf = new Map(rows.map(({ r }) => [r.id, r.entryId]));
  if (ids.length) await tx.insert(meetResults).values(ids.map((id, i) => ({ meetId, heatId: final.id, entryId: entryOf.get(id)!, lane: pref[i] })));
  await tx.update(meetResults).set({ qualified: true }).where(inArray(meetResults.id, ids.length ? ids : ['00000000-0000-0000-0000-000000000000']));
}

/** The round whose places count (the final, or the only round). */
async function finalRound(tx: DbOrTx, eventId: string): Promise<number> {
  const [r] = await tx.select({ round: sql<number>`coalesce(max(${meetHeats.round}), 0)::int` }).from(meetHeats).where(eq(meetHeats.eventId, eventId));
  return r.round;
}

/** A published winning mark of the final that beats the current meet record is flagged and a pending record added. */
async function flagRecords(tx: Tx, orgId: string, meetId: string, eventId: string, now: Date) {
  const [event] = await tx.select({ e: meetEvents, groupName: meetGroups.name }).from(meetEvents).innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId)).where(eq(meetEvents.id, eventId));
  const round = await finalRound(tx, eventId);
  const [best] = await tx
    .select({ id: meetResults.id, mark: meetResults.mark, name: entryName, className: classes.name })
    .from(meetResults)
    .innerJoin(meetHeats, eq(meetHeats.id, meetResults.heatId))
    .innerJoin(meetEntries, eq(meetEntries.id, meetResults.entryId))
    .leftJoin(meetAthletes, eq(meetAthletes.id, meetEntries.athleteId))
    .leftJoin(students, eq(students.id, meetAthletes.studentId))
    .innerJoin(classes, eq(classes.id, meetEntries.classId))
    .where(and(eq(meetHeats.eventId, eventId), eq(meetHeats.round, round), eq(meetResults.place, 1), eq(meetResults.state, 'published'), eq(meetResults.invalid, false)))
    .limit(1);
  if (!best?.mark) return;
  for (const scope of ['meet', 'school'] as const) {
    const [current] = await tx
      .select()
      .from(meetRecords)
      .where(and(eq(meetRecords.orgId, orgId), eq(meetRecords.scope, scope), eq(meetRecords.eventName, event.e.name), eq(meetRecords.groupName, event.groupName), eq(meetRecords.state, 'current')));
    // A school record exists only when someone keeps one; a meet record is started by the first meet.
    if (scope === 'school' && !current) continue;
    if (!isNewRecord(event.e.resultKind, best.mark, current?.mark)) continue;
    const pending = await tx.$count(meetRecords, and(eq(meetRecords.resultId, best.id), eq(meetRecords.scope, scope)));
    if (pending) continue;
    await tx.insert(meetRecords).values({
      orgId,
      scope,
      eventName: event.e.name,
      groupName: event.groupName,
      resultKind: event.e.resultKind,
      mark: best.mark,
      holder: best.name,
      className: best.className,
      setOn: localDate(now),
      meetId,
      resultId: best.id,
      state: 'pending',
    });
    await tx.update(meetResults).set({ newRecord: true }).where(eq(meetResults.id, best.id));
  }
}

/**
 * Sets a result invalid (with its reason) or valid again (docs/product-rules.md#meets): an invalid result has no place,
 * no points and holds no record: a record it set (pending or approved) is removed, and an approved one gives way to
 * the best of its history. Places of the round are recomputed; a published final then checks its records again
 * (the new winner, or the restored result, may beat the record).
 */
export async function setResultInvalid(tx: Tx, actor: Actor, meetId: string, resultId: string, body: InvalidRequest, now: Date) {
  const meet = await tenantMeet(tx, actor, meetId);
  const [row] = await tx.select({ r: meetResults, h: meetHeats }).from(meetResults).innerJoin(meetHeats, eq(meetHeats.id, meetResults.heatId)).where(and(eq(meetResults.id, resultId), eq(meetResults.meetId, meetId)));
  if (!row) throw notFound();
  if (row.r.state === 'pending') throw new AppError(409, 'meets:v.notEntered');
  const { invalid } = body;
  await tx.update(meetResults).set({ invalid, invalidReason: invalid ? (body.reason ?? null) : null, newRecord: invalid ? false : row.r.newRecord, version: sql`${meetResults.version} + 1` }).where(eq(meetResults.id, resultId));
  if (invalid) {
    for (const rec of await tx.select({ id: meetRecords.id }).from(meetRecords).where(eq(meetRecords.resultId, resultId))) await deleteRecord(tx, actor, rec.id);
  }
  await placeRound(tx, row.h.eventId, row.h.round);
  if (row.r.state === 'published' && row.h.round === (await finalRound(tx, row.h.eventId))) {
    // The winner may have changed: pending records of the round are checked again from scratch.
    const round = tx.select({ id: meetResults.id }).from(meetResults).innerJoin(meetHeats, eq(meetHeats.id, meetResults.heatId)).where(and(eq(meetHeats.eventId, row.h.eventId), eq(meetHeats.round, row.h.round)));
    const stale = await tx.delete(meetRecords).where(and(inArray(meetRecords.resultId, round), eq(meetRecords.state, 'pending'))).returning({ resultId: meetRecords.resultId });
    const unflag = stale.flatMap((r) => (r.resultId ? [r.resultId] : []));
    if (unflag.length) await tx.update(meetResults).set({ newRecord: false }).where(inArray(meetResults.id, unflag));
    await flagRecords(tx, meet.orgId, meetId, row.h.eventId, now);
  }
  return { before: { invalid: row.r.invalid, reason: row.r.invalidReason }, after: { invalid, reason: invalid ? (body.reason ?? null) : null } };
}
