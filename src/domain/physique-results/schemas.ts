import { z } from 'zod';
import { blankAsUndefined as blank, enumFilter, flagFilter, numberish, optionalDay, optionalId as idFilter, semesterFilter, uuid } from '../fields';
import { textFilter } from '../list-query';
import { enumTable } from '../presentation';
import { pageQuerySchema } from '../api';
import { RESULT_KEYS, type ResultKey } from '../physique/national-template';
import { GENDERS, isGrade } from '../physique/standard';

/** Largest score-import upload in bytes: a 200,000-row national template is ≈ 17 MB (docs/product-rules.md#physique-results: score import). */
export const SCORE_IMPORT_MAX_BYTES = 32 * 1024 * 1024;
/** Most rows an export writes in one workbook (built in memory). */
export const SCORE_EXPORT_MAX_ROWS = 100_000;
/** Most ids one invalid/restore call may name. */
export const MAX_IDS_PER_CALL = 1000;

const optionalId = idFilter();
// A keyword past the shared limit is refused naming the field; the search form takes its maxLength from here.
const optionalText = textFilter();
const optionalGrade = z.preprocess(
  (v) => numberish(blank(v)),
  z.number().refine(isGrade, 'physiqueResults:validation.grade').optional(),
);
const optionalSemester = semesterFilter('physiqueResults:validation.semester');
const optionalGender = enumFilter(GENDERS, 'physiqueResults:validation.gender');
const optionalBool = flagFilter('physiqueResults:validation.flag');

/** Level filter of score search: a total level, or 'incomplete' for results still missing an item. */
export const LEVEL_FILTERS = ['excellent', 'good', 'pass', 'fail', 'incomplete'] as const;
export type LevelFilter = (typeof LEVEL_FILTERS)[number];
export const LEVEL_FILTER_TABLE = enumTable(LEVEL_FILTERS, (l) => (l === 'incomplete' ? 'physiqueResultsUi:level.incomplete' : `physique:level.${l}`));

/** Filters of score search and its export (docs/product-rules.md#physique-results: result filters, organizeTest/scoreSearch). */
export const scoreFilterSchema = z.object({
  /** A school of the management organisation (admin family only). */
  orgId: optionalId,
  schoolYearId: optionalId,
  semesterCode: optionalSemester,
  planId: optionalId,
  gradeNo: optionalGrade,
  classId: optionalId,
  gender: optionalGender,
  level: enumFilter(LEVEL_FILTERS, 'physiqueResults:validation.level'),
  /** Name or registration number (contains). */
  keyword: optionalText,
  /** true: invalid results only; false: valid only; absent: both (invalid ones flagged). */
  invalid: optionalBool,
  /**
   * true: every school year. Without it, a management organisation's list that names no year, semester or plan is the
   * current school year's (ScoreSearchPage.defaultYear says which), as a school's list opens on its current year.
   */
  allYears: optionalBool,
});
export type ScoreFilter = z.output<typeof scoreFilterSchema>;

export const scoreSearchQuerySchema = pageQuerySchema.extend(scoreFilterSchema.shape);
export type ScoreSearchQuery = z.output<typeof scoreSearchQuerySchema>;

/** Filters of the test-record list (selfTest/testRecord): score-search filters plus item and date range. */
export const testRecordFilterSchema = z.object({
  orgId: optionalId,
  schoolYearId: optionalId,
  semesterCode: optionalSemester,
  gradeNo: optionalGrade,
  classId: optionalId,
  gender: optionalGender,
  keyword: optionalText,
  item: enumFilter(RESULT_KEYS as [ResultKey, ...ResultKey[]], 'physiqueResults:validation.item'),
  /** Inclusive local days YYYY-MM-DD. */
  from: optionalDay('physiqueResults:validation.dateFrom'),
  to: optionalDay('physiqueResults:validation.dateTo'),
  invalid: optionalBool,
});
export type TestRecordFilter = z.output<typeof testRecordFilterSchema>;
export const testRecordQuerySchema = pageQuerySchema.extend(testRecordFilterSchema.shape);
export type TestRecordQuery = z.output<typeof testRecordQuerySchema>;

/** Ids of invalid/restore calls. */
export const idsBodySchema = z.object({
  ids: z
    .array(uuid(), { error: 'physiqueResults:validation.ids' })
    .min(1, 'physiqueResults:validation.ids')
    .max(MAX_IDS_PER_CALL, 'physiqueResults:validation.tooManyIds'),
});
export type IdsBody = z.output<typeof idsBodySchema>;

/** Editing one raw value of a result (testResult/editUpReport): typed as people type it, parsed with parseRaw; null or '' clears it. */
export const editRawBodySchema = z.object({
  field: z.enum(RESULT_KEYS as [ResultKey, ...ResultKey[]], { error: 'physiqueResults:validation.item' }),
  value: z.union([z.string().max(32), z.number(), z.null()], { error: 'physiqueResults:validation.value' }),
});
export type EditRawBody = z.output<typeof editRawBodySchema>;

/** Most changes a sync preview lists (the counts cover all of them). */
export const SYNC_PREVIEW_MAX_ROWS = 5000;

/** A sync: may device records replace imported and hand-edited values? (default: no). */
export const syncBodySchema = z.preprocess(
  (v) => (v == null || v === '' ? {} : v),
  z.object({ replaceManual: z.boolean({ error: 'physiqueResults:validation.flag' }).default(false) }),
);
export type SyncBody = z.output<typeof syncBodySchema>;

/**
 * The student report: `planId` names the plan (result) to show; else `schoolYearId` the year (its latest valid
 * result); absent both = the latest year with a result.
 */
export const reportQuerySchema = z.object({ schoolYearId: optionalId, planId: optionalId });

/** Template download: `sample=1` adds an example row; `planId` pre-fills the plan's students (with a notes sheet). */
export const templateQuerySchema = z.object({ sample: optionalBool, planId: optionalId });

/** The answer of a set invalid / valid again: how many rows changed (for the console API document). */
export const changedCountSchema = z.object({ changed: z.number().int() });
