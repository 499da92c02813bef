import { z } from 'zod';
import { blankAsUndefined as blank, enumFilter, flagFilter, numberish, optionalDay, semesterFilter, uuid } from '../fields';
import { idFilter, listQuery, textFilter } from '../list-query';
import { isGrade } from '../physique/standard';
import { ACTIVITY_ITEM_KEYS, ACTIVITY_SOURCES, type ActivityItemKey, type ActivitySource, type ActivityUnit } from './items';

/**
 * Exercise records (docs/product-rules.md#exercise-records): the exercise sessions devices and the app recorded
 * (activity_records of kind 'exercise'), filtered by school year, semester, grade, class, student, item, source and
 * local day; set invalid (with an optional reason) or valid again; exported with the same filters.
 */

/** Most ids one invalid/restore call may name. */
export const EXERCISE_IDS_MAX = 1000;
/** Longest reason given when a record is set invalid. */
export const INVALID_REASON_MAX = 100;
/** Most rows one export writes. */
export const EXERCISE_EXPORT_MAX_ROWS = 100_000;

export const exerciseRecordFilter = z.object({
  /** A school of the management organisation (admin family only). */
  orgId: idFilter,
  schoolYearId: idFilter,
  semesterCode: semesterFilter('activities:exerciseRecords.validation.semester'),
  gradeNo: z.preprocess((v) => numberish(blank(v)), z.number().refine(isGrade, 'activities:exerciseRecords.validation.grade').optional()),
  classId: idFilter,
  /** Student name or registration number (contains). */
  keyword: textFilter(),
  item: enumFilter(ACTIVITY_ITEM_KEYS as unknown as [ActivityItemKey, ...ActivityItemKey[]], 'activities:exerciseRecords.validation.item'),
  source: enumFilter(ACTIVITY_SOURCES, 'activities:exerciseRecords.validation.source'),
  /** Inclusive local days YYYY-MM-DD. */
  from: optionalDay('activities:exerciseRecords.validation.from'),
  to: optionalDay('activities:exerciseRecords.validation.to'),
  invalid: flagFilter('activities:exerciseRecords.validation.flag'),
});
export type ExerciseRecordFilter = z.output<typeof exerciseRecordFilter>;
export const exerciseRecordListQuery = listQuery(exerciseRecordFilter.shape);

/** Setting records invalid (with an optional reason) or valid again. */
export const exerciseValidityBody = z.object({
  ids: z
    .array(uuid(), { error: 'activities:exerciseRecords.validation.ids' })
    .min(1, 'activities:exerciseRecords.validation.ids')
    .max(EXERCISE_IDS_MAX, 'activities:exerciseRecords.validation.tooManyIds'),
  reason: z.preprocess(blank, z.string().trim().max(INVALID_REASON_MAX, 'activities:exerciseRecords.validation.reasonLength').optional()),
});
export type ExerciseValidityBody = z.output<typeof exerciseValidityBody>;

/** One row of the exercise-record list. */
export interface ExerciseRecordRow {
  id: string;
  orgId: string;
  orgName: string;
  studentId: string;
  name: string;
  regNo: string;
  gender: 'male' | 'female';
  gradeNo: number;
  classId: string;
  className: string;
  item: ActivityItemKey;
  unit: ActivityUnit;
  value: number;
  durationS: number | null;
  source: ActivitySource;
  deviceSn: string | null;
  measuredAt: string;
  invalid: boolean;
  invalidReason: string | null;
  invalidAt: string | null;
}

/**
 * The choices of the activity screens' filters and scope pickers, within the reader's scope: schools (a management
 * organisation), school years, grades, classes (only those of the reader's data scope) and colleges.
 */
export interface ActivityOptions {
  schools: { id: string; name: string }[];
  schoolYears: { id: string; academicYear: string; current: boolean }[];
  grades: number[];
  classes: { id: string; name: string; gradeNo: number; orgId: string; collegeId: string | null }[];
  colleges: { id: string; name: string }[];
}

// ── Answers (the OpenAPI document's schemas; they describe what the routes answer) ─────────────────────────────
/** An activity item key as the API answers it. */
export const activityItemOut = z.enum(ACTIVITY_ITEM_KEYS as unknown as [ActivityItemKey, ...ActivityItemKey[]]);
const activityUnitOut = z.enum(['s', 'cm', 'ml', 'count', 'm', 'steps'] satisfies ActivityUnit[]);

/** A row of the exercise-record list (ExerciseRecordRow). */
export const exerciseRecordRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  gender: z.enum(['male', 'female']),
  gradeNo: z.number().int(),
  classId: z.string(),
  className: z.string(),
  item: activityItemOut,
  unit: activityUnitOut,
  value: z.number(),
  durationS: z.number().nullable(),
  source: z.enum(ACTIVITY_SOURCES),
  deviceSn: z.string().nullable(),
  measuredAt: z.string().describe('ISO instant'),
  invalid: z.boolean(),
  invalidReason: z.string().nullable(),
  invalidAt: z.string().nullable(),
});

/** GET …/options of the activity screens (ActivityOptions): the filters' choices within the reader's scope. */
export const activityOptionsSchema = z.object({
  schools: z.array(z.object({ id: z.string(), name: z.string() })),
  schoolYears: z.array(z.object({ id: z.string(), academicYear: z.string(), current: z.boolean() })),
  grades: z.array(z.number().int()),
  classes: z.array(z.object({ id: z.string(), name: z.string(), gradeNo: z.number().int(), orgId: z.string(), collegeId: z.string().nullable() })),
  colleges: z.array(z.object({ id: z.string(), name: z.string() })),
});

/** POST …/invalid and …/valid: how many records changed (records already so are left alone). */
export const validityChangedSchema = z.object({ changed: z.number().int() });
