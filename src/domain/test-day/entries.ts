import { z } from 'zod';
import { optionalId, optionalText, requiredId, uuid } from '../fields';
import { versionField } from '../list-query';
import type { ResultKey } from '../physique/national-template';
import { inPlausibleRange, parseUnbounded, type ParseErrorKey } from '../physique/parse';
import type { ItemKey } from '../physique/standard';
import { enumTable } from '../presentation';

/**
 * A station's values (docs/product-rules.md#physique-year, test day): checked in by 学籍号 or test card, each value
 * taken from a station device or typed, stopped for a second look outside the import's plausible ranges, counted
 * only once the student confirmed it (签字确认), and open to one appeal that a second teacher resolves.
 */

/** The raw fields a station item records: BMI is measured as height and weight, every other item is its own value. */
export function fieldsOfItem(item: ItemKey): ResultKey[] {
  return item === 'bmi' ? ['heightCm', 'weightKg'] : [item];
}
export const fieldsOfItems = (items: readonly ItemKey[]): ResultKey[] => items.flatMap(fieldsOfItem);

export const ENTRY_STATUSES = ['entered', 'confirmed', 'appealed'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];
export const ENTRY_STATUS_TABLE = enumTable(ENTRY_STATUSES, (s) => `testDay:entry.status.${s}`, { entered: 'warning', confirmed: 'success', appealed: 'danger' });
export const ENTRY_SOURCES = ['device', 'typed'] as const;
export type EntrySource = (typeof ENTRY_SOURCES)[number];
export const RESOLUTIONS = ['keep', 'correct'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export const APPEAL_NOTE_MAX = 200;
export const RESOLUTION_NOTE_MAX = 200;
/** The longest check-in code a station reads (a test card's code: prefix, plan id and 学籍号). */
export const CHECK_IN_CODE_MAX = 80;
/** The progress lists at most this many missing students per class (the rest is a count). */
export const MISSING_LISTED_MAX = 60;

export const checkInSchema = z.object({
  code: z.string({ error: 'testDay:checkIn.codeRequired' }).trim().min(1, 'testDay:checkIn.codeRequired').max(CHECK_IN_CODE_MAX, 'testDay:checkIn.unreadable'),
});
export type CheckIn = z.output<typeof checkInSchema>;

const FIELD_KEYS = ['heightCm', 'weightKg', 'vitalCapacity', 'run50m', 'sitAndReach', 'rope1min', 'sitUp1min', 'shuttle50x8', 'pullUp', 'standingLongJump', 'run1000m', 'run800m'] as const satisfies readonly ResultKey[];

/**
 * A value for one field of a checked-in student: typed (parsed as the import parses it) or a station device's record
 * accepted as it is. `confirmOutOfRange` is the teacher's explicit "this value is right" after the second look.
 */
export const entrySaveSchema = z
  .object({
    studentId: requiredId('validation:common.id'),
    field: z.enum(FIELD_KEYS, { error: 'testDay:entry.fieldRequired' }),
    source: z.enum(ENTRY_SOURCES, { error: 'validation:common.invalid' }),
    value: z.string({ error: 'testDay:entry.valueRequired' }).trim().max(20, 'validation:common.tooLong').optional(),
    recordId: optionalId(),
    confirmOutOfRange: z.boolean({ error: 'validation:common.invalid' }).optional(),
    version: versionField.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.source === 'typed' && !v.value) ctx.addIssue({ code: 'custom', path: ['value'], message: 'testDay:entry.valueRequired' });
    if (v.source === 'device' && !v.recordId) ctx.addIssue({ code: 'custom', path: ['recordId'], message: 'testDay:entry.recordRequired' });
  });
export type EntrySave = z.output<typeof entrySaveSchema>;

/** The student's confirmation (签字确认) of their waiting values: one tap on the station's screen, each value by the version shown. */
export const entryConfirmSchema = z.object({
  entries: z
    .array(z.object({ id: uuid(), version: versionField }), { error: 'testDay:entry.nothingToConfirm' })
    .min(1, 'testDay:entry.nothingToConfirm')
    .max(20, 'testDay:entry.nothingToConfirm'),
});
export type EntryConfirm = z.output<typeof entryConfirmSchema>;
export const entryAppealSchema = z.object({
  note: z.string({ error: 'testDay:appeal.noteRequired' }).trim().min(1, 'testDay:appeal.noteRequired').max(APPEAL_NOTE_MAX, 'validation:common.tooLong'),
  videoFileId: optionalId(),
  version: versionField,
});
export type EntryAppeal = z.output<typeof entryAppealSchema>;
export const entryResolveSchema = z
  .object({
    outcome: z.enum(RESOLUTIONS, { error: 'testDay:appeal.outcomeRequired' }),
    value: z.string({ error: 'testDay:entry.valueRequired' }).trim().max(20, 'validation:common.tooLong').optional(),
    note: optionalText(RESOLUTION_NOTE_MAX, 'validation:common.tooLong'),
    confirmOutOfRange: z.boolean({ error: 'validation:common.invalid' }).optional(),
    version: versionField,
  })
  .superRefine((v, ctx) => {
    if (v.outcome === 'correct' && !v.value) ctx.addIssue({ code: 'custom', path: ['value'], message: 'testDay:entry.valueRequired' });
  });
export type EntryResolve = z.output<typeof entryResolveSchema>;
export const stationStudentParams = z.object({ id: z.string().max(64), studentId: uuid('validation:common.id') });

/** Why a value is refused or held: a message key (and its parameters) of the physique parser or of this module. */
export type ValueCheck =
  | { ok: true; value: number }
  | { ok: false; error: ParseErrorKey | 'testDay:entry.outOfRange'; params?: { min: number; max: number }; value?: number };

/**
 * A value as the station takes it: typed text parsed like the import, a device's number as it is; outside the
 * import's plausible range (PARSE_RULES) it is held (`testDay:entry.outOfRange`) unless the teacher confirmed it.
 */
export function checkValue(field: ResultKey, input: string | number, confirmOutOfRange: boolean): ValueCheck {
  const parsed = parseUnbounded(field, input);
  if (!parsed.ok) return parsed;
  if (!confirmOutOfRange && !inPlausibleRange(field, parsed.value)) return { ok: false, error: 'testDay:entry.outOfRange', value: parsed.value };
  return parsed;
}

/** One field's value at a station as the screen shows it. */
export interface EntryView {
  id: string;
  field: ResultKey;
  value: number;
  status: EntryStatus;
  source: EntrySource;
  deviceSn: string | null;
  outOfRange: boolean;
  enteredBy: string | null;
  enteredAt: string;
  confirmedBy: string | null;
  confirmedAt: string | null;
  appealNote: string | null;
  appealVideoFileId: string | null;
  appealedBy: string | null;
  appealedAt: string | null;
  resolution: Resolution | null;
  resolvedBy: string | null;
  resolvedAt: string | null;
  resolutionNote: string | null;
  originalValue: number | null;
  version: number;
}

/** A station device's latest record of today for the student and field. */
export interface DeviceValue {
  recordId: string;
  value: number;
  deviceSn: string | null;
  testedAt: string;
}

/** A checked-in student at a station: who they are and, per field of the station's items, the entry and device value. */
export interface StationStudent {
  station: { id: string; name: string; planId: string };
  student: { id: string; name: string; regNo: string; gender: 'male' | 'female'; className: string; photoFileId: string | null };
  checkedInAt: string;
  fields: { field: ResultKey; item: ItemKey; entry: EntryView | null; device: DeviceValue | null }[];
}

/** The station screen's head: the station, its plan and today's queue. */
export interface StationView {
  id: string;
  name: string;
  planId: string;
  planName: string;
  planEnded: boolean;
  items: ItemKey[];
  venueName: string | null;
  devices: { id: string; name: string; serialNo: string }[];
  teachers: { id: string; name: string }[];
  /** Checked in, some value not confirmed yet; latest first. */
  waiting: { studentId: string; name: string; regNo: string; className: string; checkedInAt: string }[];
  /** Open appeals at this station. */
  appeals: { entryId: string; studentId: string; name: string; field: ResultKey; value: number; note: string | null; version: number }[];
}

/** Counts of one station or class: done (every value confirmed), waiting (checked in, not done), missing (neither). */
export interface ProgressCounts {
  total: number;
  done: number;
  waiting: number;
  missing: number;
}
export interface TestDayProgress {
  planId: string;
  stations: (ProgressCounts & { id: string; name: string; items: ItemKey[]; appeals: number })[];
  classes: (ProgressCounts & { id: string; name: string; missingStudents: { id: string; name: string; regNo: string; stations: string[] }[] })[];
  at: string;
}

// The answers' shapes for the API document (/api/docs): they describe, never filter.
const fieldKey = z.enum(FIELD_KEYS);
const itemKey = z.string().describe('ItemKey of the national standard');
export const entryViewSchema = z.object({
  id: z.string(),
  field: fieldKey,
  value: z.number(),
  status: z.enum(ENTRY_STATUSES),
  source: z.enum(ENTRY_SOURCES),
  deviceSn: z.string().nullable(),
  outOfRange: z.boolean(),
  enteredBy: z.string().nullable(),
  enteredAt: z.string(),
  confirmedBy: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  appealNote: z.string().nullable(),
  appealVideoFileId: z.string().nullable(),
  appealedBy: z.string().nullable(),
  appealedAt: z.string().nullable(),
  resolution: z.enum(RESOLUTIONS).nullable(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  resolutionNote: z.string().nullable(),
  originalValue: z.number().nullable(),
  version: z.number().int(),
});
export const stationStudentSchema = z.object({
  station: z.object({ id: z.string(), name: z.string(), planId: z.string() }),
  student: z.object({ id: z.string(), name: z.string(), regNo: z.string(), gender: z.enum(['male', 'female']), className: z.string(), photoFileId: z.string().nullable() }),
  checkedInAt: z.string(),
  fields: z.array(
    z.object({
      field: fieldKey,
      item: itemKey,
      entry: entryViewSchema.nullable(),
      device: z.object({ recordId: z.string(), value: z.number(), deviceSn: z.string().nullable(), testedAt: z.string() }).nullable(),
    }),
  ),
});
/** A value's row as a write stores it (appeal, resolution). */
export const entryRowSchema = z.looseObject({ id: z.string(), field: fieldKey, value: z.number(), status: z.enum(ENTRY_STATUSES), version: z.number().int() });
const person = z.object({ id: z.string(), name: z.string() });
export const stationViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  planId: z.string(),
  planName: z.string(),
  planEnded: z.boolean(),
  items: z.array(itemKey),
  venueName: z.string().nullable(),
  devices: z.array(z.object({ id: z.string(), name: z.string(), serialNo: z.string() })),
  teachers: z.array(person),
  waiting: z.array(z.object({ studentId: z.string(), name: z.string(), regNo: z.string(), className: z.string(), checkedInAt: z.string() })),
  appeals: z.array(z.object({ entryId: z.string(), studentId: z.string(), name: z.string(), field: fieldKey, value: z.number(), note: z.string().nullable(), version: z.number().int() })),
});
const counts = { total: z.number().int(), done: z.number().int(), waiting: z.number().int(), missing: z.number().int() };
export const progressSchema = z.object({
  planId: z.string(),
  stations: z.array(z.object({ ...counts, id: z.string(), name: z.string(), items: z.array(itemKey), appeals: z.number().int() })),
  classes: z.array(z.object({ ...counts, id: z.string(), name: z.string(), missingStudents: z.array(z.object({ id: z.string(), name: z.string(), regNo: z.string(), stations: z.array(z.string()) })) })),
  at: z.string(),
});
