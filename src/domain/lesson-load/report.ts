import { z } from 'zod';
import { flagFilter, optionalDay } from '../fields';
import { idFilter, listQuery } from '../list-query';
import { CURRICULUM_TARGETS, ZONES } from './zones';
import type { LessonLoad, StudentLoad } from './summary';

/**
 * The lesson load reports of a school (docs/product-rules.md#lesson-load, "Reports"): the lessons with heart-rate data
 * (`class/load`) and one lesson's report (`class/load/lesson/:lessonId`). Every figure is `lessonLoad`'s (summary.ts).
 */

/** The list's filters: class, teacher, from/to day (the organisation's time zone), meets the targets yes/no. */
export const loadListQuery = listQuery({
  classId: idFilter,
  teacherId: idFilter,
  from: optionalDay('lessons:rules.dateFormat'),
  to: optionalDay('lessons:rules.dateFormat'),
  meets: flagFilter('validation:common.invalid'),
});
export type LoadListQuery = z.output<typeof loadListQuery>;
export type LoadListFilters = Omit<LoadListQuery, 'current' | 'size'>;

const targetsSchema = z.object({ groupDensity: z.boolean(), individualDensity: z.boolean(), meanBpm: z.boolean() });
export type TargetName = keyof z.output<typeof targetsSchema>;
export const TARGET_NAMES: readonly TargetName[] = ['groupDensity', 'individualDensity', 'meanBpm'];

/** The targets a lesson missed, in the order the curriculum names them. */
export const missedTargets = (targets: Record<TargetName, boolean>): TargetName[] => TARGET_NAMES.filter((n) => !targets[n]);

/** One lesson of the list: a closed lesson's stored figures, or a lesson in progress computed up to now. */
export const loadRowSchema = z.object({
  id: z.string(),
  className: z.string(),
  teacherName: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  /** The lesson has not ended: its figures run to now and its verdict is not final. */
  inProgress: z.boolean(),
  minutes: z.number(),
  studentCount: z.number(),
  mainMeanBpm: z.number().nullable(),
  groupDensity: z.number().nullable(),
  individualDensity: z.number().nullable(),
  targetShare: z.number().nullable(),
  meetsTargets: z.boolean(),
  targets: targetsSchema,
});
export type LoadRow = z.output<typeof loadRowSchema>;

/** The classes and teachers of the lessons the user may see (the list's filters). */
export const loadOptionsSchema = z.object({
  classes: z.array(z.object({ id: z.string(), name: z.string() })),
  teachers: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type LoadOptions = z.output<typeof loadOptionsSchema>;

const zonesSchema = z.object(Object.fromEntries(ZONES.map((zone) => [zone, z.number()])) as Record<(typeof ZONES)[number], z.ZodNumber>);
const studentLoadSchema = z.object({
  studentId: z.string(),
  measured: z.number(),
  meanBpm: z.number().nullable(),
  mainMeanBpm: z.number().nullable(),
  peakBpm: z.number().nullable(),
  zones: zonesSchema,
  density: z.number().nullable(),
});

/** Where a student's main part sat against the class target of 140–160 bpm (null: not measured in the main part). */
export const STUDENT_BANDS = ['below', 'within', 'above'] as const;
export type StudentBand = (typeof STUDENT_BANDS)[number];
export function studentBand(s: Pick<StudentLoad, 'mainMeanBpm'>): StudentBand | null {
  if (s.mainMeanBpm === null) return null;
  if (s.mainMeanBpm < CURRICULUM_TARGETS.meanBpmMin) return 'below';
  if (s.mainMeanBpm > CURRICULUM_TARGETS.meanBpmMax) return 'above';
  return 'within';
}

/** A lesson's report: the lesson, its figures (`lessonLoad`), and each measured student with their own curve. */
export const loadReportSchema = z.object({
  lesson: loadRowSchema,
  load: z.object({
    curve: z.array(z.object({ minute: z.number(), meanBpm: z.number(), students: z.number() })),
    mainPart: z.object({ from: z.number(), to: z.number() }),
    students: z.array(studentLoadSchema),
    mainMeanBpm: z.number().nullable(),
    peakBpm: z.number().nullable(),
    recoveryBpm: z.number().nullable(),
    groupDensity: z.number().nullable(),
    individualDensity: z.number().nullable(),
    targetShare: z.number().nullable(),
    targets: targetsSchema,
    meetsTargets: z.boolean(),
  }),
  /** Measured students by name (学籍号 order within a name), each with the minutes' mean bpm (`lessonLoad` of the student alone). */
  students: z.array(z.object({ studentId: z.string(), name: z.string(), regNo: z.string(), curve: z.array(z.object({ minute: z.number(), meanBpm: z.number() })) })),
});
export type LoadReport = z.output<typeof loadReportSchema> & { load: LessonLoad };
