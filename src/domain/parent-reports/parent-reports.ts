import { z } from 'zod';
import '../fields';
import { uuid } from '../fields';
import { LEVEL_BANDS } from '../constants';
import { answerGenderSchema, itemKeySchema, itemLevelSchema, scoreLevelSchema } from '../physique/answer-fields';
import type { ScoreLevel } from '../physique/level';
import { gradeTable, isGrade, type BmiBand, type Gender, type ItemKey, type StandardVersion } from '../physique/standard';

/**
 * Reports parents read (docs/product-rules.md#physique-year, "Reports parents read"): a released plan's report of a
 * child, as the app API answers it to the child's parents and the child, with the standard's bands, last year's
 * values beside this year's, the items to improve and curated advice per item and level (locales `physiqueAdvice`).
 */

/** Notifications the app API lists at most (newest first); older ones are still counted as unread. */
export const APP_NOTIFICATIONS_MAX = 50;

// ---- requests --------------------------------------------------------------------------------------------------
export const appReportParamsSchema = z.object({ studentId: z.string({ error: 'validation:common.id' }).max(64, 'validation:common.id') });
export const appReportQuerySchema = z.object({ planId: uuid().optional() });
export const appNotificationParamsSchema = z.object({ id: z.string({ error: 'validation:common.id' }).max(64, 'validation:common.id') });

// ---- bands of the standard ------------------------------------------------------------------------------------
/**
 * The raw values an item needs for each level in a grade and gender (the 2014 standard's tables): for a table item the
 * value scoring 60 (pass), 80 (good) and 90 (excellent) (docs/product-rules.md#physique-scoring, LEVEL_BANDS), in the
 * item's direction; for BMI the band limits (kg/m²).
 */
export type ItemBands =
  | { kind: 'table'; lowerIsBetter: boolean; pass: number; good: number; excellent: number; full: number }
  | { kind: 'bmi'; lowWeightMax: number; normalMin: number; normalMax: number; overweightMin: number; obeseMin: number };

export function itemBands(grade: number, gender: Gender, item: ItemKey, version?: StandardVersion): ItemBands | null {
  if (!isGrade(grade)) return null;
  const table = gradeTable(grade, gender, version).byItem[item];
  if (!table) return null;
  if (table.kind === 'bmi') {
    const { lowWeightMax, normalMin, normalMax, overweightMin, obeseMin } = table;
    return { kind: 'bmi', lowWeightMax, normalMin, normalMax, overweightMin, obeseMin };
  }
  // Rows are best first: the threshold of the last row still scoring `min` is the least a student needs for it.
  const least = (min: number) => {
    let value = table.thresholds[0];
    table.scores.forEach((s, i) => {
      if (s >= min) value = table.thresholds[i];
    });
    return value;
  };
  return { kind: 'table', lowerIsBetter: table.lowerIsBetter, pass: least(LEVEL_BANDS.pass), good: least(LEVEL_BANDS.good), excellent: least(LEVEL_BANDS.excellent), full: table.thresholds[0] };
}

/**
 * The advice text of an item at a level: `physiqueAdvice:<item>.<level>`; BMI by its band (`bmi.normal`, `bmi.obese`…),
 * because "good" BMI can mean too light or too heavy. Null without a level (the item was not tested).
 */
export function adviceKey(item: ItemKey, level: ScoreLevel | BmiBand | null): string | null {
  if (!level) return null;
  return `physiqueAdvice:${item}.${level}`;
}

// ---- answers (the app API document; they describe, never filter) ------------------------------------------------
const tableBandsSchema = z.object({ kind: z.literal('table'), lowerIsBetter: z.boolean(), pass: z.number(), good: z.number(), excellent: z.number(), full: z.number() });
const bmiBandsSchema = z.object({ kind: z.literal('bmi'), lowWeightMax: z.number(), normalMin: z.number(), normalMax: z.number(), overweightMin: z.number(), obeseMin: z.number() });
export const itemBandsSchema = z.discriminatedUnion('kind', [tableBandsSchema, bmiBandsSchema]);

const valueSchema = z.object({ raw: z.number().nullable(), score: z.number().nullable(), level: itemLevelSchema.nullable() });

export const appReportItemSchema = valueSchema.extend({
  item: itemKeySchema,
  /** Unit of raw values: s, cm, ml, count, kg/m². */
  unit: z.string(),
  /** The raw values of pass, good and excellent for the student's grade and gender (BMI: its band limits). */
  bands: itemBandsSchema.nullable(),
  /** The same item in last year's released report (null when not tested then or no report). */
  lastYear: valueSchema.nullable(),
  /** One of the items to improve. */
  improve: z.boolean(),
  /** Curated advice for this item at this level, in the caller's language (accept-language); null when not tested. */
  advice: z.string().nullable(),
});
export type AppReportItem = z.infer<typeof appReportItemSchema>;

const totalsSchema = z.object({ total: z.number().nullable(), level: scoreLevelSchema.nullable() });
export const appReportSchema = z.object({
  student: z.object({ id: z.string(), name: z.string(), gender: answerGenderSchema, className: z.string(), orgName: z.string() }),
  plan: z.object({ id: z.string(), name: z.string(), academicYear: z.string(), semesterCode: z.number(), testedOn: z.string().nullable(), gradeNo: z.number(), releasedAt: z.string() }),
  standardScore: z.number().nullable(),
  bonus: z.number().nullable(),
  total: z.number().nullable(),
  level: scoreLevelSchema.nullable(),
  items: appReportItemSchema.array(),
  improve: itemKeySchema.array(),
  lastYear: totalsSchema.extend({ planId: z.string(), planName: z.string(), academicYear: z.string() }).nullable(),
});
export type AppReport = z.infer<typeof appReportSchema>;

export const appReportRowSchema = z.object({
  studentId: z.string(),
  studentName: z.string(),
  className: z.string(),
  planId: z.string(),
  planName: z.string(),
  academicYear: z.string(),
  semesterCode: z.number(),
  releasedAt: z.string(),
  total: z.number().nullable(),
  level: scoreLevelSchema.nullable(),
});
export type AppReportRow = z.infer<typeof appReportRowSchema>;

export const NOTIFICATION_KINDS = ['reportReleased'] as const;
export const appNotificationSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** The title and text in the caller's language. */
  title: z.string(),
  text: z.string(),
  planId: z.string().nullable(),
  studentId: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type AppNotification = z.infer<typeof appNotificationSchema>;
export const appNotificationListSchema = z.object({ records: appNotificationSchema.array(), unread: z.number() });
export type AppNotificationList = z.infer<typeof appNotificationListSchema>;

/** A plan's release as the test plan list shows it (console). */
export const reportReleaseSchema = z.object({ planId: z.string(), releasedAt: z.string(), releasedBy: z.string().nullable(), notified: z.number().optional() });
export type ReportRelease = z.infer<typeof reportReleaseSchema>;
