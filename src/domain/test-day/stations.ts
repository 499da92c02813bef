import { z } from 'zod';
import { nullableId, optionalId, optionalText, requiredId, requiredText, uuid } from '../fields';
import { listQuery, versionField } from '../list-query';
import { ITEM_KEYS, type ItemKey } from '../physique/standard';

/**
 * Stations of a plan's test day (docs/product-rules.md#physique-year, test day): one item or an item group of the
 * plan, a venue, the devices whose records the station accepts and the teachers who run it. An item belongs to at most
 * one station of a plan, so one value has one place where it is taken.
 */

export const STATION_NAME_MAX = 30;
/** Items of one station: an item group (50 m and long jump on one track, the two endurance runs) stays small. */
export const STATION_ITEMS_MAX = 4;
export const STATION_DEVICES_MAX = 20;
export const STATION_TEACHERS_MAX = 20;
export const STATION_NOTE_MAX = 200;

const ids = (max: number, message: string) => z.array(uuid(), { error: message }).max(max, message).default([]);

export const stationSaveSchema = z.object({
  planId: requiredId('testDay:station.planRequired'),
  name: requiredText(STATION_NAME_MAX, 'testDay:station.nameRequired'),
  items: z
    .array(z.enum(ITEM_KEYS, { error: 'testDay:station.itemsRequired' }), { error: 'testDay:station.itemsRequired' })
    .min(1, 'testDay:station.itemsRequired')
    .max(STATION_ITEMS_MAX, 'testDay:station.itemsTooMany')
    .refine((list) => new Set(list).size === list.length, 'testDay:station.itemsRequired'),
  venueId: nullableId(),
  deviceIds: ids(STATION_DEVICES_MAX, 'testDay:station.devicesTooMany'),
  teacherIds: ids(STATION_TEACHERS_MAX, 'testDay:station.teachersTooMany'),
  note: optionalText(STATION_NOTE_MAX, 'validation:common.tooLong'),
  version: versionField.optional(),
});
export type StationSave = z.output<typeof stationSaveSchema>;
export type StationForm = z.input<typeof stationSaveSchema>;

/** The station list of one plan (the page always names it; without it, every station of the school). */
export const stationListQuery = listQuery({ planId: optionalId('testDay:station.planRequired') });
export type StationListQuery = z.output<typeof stationListQuery>;
/** A plan named by a query (the form's options, the day's progress). */
export const planQuery = z.object({ planId: requiredId('testDay:station.planRequired') });

export const stationRowSchema = z.object({
  id: z.string(),
  planId: z.string(),
  name: z.string(),
  items: z.array(z.enum(ITEM_KEYS)),
  venueId: z.string().nullable(),
  venueName: z.string().nullable(),
  deviceIds: z.array(z.string()),
  devices: z.array(z.object({ id: z.string(), name: z.string(), serialNo: z.string() })),
  teacherIds: z.array(z.string()),
  teachers: z.array(z.object({ id: z.string(), name: z.string() })),
  note: z.string().nullable(),
  version: z.number().int(),
});
export type StationRow = z.output<typeof stationRowSchema>;

/** What the station form offers: the plan's items, the school's venues, devices and teachers. */
export interface StationOptions {
  items: ItemKey[];
  /** Items already at another station of the plan, by station name. */
  taken: { item: ItemKey; station: string; stationId: string }[];
  venues: { id: string; name: string }[];
  devices: { id: string; name: string; serialNo: string; venueId: string | null }[];
  teachers: { id: string; name: string }[];
}

/** A plan the test-day page may open: the school's plans, newest first, with their status. */
export interface TestDayPlan {
  id: string;
  name: string;
  startDate: string;
  endDate: string;
  status: 'notStarted' | 'inProgress' | 'ended';
}

// The answers' shapes for the API document (/api/docs): they describe, never filter.
export const testDayPlansSchema = z.array(
  z.object({ id: z.string(), name: z.string(), startDate: z.string(), endDate: z.string(), status: z.enum(['notStarted', 'inProgress', 'ended']) }),
);
export const stationOptionsSchema = z.object({
  items: z.array(z.enum(ITEM_KEYS)),
  taken: z.array(z.object({ item: z.enum(ITEM_KEYS), station: z.string(), stationId: z.string() })),
  venues: z.array(z.object({ id: z.string(), name: z.string() })),
  devices: z.array(z.object({ id: z.string(), name: z.string(), serialNo: z.string(), venueId: z.string().nullable() })),
  teachers: z.array(z.object({ id: z.string(), name: z.string() })),
});
