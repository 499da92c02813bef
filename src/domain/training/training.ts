import { z } from 'zod';
import { enumFilter, optionalId, uuid } from '../fields';
import { enumTable } from '../presentation';
import { idFilter, listQuery, textFilter } from '../list-query';
import { ITEM_KEYS, type ItemKey } from '../physique/standard';
import type { PlanStatus } from '../test-plans/status';
import { PLAN_STATUSES } from '../test-plans/status';
import { checkPeriod, taskFields, taskItemOut, TASK_CYCLES, TRAINING_STUDENTS_MAX, type TaskCycle, type TaskItem } from '../homework/homework';
import { ACTIVITY_ITEM_KEYS, type ActivityItemKey } from '../activities/items';

/**
 * Special-training plans (docs/product-rules.md#special-training): name 1–20, cycle, period, items with targets and
 * intensity (the homework rules), and the target students, e.g. those failing an item in a physique test plan. Plans
 * are not edited once saved (the catalogue has no edit): they are ended early or deleted.
 */

/** Levels a physique result's item can be picked by. */
export const PICK_LEVELS = ['fail', 'pass', 'good', 'excellent'] as const;
export type PickLevel = (typeof PICK_LEVELS)[number];
export const PICK_LEVEL_TABLE = enumTable(PICK_LEVELS, (l) => `training:levels.${l}`);

/** Physique items students can be picked by (BMI has bands, not levels). */
export const PICK_ITEMS = ITEM_KEYS.filter((k) => k !== 'bmi') as Exclude<ItemKey, 'bmi'>[];

export const trainingSaveSchema = z
  .object({
    ...taskFields,
    studentIds: z
      .array(uuid(), { error: 'activities:task.studentsRequired' })
      .min(1, 'activities:task.studentsRequired')
      .max(TRAINING_STUDENTS_MAX, 'activities:task.tooMany')
      .transform((ids) => [...new Set(ids)]),
    /** How the students were picked (kept for the detail). */
    sourcePlanId: optionalId(),
    sourceItem: enumFilter(PICK_ITEMS as [string, ...string[]]),
    sourceLevel: enumFilter(PICK_LEVELS),
  })
  .superRefine(checkPeriod);
export type TrainingSave = z.output<typeof trainingSaveSchema>;
export type TrainingForm = z.input<typeof trainingSaveSchema>;

export const trainingListQuery = listQuery({
  name: textFilter(),
  status: enumFilter(PLAN_STATUSES, 'activities:task.statusInvalid'),
});

/** Students to pick from: those whose result of an item is at a level, in one test plan or (no plan) in their latest result. */
export const candidateQuery = z.object({
  /** One test plan, or none (全部): each student's latest result of the item across the school's plans. */
  planId: optionalId('activities:task.planRequired'),
  item: z.enum(PICK_ITEMS as [string, ...string[]], { error: 'activities:task.itemRequired' }),
  level: z.enum(PICK_LEVELS, { error: 'activities:task.levelRequired' }),
  classId: idFilter,
});

export const trainingDataQuery = listQuery({ classId: idFilter, name: textFilter() });

export interface TrainingRow {
  id: string;
  name: string;
  cycle: TaskCycle;
  startDate: string;
  endDate: string;
  endedAt: string | null;
  status: PlanStatus;
  studentCount: number;
  sessionCount: number;
  /** Students who reached every item's target. */
  reachedCount: number;
  createdByName: string | null;
  createdAt: string;
  version: number;
}

export interface TrainingDetail extends TrainingRow {
  items: TaskItem[];
  students: { id: string; name: string; className: string }[];
  sourcePlanName: string | null;
  sourceItem: string | null;
  sourceLevel: PickLevel | null;
}

export interface TrainingCandidate {
  studentId: string;
  name: string;
  studentNo: string;
  classId: string;
  className: string;
  /** The raw value of the item in the plan. */
  value: number | null;
}

/** One student's progress toward each item's target over the plan's sessions. */
export interface TrainingProgress {
  studentId: string;
  name: string;
  className: string;
  sessions: number;
  lastAt: string | null;
  items: { item: ActivityItemKey; target: number; baseline: number | null; best: number | null; reached: boolean; progress: number }[];
  reachedAll: boolean;
}

/** One session (record) of the plan. */
export interface TrainingSession {
  id: string;
  studentName: string;
  className: string;
  item: ActivityItemKey;
  value: number;
  durationS: number | null;
  measuredAt: string;
  source: string;
  invalid: boolean;
}

/**
 * Progress toward a target from a starting value, 0–1: the share of the way from the baseline (the physique result, or
 * none) to the target that the best value covers; values past the target count 1.
 */
export function progressToward(best: number | null, target: number, baseline: number | null, lowerIsBetter: boolean): number {
  if (best === null) return 0;
  const reached = lowerIsBetter ? best <= target : best >= target;
  if (reached) return 1;
  if (baseline === null || baseline === target) return Math.max(0, Math.min(1, lowerIsBetter ? target / best : best / target));
  return Math.max(0, Math.min(1, (best - baseline) / (target - baseline)));
}

// ── Answers (the OpenAPI document's schemas; they describe what the routes answer) ─────────────────────────────
const itemOut = z.enum(ACTIVITY_ITEM_KEYS as unknown as [ActivityItemKey, ...ActivityItemKey[]]);

/** A training plan of the list (TrainingRow). */
export const trainingRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  cycle: z.enum(TASK_CYCLES),
  startDate: z.string(),
  endDate: z.string(),
  endedAt: z.string().nullable(),
  status: z.enum(PLAN_STATUSES),
  studentCount: z.number().int(),
  sessionCount: z.number().int(),
  reachedCount: z.number().int().describe("Students who reached every item's target"),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  version: z.number().int(),
});

/** A plan as the detail reads it and a save answers it (TrainingDetail). */
export const trainingDetailSchema = trainingRowSchema.extend({
  items: z.array(taskItemOut),
  students: z.array(z.object({ id: z.string(), name: z.string(), className: z.string() })),
  sourcePlanName: z.string().nullable(),
  sourceItem: z.string().nullable(),
  sourceLevel: z.enum(PICK_LEVELS).nullable(),
});

/** GET …/options: the school's test plans the students may be picked from. */
export const trainingOptionsSchema = z.object({ plans: z.array(z.object({ id: z.string(), name: z.string(), startDate: z.string() })) });

/** GET …/candidates: students of a plan at a level of an item (TrainingCandidate). */
export const trainingCandidatesSchema = z.array(
  z.object({ studentId: z.string(), name: z.string(), studentNo: z.string(), classId: z.string(), className: z.string(), value: z.number().nullable().describe('The raw value of the item in the plan') }),
);

/** A row of GET …/:id/progress (TrainingProgress). */
export const trainingProgressSchema = z.object({
  studentId: z.string(),
  name: z.string(),
  className: z.string(),
  sessions: z.number().int(),
  lastAt: z.string().nullable(),
  items: z.array(z.object({ item: itemOut, target: z.number(), baseline: z.number().nullable(), best: z.number().nullable(), reached: z.boolean(), progress: z.number().describe('0–1') })),
  reachedAll: z.boolean(),
});

/** A row of GET …/:id/sessions (TrainingSession). */
export const trainingSessionSchema = z.object({
  id: z.string(),
  studentName: z.string(),
  className: z.string(),
  item: itemOut,
  value: z.number(),
  durationS: z.number().nullable(),
  measuredAt: z.string(),
  source: z.string(),
  invalid: z.boolean(),
});
