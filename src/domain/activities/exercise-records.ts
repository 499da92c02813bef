import { z } from 'zod';
import { SEMESTER } from '../constants';
import { isIsoDate } from '../dates';
import { idFilter, listQuery, textFilter, UUID_PATTERN } from '../list-query';
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

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
const numberish = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v);
const optionalDay = (message: string) => z.preprocess(blank, z.string().refine(isIsoDate, message).optional());

export const exerciseRecordFilter = z.object({
  /** A school of the management organisation (admin family only). */
  orgId: idFilter,
  schoolYearId: idFilter,
  semesterCode: z.preprocess(
    (v) => numberish(blank(v)),
    z.union([z.literal(SEMESTER.spring), z.literal(SEMESTER.autumn)], { error: 'activities:exerciseRecords.validation.semester' }).optional(),
  ),
  gradeNo: z.preprocess((v) => numberish(blank(v)), z.number().refine(isGrade, 'activities:exerciseRecords.validation.grade').optional()),
  classId: idFilter,
  /** Student name or registration number (contains). */
  keyword: textFilter(),
  item: z.preprocess(blank, z.enum(ACTIVITY_ITEM_KEYS as unknown as [ActivityItemKey, ...ActivityItemKey[]], { error: 'activities:exerciseRecords.validation.item' }).optional()),
  source: z.preprocess(blank, z.enum(ACTIVITY_SOURCES, { error: 'activities:exerciseRecords.validation.source' }).optional()),
  /** Inclusive local days YYYY-MM-DD. */
  from: optionalDay('activities:exerciseRecords.validation.from'),
  to: optionalDay('activities:exerciseRecords.validation.to'),
  invalid: z.preprocess(
    (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : blank(v)),
    z.boolean({ error: 'activities:exerciseRecords.validation.flag' }).optional(),
  ),
});
export type ExerciseRecordFilter = z.output<typeof exerciseRecordFilter>;
export const exerciseRecordListQuery = listQuery(exerciseRecordFilter.shape);

/** Setting records invalid (with an optional reason) or valid again. */
export const exerciseValidityBody = z.object({
  ids: z
    .array(z.string().regex(UUID_PATTERN, 'validation:common.id'), { error: 'activities:exerciseRecords.validation.ids' })
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
