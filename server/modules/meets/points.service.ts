import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { formatMark } from '@/domain/meets/marks';
import { eventPoints, standings, type PointsLine } from '@/domain/meets/points';
import type { DbOrTx } from '../../db/client';
import { meetAthletes, meetEntries, meetEvents, meetGroups, meetHeats, meetRecords, meetResults } from '../../db/schema/meets';
import { classes, grades, students } from '../../db/schema/school';
import type { Actor } from '../../plugins/tenant';
import { entryName } from './entry.service';
import { tenantMeet } from './meet.service';
import { publicNamesOf } from '../consent/consent.service';

/**
 * Points (docs/product-rules.md#meets): from the published, valid places of each event's last round (the final, or a
 * straight final), by the meet's points table; class, grade and individual standings.
 */
/**
 * A place that counts, for the points and the certificates alike: published, valid, placed, and in the event's last
 * round (the final, or the straight final). Needs meet_results, meet_heats and meet_events in the query.
 */
export const countedPlace = and(
  eq(meetResults.state, 'published'),
  eq(meetResults.invalid, false),
  sql`${meetResults.place} is not null`,
  sql`${meetHeats.round} = (select max(h2.round) from meet_heats h2 where h2.event_id = ${meetEvents.id})`,
);

/** Every counted place of a meet with its points, in group, event and place order (the points and the results book). */
export async function placedLines(db: DbOrTx, actor: Actor, meetId: string) {
  const meet = await tenantMeet(db, actor, meetId);
  const rows = await db
    .select({
      eventId: meetEvents.id,
      eventName: meetEvents.name,
      groupName: meetGroups.name,
      type: meetEvents.type,
      kind: meetEvents.resultKind,
      // A team scores as one entry (its id stands where an athlete's would).
      athleteId: sql<string>`coalesce(${meetAthletes.id}, ${meetEntries.id})`,
      name: entryName,
      classId: meetEntries.classId,
      className: classes.name,
      gradeId: sql<string>`coalesce(${meetAthletes.gradeId}, ${classes.gradeId})`,
      place: meetResults.place,
      mark: meetResults.mark,
      newRecord: meetResults.newRecord,
    })
    .from(meetResults)
    .innerJoin(meetHeats, eq(meetHeats.id, meetResults.heatId))
    .innerJoin(meetEvents, eq(meetEvents.id, meetHeats.eventId))
    .innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId))
    .innerJoin(meetEntries, eq(meetEntries.id, meetResults.entryId))
    .leftJoin(meetAthletes, eq(meetAthletes.id, meetEntries.athleteId))
    .leftJoin(students, eq(students.id, meetAthletes.studentId))
    .innerJoin(classes, eq(classes.id, meetEntries.classId))
    .where(
      and(
        eq(meetResults.meetId, meetId),
        countedPlace,
      ),
    )
    .orderBy(asc(meetGroups.sort), asc(meetEvents.sort), asc(meetResults.place));
  const rules = { table: meet.pointsTable, relayFactor: meet.relayFactor, recordBonus: meet.recordBonus };
  const lines: (PointsLine & (typeof rows)[number])[] = [];
  for (const eventId of new Set(rows.map((r) => r.eventId))) {
    const ofEvent = rows.filter((r) => r.eventId === eventId);
    const pts = eventPoints(rules, ofEvent.map((r) => ({ athleteId: r.athleteId, classId: r.classId, gradeId: r.gradeId, place: r.place!, relay: r.type === 'relay', newRecord: r.newRecord })));
    pts.forEach((p, i) => lines.push({ ...ofEvent[i], ...p }));
  }
  return { meet, rows, lines };
}

export async function meetPoints(db: DbOrTx, actor: Actor, meetId: string) {
  const { rows, lines } = await placedLines(db, actor, meetId);
  const scoring = lines.filter((l) => l.points > 0);
  const classNames = new Map(rows.map((r) => [r.classId, r.className]));
  const gradeIds = [...new Set(rows.map((r) => r.gradeId))];
  const gradeRows = gradeIds.length ? await db.select({ id: grades.id, stage: grades.stage, gradeNo: grades.gradeNo }).from(grades).where(sql`${grades.id} in ${gradeIds}`) : [];
  const athleteNames = new Map(rows.map((r) => [r.athleteId, `${r.name}（${r.className}）`]));
  return {
    classes: standings(scoring, (l) => l.classId).map((s) => ({ ...s, name: classNames.get(s.id) ?? '' })),
    grades: standings(scoring, (l) => l.gradeId).map((s) => ({ ...s, grade: gradeRows.find((g) => g.id === s.id) ?? null })),
    // Relay points go to the class, not to the runners' all-round ranking.
    athletes: standings(scoring.filter((l) => !l.relay), (l) => l.athleteId).slice(0, 20).map((s) => ({ ...s, name: athleteNames.get(s.id) ?? '' })),
    lines: scoring.map((l) => ({ eventName: l.eventName, groupName: l.groupName, name: l.name, classId: l.classId, className: l.className, place: l.place, mark: formatMark(l.kind, l.mark), points: l.points, newRecord: l.newRecord })),
  };
}

/** The live board: latest published results, upcoming heats, the class points and new records. */
export async function meetBoard(db: DbOrTx, actor: Actor, meetId: string) {
  const meet = await tenantMeet(db, actor, meetId);
  const points = await meetPoints(db, actor, meetId);
  const latest = await db
    .select({ heatId: meetHeats.id, eventName: meetEvents.name, groupName: meetGroups.name, round: meetHeats.round, no: meetHeats.no, kind: meetEvents.resultKind, publishedAt: sql<string>`max(${meetResults.publishedAt})` })
    .from(meetResults)
    .innerJoin(meetHeats, eq(meetHeats.id, meetResults.heatId))
    .innerJoin(meetEvents, eq(meetEvents.id, meetHeats.eventId))
    .innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId))
    .where(and(eq(meetResults.meetId, meetId), eq(meetResults.state, 'published')))
    .groupBy(meetHeats.id, meetEvents.name, meetGroups.name, meetEvents.resultKind)
    .orderBy(desc(sql`max(${meetResults.publishedAt})`))
    .limit(4);
  const top = latest.length
    ? await db
        .select({ heatId: meetResults.heatId, place: meetResults.place, mark: meetResults.mark, name: entryName, className: classes.name, newRecord: meetResults.newRecord, studentId: students.id, teamName: meetEntries.teamName })
        .from(meetResults)
        .innerJoin(meetEntries, eq(meetEntries.id, meetResults.entryId))
        .leftJoin(meetAthletes, eq(meetAthletes.id, meetEntries.athleteId))
        .leftJoin(students, eq(students.id, meetAthletes.studentId))
        .innerJoin(classes, eq(classes.id, meetEntries.classId))
        .where(and(sql`${meetResults.heatId} in ${latest.map((l) => l.heatId)}`, eq(meetResults.invalid, false), sql`${meetResults.place} is not null`))
        .orderBy(asc(meetResults.place))
    : [];
  const upcoming = await db
    .select({ id: meetHeats.id, eventName: meetEvents.name, groupName: meetGroups.name, round: meetHeats.round, no: meetHeats.no, day: meetHeats.day, startMin: meetHeats.startMin })
    .from(meetHeats)
    .innerJoin(meetEvents, eq(meetEvents.id, meetHeats.eventId))
    .innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId))
    .where(and(eq(meetHeats.meetId, meetId), sql`${meetHeats.startMin} is not null`, sql`not exists (select 1 from meet_results r where r.heat_id = ${meetHeats.id} and r.state = 'published')`))
    .orderBy(asc(meetHeats.day), asc(meetHeats.startMin))
    .limit(6);
  const records = await db
    .select({ id: meetRecords.id, eventName: meetRecords.eventName, groupName: meetRecords.groupName, holder: meetRecords.holder, className: meetRecords.className, mark: meetRecords.mark, kind: meetRecords.resultKind, state: meetRecords.state, studentId: meetAthletes.studentId, teamName: meetEntries.teamName })
    .from(meetRecords)
    .leftJoin(meetResults, eq(meetResults.id, meetRecords.resultId))
    .leftJoin(meetEntries, eq(meetEntries.id, meetResults.entryId))
    .leftJoin(meetAthletes, eq(meetAthletes.id, meetEntries.athleteId))
    .where(and(eq(meetRecords.meetId, meetId), sql`${meetRecords.state} in ('pending', 'current')`))
    .orderBy(desc(meetRecords.createdAt))
    .limit(5);
  // The board is public (score screen, board links): names by the consent rule (docs/product-rules.md#consent); a team keeps its name.
  const shown = await publicNamesOf(db, actor.tenantOrgId, [...top.map((t) => t.studentId), ...records.map((r) => r.studentId)]);
  const nameOf = (p: { studentId: string | null; teamName: string | null }, name: string) => (p.teamName ? name : shown(p.studentId, name));
  return {
    name: meet.name,
    startDate: meet.startDate,
    latest: latest.map((l) => ({
      ...l,
      results: top
        .filter((t) => t.heatId === l.heatId)
        .slice(0, 8)
        .map(({ studentId, teamName, ...t }) => ({ ...t, name: nameOf({ studentId, teamName }, t.name), mark: formatMark(l.kind, t.mark) })),
    })),
    upcoming,
    classes: points.classes.slice(0, 10),
    records: records.map(({ studentId, teamName, ...r }) => ({ ...r, holder: nameOf({ studentId, teamName }, r.holder), mark: formatMark(r.kind, r.mark) })),
  };
}
