import { and, asc, eq, ilike, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Page } from '@/domain/api';
import type { DeviceCredential } from '@/domain/activities/ingest';
import type { DeviceListQuery, DeviceOptions, DeviceRow, DeviceSave } from '@/domain/venue/devices';
import type { DbOrTx, Tx } from '../../db/client';
import { orgs } from '../../db/schema/orgs';
import { devices, venues } from '../../db/schema/venue';
import { fieldError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { hashSecret, newToken } from '../../lib/tokens';
import { containsPattern } from '../../lib/query';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { isoInstant } from '../../lib/iso';

/**
 * The activated devices of each organisation row of a query over `orgs`: the one source of the activated device count
 * shown on the organisation screens (docs/product-rules.md#devices). The outer column is written out in full because
 * drizzle leaves a single-table query's columns unqualified, which inside this subquery would name the device's own id.
 */
export const activatedDeviceCount = sql<number>`(select count(*)::int from devices d where d.org_id = "orgs"."id" and d.activated_at is not null)`;

const parent = alias(devices, 'parent_device');
const columns = {
  id: devices.id,
  name: devices.name,
  serialNo: devices.serialNo,
  mac: devices.mac,
  venueId: devices.venueId,
  venueName: venues.name,
  parentId: devices.parentId,
  parentName: parent.name,
  status: devices.status,
  kind: devices.kind,
  softwareVersion: devices.softwareVersion,
  activatedAt: devices.activatedAt,
  secretIssuedAt: devices.secretIssuedAt,
  lastSeenAt: devices.lastSeenAt,
  // Written out in full: see activatedDeviceCount.
  childCount: sql<number>`(select count(*)::int from devices c where c.parent_id = "devices"."id")`,
  version: devices.version,
};
type Selected = Omit<DeviceRow, 'activatedAt' | 'secretIssuedAt' | 'lastSeenAt'> & { activatedAt: Date | null; secretIssuedAt: Date | null; lastSeenAt: Date | null };
const toRow = (r: Selected): DeviceRow => ({
  ...r,
  activatedAt: isoInstant(r.activatedAt),
  secretIssuedAt: isoInstant(r.secretIssuedAt),
  lastSeenAt: isoInstant(r.lastSeenAt),
});

function select(db: DbOrTx, where: SQL | undefined) {
  return db.select(columns).from(devices).leftJoin(venues, eq(venues.id, devices.venueId)).leftJoin(parent, eq(parent.id, devices.parentId)).where(where);
}

function listWhere(actor: Actor, q: Omit<DeviceListQuery, 'current' | 'size'>) {
  return and(
    eq(devices.orgId, actor.tenantOrgId),
    q.keyword ? or(ilike(devices.name, containsPattern(q.keyword)), ilike(devices.serialNo, containsPattern(q.keyword))) : undefined,
    q.status ? eq(devices.status, q.status) : undefined,
    q.kind ? eq(devices.kind, q.kind) : undefined,
    q.venueId ? eq(devices.venueId, q.venueId) : undefined,
  );
}
// Children right after their parent device.
const order = [sql`coalesce(${parent.serialNo}, ${devices.serialNo})`, sql`${devices.parentId} nulls first`, asc(devices.serialNo)];

/** Devices of the tenant organisation, children after their parent. */
export async function devicePage(db: DbOrTx, actor: Actor, q: DeviceListQuery): Promise<Page<DeviceRow>> {
  const page = await paginate(db, select(db, listWhere(actor, q)).orderBy(...order).$dynamic(), q);
  return { ...page, records: page.records.map(toRow) };
}

/** Devices of the tenant not in the venue (in another venue or none), by name or serial number: what it may take. */
export async function devicesOutside(db: DbOrTx, actor: Actor, venueId: string, keyword: string | undefined, limit: number): Promise<DeviceRow[]> {
  const where = and(listWhere(actor, { keyword }), or(isNull(devices.venueId), ne(devices.venueId, venueId)));
  return (await select(db, where).orderBy(...order).limit(limit)).map(toRow);
}

/** Every device of the current filter (the export); at most `limit` rows. */
export async function deviceRows(db: DbOrTx, actor: Actor, q: Omit<DeviceListQuery, 'current' | 'size'>, limit = 10_000): Promise<DeviceRow[]> {
  return (await select(db, listWhere(actor, q)).orderBy(...order).limit(limit)).map(toRow);
}

/** One device of the tenant; another organisation's id answers 404. */
export async function deviceById(db: DbOrTx, actor: Actor, id: string): Promise<DeviceRow> {
  const [row] = await select(db, and(eq(devices.orgId, actor.tenantOrgId), eq(devices.id, id))).limit(1);
  if (!row) throw notFound();
  return toRow(row);
}

/**
 * The rules a schema cannot see: venue and parent device of the tenant (a parent is not itself a child, and a device
 * with children cannot become one), serial number unused on the platform, and activation within the organisation's
 * activatable count.
 */
async function resolve(tx: Tx, actor: Actor, body: DeviceSave, now: Date, current?: typeof devices.$inferSelect) {
  const org = actor.tenantOrgId;
  if (body.venueId) {
    const [v] = await tx.select({ id: venues.id }).from(venues).where(and(eq(venues.id, body.venueId), eq(venues.orgId, org)));
    if (!v) throw fieldError('venueId', 'validation:device.venueUnknown');
  }
  const kind = body.kind ?? current?.kind ?? 'terminal';
  if (body.parentId) {
    if (body.parentId === current?.id) throw fieldError('parentId', 'validation:device.parentInvalid');
    const [p] = await tx.select({ parentId: devices.parentId, kind: devices.kind }).from(devices).where(and(eq(devices.id, body.parentId), eq(devices.orgId, org)));
    if (!p || p.parentId) throw fieldError('parentId', 'validation:device.parentInvalid');
    // A band reports through a hub (docs/product-rules.md#lesson-load): its parent, when it has one, is a hub.
    if (kind === 'band' && p.kind !== 'hub') throw fieldError('parentId', 'venue:device.bandParent');
    if (current && (await tx.$count(devices, eq(devices.parentId, current.id))) > 0) throw fieldError('parentId', 'validation:device.parentHasChildren');
  }
  const [dup] = await tx
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.serialNo, body.serialNo), current ? ne(devices.id, current.id) : undefined));
  if (dup) throw fieldError('serialNo', 'validation:device.serialTaken');

  let activatedAt = current?.activatedAt ?? null;
  if (!body.activated) activatedAt = null;
  else if (!activatedAt) {
    await assertActivationFree(tx, org);
    activatedAt = now;
  }
  return {
    name: body.name,
    serialNo: body.serialNo,
    mac: body.mac ?? null,
    venueId: body.venueId ?? null,
    parentId: body.parentId ?? null,
    status: body.status,
    kind,
    softwareVersion: body.softwareVersion ?? null,
    activatedAt,
    // A deactivated device loses its API secret (docs/product-rules.md#ingest).
    ...(activatedAt ? {} : { secretHash: null, secretIssuedAt: null }),
  };
}

/** Refuses an activation beyond the organisation's activatable device count (docs/product-rules.md#devices). */
async function assertActivationFree(tx: Tx, org: string): Promise<void> {
  // The organisation row is locked so two activations cannot both take the last free place.
  const [o] = await tx.select({ activatable: orgs.activatableDevices }).from(orgs).where(eq(orgs.id, org)).for('update');
  const activated = await tx.$count(devices, and(eq(devices.orgId, org), isNotNull(devices.activatedAt)));
  if (activated >= (o?.activatable ?? 0)) throw fieldError('activated', 'validation:device.activationCap', { activatable: o?.activatable ?? 0 });
}

/**
 * Issues the device API secret (docs/product-rules.md#ingest): activates the device first when it is not yet (within the
 * activatable count), replaces any earlier secret (rotation). Only the SHA-256 is stored; the answer is the one time
 * the secret is shown.
 */
export async function issueDeviceSecret(tx: Tx, actor: Actor, id: string, now: Date): Promise<{ change: Change<DeviceRow>; credential: DeviceCredential }> {
  const [current] = await tx.select().from(devices).where(and(eq(devices.id, id), eq(devices.orgId, actor.tenantOrgId))).for('update');
  if (!current) throw notFound();
  const before = await deviceById(tx, actor, id);
  if (!current.activatedAt) await assertActivationFree(tx, actor.tenantOrgId);
  const secret = newToken();
  await tx
    .update(devices)
    .set({ activatedAt: current.activatedAt ?? now, secretHash: hashSecret(secret), secretIssuedAt: now, version: nextVersion(devices.version) })
    .where(eq(devices.id, id));
  const after = await deviceById(tx, actor, id);
  return { change: { before, after }, credential: { serialNo: current.serialNo, secret, issuedAt: now.toISOString() } };
}

/** Revokes the device API secret at once: the device's next call is refused until a new secret is issued. */
export async function revokeDeviceSecret(tx: Tx, actor: Actor, id: string): Promise<Change<DeviceRow>> {
  const [current] = await tx.select({ id: devices.id }).from(devices).where(and(eq(devices.id, id), eq(devices.orgId, actor.tenantOrgId))).for('update');
  if (!current) throw notFound();
  const before = await deviceById(tx, actor, id);
  await tx.update(devices).set({ secretHash: null, secretIssuedAt: null, version: nextVersion(devices.version) }).where(eq(devices.id, id));
  return { before, after: await deviceById(tx, actor, id) };
}

export async function createDevice(tx: Tx, actor: Actor, body: DeviceSave, now: Date): Promise<DeviceRow> {
  const values = await resolve(tx, actor, body, now);
  const [row] = await tx.insert(devices).values({ ...values, orgId: actor.tenantOrgId }).returning({ id: devices.id });
  return deviceById(tx, actor, row.id);
}

export async function updateDevice(tx: Tx, actor: Actor, id: string, body: DeviceSave, now: Date): Promise<Change<DeviceRow>> {
  const current = (await lockVersion(tx, devices, id, eq(devices.orgId, actor.tenantOrgId), body.version ?? -1)) as typeof devices.$inferSelect;
  const before = await deviceById(tx, actor, id);
  const values = await resolve(tx, actor, body, now, current);
  await tx.update(devices).set({ ...values, version: nextVersion(devices.version) }).where(eq(devices.id, id));
  return { before, after: await deviceById(tx, actor, id) };
}

/** Deletes a device without child devices (docs/product-rules.md#devices); its activation is released. */
export async function deleteDevice(tx: Tx, actor: Actor, id: string): Promise<DeviceRow> {
  const before = await deviceById(tx, actor, id);
  const children = eq(devices.parentId, id);
  await assertUnused([
    {
      what: 'venue:entity.childDevices',
      count: () => tx.$count(devices, children),
      names: async () => (await tx.select({ name: devices.name }).from(devices).where(children).orderBy(asc(devices.serialNo)).limit(5)).map((d) => d.name),
    },
  ]);
  await tx.delete(devices).where(eq(devices.id, id));
  return before;
}

/** What the device form and filters choose from: the tenant's venues and its devices that may carry children. */
export async function deviceOptions(db: DbOrTx, actor: Actor): Promise<DeviceOptions> {
  const org = actor.tenantOrgId;
  const [venueRows, parents] = await Promise.all([
    db.select({ id: venues.id, name: venues.name, code: venues.code }).from(venues).where(eq(venues.orgId, org)).orderBy(asc(venues.code)),
    db
      .select({ id: devices.id, name: devices.name, serialNo: devices.serialNo, kind: devices.kind })
      .from(devices)
      .where(and(eq(devices.orgId, org), isNull(devices.parentId)))
      .orderBy(asc(devices.serialNo)),
  ]);
  return { venues: venueRows, parents };
}

/** The tenant's devices among `ids`; any other id is 404 (never tells another organisation's device apart). */
export async function tenantDevices(tx: Tx, actor: Actor, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const rows = await tx
    .select({ id: devices.id, venueId: devices.venueId })
    .from(devices)
    .where(and(eq(devices.orgId, actor.tenantOrgId), inArray(devices.id, unique)));
  if (rows.length !== unique.length) throw notFound();
  return rows;
}
