import { z } from 'zod';
import { pageSchema } from '../api';
import { examPointsSchema } from '../conversion/conversion';
import type { ResultKey } from '../physique/national-template';
import { answerGenderSchema, itemKeySchema, itemResultSchema, itemResultsSchema, scoreLevelSchema } from '../physique/answer-fields';
import { SOURCE_FIELDS } from './value-source';
import type { YearResultSource } from '../physique-year/year-result';

/**
 * Answers of the physique-result routes (docs/product-rules.md#physique-results: score search, results screen, test
 * records, student report, sync) as zod for the API document (/api/docs): they describe, never filter. The types are
 * exported from ./types.
 */

/** A result field (height, weight or a test item's raw value): SOURCE_FIELDS lists every one. */
const resultKeySchema = z.enum(SOURCE_FIELDS as [ResultKey, ...ResultKey[]]);

/** A physique result row of score search and the results screen. */
export const resultRowSchema = z.object({
  id: z.string(),
  /** The school the result belongs to (the admin family lists several). */
  orgId: z.string(),
  orgName: z.string(),
  planId: z.string(),
  planName: z.string(),
  schoolYearId: z.string(),
  academicYear: z.string(),
  /** 11 spring, 13 autumn (docs/product-rules.md#limits). */
  semesterCode: z.number(),
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  studentNo: z.string().nullable(),
  gender: answerGenderSchema,
  /** Grade 1–16 at test time. */
  gradeNo: z.number(),
  classId: z.string(),
  className: z.string(),
  /** YYYY-MM-DD or null. */
  testedOn: z.string().nullable(),
  heightCm: z.number().nullable(),
  weightKg: z.number().nullable(),
  /** Items with any value, keyed by item. */
  items: itemResultsSchema,
  standardScore: z.number().nullable(),
  bonus: z.number().nullable(),
  total: z.number().nullable(),
  level: scoreLevelSchema.nullable(),
  complete: z.boolean(),
  /** Set invalid: kept, shown flagged, excluded from every ranking, average and aggregate (docs/product-rules.md#score-validity). */
  invalid: z.boolean(),
  /** ISO instant. */
  invalidAt: z.string().nullable(),
  /** The student's approved 免测 (exempt) or 缓测 (deferred) of the plan's school year (docs/product-rules.md#physique-year). */
  exemption: z.enum(['exempt', 'deferred']).nullable().optional(),
  source: z.enum(['import', 'sync', 'manual']),
  /** ISO instant. */
  updatedAt: z.string(),
});
export type ResultRow = z.output<typeof resultRowSchema>;
export type ResultSource = ResultRow['source'];

/** Aggregates of the rows a score search matches; invalid results never count (docs/product-rules.md#score-validity). */
export const scoreSummarySchema = z.object({
  /** Rows matched, invalid ones included (= page total). */
  matched: z.number(),
  /** Valid rows matched. */
  valid: z.number(),
  /** Valid and complete rows (the ones with a total). */
  complete: z.number(),
  /** Mean total of the valid complete rows, one decimal; null when none. */
  averageTotal: z.number().nullable(),
  /** Valid complete rows per level. */
  levels: z.record(scoreLevelSchema, z.number()),
});
export type ScoreSummary = z.output<typeof scoreSummarySchema>;

export const scoreSearchPageSchema = pageSchema(resultRowSchema).extend({
  summary: scoreSummarySchema,
  /** The school year the list defaulted to (a management organisation's list naming no year; `allYears` lifts it). */
  defaultYear: z.object({ id: z.string(), academicYear: z.string() }).optional(),
});
export type ScoreSearchPage = z.output<typeof scoreSearchPageSchema>;

/** Who changed a result and when (results screen). */
export const resultLogRowSchema = z.object({
  id: z.string(),
  action: z.enum(['edit', 'invalid', 'restore', 'import', 'sync']),
  /** Edited field (a raw field such as run50m or heightCm) or null. */
  field: z.string().nullable(),
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
  byUserId: z.string().nullable(),
  byName: z.string().nullable(),
  /** ISO instant. */
  at: z.string(),
});
export type ResultLogRow = z.output<typeof resultLogRowSchema>;
export type ResultLogAction = ResultLogRow['action'];

/** One result with its history and what is still missing (testResult detail, editUpReport). */
export const resultDetailSchema = resultRowSchema.extend({
  /** Items of the plan for this student (grade, gender): the fields that may be edited. */
  planItems: z.array(itemKeySchema),
  /** Items of the plan without a result. */
  missing: z.array(itemKeySchema),
  logs: z.array(resultLogRowSchema),
});
export type ResultDetail = z.output<typeof resultDetailSchema>;

/** A single-item test record (selfTest/testRecord). */
export const testRecordRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  gender: answerGenderSchema,
  gradeNo: z.number(),
  classId: z.string(),
  className: z.string(),
  item: resultKeySchema,
  raw: z.number(),
  source: z.enum(['device', 'self', 'class']),
  deviceSn: z.string().nullable(),
  /** ISO instant. */
  testedAt: z.string(),
  invalid: z.boolean(),
  invalidAt: z.string().nullable(),
});
export type TestRecordRow = z.output<typeof testRecordRowSchema>;

/** Answer of a physique sync (docs/product-rules.md#plan-states). */
export const syncSummarySchema = z.object({
  /** Students whose result was written or rescored. */
  students: z.number(),
  /** Values written from test records. */
  records: z.number(),
});
export type SyncSummary = z.output<typeof syncSummarySchema>;

/** One value a sync would change: who, which item, old → new and where the old value came from. */
export const syncChangeSchema = z.object({
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  className: z.string(),
  field: resultKeySchema,
  /** Raw values in the item's unit; old is null when nothing is stored yet. */
  oldValue: z.number().nullable(),
  newValue: z.number(),
  oldSource: z.enum(['import', 'manual', 'device']).nullable(),
  /** The old value was imported or edited by hand: replaced only when the person allows it. */
  manual: z.boolean(),
});
export type SyncChange = z.output<typeof syncChangeSchema>;

/** What a sync would write (POST …/sync/:planId/preview): the changes (at most SYNC_PREVIEW_MAX_ROWS listed) and their counts. */
export const syncPreviewSchema = z.object({
  changes: z.array(syncChangeSchema),
  /** Every change, listed or not. */
  total: z.number(),
  /** Changes that replace imported or hand-edited values. */
  manual: z.number(),
  /** Students with any change. */
  students: z.number(),
});
export type SyncPreview = z.output<typeof syncPreviewSchema>;

/** One item of the student report. */
export const reportItemSchema = itemResultSchema.extend({
  item: itemKeySchema,
  /** Weight of the item in the standard score (fraction). */
  weight: z.number(),
  /** Mean item score of the student's class in the same plan, valid results only; null when none. */
  classAverage: z.number().nullable(),
});
export type ReportItem = z.output<typeof reportItemSchema>;

export const reportHistoryEntrySchema = z.object({
  planId: z.string(),
  planName: z.string(),
  academicYear: z.string(),
  semesterCode: z.number(),
  /** Plan start date YYYY-MM-DD. */
  startDate: z.string(),
  /** Test date YYYY-MM-DD (the chart's axis and order), or the plan's start date when the result has none. */
  testedOn: z.string(),
  gradeNo: z.number(),
  standardScore: z.number().nullable(),
  bonus: z.number().nullable(),
  total: z.number().nullable(),
  level: scoreLevelSchema.nullable(),
});
export type ReportHistoryEntry = z.output<typeof reportHistoryEntrySchema>;

/** The student physique report of one school year (docs/product-rules.md#physique-results: student report). */
export const studentReportSchema = z.object({
  student: z.object({
    id: z.string(),
    name: z.string(),
    regNo: z.string(),
    studentNo: z.string().nullable(),
    gender: answerGenderSchema,
    birthDate: z.string().nullable(),
    className: z.string(),
    orgName: z.string(),
  }),
  /** School years the student has results in, newest first (the year selector). */
  years: z.array(z.object({ schoolYearId: z.string(), academicYear: z.string() })),
  schoolYearId: z.string().nullable(),
  academicYear: z.string().nullable(),
  /** Plans of that year the student has results in, latest first (the plan selector when there are several). */
  plans: z.array(z.object({ planId: z.string(), planName: z.string(), semesterCode: z.number() })),
  /** The result shown: the plan asked for, else the year's latest plan (a valid result preferred); null when none. */
  result: z
    .object({
      id: z.string(),
      planId: z.string(),
      planName: z.string(),
      semesterCode: z.number(),
      testedOn: z.string().nullable(),
      /** Grade and class at test time. */
      gradeNo: z.number(),
      className: z.string(),
      heightCm: z.number().nullable(),
      weightKg: z.number().nullable(),
      items: z.array(reportItemSchema),
      standardScore: z.number().nullable(),
      bonus: z.number().nullable(),
      total: z.number().nullable(),
      level: scoreLevelSchema.nullable(),
      complete: z.boolean(),
      missing: z.array(itemKeySchema),
      invalid: z.boolean(),
      /** Mean total of the class in that plan (valid complete results). */
      classAverageTotal: z.number().nullable(),
    })
    .nullable(),
  /**
   * The school year's result (docs/product-rules.md#physique-year, "The year's result"; yearResult): where it comes
   * from, the total and level the year counts, and the regular plan's and the re-test's totals both. An approved
   * exempt year (免测) has no total; null when the year has neither a result nor an exemption.
   */
  year: z
    .object({
      source: z.enum(['plan', 'retest', 'exempt', 'deferred', 'none'] satisfies readonly YearResultSource[]),
      total: z.number().nullable(),
      level: scoreLevelSchema.nullable(),
      planTotal: z.number().nullable(),
      retestTotal: z.number().nullable(),
    })
    .nullable(),
  /** Totals over the years and plans, oldest first (valid results only). */
  history: z.array(reportHistoryEntrySchema),
  /** Items to improve: failing items first, then the lowest scores below "good", at most three. */
  improve: z.array(itemKeySchema),
  /** The result's 中考体育 points when its plan applies a conversion table (docs/product-rules.md#physique-year), else null. */
  examPoints: examPointsSchema.nullable(),
});
export type StudentReport = z.output<typeof studentReportSchema>;
