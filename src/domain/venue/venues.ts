import { z } from 'zod';
import { uuid } from '../fields';
import { dictionaryCode, dictionaryCodeFilter } from '../dictionaries/codes';
import { listQuery, textFilter, versionField } from '../list-query';
import { enumTable } from '../presentation';
import { deviceListQuery } from './devices';

/**
 * Venues (docs/product-rules.md#venues): a name, a type and a two-digit ID unique in the organisation. Devices are
 * associated with at most one venue; a venue with devices cannot be deleted.
 */

/** The platform's venue types; an organisation may add its own (the venueType dictionary, docs/product-rules.md#dictionaries). */
export const VENUE_TYPES = ['track', 'court', 'gym', 'pool', 'field', 'other'] as const;
export type VenueType = (typeof VENUE_TYPES)[number];
export const VENUE_TYPE_TABLE = enumTable(VENUE_TYPES, (v) => `venue:place.types.${v}`);

export const VENUE_NAME_MAX = 30;

export const venueSaveSchema = z.object({
  name: z.string({ error: 'validation:venue.nameRequired' }).trim().min(1, 'validation:venue.nameRequired').max(VENUE_NAME_MAX, 'validation:venue.nameLength'),
  // A code of the organisation's effective venueType dictionary: the service checks it (dictionaryCodeIssue).
  type: dictionaryCode('validation:venue.typeRequired'),
  code: z.string({ error: 'validation:venue.codeFormat' }).trim().regex(/^\d{2}$/, 'validation:venue.codeFormat'),
  version: versionField.optional(),
});
export type VenueSave = z.output<typeof venueSaveSchema>;
export type VenueForm = z.input<typeof venueSaveSchema>;

/** The venue list's filters. */
export const venueListQuery = listQuery({ name: textFilter(), type: dictionaryCodeFilter });

/** Devices to associate with a venue (`device/:id`): devices of the same organisation. */
export const venueDevicesSchema = z.object({
  deviceIds: z.array(uuid(), { error: 'validation:venue.devicesRequired' }).min(1, 'validation:venue.devicesRequired').max(200),
});
export type VenueDevices = z.output<typeof venueDevicesSchema>;

/** A venue's devices (`device/:id`): the device list's filters within the venue. */
export const venueDeviceListQuery = deviceListQuery.omit({ venueId: true });
export type VenueDeviceListQuery = z.output<typeof venueDeviceListQuery>;
/** Devices a venue may take: the organisation's devices elsewhere or in no venue, by name or serial number. */
export const venueDeviceCandidateQuery = z.object({ keyword: textFilter() });

export const venueRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string().describe('A venueType dictionary code'),
  code: z.string().describe('Two-digit ID, unique in the organisation'),
  deviceCount: z.number().int(),
  version: z.number().int(),
});
export type VenueRow = z.output<typeof venueRowSchema>;

/** What associating devices answers: the devices that moved into the venue. */
export const venueDeviceLinkedSchema = z.object({ id: z.string(), venueId: z.string() });
