import { boolean, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { files } from './files';
import { orgs } from './orgs';
import { testRecords } from './physique';
import { classes, students, teachers } from './school';
import { testPlans } from './test-plans';
import { devices, venues } from './venue';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Stations of a plan's test day (docs/product-rules.md#physique-year, test day): an item or item group of the plan, a
 * venue, its devices and teachers (the link tables below). Names are unique per plan.
 */
export const testDayStations = pgTable(
  'test_day_stations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    planId: uuid('plan_id').notNull().references(() => testPlans.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** ItemKeys of src/domain/physique/standard.ts; at most one station of a plan holds an item (checked on save). */
    items: text('items').array().notNull(),
    venueId: uuid('venue_id').references(() => venues.id, { onDelete: 'set null' }),
    note: text('note'),
    version: integer('version').notNull().default(1),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('test_day_stations_plan_name_uq').on(t.planId, t.name), index('test_day_stations_org_idx').on(t.orgId)],
);

/** The devices whose records a station accepts; a device deleted leaves its stations. */
export const testDayStationDevices = pgTable(
  'test_day_station_devices',
  {
    stationId: uuid('station_id').notNull().references(() => testDayStations.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.stationId, t.deviceId] })],
);

/** The teachers (staff) who run a station. */
export const testDayStationTeachers = pgTable(
  'test_day_station_teachers',
  {
    stationId: uuid('station_id').notNull().references(() => testDayStations.id, { onDelete: 'cascade' }),
    teacherId: uuid('teacher_id').notNull().references(() => teachers.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.stationId, t.teacherId] })],
);

/** A student checked in at a station (the queue of who is there and not done yet). One row per station and student. */
export const testDayCheckIns = pgTable(
  'test_day_check_ins',
  {
    stationId: uuid('station_id').notNull().references(() => testDayStations.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id').notNull().references(() => testPlans.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id').notNull().references(() => students.id),
    classId: uuid('class_id').notNull().references(() => classes.id),
    checkedInBy: uuid('checked_in_by').references(() => users.id),
    checkedInAt: at('checked_in_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.stationId, t.studentId] }), index('test_day_check_ins_plan_idx').on(t.planId)],
);

/**
 * One value of a student taken at a station, with its source (the device record and serial, or typed), who entered
 * it, the student's confirmation (签字确认: time and the teacher whose screen it was), an appeal (note, video) and its
 * resolution by a second teacher. ONE row per plan, student and raw field (unique): two teachers confirming the same
 * value meet on this row's version, and only one writes the result.
 */
export const testDayEntries = pgTable(
  'test_day_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    planId: uuid('plan_id').notNull().references(() => testPlans.id, { onDelete: 'cascade' }),
    stationId: uuid('station_id').notNull().references(() => testDayStations.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id').notNull().references(() => students.id),
    classId: uuid('class_id').notNull().references(() => classes.id),
    /** A raw field of the national template (ResultKey): heightCm, weightKg, run50m… */
    field: text('field').notNull(),
    value: doublePrecision('value').notNull(),
    status: text('status', { enum: ['entered', 'confirmed', 'appealed'] }).notNull().default('entered'),
    source: text('source', { enum: ['device', 'typed'] }).notNull(),
    recordId: uuid('record_id').references(() => testRecords.id, { onDelete: 'set null' }),
    deviceSn: text('device_sn'),
    /** The value was outside the import's plausible range and the teacher confirmed it on a second look. */
    outOfRange: boolean('out_of_range').notNull().default(false),
    enteredBy: uuid('entered_by').references(() => users.id),
    enteredAt: at('entered_at').notNull().defaultNow(),
    confirmedBy: uuid('confirmed_by').references(() => users.id),
    confirmedAt: at('confirmed_at'),
    appealNote: text('appeal_note'),
    appealVideoFileId: uuid('appeal_video_file_id').references(() => files.id),
    appealedBy: uuid('appealed_by').references(() => users.id),
    appealedAt: at('appealed_at'),
    resolution: text('resolution', { enum: ['keep', 'correct'] }),
    resolvedBy: uuid('resolved_by').references(() => users.id),
    resolvedAt: at('resolved_at'),
    resolutionNote: text('resolution_note'),
    /** The appealed value when a resolution corrected it. */
    originalValue: doublePrecision('original_value'),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('test_day_entries_plan_student_field_uq').on(t.planId, t.studentId, t.field),
    index('test_day_entries_station_idx').on(t.stationId, t.status),
  ],
);
