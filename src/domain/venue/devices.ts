import { z } from 'zod';
import { blankAsNull, blankAsUndefined, enumFilter, nullableId, optionalText } from '../fields';
import { idFilter, listQuery, textFilter, versionField } from '../list-query';
import { enumTable } from '../presentation';

/**
 * Devices (docs/product-rules.md#devices): name, serial number unique across the platform (one physical device belongs
 * to one school), MAC address in six hex pairs, venue, status, software version and an optional parent device of the
 * same organisation (one level: a child carries no children). An activated device counts against the organisation's
 * activatable device count.
 */

export const DEVICE_STATUSES = ['online', 'offline', 'disabled'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
export const DEVICE_STATUS_TABLE = enumTable(DEVICE_STATUSES, (s) => `venue:device.statuses.${s}`, { online: 'success', offline: 'neutral', disabled: 'danger' });

/**
 * What a device is (docs/product-rules.md#lesson-load): a terminal (test machines, station tablets, the default), a
 * heart-rate band lent to a student for a lesson, or a hub that relays many bands (the bands' `parent`).
 */
export const DEVICE_KINDS = ['terminal', 'band', 'hub'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];
export const DEVICE_KIND_TABLE = enumTable(DEVICE_KINDS, (k) => `venue:device.kinds.${k}`);

export const DEVICE_NAME_MAX = 30;
export const DEVICE_SERIAL_MAX = 32;
export const DEVICE_SOFTWARE_MAX = 32;

/** Six hex pairs separated by ':' or '-' (stored upper case with ':'). */
export const MAC_PATTERN = /^[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2}){4}$/;
export const normaliseMac = (mac: string) => mac.toUpperCase().replaceAll('-', ':');

export const deviceSaveSchema = z.object({
  name: z.string({ error: 'validation:device.nameRequired' }).trim().min(1, 'validation:device.nameRequired').max(DEVICE_NAME_MAX, 'validation:device.nameLength'),
  serialNo: z
    .string({ error: 'validation:device.serialRequired' })
    .trim()
    .min(1, 'validation:device.serialRequired')
    .max(DEVICE_SERIAL_MAX, 'validation:device.serialFormat')
    .regex(/^[0-9A-Za-z-]+$/, 'validation:device.serialFormat')
    .transform((s) => s.toUpperCase()),
  mac: z.preprocess(blankAsNull, z.string().trim().regex(MAC_PATTERN, 'validation:device.macFormat').transform(normaliseMac).nullable().optional()),
  venueId: nullableId(),
  parentId: nullableId(),
  status: z.enum(DEVICE_STATUSES, { error: 'validation:device.statusRequired' }),
  /** Missing keeps what the device is (a new one: a terminal); a band's parent must be a hub. */
  kind: z.preprocess(blankAsUndefined, z.enum(DEVICE_KINDS, { error: 'validation:common.invalid' }).optional()),
  softwareVersion: optionalText(DEVICE_SOFTWARE_MAX, 'validation:device.softwareLength'),
  /** Activated devices count against the organisation's activatable count; the server stamps the activation time. */
  activated: z.preprocess((v) => v === true || v === 'true', z.boolean()),
  version: versionField.optional(),
});
export type DeviceSave = z.output<typeof deviceSaveSchema>;
export type DeviceForm = z.input<typeof deviceSaveSchema>;

/** The device list's filters: name or serial number, status, venue. */
export const deviceListQuery = listQuery({
  keyword: textFilter(),
  status: enumFilter(DEVICE_STATUSES),
  kind: enumFilter(DEVICE_KINDS),
  venueId: idFilter,
});
export type DeviceListQuery = z.output<typeof deviceListQuery>;

export const deviceRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  serialNo: z.string(),
  mac: z.string().nullable(),
  venueId: z.string().nullable(),
  venueName: z.string().nullable(),
  parentId: z.string().nullable(),
  parentName: z.string().nullable(),
  status: z.enum(DEVICE_STATUSES),
  kind: z.enum(DEVICE_KINDS),
  softwareVersion: z.string().nullable(),
  activatedAt: z.string().nullable().describe('ISO instant; null when not activated'),
  secretIssuedAt: z.string().nullable().describe('ISO instant the device API secret was issued; null when the device has none (never issued, revoked)'),
  lastSeenAt: z.string().nullable().describe("ISO instant of the device's last accepted API call"),
  childCount: z.number().int(),
  version: z.number().int(),
});
export type DeviceRow = z.output<typeof deviceRowSchema>;

/** What the device form and filters choose from. */
export const deviceOptionsSchema = z.object({
  venues: z.array(z.object({ id: z.string(), name: z.string(), code: z.string() })),
  parents: z.array(z.object({ id: z.string(), name: z.string(), serialNo: z.string(), kind: z.enum(DEVICE_KINDS) })).describe('Devices that may carry children (not children themselves)'),
});
export type DeviceOptions = z.output<typeof deviceOptionsSchema>;

/** The device API secret as issuing it answers: shown this once and never again (docs/product-rules.md#ingest). */
export const deviceCredentialSchema = z.object({ serialNo: z.string(), secret: z.string(), issuedAt: z.string().describe('ISO instant') });
