import { and, asc, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import {
  contestStatus,
  LEADERBOARD_MAX_ROWS,
  levelsCleared,
  type ContestListQuery,
  type ContestRow,
  type ContestSave,
  type ContestStatus,
  type Leaderboard,
  type LeaderboardClassRow,
  type LeaderboardQuery,
  type LeaderboardStudentRow,
  type ParticipationDay,
} from '@/domain/contests/contests';
import { ACTIVITY_ITEMS, type ActivityItemKey } from '@/domain/activities/items';
import type { Family } from '@/domain/menus/access';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { DbOrTx, Tx } from '../../db/client';
import { activityRecords } from '../../db/schema/activities';
import { contestScores, contests } from '../../db/schema/contests';
import { classes, colleges, students } from '../../db/schema/school';
import { AppError, fieldError } from '../../lib/app-error';
import { inClassScope, type ClassScope } from '../../lib/data-scope';
import { containsPattern } from '../../lib/query';
import { lockVersion, nextVersion, notFound } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { isoInstant } from '../../lib/iso';
import { datedOwnerYears, inRecordYears } from '../activities/owner-years';

/** Who manages contests: the family decides which kinds exist (challenges at universities only). */
export interface ContestCaller {
  actor: Actor;
  family: Family;
  now: Date;
}

export type ContestRecord = typeof contests.$inferSelect;

/** The contest types a family may create (docs/product-rules.md#contests). */
export const familyTypes = (family: Family) => (family === 'gx' ? (['rank', 'challenge'] as const) : (['rank'] as const));

/** SQL of the status at `now`, the same rule as `contestStatus` (China days; an early end ends at once). */
function statusSql(now: Date): SQL<ContestStatus> {
  const start = sql`(${contests.startDate}::timestamp at time zone ${ORG_TIME_ZONE})`;
  const end = sql`least(((${contests.endDate} + 1)::timestamp at time zone ${ORG_TIME_ZONE}), coalesce(${contests.endedAt}, 'infinity'::timestamptz))`;
  const at = sql`${now.toISOString()}::timestamptz`;
  return sql<ContestStatus>`case when ${at} >= ${end} then 'ended' when ${at} >= ${start} then 'running' else 'notStarted' end`;
}

const participants = sql<number>`(select count(distinct ${contestScores.studentId})::int from ${contestScores} where ${contestScores.contestId} = ${contests.id})`;

function toRow(c: ContestRecord, count: number, now: Date): ContestRow {
  return {
    id: c.id,
    orgId: c.orgId,
    type: c.type,
    name: c.name,
    startDate: c.startDate,
    endDate: c.endDate,
    endedAt: isoInstant(c.endedAt),
    status: contestStatus(c, now),
    gradeNos: c.gradeNos,
    classIds: c.classIds,
    collegeIds: c.collegeIds,
    items: c.items,
    rule: c.rule,
    prizes: c.prizes,
    levels: c.levels,
    passLevels: c.passLevels,
    participants: count,
    version: c.version,
    createdAt: c.createdAt.toISOString(),
  };
}

const ofTenant = (actor: Actor) => eq(contests.orgId, actor.tenantOrgId);

/** Contests of the organisation, newest first, filtered by name, status and type. */
export async function contestPage(db: DbOrTx, { actor, family, now }: ContestCaller, q: ContestListQuery): Promise<Page<ContestRow>> {
  const where = and(
    ofTenant(actor),
    inArray(contests.type, [...familyTypes(family)]),
    q.name ? ilike(contests.name, containsPattern(q.name)) : undefined,
    q.status ? sql`${statusSql(now)} = ${q.status}` : undefined,
    q.type ? eq(contests.type, q.type) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ c: contests, participants })
      .from(contests)
      .where(where)
      .orderBy(desc(contests.startDate), desc(contests.createdAt), asc(contests.id))
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    db.select({ total: sql<number>`count(*)::int` }).from(contests).where(where),
  ]);
  return { records: rows.map((r) => toRow(r.c, r.participants, now)), total, current: q.current, size: q.size };
}

export async function loadContest(db: DbOrTx, { actor, family }: ContestCaller, id: string): Promise<ContestRecord> {
  const [c] = await db
    .select()
    .from(contests)
    .where(and(eq(contests.id, id), ofTenant(actor), inArray(contests.type, [...familyTypes(family)])));
  if (!c) throw notFound();
  return c;
}

export async function contestById(db: DbOrTx, caller: ContestCaller, id: string): Promise<ContestRow> {
  const c = await loadContest(db, caller, id);
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(contestScores).where(eq(contestScores.contestId, id));
  return toRow(c, n, caller.now);
}

/** Rules the schema cannot see: the family's types, scope references of the organisation, an end not already past. */
async function checkSave(tx: DbOrTx, { actor, family, now }: ContestCaller, body: ContestSave, today: string): Promise<void> {
  if (!(familyTypes(family) as readonly string[]).includes(body.type)) throw fieldError('type', 'contests:validation.type');
  if (body.endDate < today) throw fieldError('endDate', 'contests:validation.endPast');
  if (family === 'admin' && (body.classIds.length || body.collegeIds.length)) throw fieldError('classIds', 'contests:validation.classes');
  if (family !== 'gx' && body.collegeIds.length) throw fieldError('collegeIds', 'contests:validation.colleges');
  if (body.classIds.length) {
    const n = await tx.$count(classes, and(eq(classes.orgId, actor.tenantOrgId), inArray(classes.id, body.classIds)));
    if (n !== new Set(body.classIds).size) throw fieldError('classIds', 'contests:validation.classes');
  }
  if (body.collegeIds.length) {
    const n = await tx.$count(colleges, and(eq(colleges.orgId, actor.tenantOrgId), inArray(colleges.id, body.collegeIds)));
    if (n !== new Set(body.collegeIds).size) throw fieldError('collegeIds', 'contests:validation.colleges');
  }
  void now;
}

const localToday = (now: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ORG_TIME_ZONE }).format(now);

function values(body: ContestSave) {
  const challenge = body.type === 'challenge';
  return {
    name: body.name,
    startDate: body.startDate,
    endDate: body.endDate,
    gradeNos: [...new Set(body.gradeNos)].sort((a, b) => a - b),
    classIds: [...new Set(body.classIds)],
    collegeIds: [...new Set(body.collegeIds)],
    items: body.items,
    // A challenge ranks by each student's best entry; its levels say how far that entry got.
    rule: challenge ? ('best' as const) : body.rule,
    prizes: body.prizes ?? null,
    levels: challenge ? body.levels : [],
    passLevels: challenge ? (body.passLevels ?? null) : null,
  };
}

export async function createContest(tx: Tx, caller: ContestCaller, body: ContestSave): Promise<ContestRow> {
  await checkSave(tx, caller, body, localToday(caller.now));
  const [c] = await tx
    .insert(contests)
    .values({ orgId: caller.actor.tenantOrgId, type: body.type, createdBy: caller.actor.userId, ...values(body) })
    .returning();
  return toRow(c, 0, caller.now);
}

/** An ended contest is not editable (409); its type never changes. */
export async function updateContest(tx: Tx, caller: ContestCaller, id: string, body: ContestSave) {
  await loadContest(tx, caller, id);
  const before = (await lockVersion(tx, contests, id, ofTenant(caller.actor), body.version ?? -1)) as ContestRecord;
  if (contestStatus(before, caller.now) === 'ended') throw new AppError(409, 'contests:endedNotEditable');
  if (body.type !== before.type) throw fieldError('type', 'contests:validation.typeFixed');
  await checkSave(tx, caller, body, localToday(caller.now));
  const [after] = await tx
    .update(contests)
    .set({ ...values(body), version: nextVersion(contests.version) })
    .where(eq(contests.id, id))
    .returning();
  return { before, after: await contestById(tx, caller, after.id) };
}

/** Ends a contest at once (docs/product-rules.md#contests): entries measured from now on are refused. */
export async function endContest(tx: Tx, caller: ContestCaller, id: string) {
  const before = await loadContest(tx, caller, id);
  if (contestStatus(before, caller.now) === 'ended') throw new AppError(409, 'contests:alreadyEnded');
  await tx
    .update(contests)
    .set({ endedAt: caller.now, version: nextVersion(contests.version) })
    .where(eq(contests.id, id));
  return { before, after: await contestById(tx, caller, id) };
}

/** Deletes a contest with its entries (the entries' roll-ups go with them, by trigger); answers the contest and the count. */
export async function deleteContest(tx: Tx, caller: ContestCaller, id: string) {
  const before = await loadContest(tx, caller, id);
  const removed = await tx
    .delete(activityRecords)
    .where(and(eq(activityRecords.kind, 'contest'), eq(activityRecords.refId, id), inRecordYears(activityRecords.schoolYear, datedOwnerYears(before))))
    .returning({ id: activityRecords.id });
  await tx.delete(contests).where(eq(contests.id, id));
  return { ...before, entriesDeleted: removed.length };
}

// ---- leaderboards -------------------------------------------------------------------------------------------------

/** The reader of a contest's data: its manager, limited to the classes of their data scope. */
export interface ContestReader extends ContestCaller {
  classScope: ClassScope;
}

function pickItem(c: ContestRecord, item: ActivityItemKey | undefined): ActivityItemKey {
  if (!item) return c.items[0];
  if (!c.items.includes(item)) throw fieldError('item', 'contests:validation.item');
  return item;
}

/** A student's score of an item under the rule, as SQL over contest_scores. */
function scoreSql(rule: ContestRecord['rule'], lowerIsBetter: boolean): SQL<number> {
  if (rule === 'sum') return sql<number>`${contestScores.total}`;
  if (rule === 'count') return sql<number>`${contestScores.sessions}::float8`;
  return lowerIsBetter ? sql<number>`${contestScores.minValue}` : sql<number>`${contestScores.maxValue}`;
}

/**
 * The live leaderboard of one item (docs/product-rules.md#contests): one SQL statement over the contest's roll-up
 * (valid entries only). Ranks are over every participant (ties share a rank); a reader limited to some classes sees
 * the rows of those classes with their overall ranks.
 */
export async function studentLeaderboard(db: DbOrTx, reader: ContestReader, id: string, q: LeaderboardQuery, limit = LEADERBOARD_MAX_ROWS): Promise<Leaderboard<LeaderboardStudentRow>> {
  const c = await loadContest(db, reader, id);
  const item = pickItem(c, q.item);
  const lowerIsBetter = c.rule === 'best' && (ACTIVITY_ITEMS.get(item)?.lowerIsBetter ?? false);
  const score = scoreSql(c.rule, lowerIsBetter);
  const order = lowerIsBetter ? sql`asc` : sql`desc`;
  const ranked = db
    .select({
      studentId: contestScores.studentId,
      classId: contestScores.classId,
      score: sql<number>`${score}`.as('score'),
      sessions: contestScores.sessions,
      lastAt: contestScores.lastAt,
      rank: sql<number>`rank() over (order by ${score} ${order})::int`.as('rank'),
    })
    .from(contestScores)
    .where(and(eq(contestScores.contestId, id), eq(contestScores.item, item)))
    .as('ranked');
  const rows = await db
    .select({
      rank: ranked.rank,
      studentId: ranked.studentId,
      name: students.name,
      regNo: students.regNo,
      className: classes.name,
      score: ranked.score,
      sessions: ranked.sessions,
      lastAt: ranked.lastAt,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(ranked)
    .innerJoin(students, eq(students.id, ranked.studentId))
    .innerJoin(classes, eq(classes.id, ranked.classId))
    .where(inClassScope(reader.classScope, ranked.classId))
    .orderBy(asc(ranked.rank), asc(ranked.lastAt), asc(ranked.studentId))
    .limit(limit);
  const challenge = c.type === 'challenge';
  return {
    item,
    rule: c.rule,
    lowerIsBetter,
    total: rows[0]?.total ?? 0,
    rows: rows.map(({ total: _total, lastAt, ...r }) => {
      const levels = challenge ? levelsCleared(c.levels, item, r.score) : undefined;
      return { ...r, lastAt: isoInstant(lastAt), ...(challenge ? { levels, passed: (levels ?? 0) >= (c.passLevels ?? Infinity) } : {}) };
    }),
  };
}

/** The classes' leaderboard of one item: participants, mean score and sessions per class (the class of each student's last entry). */
export async function classLeaderboard(db: DbOrTx, reader: ContestReader, id: string, q: LeaderboardQuery): Promise<Leaderboard<LeaderboardClassRow>> {
  const c = await loadContest(db, reader, id);
  const item = pickItem(c, q.item);
  const lowerIsBetter = c.rule === 'best' && (ACTIVITY_ITEMS.get(item)?.lowerIsBetter ?? false);
  const score = scoreSql(c.rule, lowerIsBetter);
  const order = lowerIsBetter ? sql`asc` : sql`desc`;
  // A challenge counts the participants whose best entry clears the pass level (the level thresholds, in order).
  const passLevel = c.type === 'challenge' && c.passLevels ? c.levels[c.passLevels - 1] : undefined;
  const passed = passLevel
    ? sql<number>`(count(*) filter (where ${score} ${lowerIsBetter ? sql`<=` : sql`>=`} ${passLevel.threshold}))::int`
    : sql<number>`0`;
  const perClass = db
    .select({
      classId: contestScores.classId,
      participants: sql<number>`count(*)::int`.as('participants'),
      score: sql<number>`avg(${score})`.as('score'),
      sessions: sql<number>`sum(${contestScores.sessions})::int`.as('sessions'),
      passed: passed.as('passed'),
      rank: sql<number>`rank() over (order by avg(${score}) ${order})::int`.as('rank'),
    })
    .from(contestScores)
    .where(and(eq(contestScores.contestId, id), eq(contestScores.item, item)))
    .groupBy(contestScores.classId)
    .as('per_class');
  const rows = await db
    .select({
      rank: perClass.rank,
      classId: perClass.classId,
      className: classes.name,
      participants: perClass.participants,
      score: perClass.score,
      sessions: perClass.sessions,
      passed: perClass.passed,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(perClass)
    .innerJoin(classes, eq(classes.id, perClass.classId))
    .where(inClassScope(reader.classScope, perClass.classId))
    .orderBy(asc(perClass.rank), asc(classes.name))
    .limit(LEADERBOARD_MAX_ROWS);
  return {
    item,
    rule: c.rule,
    lowerIsBetter,
    total: rows[0]?.total ?? 0,
    rows: rows.map(({ total: _total, passed: p, ...r }) => ({ ...r, score: Math.round(Number(r.score) * 100) / 100, ...(c.type === 'challenge' ? { passed: p } : {}) })),
  };
}

/** Valid entries and distinct students per China day of the contest (the reader's classes only). */
export async function participation(db: DbOrTx, reader: ContestReader, id: string): Promise<ParticipationDay[]> {
  const contest = await loadContest(db, reader, id);
  const day = sql<string>`to_char((${activityRecords.measuredAt} at time zone ${ORG_TIME_ZONE})::date, 'YYYY-MM-DD')`;
  const rows = await db
    .select({ day, entries: sql<number>`count(*)::int`, students: sql<number>`count(distinct ${activityRecords.studentId})::int` })
    .from(activityRecords)
    .where(
      and(
        eq(activityRecords.kind, 'contest'),
        eq(activityRecords.refId, id),
        inRecordYears(activityRecords.schoolYear, datedOwnerYears(contest)),
        eq(activityRecords.invalid, false),
        inClassScope(reader.classScope, activityRecords.classId),
      ),
    )
    // By position: the day expression carries a parameter, so repeating it would not match the select's.
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  return rows;
}
