import { z } from 'zod';
import { PLAN_NAME_MAX, PLAN_NAME_MIN } from '../constants';
import { isIsoDate } from '../dates';
import { enumFilter, requiredNumber, uuid } from '../fields';
import { enumTable } from '../presentation';
import { idFilter, listQuery, textFilter, versionField } from '../list-query';
import { PLAN_STATUSES, type PlanStatus } from '../test-plans/status';
import { localDate } from '../dates';
import { ACTIVITY_ITEMS, ACTIVITY_ITEM_KEYS, type ActivityItemKey } from '../activities/items';

/**
 * Sports homework and special-training plans (docs/product-rules.md#homework): a task published to classes (homework)
 * or to chosen students (training), with items that each carry a target and an intensity, a cycle (once, daily,
 * weekly) over a period of calendar days in China. Status follows the test plans' rule (planStatus): from the dates
 * and an early end, never stored.
 */

export const TASK_CYCLES = ['once', 'daily', 'weekly'] as const;
export type TaskCycle = (typeof TASK_CYCLES)[number];
export const TASK_CYCLE_TABLE = enumTable(TASK_CYCLES, (c) => `activities:task.cycle.${c}`);

export const INTENSITIES = ['low', 'medium', 'high'] as const;
export type Intensity = (typeof INTENSITIES)[number];
export const INTENSITY_TABLE = enumTable(INTENSITIES, (i) => `activities:task.intensity.${i}`);

/** A submission's video review: pending, judged valid or invalid, expired unreviewed, or no video to review. */
export const REVIEW_STATES = ['pending', 'valid', 'invalid', 'expired', 'none'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
export const REVIEW_STATE_TABLE = enumTable(REVIEW_STATES, (s) => `homework:reviewState.${s}`, { pending: 'warning', valid: 'success', invalid: 'danger', expired: 'neutral', none: 'plain' });
/** The review states the submissions list filters by. */
export const REVIEW_FILTERS = ['pending', 'valid', 'invalid', 'none'] as const satisfies readonly ReviewState[];

/** Items one homework or plan may hold. */
export const TASK_ITEMS_MAX = 10;
/** Longest homework description (the instructions students read). */
export const HOMEWORK_NOTE_MAX = 200;
/** Longest reason of an invalid video review. */
export const REVIEW_REASON_MAX = 100;
/** Classes one homework may be published to. */
export const HOMEWORK_CLASSES_MAX = 200;
/** Students one training plan may hold. */
export const TRAINING_STUDENTS_MAX = 500;
/** Longest period of a homework or plan, days (a school year). */
export const TASK_PERIOD_MAX_DAYS = 366;
/** Submission videos are kept this many months after upload; the review right ends with them (docs/product-rules.md#homework). */
export const VIDEO_KEEP_MONTHS = 1;


const dayField = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .refine(isIsoDate, 'activities:task.dateInvalid');

/** One item of a homework or plan: the item, its target (in the item's unit, within its range) and intensity. */
export const taskItemSchema = z
  .object({
    item: z.enum(ACTIVITY_ITEM_KEYS as unknown as [ActivityItemKey, ...ActivityItemKey[]], { error: 'activities:task.itemRequired' }),
    target: requiredNumber('activities:task.targetRequired'),
    intensity: z.enum(INTENSITIES, { error: 'activities:task.intensityRequired' }),
  })
  .superRefine((v, ctx) => {
    const rule = ACTIVITY_ITEMS.get(v.item);
    if (rule && (v.target < rule.min || v.target > rule.max)) {
      ctx.addIssue({ code: 'custom', path: ['target'], message: 'activities:task.targetRange' });
    }
  });
export type TaskItem = z.output<typeof taskItemSchema>;

const itemsField = z
  .array(taskItemSchema, { error: 'activities:task.itemsRequired' })
  .min(1, 'activities:task.itemsRequired')
  .max(TASK_ITEMS_MAX, 'activities:task.itemsMax')
  .refine((items) => new Set(items.map((i) => i.item)).size === items.length, 'activities:task.itemTwice');

const nameField = z
  .string({ error: 'activities:task.nameRequired' })
  .trim()
  .min(PLAN_NAME_MIN, 'activities:task.nameRequired')
  .max(PLAN_NAME_MAX, 'activities:task.nameLength');

const idList = (required: string, max: number) =>
  z
    .array(uuid(), { error: required })
    .min(1, required)
    .max(max, 'activities:task.tooMany')
    .transform((ids) => [...new Set(ids)]);

/** Days from `start` to `end` inclusive (both YYYY-MM-DD). */
export function daySpan(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The period rule of a homework or plan: the end not before the start, at most TASK_PERIOD_MAX_DAYS. */
export function checkPeriod(v: { startDate: string; endDate: string }, ctx: z.RefinementCtx) {
  if (!isIsoDate(v.startDate) || !isIsoDate(v.endDate)) return;
  if (v.endDate < v.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'activities:task.endBeforeStart' });
  else if (daySpan(v.startDate, v.endDate) > TASK_PERIOD_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'activities:task.periodTooLong' });
}

/** Fields every task (homework, training plan) has. */
export const taskFields = {
  name: nameField,
  items: itemsField,
  cycle: z.enum(TASK_CYCLES, { error: 'activities:task.cycleRequired' }),
  startDate: dayField('activities:task.startRequired'),
  endDate: dayField('activities:task.endRequired'),
  version: versionField.optional(),
};

/** The homework form and request body. */
export const homeworkSaveSchema = z
  .object({
    name: taskFields.name,
    note: z.preprocess((v) => (v === null ? '' : v), z.string().trim().max(HOMEWORK_NOTE_MAX, 'activities:task.noteLength').optional()),
    classIds: idList('activities:task.classesRequired', HOMEWORK_CLASSES_MAX),
    items: taskFields.items,
    cycle: taskFields.cycle,
    startDate: taskFields.startDate,
    endDate: taskFields.endDate,
    version: taskFields.version,
  })
  .superRefine(checkPeriod);
export type HomeworkSave = z.output<typeof homeworkSaveSchema>;
export type HomeworkForm = z.input<typeof homeworkSaveSchema>;

const statusFilter = enumFilter(PLAN_STATUSES, 'activities:task.statusInvalid');

/** The homework list's filters (the admin list also filters by school). */
/** `review: 'pending'`: homework with videos waiting for a teacher's review (the to-do of docs/product-rules.md#to-dos-and-messages). */
export const HOMEWORK_REVIEW_FILTERS = ['pending'] as const;
export const homeworkListQuery = listQuery({ name: textFilter(), status: statusFilter, classId: idFilter, schoolId: idFilter, review: enumFilter(HOMEWORK_REVIEW_FILTERS) });
export type HomeworkListQuery = z.output<typeof homeworkListQuery>;

/** The per-student completion list of a homework. */
export const homeworkStudentQuery = listQuery({ classId: idFilter, name: textFilter(), done: enumFilter(['yes', 'no']) });

/** Submissions of a homework (each record with its value and video). */
export const homeworkSubmissionQuery = listQuery({
  classId: idFilter,
  studentId: idFilter,
  name: textFilter(),
  review: enumFilter(REVIEW_FILTERS),
});

/** A teacher's verdict on a submission's video: valid, or invalid with a reason (the record then counts nowhere). */
export const videoReviewSchema = z.discriminatedUnion(
  'verdict',
  [
    z.object({ verdict: z.literal('valid'), reason: z.string().optional() }),
    z.object({
      verdict: z.literal('invalid'),
      reason: z
        .string({ error: 'activities:task.reasonRequired' })
        .trim()
        .min(1, 'activities:task.reasonRequired')
        .max(REVIEW_REASON_MAX, 'activities:task.reasonLength'),
    }),
  ],
  { error: 'activities:task.verdictRequired' },
);
export type VideoReview = z.output<typeof videoReviewSchema>;


/** A homework row of the list. */
export interface HomeworkRow {
  id: string;
  orgId: string;
  schoolName: string;
  name: string;
  note: string;
  cycle: TaskCycle;
  startDate: string;
  endDate: string;
  endedAt: string | null;
  status: PlanStatus;
  classCount: number;
  studentCount: number;
  /** Students who completed every period due so far. */
  doneCount: number;
  pendingReviews: number;
  createdByName: string | null;
  createdAt: string;
  version: number;
}

/** A homework as the form and the detail read it. */
export interface HomeworkDetail extends HomeworkRow {
  classIds: string[];
  classes: { id: string; name: string }[];
  items: TaskItem[];
  /** Periods due at the time of the answer (cycle periods from the start to today or the end). */
  periodsDue: number;
  periodsTotal: number;
}

export interface HomeworkClassCompletion {
  classId: string;
  className: string;
  students: number;
  submitted: number;
  done: number;
  /** Mean of the students' done ÷ due periods, 0–1. */
  rate: number;
}

export interface HomeworkStudentCompletion {
  studentId: string;
  studentName: string;
  studentNo: string;
  classId: string;
  className: string;
  submissions: number;
  periodsDone: number;
  periodsDue: number;
  done: boolean;
}

export interface HomeworkSubmission {
  id: string;
  studentId: string;
  studentName: string;
  className: string;
  item: ActivityItemKey;
  value: number;
  target: number;
  reached: boolean;
  measuredAt: string;
  source: string;
  videoFileId: string | null;
  review: ReviewState;
  reviewReason: string | null;
  reviewedAt: string | null;
  /** Until when the video is kept and may be reviewed (ISO), null without a video. */
  videoUntil: string | null;
  invalid: boolean;
}

/** Whether a value reaches an item's target (times: at most the target). */
export function reachesTarget(item: ActivityItemKey, value: number, target: number): boolean {
  return ACTIVITY_ITEMS.get(item)?.lowerIsBetter ? value <= target : value >= target;
}

/** Index of the cycle period a calendar day falls in (0 for the first), counting from the start day. */
export function periodIndex(cycle: TaskCycle, startDate: string, day: string): number {
  if (cycle === 'once') return 0;
  const days = daySpan(startDate, day) - 1;
  return cycle === 'daily' ? days : Math.floor(days / 7);
}

/** Number of periods of a task from its first day through `lastDay` (inclusive); 0 before it starts. */
export function periodCount(cycle: TaskCycle, startDate: string, lastDay: string): number {
  if (lastDay < startDate) return 0;
  return periodIndex(cycle, startDate, lastDay) + 1;
}

/** Periods due at `now`: from the start through today, or through the end (or early end) once it is over. */
export function periodsDue(task: { cycle: TaskCycle; startDate: string; endDate: string; endedAt: Date | string | null }, now: Date): number {
  const ended = task.endedAt === null ? null : localDate(new Date(task.endedAt));
  let last = localDate(now);
  if (last > task.endDate) last = task.endDate;
  if (ended !== null && ended < last) last = ended;
  return periodCount(task.cycle, task.startDate, last);
}

// ── Answers (the OpenAPI document's schemas; they describe what the routes answer) ─────────────────────────────
const itemOut = z.enum(ACTIVITY_ITEM_KEYS as unknown as [ActivityItemKey, ...ActivityItemKey[]]);

/** A task's item as a homework or a training plan answers it (TaskItem). */
export const taskItemOut = z.object({ item: itemOut, target: z.number(), intensity: z.enum(INTENSITIES) });

/** A homework row of the list (HomeworkRow). */
export const homeworkRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  schoolName: z.string(),
  name: z.string(),
  note: z.string(),
  cycle: z.enum(TASK_CYCLES),
  startDate: z.string(),
  endDate: z.string(),
  endedAt: z.string().nullable(),
  status: z.enum(PLAN_STATUSES),
  classCount: z.number().int(),
  studentCount: z.number().int(),
  doneCount: z.number().int().describe('Students who completed every period due so far'),
  pendingReviews: z.number().int(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  version: z.number().int(),
});

/** A homework as the form and the detail read it, and as saves answer it (HomeworkDetail). */
export const homeworkDetailSchema = homeworkRowSchema.extend({
  classIds: z.array(z.string()),
  classes: z.array(z.object({ id: z.string(), name: z.string() })),
  items: z.array(taskItemOut),
  periodsDue: z.number().int().describe('Cycle periods from the start to today (or the end)'),
  periodsTotal: z.number().int(),
});

/** GET …/options: the classes a homework may be set for. */
export const homeworkOptionsSchema = z.object({ classes: z.array(z.object({ id: z.string(), name: z.string(), gradeNo: z.number().int() })) });

/** GET …/:id/classes: completion per class (HomeworkClassCompletion). */
export const homeworkClassCompletionSchema = z.array(
  z.object({ classId: z.string(), className: z.string(), students: z.number().int(), submitted: z.number().int(), done: z.number().int(), rate: z.number().describe('0–1') }),
);

/** A row of GET …/:id/students (HomeworkStudentCompletion). */
export const homeworkStudentCompletionSchema = z.object({
  studentId: z.string(),
  studentName: z.string(),
  studentNo: z.string(),
  classId: z.string(),
  className: z.string(),
  submissions: z.number().int(),
  periodsDone: z.number().int(),
  periodsDue: z.number().int(),
  done: z.boolean(),
});

/** A row of GET …/:id/submissions (HomeworkSubmission). */
export const homeworkSubmissionSchema = z.object({
  id: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  className: z.string(),
  item: itemOut,
  value: z.number(),
  target: z.number(),
  reached: z.boolean(),
  measuredAt: z.string(),
  source: z.string(),
  videoFileId: z.string().nullable(),
  review: z.enum(REVIEW_STATES),
  reviewReason: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  videoUntil: z.string().nullable().describe('Until when the video is kept and may be reviewed; null without a video'),
  invalid: z.boolean(),
});

/** PUT …/submissions/:id/review: the verdict given. */
export const videoReviewedSchema = z.object({ recordId: z.string(), verdict: z.string(), reason: z.string().nullable() });
