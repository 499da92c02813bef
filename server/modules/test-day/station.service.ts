import { and, asc, desc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { planStatus } from '@/domain/test-plans/status';
import { planItemsForGrade } from '@/domain/test-plans/items';
import { DEFAULT_STANDARD_VERSION, GRADES, isStandardVersion, ITEM_KEYS, type ItemKey } from '@/domain/physique/standard';
import type { StationListQuery, StationOptions, StationRow, StationSave, TestDayPlan } from '@/domain/test-day/stations';
import type { DbOrTx, Tx } from '../../db/client';
import { teachers } from '../../db/schema/school';
import { testPlanItems, testPlans } from '../../db/schema/test-plans';
import { testDayEntries, testDayStationDevices, testDayStations, testDayStationTeachers } from '../../db/schema/test-day';
import { devices, venues } from '../../db/schema/venue';
import { fieldError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { getPlanInScope, planNotBinned, type PlanRecord } from '../test-plans/test-plans.service';

/** Stations of a plan's test day (docs/product-rules.md#physique-year, test day). */

const columns = {
  id: testDayStations.id,
  planId: testDayStations.planId,
  name: testDayStations.name,
  items: sql<ItemKey[]>`${testDayStations.items}`,
  venueId: testDayStations.venueId,
  // Written out in full: a single-table query leaves columns unqualified, and `id` would be the subquery's own.
  venueName: sql<string | null>`(select v.name from venues v where v.id = "test_day_stations"."venue_id")`,
  devices: sql<{ id: string; name: string; serialNo: string }[]>`coalesce((select json_agg(json_build_object('id', d.id, 'name', d.name, 'serialNo', d.serial_no) order by d.name)
    from test_day_station_devices sd join devices d on d.id = sd.device_id where sd.station_id = "test_day_stations"."id"), '[]'::json)`,
  teachers: sql<{ id: string; name: string }[]>`coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name) order by t.name)
    from test_day_station_teachers st join teachers t on t.id = st.teacher_id where st.station_id = "test_day_stations"."id"), '[]'::json)`,
  note: testDayStations.note,
  version: testDayStations.version,
};
type Selected = Omit<StationRow, 'deviceIds' | 'teacherIds'>;
const withIds = (r: Selected): StationRow => ({ ...r, deviceIds: r.devices.map((d) => d.id), teacherIds: r.teachers.map((t) => t.id) });
const select = (db: DbOrTx, where: SQL | undefined) => db.select(columns).from(testDayStations).where(where);

/** The stations of one of the school's plans (another organisation's plan lists nothing). */
export async function stationPage(db: DbOrTx, actor: Actor, q: StationListQuery): Promise<Page<StationRow>> {
  const page = await paginate(
    db,
    select(db, and(eq(testDayStations.orgId, actor.tenantOrgId), q.planId ? eq(testDayStations.planId, q.planId) : undefined))
      .orderBy(asc(testDayStations.createdAt), asc(testDayStations.id))
      .$dynamic(),
    q,
  );
  return { ...page, records: page.records.map(withIds) };
}

/** One station of the tenant; another organisation's id answers 404. */
export async function stationById(db: DbOrTx, actor: Actor, id: string): Promise<StationRow> {
  const [row] = await select(db, and(eq(testDayStations.orgId, actor.tenantOrgId), eq(testDayStations.id, id))).limit(1);
  if (!row) throw notFound();
  return withIds(row);
}

/** A plan of the school itself (a station belongs to the school that runs the day): 404 otherwise. */
export async function ownPlan(db: DbOrTx, actor: Actor, planId: string): Promise<PlanRecord> {
  const plan = await getPlanInScope(db, actor.tenantOrgId, planId);
  if (plan.orgId !== actor.tenantOrgId) throw notFound();
  return plan;
}

/** The items a plan tests in any grade: its own choice per grade, or the standard's items where it names none. */
export async function planItems(db: DbOrTx, plan: PlanRecord): Promise<ItemKey[]> {
  const rows = await db.selectDistinct({ item: testPlanItems.item }).from(testPlanItems).where(eq(testPlanItems.planId, plan.id));
  const set = new Set<string>(rows.map((r) => r.item));
  if (set.size === 0) {
    const version = isStandardVersion(plan.standardVersion) ? plan.standardVersion : DEFAULT_STANDARD_VERSION;
    for (const g of GRADES) for (const i of planItemsForGrade(g, version)) set.add(i);
  }
  return ITEM_KEYS.filter((i) => set.has(i));
}

/** Items at another station of the plan than `exceptId`, with that station. */
async function takenItems(db: DbOrTx, planId: string, exceptId?: string) {
  const rows = await db
    .select({ id: testDayStations.id, name: testDayStations.name, items: testDayStations.items })
    .from(testDayStations)
    .where(and(eq(testDayStations.planId, planId), exceptId ? ne(testDayStations.id, exceptId) : undefined));
  return rows.flatMap((r) => r.items.map((item) => ({ item: item as ItemKey, station: r.name, stationId: r.id })));
}

/** Rules a save's schema cannot see: the plan's, the items', the name's, and the venue, devices and teachers being the school's. */
async function checkSave(tx: Tx, actor: Actor, body: StationSave, exceptId?: string): Promise<void> {
  const plan = await ownPlan(tx, actor, body.planId);
  const allowed = new Set(await planItems(tx, plan));
  const foreign = body.items.find((i) => !allowed.has(i));
  if (foreign) throw fieldError('items', 'testDay:station.itemNotInPlan', { item: `physique:item.${foreign}` });
  const taken = (await takenItems(tx, plan.id, exceptId)).find((t) => body.items.includes(t.item));
  if (taken) throw fieldError('items', 'testDay:station.itemTaken', { item: `physique:item.${taken.item}`, station: taken.station });
  const [dup] = await tx
    .select({ id: testDayStations.id })
    .from(testDayStations)
    .where(and(eq(testDayStations.planId, plan.id), eq(testDayStations.name, body.name), exceptId ? ne(testDayStations.id, exceptId) : undefined));
  if (dup) throw fieldError('name', 'testDay:station.nameTaken');
  if (body.venueId) {
    const [v] = await tx.select({ id: venues.id }).from(venues).where(and(eq(venues.id, body.venueId), eq(venues.orgId, actor.tenantOrgId)));
    if (!v) throw fieldError('venueId', 'testDay:station.venueUnknown');
  }
  if (body.deviceIds.length > 0) {
    const found = await tx.$count(devices, and(inArray(devices.id, body.deviceIds), eq(devices.orgId, actor.tenantOrgId)));
    if (found !== new Set(body.deviceIds).size) throw fieldError('deviceIds', 'testDay:station.deviceUnknown');
  }
  if (body.teacherIds.length > 0) {
    const found = await tx.$count(teachers, and(inArray(teachers.id, body.teacherIds), eq(teachers.orgId, actor.tenantOrgId)));
    if (found !== new Set(body.teacherIds).size) throw fieldError('teacherIds', 'testDay:station.teacherUnknown');
  }
}

async function writeLinks(tx: Tx, stationId: string, body: StationSave): Promise<void> {
  await tx.delete(testDayStationDevices).where(eq(testDayStationDevices.stationId, stationId));
  await tx.delete(testDayStationTeachers).where(eq(testDayStationTeachers.stationId, stationId));
  const deviceIds = [...new Set(body.deviceIds)];
  const teacherIds = [...new Set(body.teacherIds)];
  if (deviceIds.length > 0) await tx.insert(testDayStationDevices).values(deviceIds.map((deviceId) => ({ stationId, deviceId })));
  if (teacherIds.length > 0) await tx.insert(testDayStationTeachers).values(teacherIds.map((teacherId) => ({ stationId, teacherId })));
}

export async function createStation(tx: Tx, actor: Actor, body: StationSave): Promise<StationRow> {
  await checkSave(tx, actor, body);
  const [row] = await tx
    .insert(testDayStations)
    .values({ orgId: actor.tenantOrgId, planId: body.planId, name: body.name, items: body.items, venueId: body.venueId ?? null, note: body.note ?? null })
    .returning({ id: testDayStations.id });
  await writeLinks(tx, row.id, body);
  return stationById(tx, actor, row.id);
}

export async function updateStation(tx: Tx, actor: Actor, id: string, body: StationSave): Promise<Change<StationRow>> {
  await lockVersion(tx, testDayStations, id, eq(testDayStations.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await stationById(tx, actor, id);
  // A station stays with its plan: its entries and check-ins are that plan's.
  if (before.planId !== body.planId) throw fieldError('planId', 'testDay:station.planFixed');
  await checkSave(tx, actor, body, id);
  // An item with values taken here stays: removing it would orphan those values' station.
  const dropped = before.items.filter((i) => !body.items.includes(i));
  if (dropped.length > 0) {
    const used = await tx
      .selectDistinct({ field: testDayEntries.field })
      .from(testDayEntries)
      .where(eq(testDayEntries.stationId, id));
    const usedItems = new Set(used.map((u) => (u.field === 'heightCm' || u.field === 'weightKg' ? 'bmi' : u.field)));
    const kept = dropped.find((i) => usedItems.has(i));
    if (kept) throw fieldError('items', 'testDay:station.itemHasValues', { item: `physique:item.${kept}` });
  }
  await tx
    .update(testDayStations)
    .set({ name: body.name, items: body.items, venueId: body.venueId ?? null, note: body.note ?? null, version: nextVersion(testDayStations.version) })
    .where(eq(testDayStations.id, id));
  await writeLinks(tx, id, body);
  return { before, after: await stationById(tx, actor, id) };
}

/** A station whose values were taken stays (they name it as their source); an unused one goes with its check-ins. */
export async function deleteStation(tx: Tx, actor: Actor, id: string): Promise<StationRow> {
  const before = await stationById(tx, actor, id);
  await assertUnused([{ what: 'testDay:entity.entries', count: () => tx.$count(testDayEntries, eq(testDayEntries.stationId, id)) }]);
  await tx.delete(testDayStations).where(eq(testDayStations.id, id));
  return before;
}

/** The school's plans for the page's plan picker: in progress first, then the newest. */
export async function testDayPlans(db: DbOrTx, actor: Actor, _q: unknown, now: Date): Promise<TestDayPlan[]> {
  const rows = await db
    .select({ id: testPlans.id, name: testPlans.name, startDate: testPlans.startDate, endDate: testPlans.endDate, endedAt: testPlans.endedAt })
    .from(testPlans)
    .where(and(eq(testPlans.orgId, actor.tenantOrgId), planNotBinned, isNull(testPlans.retestOfPlanId)))
    .orderBy(desc(testPlans.startDate), asc(testPlans.id))
    .limit(100);
  const out = rows.map((r) => ({ id: r.id, name: r.name, startDate: r.startDate, endDate: r.endDate, status: planStatus(r, now) }));
  const rank = { inProgress: 0, notStarted: 1, ended: 2 } as const;
  return out.sort((a, b) => rank[a.status] - rank[b.status]);
}

/** What the station form offers for a plan. */
export async function stationOptions(db: DbOrTx, actor: Actor, planId: string): Promise<StationOptions> {
  const plan = await ownPlan(db, actor, planId);
  const [items, taken, venueRows, deviceRows, teacherRows] = await Promise.all([
    planItems(db, plan),
    takenItems(db, plan.id),
    db.select({ id: venues.id, name: venues.name }).from(venues).where(eq(venues.orgId, actor.tenantOrgId)).orderBy(asc(venues.code)),
    db
      .select({ id: devices.id, name: devices.name, serialNo: devices.serialNo, venueId: devices.venueId })
      .from(devices)
      .where(and(eq(devices.orgId, actor.tenantOrgId), ne(devices.status, 'disabled')))
      .orderBy(asc(devices.name), asc(devices.serialNo)),
    db.select({ id: teachers.id, name: teachers.name }).from(teachers).where(eq(teachers.orgId, actor.tenantOrgId)).orderBy(asc(teachers.name)).limit(500),
  ]);
  return { items, taken, venues: venueRows, devices: deviceRows, teachers: teacherRows };
}
