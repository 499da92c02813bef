import { and, asc, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import { localDate } from '@/domain/dates';
import { ERR } from '@/domain/errors';
import type { ResultKey } from '@/domain/physique/national-template';
import type { ItemKey } from '@/domain/physique/standard';
import { PARSE_RULES } from '@/domain/physique/parse';
import { planStatus } from '@/domain/test-plans/status';
import { parseTestCardCode } from '@/domain/test-day/test-card';
import {
  checkValue,
  fieldsOfItem,
  MISSING_LISTED_MAX,
  type DeviceValue,
  type EntryAppeal,
  type EntryResolve,
  type EntrySave,
  type EntryView,
  type StationStudent,
  type StationView,
  type TestDayProgress,
  type ValueCheck,
} from '@/domain/test-day/entries';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx, Tx } from '../../db/client';
import { files } from '../../db/schema/files';
import { testRecords } from '../../db/schema/physique';
import { students } from '../../db/schema/school';
import { testDayCheckIns, testDayEntries, testDayStations } from '../../db/schema/test-day';
import { AppError, fieldError } from '../../lib/app-error';
import { classScopeOf, classScopeTest } from '../../lib/data-scope';
import { notFound } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { testDay } from '../physique-results/physique-import.service';
import { itemsFor, loadPlanContext, planScopeClasses, planScopeStudents, scopeStudentsNamed, writeResultInTx, type PlanContext, type ScopeStudent } from '../physique-results/physique-write';
import { assertPlanOpen } from '../test-plans/test-plans.service';
import { ownPlan, stationById } from './station.service';

/**
 * A station's work (docs/product-rules.md#physique-year, test day): check-in, values from devices or typed, the
 * student's confirmation writing the plan's result as an import does, appeals and their resolution by a second
 * teacher, and the day's progress.
 */

type EntryRow = typeof testDayEntries.$inferSelect;
/** Start of a local (China) calendar day as an instant, and the next day's. */
const dayStart = (day: string) => new Date(`${day}T00:00:00+08:00`);

interface StationContext {
  station: Awaited<ReturnType<typeof stationById>>;
  ctx: PlanContext;
}

async function stationContext(db: DbOrTx, actor: Actor, stationId: string): Promise<StationContext> {
  const station = await stationById(db, actor, stationId);
  const plan = await ownPlan(db, actor, station.planId);
  return { station, ctx: await loadPlanContext(db, plan) };
}

/** The fields a student records at a station: the station's items the plan tests for the student's grade and gender. */
function fieldsAt(sc: StationContext, s: Pick<ScopeStudent, 'grade' | 'gender'>): { field: ResultKey; item: ItemKey }[] {
  const mine = new Set(itemsFor(sc.ctx, s.grade, s.gender));
  return sc.station.items.filter((i) => mine.has(i)).flatMap((item) => fieldsOfItem(item).map((field) => ({ field, item })));
}

/** One student of the plan's scope by id, within the actor's data scope; 404 otherwise. */
async function scopeStudentById(db: DbOrTx, actor: Actor, ctx: PlanContext, studentId: string): Promise<ScopeStudent> {
  const [s] = await db.select({ regNo: students.regNo }).from(students).where(and(eq(students.id, studentId), eq(students.orgId, ctx.plan.orgId)));
  if (!s) throw notFound();
  const found = (await scopeStudentsNamed(db, ctx, await planScopeClasses(db, ctx), { regNos: [s.regNo.toUpperCase()] })).find((x) => x.id === studentId);
  if (!found || !classScopeTest(await classScopeOf(db, actor))(found.classId)) throw notFound();
  return found;
}

/**
 * The student a check-in code names (a typed 学籍号 or a scanned test card, src/domain/test-day/test-card.ts): refused
 * with a translated message when unreadable, of another plan, unknown, outside the plan or the teacher's classes.
 */
async function studentOfCode(db: DbOrTx, actor: Actor, ctx: PlanContext, code: string): Promise<ScopeStudent> {
  const parsed = parseTestCardCode(code);
  if (!parsed) throw fieldError('code', 'testDay:checkIn.unreadable');
  if (parsed.planId && parsed.planId !== ctx.plan.id) throw fieldError('code', 'testDay:checkIn.otherPlan');
  const [found] = await scopeStudentsNamed(db, ctx, await planScopeClasses(db, ctx), { regNos: [parsed.regNo.toUpperCase()] });
  if (!found) {
    const known = await db.$count(students, and(eq(students.orgId, ctx.plan.orgId), sql`upper(${students.regNo}) = ${parsed.regNo.toUpperCase()}`));
    throw fieldError('code', known > 0 ? 'testDay:checkIn.notInPlan' : 'testDay:checkIn.unknown', { regNo: parsed.regNo });
  }
  if (!classScopeTest(await classScopeOf(db, actor))(found.classId)) throw fieldError('code', 'testDay:checkIn.outOfScope', { regNo: parsed.regNo });
  return found;
}

const userName = (column: AnyPgColumn) => sql<string | null>`(select u.name from users u where u.id = ${column})`;
const entryColumns = {
  id: testDayEntries.id,
  field: testDayEntries.field,
  value: testDayEntries.value,
  status: testDayEntries.status,
  source: testDayEntries.source,
  deviceSn: testDayEntries.deviceSn,
  outOfRange: testDayEntries.outOfRange,
  enteredBy: userName(testDayEntries.enteredBy),
  enteredAt: testDayEntries.enteredAt,
  confirmedBy: userName(testDayEntries.confirmedBy),
  confirmedAt: testDayEntries.confirmedAt,
  appealNote: testDayEntries.appealNote,
  appealVideoFileId: testDayEntries.appealVideoFileId,
  appealedBy: userName(testDayEntries.appealedBy),
  appealedAt: testDayEntries.appealedAt,
  resolution: testDayEntries.resolution,
  resolvedBy: userName(testDayEntries.resolvedBy),
  resolvedAt: testDayEntries.resolvedAt,
  resolutionNote: testDayEntries.resolutionNote,
  originalValue: testDayEntries.originalValue,
  version: testDayEntries.version,
};
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A student at a station: who, their photo, and per field the entry and the station devices' latest record of today. */
async function stationStudent(db: DbOrTx, sc: StationContext, s: ScopeStudent, now: Date): Promise<StationStudent> {
  const [check] = await db
    .select({ at: testDayCheckIns.checkedInAt })
    .from(testDayCheckIns)
    .where(and(eq(testDayCheckIns.stationId, sc.station.id), eq(testDayCheckIns.studentId, s.id)));
  if (!check) throw notFound();
  const [person] = await db.select({ photoFileId: students.photoFileId }).from(students).where(eq(students.id, s.id));
  const fields = fieldsAt(sc, s);
  const names = fields.map((f) => f.field);
  const entries = names.length === 0 ? [] : await db.select(entryColumns).from(testDayEntries).where(and(eq(testDayEntries.planId, sc.ctx.plan.id), eq(testDayEntries.studentId, s.id), inArray(testDayEntries.field, names)));
  const deviceIds = sc.station.deviceIds;
  const records =
    names.length === 0 || deviceIds.length === 0
      ? []
      : await db
          .selectDistinctOn([testRecords.item], { id: testRecords.id, item: testRecords.item, raw: testRecords.raw, deviceSn: testRecords.deviceSn, testedAt: testRecords.testedAt })
          .from(testRecords)
          .where(
            and(
              eq(testRecords.studentId, s.id),
              inArray(testRecords.item, names),
              gte(testRecords.testedAt, dayStart(localDate(now))),
              eq(testRecords.invalid, false),
              inArray(testRecords.senderKey, deviceIds),
            ),
          )
          .orderBy(asc(testRecords.item), desc(testRecords.testedAt));
  const entryOf = new Map(entries.map((e) => [e.field, e]));
  const recordOf = new Map(records.map((r) => [r.item, r]));
  return {
    station: { id: sc.station.id, name: sc.station.name, planId: sc.ctx.plan.id },
    student: { id: s.id, name: s.name, regNo: s.regNo, gender: s.gender, className: s.className, photoFileId: person?.photoFileId ?? null },
    checkedInAt: check.at.toISOString(),
    fields: fields.map(({ field, item }) => {
      const e = entryOf.get(field);
      const r = recordOf.get(field);
      const entry: EntryView | null = e
        ? {
            ...e,
            field: e.field as ResultKey,
            enteredAt: e.enteredAt.toISOString(),
            confirmedAt: iso(e.confirmedAt),
            appealedAt: iso(e.appealedAt),
            resolvedAt: iso(e.resolvedAt),
          }
        : null;
      const device: DeviceValue | null = r ? { recordId: r.id, value: r.raw, deviceSn: r.deviceSn, testedAt: r.testedAt.toISOString() } : null;
      return { field, item, entry, device };
    }),
  };
}

/** Checks a student in at a station (idempotent) and answers them with their fields. An ended plan refuses (409). */
export async function checkIn(tx: Tx, actor: Actor, stationId: string, code: string, now: Date): Promise<StationStudent> {
  const sc = await stationContext(tx, actor, stationId);
  assertPlanOpen(sc.ctx.plan, now);
  const s = await studentOfCode(tx, actor, sc.ctx, code);
  await tx
    .insert(testDayCheckIns)
    .values({ stationId, planId: sc.ctx.plan.id, studentId: s.id, classId: s.classId, checkedInBy: actor.userId, checkedInAt: now })
    .onConflictDoNothing();
  return stationStudent(tx, sc, s, now);
}

/** A checked-in student at a station (the screen refreshes it for new device records). */
export async function stationStudentOf(db: DbOrTx, actor: Actor, stationId: string, studentId: string, now: Date): Promise<StationStudent> {
  const sc = await stationContext(db, actor, stationId);
  return stationStudent(db, sc, await scopeStudentById(db, actor, sc.ctx, studentId), now);
}

/** The value a save names, checked: typed text parsed like the import, or a station device's record of today. */
async function valueOf(tx: Tx, sc: StationContext, studentId: string, body: EntrySave, now: Date): Promise<{ check: ValueCheck; recordId: string | null; deviceSn: string | null }> {
  if (body.source === 'typed') return { check: checkValue(body.field, body.value!, body.confirmOutOfRange === true), recordId: null, deviceSn: null };
  const [record] = await tx
    .select({ id: testRecords.id, raw: testRecords.raw, deviceSn: testRecords.deviceSn })
    .from(testRecords)
    .where(
      and(
        eq(testRecords.id, body.recordId!),
        eq(testRecords.studentId, studentId),
        eq(testRecords.item, body.field),
        eq(testRecords.invalid, false),
        gte(testRecords.testedAt, dayStart(localDate(now))),
        sc.station.deviceIds.length > 0 ? inArray(testRecords.senderKey, sc.station.deviceIds) : sql`false`,
      ),
    );
  if (!record) throw fieldError('recordId', 'testDay:entry.recordUnknown');
  return { check: checkValue(body.field, record.raw, body.confirmOutOfRange === true), recordId: record.id, deviceSn: record.deviceSn };
}

/** A refused value: the parser's message on `value`, or the out-of-range stop on `confirmOutOfRange` (the screen asks for a second look). */
function refuse(field: ResultKey, check: Exclude<ValueCheck, { ok: true }>): AppError {
  if (check.error === 'testDay:entry.outOfRange') {
    const rule = PARSE_RULES[field];
    return fieldError('confirmOutOfRange', 'testDay:entry.outOfRange', { value: check.value ?? '', min: rule.min, max: rule.max });
  }
  return fieldError('value', check.error, check.params ?? {});
}

async function lockEntry(tx: Tx, actor: Actor, id: string): Promise<EntryRow> {
  const [row] = await tx.select().from(testDayEntries).where(and(eq(testDayEntries.id, id), eq(testDayEntries.orgId, actor.tenantOrgId))).for('update');
  if (!row) throw notFound();
  return row;
}

/**
 * A value for one field of a checked-in student (waiting for the student's confirmation). A value waiting already is
 * replaced when the save names its version; a confirmed or appealed one is changed only through an appeal.
 */
export async function enterValue(tx: Tx, actor: Actor, stationId: string, body: EntrySave, now: Date): Promise<{ before: EntryRow | null; after: EntryRow; answer: StationStudent }> {
  const sc = await stationContext(tx, actor, stationId);
  assertPlanOpen(sc.ctx.plan, now);
  const s = await scopeStudentById(tx, actor, sc.ctx, body.studentId);
  const checked = await tx.$count(testDayCheckIns, and(eq(testDayCheckIns.stationId, stationId), eq(testDayCheckIns.studentId, s.id)));
  if (checked === 0) throw fieldError('studentId', 'testDay:entry.notCheckedIn');
  if (!fieldsAt(sc, s).some((f) => f.field === body.field)) throw fieldError('field', 'testDay:entry.fieldNotHere');
  const { check, recordId, deviceSn } = await valueOf(tx, sc, s.id, body, now);
  if (!check.ok) throw refuse(body.field, check);
  const outOfRange = body.confirmOutOfRange === true && checkValue(body.field, check.value, false).ok === false;
  const [existing] = await tx
    .select()
    .from(testDayEntries)
    .where(and(eq(testDayEntries.planId, sc.ctx.plan.id), eq(testDayEntries.studentId, s.id), eq(testDayEntries.field, body.field)))
    .for('update');
  const values = { stationId, value: check.value, source: body.source, recordId, deviceSn, outOfRange, enteredBy: actor.userId, enteredAt: now };
  let after: EntryRow;
  if (existing) {
    if (existing.status !== 'entered') throw new AppError(409, 'testDay:entry.alreadyConfirmed');
    if (existing.version !== (body.version ?? -1)) throw new AppError(409, ERR.staleWrite);
    [after] = await tx.update(testDayEntries).set({ ...values, version: sql`${testDayEntries.version} + 1` }).where(eq(testDayEntries.id, existing.id)).returning();
  } else {
    // A second teacher entering the same first value meanwhile meets the unique key: one of them is refused (409).
    const inserted = await tx
      .insert(testDayEntries)
      .values({ ...values, orgId: actor.tenantOrgId, planId: sc.ctx.plan.id, studentId: s.id, classId: s.classId, field: body.field })
      .onConflictDoNothing()
      .returning();
    if (inserted.length === 0) throw new AppError(409, ERR.staleWrite);
    after = inserted[0];
  }
  return { before: existing ?? null, after, answer: await stationStudent(tx, sc, s, now) };
}

/** Writes confirmed values of one student into the plan's result, as an import writes them. */
async function land(tx: Tx, actor: Actor, ctx: PlanContext, s: ScopeStudent, values: Partial<Record<ResultKey, number>>, now: Date): Promise<void> {
  await writeResultInTx(tx, ctx, { studentId: s.id, classId: s.classId, grade: s.grade, gender: s.gender, results: values }, { userId: actor.userId, now, testedOn: testDay(ctx.plan, now) });
}

/**
 * The student's confirmation (签字确认) of their values waiting at a station, all or none: each must still be the
 * version shown (two teachers confirming the same value: the first wins, the second is refused and writes nothing).
 */
export async function confirmValues(
  tx: Tx,
  actor: Actor,
  stationId: string,
  studentId: string,
  list: readonly { id: string; version: number }[],
  now: Date,
): Promise<{ before: EntryRow[]; after: EntryRow[]; answer: StationStudent }> {
  const sc = await stationContext(tx, actor, stationId);
  assertPlanOpen(sc.ctx.plan, now);
  const s = await scopeStudentById(tx, actor, sc.ctx, studentId);
  const before: EntryRow[] = [];
  const after: EntryRow[] = [];
  const values: Partial<Record<ResultKey, number>> = {};
  for (const { id, version } of list) {
    const row = await lockEntry(tx, actor, id);
    if (row.studentId !== s.id || row.stationId !== stationId) throw notFound();
    if (row.status !== 'entered') throw new AppError(409, 'testDay:entry.notWaiting');
    if (row.version !== version) throw new AppError(409, ERR.staleWrite);
    const [changed] = await tx
      .update(testDayEntries)
      .set({ status: 'confirmed', confirmedBy: actor.userId, confirmedAt: now, version: sql`${testDayEntries.version} + 1` })
      .where(and(eq(testDayEntries.id, id), eq(testDayEntries.version, version), eq(testDayEntries.status, 'entered')))
      .returning();
    if (!changed) throw new AppError(409, ERR.staleWrite);
    before.push(row);
    after.push(changed);
    values[row.field as ResultKey] = row.value;
  }
  await land(tx, actor, sc.ctx, s, values, now);
  return { before, after, answer: await stationStudent(tx, sc, s, now) };
}

/** An appeal (申诉) on a value waiting or confirmed: flagged with a note and an optional video until a second teacher resolves it. */
export async function appealValue(tx: Tx, actor: Actor, id: string, body: EntryAppeal, now: Date): Promise<{ before: EntryRow; after: EntryRow }> {
  const row = await lockEntry(tx, actor, id);
  const plan = await ownPlan(tx, actor, row.planId);
  assertPlanOpen(plan, now);
  await scopeStudentById(tx, actor, await loadPlanContext(tx, plan), row.studentId);
  if (row.status === 'appealed') throw new AppError(409, 'testDay:appeal.alreadyOpen');
  if (row.resolvedAt) throw new AppError(409, 'testDay:appeal.onceOnly');
  if (row.version !== body.version) throw new AppError(409, ERR.staleWrite);
  if (body.videoFileId) {
    const found = await tx.$count(
      files,
      and(eq(files.id, body.videoFileId), eq(files.orgId, actor.tenantOrgId), inArray(files.purpose, ['video', 'attachment']), isNull(files.deletedAt)),
    );
    if (found === 0) throw fieldError('videoFileId', 'testDay:appeal.videoMissing');
  }
  const [after] = await tx
    .update(testDayEntries)
    .set({ status: 'appealed', appealNote: body.note, appealVideoFileId: body.videoFileId ?? null, appealedBy: actor.userId, appealedAt: now, version: sql`${testDayEntries.version} + 1` })
    .where(eq(testDayEntries.id, id))
    .returning();
  return { before: row, after };
}

/**
 * A second teacher's resolution of an appeal: keep the value or correct it. Neither the teacher who entered the value
 * nor the one who recorded the appeal may resolve it. The outcome counts: the value (kept or corrected) is written to
 * the plan's result as the confirmation would have.
 */
export async function resolveAppeal(tx: Tx, actor: Actor, id: string, body: EntryResolve, now: Date): Promise<{ before: EntryRow; after: EntryRow }> {
  const row = await lockEntry(tx, actor, id);
  const plan = await ownPlan(tx, actor, row.planId);
  assertPlanOpen(plan, now);
  const ctx = await loadPlanContext(tx, plan);
  const s = await scopeStudentById(tx, actor, ctx, row.studentId);
  if (row.status !== 'appealed') throw new AppError(409, 'testDay:appeal.notOpen');
  if (row.version !== body.version) throw new AppError(409, ERR.staleWrite);
  if (actor.userId === row.enteredBy || actor.userId === row.appealedBy) throw new AppError(409, 'testDay:appeal.secondTeacher');
  const field = row.field as ResultKey;
  let value = row.value;
  if (body.outcome === 'correct') {
    const check = checkValue(field, body.value!, body.confirmOutOfRange === true);
    if (!check.ok) throw refuse(field, check);
    value = check.value;
  }
  const [after] = await tx
    .update(testDayEntries)
    .set({
      status: 'confirmed',
      value,
      originalValue: body.outcome === 'correct' ? row.value : null,
      outOfRange: body.outcome === 'correct' ? checkValue(field, value, false).ok === false : row.outOfRange,
      resolution: body.outcome,
      resolvedBy: actor.userId,
      resolvedAt: now,
      resolutionNote: body.note ?? null,
      // The resolution stands for the confirmation of a value appealed before it was confirmed.
      confirmedBy: row.confirmedBy ?? actor.userId,
      confirmedAt: row.confirmedAt ?? now,
      version: sql`${testDayEntries.version} + 1`,
    })
    .where(eq(testDayEntries.id, id))
    .returning();
  // A value confirmed before the appeal is in the result already: only a correction changes it.
  if (!row.confirmedAt || value !== row.value) await land(tx, actor, ctx, s, { [field]: value }, now);
  return { before: row, after };
}

/** The station screen's head: station, plan, who waits (checked in, a value not confirmed) and open appeals. */
export async function stationView(db: DbOrTx, actor: Actor, stationId: string, now: Date): Promise<StationView> {
  const sc = await stationContext(db, actor, stationId);
  const scope = await classScopeOf(db, actor);
  const inScope = classScopeTest(scope);
  const byId = new Map((await planScopeStudents(db, sc.ctx)).filter((s) => inScope(s.classId)).map((s) => [s.id, s]));
  const checks = await db
    .select({ studentId: testDayCheckIns.studentId, at: testDayCheckIns.checkedInAt })
    .from(testDayCheckIns)
    .where(eq(testDayCheckIns.stationId, stationId))
    .orderBy(desc(testDayCheckIns.checkedInAt));
  const entries = await db
    .select({ id: testDayEntries.id, studentId: testDayEntries.studentId, field: testDayEntries.field, status: testDayEntries.status, value: testDayEntries.value, note: testDayEntries.appealNote, version: testDayEntries.version })
    .from(testDayEntries)
    .where(eq(testDayEntries.stationId, stationId));
  const confirmed = new Map<string, Set<string>>();
  for (const e of entries) if (e.status === 'confirmed') (confirmed.get(e.studentId) ?? confirmed.set(e.studentId, new Set()).get(e.studentId)!).add(e.field);
  const waiting: StationView['waiting'] = [];
  for (const c of checks) {
    const s = byId.get(c.studentId);
    if (!s) continue;
    const done = confirmed.get(s.id);
    if (fieldsAt(sc, s).every((f) => done?.has(f.field))) continue;
    waiting.push({ studentId: s.id, name: s.name, regNo: s.regNo, className: s.className, checkedInAt: c.at.toISOString() });
  }
  const appeals = entries
    .filter((e) => e.status === 'appealed' && byId.has(e.studentId))
    .map((e) => ({ entryId: e.id, studentId: e.studentId, name: byId.get(e.studentId)!.name, field: e.field as ResultKey, value: e.value, note: e.note, version: e.version }));
  return {
    id: sc.station.id,
    name: sc.station.name,
    planId: sc.ctx.plan.id,
    planName: sc.ctx.plan.name,
    planEnded: planStatus(sc.ctx.plan, now) === 'ended',
    items: sc.station.items,
    venueName: sc.station.venueName,
    devices: sc.station.devices,
    teachers: sc.station.teachers,
    waiting,
    appeals,
  };
}

/**
 * The day's progress per station and per class (docs/product-rules.md#physique-year, test day): done (every value of
 * the station confirmed), waiting (checked in, not done) and missing (neither); a class counts a student done when done
 * at every station, and lists who is missing where. Three lean reads of the plan's rows; the page polls it.
 */
export async function progressOf(db: DbOrTx, actor: Actor, planId: string, now: Date): Promise<TestDayProgress> {
  const plan = await ownPlan(db, actor, planId);
  const ctx = await loadPlanContext(db, plan);
  const inScope = classScopeTest(await classScopeOf(db, actor));
  const scope = (await planScopeStudents(db, ctx)).filter((s) => inScope(s.classId));
  const stations = await db
    .select({ id: testDayStations.id, name: testDayStations.name, items: testDayStations.items })
    .from(testDayStations)
    .where(eq(testDayStations.planId, plan.id))
    .orderBy(asc(testDayStations.createdAt), asc(testDayStations.id));
  const checks = await db.select({ stationId: testDayCheckIns.stationId, studentId: testDayCheckIns.studentId }).from(testDayCheckIns).where(eq(testDayCheckIns.planId, plan.id));
  const entries = await db
    .select({ studentId: testDayEntries.studentId, field: testDayEntries.field, status: testDayEntries.status, stationId: testDayEntries.stationId })
    .from(testDayEntries)
    .where(eq(testDayEntries.planId, plan.id));
  const checked = new Set(checks.map((c) => `${c.stationId}|${c.studentId}`));
  const confirmed = new Set(entries.filter((e) => e.status === 'confirmed').map((e) => `${e.studentId}|${e.field}`));
  const appeals = new Map<string, number>();
  for (const e of entries) if (e.status === 'appealed') appeals.set(e.stationId, (appeals.get(e.stationId) ?? 0) + 1);

  type State = 'done' | 'waiting' | 'missing';
  const stateAt = (st: (typeof stations)[number], s: ScopeStudent): State | null => {
    const mine = new Set(itemsFor(ctx, s.grade, s.gender));
    const fields = (st.items as ItemKey[]).filter((i) => mine.has(i)).flatMap(fieldsOfItem);
    if (fields.length === 0) return null;
    if (fields.every((f) => confirmed.has(`${s.id}|${f}`))) return 'done';
    return checked.has(`${st.id}|${s.id}`) ? 'waiting' : 'missing';
  };
  const zero = () => ({ total: 0, done: 0, waiting: 0, missing: 0 });
  const stationCounts = new Map(stations.map((st) => [st.id, zero()]));
  const classCounts = new Map<string, ReturnType<typeof zero> & { id: string; name: string; missingStudents: TestDayProgress['classes'][number]['missingStudents'] }>();
  for (const s of scope) {
    const c = classCounts.get(s.classId) ?? { id: s.classId, name: s.className, ...zero(), missingStudents: [] };
    classCounts.set(s.classId, c);
    const states: State[] = [];
    const missingAt: string[] = [];
    for (const st of stations) {
      const state = stateAt(st, s);
      if (!state) continue;
      const counts = stationCounts.get(st.id)!;
      counts.total++;
      counts[state]++;
      states.push(state);
      if (state !== 'done') missingAt.push(st.name);
    }
    c.total++;
    const overall: State = states.length > 0 && states.every((x) => x === 'done') ? 'done' : states.some((x) => x !== 'missing') ? 'waiting' : 'missing';
    c[overall]++;
    if (overall !== 'done' && c.missingStudents.length < MISSING_LISTED_MAX) c.missingStudents.push({ id: s.id, name: s.name, regNo: s.regNo, stations: missingAt });
  }
  return {
    planId: plan.id,
    stations: stations.map((st) => ({ id: st.id, name: st.name, items: st.items as ItemKey[], appeals: appeals.get(st.id) ?? 0, ...stationCounts.get(st.id)! })),
    // Classes the day has reached first (the ones to watch), then by name.
    classes: [...classCounts.values()].sort((a, b) => Number(b.done + b.waiting > 0) - Number(a.done + a.waiting > 0) || a.name.localeCompare(b.name, 'zh')),
    at: now.toISOString(),
  };
}

