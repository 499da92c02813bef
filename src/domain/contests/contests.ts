import { z } from 'zod';
import { isIsoDate } from '../dates';
import { blankAsUndefined as blank, enumFilter, flagFilter, optionalId, optionalText, requiredNumber, uuid as idField } from '../fields';
import { listQuery, textFilter, versionField } from '../list-query';
import { enumTable } from '../presentation';
import { isGrade } from '../physique/standard';
import { ACTIVITY_ITEM_KEYS, ACTIVITY_ITEMS, ACTIVITY_SOURCES, type ActivityItemKey, type ActivitySource } from '../activities/items';
import type { Family } from '../menus/access';

/**
 * Online contests (docs/product-rules.md#contests): a ranking contest ranks the students of its scope by one rule
 * over their entries (activity_records of kind 'contest'); an obstacle challenge (universities) has levels, each with
 * a threshold in the item's unit, and a student passes when they clear at least `passLevels` of them.
 */

/** The catalogue page of a family's contests: ranking contests (admin, k12), or the university's contests with challenges. */
export const contestPageKey = (family: Family) => (family === 'gx' ? 'gx.contest.competition' : `${family}.contest.competitionRank`);

export const CONTEST_TYPES = ['rank', 'challenge'] as const;
export type ContestType = (typeof CONTEST_TYPES)[number];
export const CONTEST_TYPE_TABLE = enumTable(CONTEST_TYPES, (s) => `contests:type.${s}`);

/** How a student's entries of an item make one score: the best entry, the sum of the entries, or the number of sessions. */
export const RANKING_RULES = ['best', 'sum', 'count'] as const;
export type RankingRule = (typeof RANKING_RULES)[number];
export const RANKING_RULE_TABLE = enumTable(RANKING_RULES, (r) => `contests:rule.${r}`);

export const CONTEST_STATUSES = ['notStarted', 'running', 'ended'] as const;
export type ContestStatus = (typeof CONTEST_STATUSES)[number];
export const CONTEST_STATUS_TABLE = enumTable(CONTEST_STATUSES, (s) => `contests:status.${s}`, { notStarted: 'neutral', running: 'success', ended: 'plain' });

export const CONTEST_NAME_MAX = 20;
export const CONTEST_PRIZES_MAX = 500;
export const CONTEST_ITEMS_MAX = 5;
export const CHALLENGE_LEVELS_MAX = 10;
export const LEVEL_NAME_MAX = 20;
/** Longest a contest may run, in days. */
export const CONTEST_DAYS_MAX = 366;
/** Rows of one leaderboard view (the rest are counted). */
export const LEADERBOARD_MAX_ROWS = 200;

const V = 'contests:validation';
const uuid = idField();
const day = (message: string) => z.string({ error: message }).refine(isIsoDate, message);
const itemKey = z.enum(ACTIVITY_ITEM_KEYS as unknown as [ActivityItemKey, ...ActivityItemKey[]], { error: `${V}.item` });

export const contestLevelSchema = z.object({
  name: z.string({ error: `${V}.levelName` }).trim().min(1, `${V}.levelName`).max(LEVEL_NAME_MAX, `${V}.levelNameLength`),
  threshold: requiredNumber(`${V}.threshold`),
});
export type ContestLevel = z.output<typeof contestLevelSchema>;

/** Days between two YYYY-MM-DD days (b − a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** The contest form and API body. Challenges have one item, levels and a pass condition; ranking contests have a rule. */
export const contestSaveSchema = z
  .object({
    type: z.enum(CONTEST_TYPES, { error: `${V}.type` }).default('rank'),
    name: z.string({ error: `${V}.nameRequired` }).trim().min(1, `${V}.nameRequired`).max(CONTEST_NAME_MAX, `${V}.nameLength`),
    /** First and last local day of the contest (China time), inclusive. */
    startDate: day(`${V}.startDate`),
    endDate: day(`${V}.endDate`),
    gradeNos: z.array(z.coerce.number().refine(isGrade, `${V}.grade`), { error: `${V}.grade` }).max(16, `${V}.grade`).default([]),
    classIds: z.array(uuid, { error: `${V}.classes` }).max(500, `${V}.classes`).default([]),
    collegeIds: z.array(uuid, { error: `${V}.colleges` }).max(200, `${V}.colleges`).default([]),
    items: z.array(itemKey, { error: `${V}.itemsRequired` }).min(1, `${V}.itemsRequired`).max(CONTEST_ITEMS_MAX, `${V}.itemsMax`),
    rule: z.enum(RANKING_RULES, { error: `${V}.rule` }).default('best'),
    prizes: optionalText(CONTEST_PRIZES_MAX, `${V}.prizesLength`),
    levels: z.array(contestLevelSchema, { error: `${V}.levels` }).max(CHALLENGE_LEVELS_MAX, `${V}.levelsMax`).default([]),
    passLevels: z.coerce.number({ error: `${V}.passLevels` }).int(`${V}.passLevels`).min(1, `${V}.passLevels`).optional().nullable(),
    version: versionField.optional(),
  })
  .superRefine((c, ctx) => {
    if (isIsoDate(c.startDate) && isIsoDate(c.endDate)) {
      const days = daysBetween(c.startDate, c.endDate);
      if (days < 0) ctx.addIssue({ code: 'custom', path: ['endDate'], message: `${V}.endBeforeStart` });
      else if (days >= CONTEST_DAYS_MAX) ctx.addIssue({ code: 'custom', path: ['endDate'], message: `${V}.tooLong` });
    }
    if (c.type === 'challenge') {
      if (c.items.length !== 1) ctx.addIssue({ code: 'custom', path: ['items'], message: `${V}.challengeOneItem` });
      if (c.levels.length === 0) ctx.addIssue({ code: 'custom', path: ['levels'], message: `${V}.levelsRequired` });
      if (c.passLevels == null || c.passLevels > c.levels.length) ctx.addIssue({ code: 'custom', path: ['passLevels'], message: `${V}.passLevels` });
      // Each level is harder than the one before: higher thresholds, or lower for times.
      const lower = ACTIVITY_ITEMS.get(c.items[0])?.lowerIsBetter ?? false;
      c.levels.forEach((level, i) => {
        const item = ACTIVITY_ITEMS.get(c.items[0]);
        if (item && (level.threshold < item.min || level.threshold > item.max))
          ctx.addIssue({ code: 'custom', path: ['levels', i, 'threshold'], message: `${V}.thresholdRange` });
        const prev = c.levels[i - 1];
        if (prev && (lower ? level.threshold >= prev.threshold : level.threshold <= prev.threshold))
          ctx.addIssue({ code: 'custom', path: ['levels', i, 'threshold'], message: `${V}.thresholdOrder` });
      });
    }
    if (new Set(c.items).size !== c.items.length) ctx.addIssue({ code: 'custom', path: ['items'], message: `${V}.itemsUnique` });
  });
export type ContestSave = z.output<typeof contestSaveSchema>;
export type ContestForm = z.input<typeof contestSaveSchema>;

export const contestListQuery = listQuery({
  name: textFilter(),
  status: enumFilter(CONTEST_STATUSES, `${V}.status`),
  type: enumFilter(CONTEST_TYPES, `${V}.type`),
});
export type ContestListQuery = z.output<typeof contestListQuery>;

/** Which leaderboard: students or classes, of one item of the contest. */
export const leaderboardQuery = z.object({
  by: z.enum(['student', 'class'], { error: `${V}.view` }).default('student'),
  item: z.preprocess(blank, itemKey.optional()),
});
export type LeaderboardQuery = z.output<typeof leaderboardQuery>;

/** The instant a local day starts in China time (contests run from the first day's 00:00 to the day after the last). */
export function dayStart(dayIso: string): Date {
  // ORG_TIME_ZONE (src/domain/dates.ts) is China: UTC+8 all year, no daylight saving.
  return new Date(`${dayIso}T00:00:00+08:00`);
}

/** A contest's window as instants: [start, end). An early end moves the end to the moment it was ended. */
export function contestWindow(c: { startDate: string; endDate: string; endedAt: string | Date | null }): { start: Date; end: Date } {
  const start = dayStart(c.startDate);
  const natural = new Date(dayStart(c.endDate).getTime() + 86_400_000);
  const ended = c.endedAt ? new Date(c.endedAt) : null;
  return { start, end: ended && ended < natural ? ended : natural };
}

/** Status from the dates (and an early end) at `now`. */
export function contestStatus(c: { startDate: string; endDate: string; endedAt: string | Date | null }, now: Date): ContestStatus {
  const { start, end } = contestWindow(c);
  if (now >= end) return 'ended';
  return now >= start ? 'running' : 'notStarted';
}

/** How many levels a value clears (thresholds in the item's unit; times clear when at or under). */
export function levelsCleared(levels: readonly ContestLevel[], item: ActivityItemKey, value: number): number {
  const lower = ACTIVITY_ITEMS.get(item)?.lowerIsBetter ?? false;
  let n = 0;
  for (const l of levels) {
    if (lower ? value <= l.threshold : value >= l.threshold) n += 1;
    else break;
  }
  return n;
}

/** A contest as the list and the forms read it. */
export interface ContestRow {
  id: string;
  orgId: string;
  type: ContestType;
  name: string;
  startDate: string;
  endDate: string;
  endedAt: string | null;
  status: ContestStatus;
  gradeNos: number[];
  classIds: string[];
  collegeIds: string[];
  items: ActivityItemKey[];
  rule: RankingRule;
  prizes: string | null;
  levels: ContestLevel[];
  passLevels: number | null;
  /** Students with at least one valid entry. */
  participants: number;
  version: number;
  createdAt: string;
}

export interface LeaderboardStudentRow {
  rank: number;
  studentId: string;
  name: string;
  regNo: string;
  className: string;
  score: number;
  sessions: number;
  lastAt: string;
  /** Challenges: levels cleared by the best entry and whether that passes. */
  levels?: number;
  passed?: boolean;
}

export interface LeaderboardClassRow {
  rank: number;
  classId: string;
  className: string;
  participants: number;
  /** Mean of the participants' scores. */
  score: number;
  sessions: number;
  /** Challenges: participants who passed. */
  passed?: number;
}

export interface Leaderboard<T> {
  item: ActivityItemKey;
  rule: RankingRule;
  lowerIsBetter: boolean;
  /** All ranked rows (participants or classes); `rows` holds the first LEADERBOARD_MAX_ROWS. */
  total: number;
  rows: T[];
}

/** Participation per local day: entries and distinct students with a valid entry. */
export interface ParticipationDay {
  day: string;
  entries: number;
  students: number;
}

// ---- entries ------------------------------------------------------------------------------------------------------

/** Most entries one invalid/restore call may name. */
export const CONTEST_ENTRY_IDS_MAX = 1000;
/** Longest reason given when an entry is set invalid. */
export const ENTRY_REASON_MAX = 100;
/** Most rows one entry export writes. */
export const CONTEST_ENTRY_EXPORT_MAX_ROWS = 100_000;

/** The entry list's filters (and its export's): class, item, source, validity, student name or number. */
export const contestEntryFilter = z.object({
  classId: optionalId(),
  item: z.preprocess(blank, itemKey.optional()),
  source: enumFilter(ACTIVITY_SOURCES, `${V}.source`),
  invalid: flagFilter(`${V}.flag`),
  keyword: textFilter(),
});
export type ContestEntryFilter = z.output<typeof contestEntryFilter>;
export const contestEntryListQuery = listQuery(contestEntryFilter.shape);

const entryIds = z
  .array(uuid, { error: `${V}.entryIds` })
  .min(1, `${V}.entryIds`)
  .max(CONTEST_ENTRY_IDS_MAX, `${V}.tooManyEntryIds`);

/** Setting entries invalid: the reason is required, it is shown beside the entry and kept in the audit log. */
export const contestEntryInvalidBody = z.object({
  ids: entryIds,
  reason: z.string({ error: `${V}.reasonRequired` }).trim().min(1, `${V}.reasonRequired`).max(ENTRY_REASON_MAX, `${V}.reasonLength`),
});
export type ContestEntryInvalidBody = z.output<typeof contestEntryInvalidBody>;
/** Restoring entries: only which. */
export const contestEntryValidBody = z.object({ ids: entryIds });

/** One entry of a contest as its data screen lists it. */
export interface ContestEntryRow {
  id: string;
  studentId: string;
  name: string;
  regNo: string;
  classId: string;
  className: string;
  item: ActivityItemKey;
  value: number;
  source: ActivitySource;
  deviceSn: string | null;
  measuredAt: string;
  invalid: boolean;
  invalidReason: string | null;
  invalidAt: string | null;
}

// ---- answers (the OpenAPI document's schemas) ---------------------------------------------------------------------
const itemOut = z.enum(ACTIVITY_ITEM_KEYS as unknown as [ActivityItemKey, ...ActivityItemKey[]]);

/** A contest as its list, detail and saves answer it (ContestRow). */
export const contestRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  type: z.enum(CONTEST_TYPES),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  endedAt: z.string().nullable().describe('ISO instant of an early end'),
  status: z.enum(CONTEST_STATUSES),
  gradeNos: z.array(z.number().int()),
  classIds: z.array(z.string()),
  collegeIds: z.array(z.string()),
  items: z.array(itemOut),
  rule: z.enum(RANKING_RULES),
  prizes: z.string().nullable(),
  levels: z.array(contestLevelSchema),
  passLevels: z.number().int().nullable(),
  participants: z.number().int().describe('Students with at least one valid entry'),
  version: z.number().int(),
  createdAt: z.string(),
});

const studentRow = z.object({
  rank: z.number().int(),
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  className: z.string(),
  score: z.number(),
  sessions: z.number().int(),
  lastAt: z.string(),
  levels: z.number().int().optional().describe('Challenges: levels cleared by the best entry'),
  passed: z.boolean().optional(),
});
const classRow = z.object({
  rank: z.number().int(),
  classId: z.string(),
  className: z.string(),
  participants: z.number().int(),
  score: z.number().describe("Mean of the participants' scores"),
  sessions: z.number().int(),
  passed: z.number().int().optional().describe('Challenges: participants who passed'),
});

/** GET …/:id/leaderboard: by student (default) or by class (`by=class`); `rows` holds the first LEADERBOARD_MAX_ROWS. */
export const leaderboardSchema = z.object({
  item: itemOut,
  rule: z.enum(RANKING_RULES),
  lowerIsBetter: z.boolean(),
  total: z.number().int(),
  rows: z.array(z.union([studentRow, classRow])),
});

/** GET …/:id/participation: entries and students per local day. */
export const participationSchema = z.array(z.object({ day: z.string(), entries: z.number().int(), students: z.number().int() }));

/** A contest entry (ContestEntryRow). */
export const contestEntryRowSchema = z.object({
  id: z.string(),
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  classId: z.string(),
  className: z.string(),
  item: itemOut,
  value: z.number(),
  source: z.enum(ACTIVITY_SOURCES),
  deviceSn: z.string().nullable(),
  measuredAt: z.string(),
  invalid: z.boolean(),
  invalidReason: z.string().nullable(),
  invalidAt: z.string().nullable(),
});
