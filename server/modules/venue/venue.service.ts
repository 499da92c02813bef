import { and, asc, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import type { DeviceRow } from '@/domain/venue/devices';
import type { VenueDeviceListQuery, VenueRow, VenueSave } from '@/domain/venue/venues';
import type { DbOrTx, Tx } from '../../db/client';
import { devices, venues } from '../../db/schema/venue';
import { fieldError } from '../../lib/app-error';
import { CANDIDATES_MAX, type LinkChange } from '../../lib/linked';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { assertDictionaryCode } from '../dictionaries/dictionaries.service';
import { devicePage, devicesOutside, tenantDevices } from './device.service';

const columns = {
  id: venues.id,
  name: venues.name,
  type: venues.type,
  code: venues.code,
  // Written out in full: a single-table query leaves columns unqualified (see activatedDeviceCount).
  deviceCount: sql<number>`(select count(*)::int from devices d where d.venue_id = "venues"."id")`,
  version: venues.version,
};
const select = (db: DbOrTx, where: SQL | undefined) => db.select(columns).from(venues).where(where);

export interface VenueQuery {
  current: number;
  size: number;
  name?: string;
  type?: VenueRow['type'];
}

/** Venues of the tenant organisation, by ID. */
export function venuePage(db: DbOrTx, actor: Actor, q: VenueQuery): Promise<Page<VenueRow>> {
  const where = and(eq(venues.orgId, actor.tenantOrgId), q.name ? ilike(venues.name, containsPattern(q.name)) : undefined, q.type ? eq(venues.type, q.type) : undefined);
  return paginate(db, select(db, where).orderBy(asc(venues.code), asc(venues.id)).$dynamic(), q);
}

/** One venue of the tenant; another organisation's id answers 404. */
export async function venueById(db: DbOrTx, actor: Actor, id: string): Promise<VenueRow> {
  const [row] = await select(db, and(eq(venues.orgId, actor.tenantOrgId), eq(venues.id, id))).limit(1);
  if (!row) throw notFound();
  return row;
}

/** The two-digit ID is unique in the organisation (docs/product-rules.md#venues). */
async function assertCodeFree(tx: Tx, actor: Actor, code: string, exceptId?: string) {
  const [dup] = await tx
    .select({ id: venues.id })
    .from(venues)
    .where(and(eq(venues.orgId, actor.tenantOrgId), eq(venues.code, code), exceptId ? ne(venues.id, exceptId) : undefined));
  if (dup) throw fieldError('code', 'validation:venue.codeTaken');
}

export async function createVenue(tx: Tx, actor: Actor, body: VenueSave): Promise<VenueRow> {
  await assertDictionaryCode(tx, actor, 'venueType', body.type, 'type');
  await assertCodeFree(tx, actor, body.code);
  const [row] = await tx.insert(venues).values({ orgId: actor.tenantOrgId, name: body.name, type: body.type, code: body.code }).returning({ id: venues.id });
  return venueById(tx, actor, row.id);
}

export async function updateVenue(tx: Tx, actor: Actor, id: string, body: VenueSave): Promise<Change<VenueRow>> {
  await lockVersion(tx, venues, id, eq(venues.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await venueById(tx, actor, id);
  // A type whose entry was disabled since stays on the venue that has it (docs/product-rules.md#dictionaries).
  await assertDictionaryCode(tx, actor, 'venueType', body.type, 'type', before.type);
  await assertCodeFree(tx, actor, body.code, id);
  await tx.update(venues).set({ name: body.name, type: body.type, code: body.code, version: nextVersion(venues.version) }).where(eq(venues.id, id));
  return { before, after: await venueById(tx, actor, id) };
}

/** Deletes a venue without devices (docs/product-rules.md#venues); the refusal names the devices. */
export async function deleteVenue(tx: Tx, actor: Actor, id: string): Promise<VenueRow> {
  const before = await venueById(tx, actor, id);
  const inVenue = eq(devices.venueId, id);
  await assertUnused([
    {
      what: 'venue:entity.devices',
      count: () => tx.$count(devices, inVenue),
      names: async () => (await tx.select({ name: devices.name }).from(devices).where(inVenue).orderBy(asc(devices.serialNo)).limit(5)).map((d) => d.name),
    },
  ]);
  await tx.delete(venues).where(eq(venues.id, id));
  return before;
}

/** The venue's devices (`device/:id`), a page at a time (the venue checked by the linked-records kit, server/lib/linked.ts). */
export function venueDevicePage(db: DbOrTx, actor: Actor, venue: { id: string }, q: VenueDeviceListQuery): Promise<Page<DeviceRow>> {
  return devicePage(db, actor, { ...q, venueId: venue.id });
}

/** Devices the venue may take: the organisation's devices in another venue or none. */
export function venueDeviceCandidates(db: DbOrTx, actor: Actor, venue: { id: string }, q: { keyword?: string }): Promise<DeviceRow[]> {
  return devicesOutside(db, actor, venue.id, q.keyword, CANDIDATES_MAX);
}

/**
 * Associates devices of the tenant with a venue; a device in another venue moves here, one already here stays as it
 * is. The log keeps the venues the moved devices came from.
 */
export async function attachDevices(tx: Tx, actor: Actor, venue: { id: string }, ids: readonly string[]): Promise<LinkChange> {
  const moving = (await tenantDevices(tx, actor, ids)).filter((d) => d.venueId !== venue.id);
  if (!moving.length) return { records: [] };
  await tx.update(devices).set({ venueId: venue.id, version: nextVersion(devices.version) }).where(inArray(devices.id, moving.map((d) => d.id)));
  return { before: moving, records: moving.map((d) => ({ id: d.id, venueId: venue.id })) };
}

/** Detaches devices from the venue (they stay, without a venue); a device not in this venue is 404. */
export async function detachDevices(tx: Tx, actor: Actor, venue: { id: string }, ids: readonly string[]): Promise<LinkChange> {
  const rows = await tx
    .update(devices)
    .set({ venueId: null, version: nextVersion(devices.version) })
    .where(and(inArray(devices.id, ids), eq(devices.orgId, actor.tenantOrgId), eq(devices.venueId, venue.id)))
    .returning({ id: devices.id });
  // Rolled back with the kit's transaction: either every device named was here, or none is detached.
  if (rows.length !== ids.length) throw notFound();
  return { before: rows.map((d) => ({ id: d.id, venueId: venue.id })), records: rows, after: rows.map((d) => ({ id: d.id, venueId: null })) };
}
