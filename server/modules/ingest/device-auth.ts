import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { orgs } from '../../db/schema/orgs';
import { devices } from '../../db/schema/venue';
import { AppError } from '../../lib/app-error';
import { hashSecret } from '../../lib/tokens';
import type { DeviceKind } from '@/domain/venue/devices';

/** The device a device-API request comes from. */
export interface DeviceCaller {
  deviceId: string;
  serialNo: string;
  orgId: string;
  venueId: string | null;
  /** terminal, band or hub (src/domain/venue/devices.ts): who may post a lesson's heart-rate samples. */
  kind: DeviceKind;
}

declare module 'fastify' {
  interface FastifyRequest {
    device: DeviceCaller | null;
  }
}

const BASIC = /^basic\s+([A-Za-z0-9+/=]+)$/i;

/** 401 for every failure alike, so a caller learns nothing about which serial numbers exist. */
const refused = () => new AppError(401, 'activities:ingest.deviceUnauthorized');

/**
 * The device API's authentication (docs/product-rules.md#ingest): HTTP Basic with the serial number and the secret
 * issued in device management. The device must be activated, not disabled, hold a secret (not revoked) and belong to
 * an enabled organisation.
 */
export async function authenticateDevice(db: Db, request: FastifyRequest): Promise<DeviceCaller> {
  const match = BASIC.exec(request.headers.authorization ?? '');
  if (!match) throw refused();
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw refused();
  const serialNo = decoded.slice(0, colon).trim().toUpperCase();
  const secret = decoded.slice(colon + 1);
  const [row] = await db
    .select({ id: devices.id, orgId: devices.orgId, venueId: devices.venueId, kind: devices.kind, status: devices.status, activatedAt: devices.activatedAt, secretHash: devices.secretHash, orgEnabled: orgs.enabled })
    .from(devices)
    .innerJoin(orgs, eq(orgs.id, devices.orgId))
    .where(eq(devices.serialNo, serialNo))
    .limit(1);
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(row?.secretHash ?? '0'.repeat(64), 'hex');
  const same = stored.length === presented.length && timingSafeEqual(stored, presented);
  if (!row || !same || !row.secretHash || !row.activatedAt || row.status === 'disabled' || !row.orgEnabled) throw refused();
  return { deviceId: row.id, serialNo, orgId: row.orgId, venueId: row.venueId, kind: row.kind };
}
