import { z } from 'zod';
import { answerGenderSchema, bmiBandSchema, itemKeySchema, itemResultsSchema, scoreLevelSchema } from '../physique/answer-fields';
import { dataCenterFilterSchema } from './filters';
import type { MeetBoardView } from '../meets/board';
import type { DistrictSceneData } from './district';
import type { DataCenterScene } from '../wall/wall';
import type { WarningsSceneData } from '../warnings/warnings';
import type { LessonsSceneData } from '../lesson-load/reports';

/**
 * Answers of the data-centre views (docs/product-rules.md#data-centre: conventions), one request per view, as zod for
 * the API document (/api/docs; they describe, never filter). Conventions:
 * - Only valid results count (docs/product-rules.md#score-validity); within the period each student counts once, with their latest result.
 * - Rates are fractions 0–1 rounded to 4 decimals; means of scores and totals are rounded to 1 decimal; null when
 *   there is nothing to divide by.
 * - "tested": students with a valid result in the period; "assessed": those whose result is complete (has a total
 *   and a level). Level counts and rates are over assessed students; item figures over the students tested on the item.
 */

const rate = z.number().nullable();
export const levelCountsSchema = z.record(scoreLevelSchema, z.number());
export type LevelCounts = z.output<typeof levelCountsSchema>;
export const bmiCountsSchema = z.record(bmiBandSchema, z.number());
export type BmiCounts = z.output<typeof bmiCountsSchema>;

/** Headline figures of a population (a school, grade, class, gender or year). */
export const indicatorsSchema = z.object({
  /** Students who should be tested (the roster of the period's school year); null where a roster is not defined. */
  students: z.number().nullable(),
  tested: z.number(),
  assessed: z.number(),
  /** tested / students. */
  participationRate: rate,
  levels: levelCountsSchema,
  /** Share of each level among assessed. */
  levelRates: z.record(scoreLevelSchema, rate),
  /** 优秀率: excellent / assessed. */
  excellentRate: rate,
  /** 优良率: (excellent + good) / assessed. */
  goodRate: rate,
  /** 及格率: (excellent + good + pass) / assessed. */
  passRate: rate,
  meanTotal: z.number().nullable(),
  /** BMI bands of the tested students who have a BMI. */
  bmi: bmiCountsSchema,
});
export type Indicators = z.output<typeof indicatorsSchema>;

/** One item over a population. */
export const itemStatSchema = z.object({
  /** Students with a score on the item. */
  n: z.number(),
  meanScore: z.number().nullable(),
  /** Share with item level 'excellent' (null for BMI, which has bands). */
  excellentRate: rate,
  /** Share with item level 'fail' (null for BMI). */
  failRate: rate,
});
export type ItemStat = z.output<typeof itemStatSchema>;
/** Items that have at least one score in the population. */
export const itemStatsSchema = z.partialRecord(itemKeySchema, itemStatSchema);
export type ItemStats = z.output<typeof itemStatsSchema>;

/** The period the figures are for, after defaults were applied. */
export const periodSchema = z.object({
  /** Start year of the school year (2025 = 2025-2026); null when there is no result at all. */
  schoolYear: z.number().nullable(),
  academicYear: z.string().nullable(),
  semesterCode: z.number().nullable(),
  planId: z.string().nullable(),
  planName: z.string().nullable(),
});
export type Period = z.output<typeof periodSchema>;

export const viewScopeSchema = z.object({
  /** The organisation the figures are for: the school, or the bureau for a bureau-wide view. */
  orgId: z.string(),
  orgName: z.string(),
  /** Schools included (1 for a school). */
  schools: z.number(),
});
export type ViewScope = z.output<typeof viewScopeSchema>;

const viewBase = {
  scope: viewScopeSchema,
  period: periodSchema,
  /** The filters as applied (defaults filled in). */
  filters: dataCenterFilterSchema,
  /** ISO instant the figures were computed. */
  asOf: z.string(),
};

export const gradeBreakdownSchema = z.object({ gradeNo: z.number(), indicators: indicatorsSchema, items: itemStatsSchema });
export type GradeBreakdown = z.output<typeof gradeBreakdownSchema>;

export const genderBreakdownSchema = z.object({ gender: answerGenderSchema, indicators: indicatorsSchema, items: itemStatsSchema });
export type GenderBreakdown = z.output<typeof genderBreakdownSchema>;

/** One school year of the year-on-year trend (same filters, other school years). */
export const trendPointSchema = z.object({ schoolYear: z.number(), academicYear: z.string(), indicators: indicatorsSchema, items: itemStatsSchema });
export type TrendPoint = z.output<typeof trendPointSchema>;

/** An item among the weakest (lowest mean score first; BMI is reported by bands, not here). */
export const weakItemSchema = z.object({ item: itemKeySchema, n: z.number(), meanScore: z.number(), failRate: rate });
export type WeakItem = z.output<typeof weakItemSchema>;

/** A class (or, in a bureau-wide view, a school) with its figures and rank by mean total. */
export const rankRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  /** Grade at test time (classes only). */
  gradeNo: z.number().nullable(),
  tested: z.number(),
  assessed: z.number(),
  meanTotal: z.number().nullable(),
  excellentRate: rate,
  goodRate: rate,
  passRate: rate,
  /** 1 = best mean total; rows without a mean come last without a rank. */
  rank: z.number().nullable(),
});
export type RankRow = z.output<typeof rankRowSchema>;

/** 'class' within one school; 'school' when the view spans a bureau's schools. */
const rankUnitSchema = z.enum(['class', 'school']);
export const rankingSchema = z.object({ unit: rankUnitSchema, rows: z.array(rankRowSchema) });
export type Ranking = z.output<typeof rankingSchema>;

/** GET …/dataCenter/school. */
export const schoolViewSchema = z.object({
  ...viewBase,
  overview: indicatorsSchema,
  items: itemStatsSchema,
  byGrade: z.array(gradeBreakdownSchema),
  byGender: z.array(genderBreakdownSchema),
  trend: z.array(trendPointSchema),
  weakestItems: z.array(weakItemSchema),
  ranking: rankingSchema,
});
export type SchoolView = z.output<typeof schoolViewSchema>;

/** Five-number summary (box plot) computed with percentile_cont. */
export const fiveNumbersSchema = z.object({ min: z.number(), q1: z.number(), median: z.number(), q3: z.number(), max: z.number() });
export type FiveNumbers = z.output<typeof fiveNumbersSchema>;

export const histogramBucketSchema = z.object({
  /** Inclusive lower bound. */
  from: z.number(),
  /** Exclusive upper bound (the last bucket includes its upper bound). */
  to: z.number(),
  count: z.number(),
});
export type HistogramBucket = z.output<typeof histogramBucketSchema>;

/** Distribution of one item's scores (or of totals) in a grade. */
export const distributionSchema = z.object({
  item: z.union([itemKeySchema, z.literal('total')]),
  n: z.number(),
  score: fiveNumbersSchema.nullable(),
  /** Five numbers of the raw values (units of the item); null for 'total'. */
  raw: fiveNumbersSchema.nullable(),
  histogram: z.array(histogramBucketSchema),
});
export type Distribution = z.output<typeof distributionSchema>;

/** A class (or school) of a grade side by side with the others. */
export const unitRowSchema = rankRowSchema.extend({ levels: levelCountsSchema, items: itemStatsSchema });
export type UnitRow = z.output<typeof unitRowSchema>;

/** GET …/dataCenter/grade. */
export const gradeViewSchema = z.object({
  ...viewBase,
  gradeNo: z.number().nullable(),
  overview: indicatorsSchema,
  items: itemStatsSchema,
  byGender: z.array(genderBreakdownSchema),
  trend: z.array(trendPointSchema),
  weakestItems: z.array(weakItemSchema),
  units: z.object({ unit: rankUnitSchema, rows: z.array(unitRowSchema) }),
  distributions: z.array(distributionSchema),
});
export type GradeView = z.output<typeof gradeViewSchema>;

/** GET …/dataCenter/class (the class list page; …/college has the same shape, one row per college). */
export const classListViewSchema = z.object({ ...viewBase, rows: z.array(unitRowSchema) });
export type ClassListView = z.output<typeof classListViewSchema>;

export const watchReasonSchema = z.enum(['failing', 'obese', 'falling']);
export type WatchReason = z.output<typeof watchReasonSchema>;

const resultFigures = {
  heightCm: z.number().nullable(),
  weightKg: z.number().nullable(),
  items: itemResultsSchema,
  standardScore: z.number().nullable(),
  bonus: z.number().nullable(),
  total: z.number().nullable(),
  level: scoreLevelSchema.nullable(),
  complete: z.boolean(),
};

/** A student of a class with their latest valid result of the period (nulls when untested). */
export const classStudentRowSchema = z.object({
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  studentNo: z.string().nullable(),
  gender: answerGenderSchema,
  resultId: z.string().nullable(),
  planId: z.string().nullable(),
  testedOn: z.string().nullable(),
  gradeNo: z.number().nullable(),
  ...resultFigures,
  /** Total of the student's previous valid complete result (an earlier plan), for the trend. */
  previousTotal: z.number().nullable(),
  /** total − previousTotal, one decimal. */
  change: z.number().nullable(),
  watch: z.array(watchReasonSchema),
});
export type ClassStudentRow = z.output<typeof classStudentRowSchema>;

export const classInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  /** Current grade of the class. */
  gradeNo: z.number(),
  /** Grade at test time in the period (null without results). */
  testGradeNo: z.number().nullable(),
  collegeName: z.string().nullable(),
  majorName: z.string().nullable(),
});
export type ClassInfo = z.output<typeof classInfoSchema>;

/** GET …/dataCenter/class/:id. */
export const classViewSchema = z.object({
  ...viewBase,
  class: classInfoSchema,
  overview: indicatorsSchema,
  items: itemStatsSchema,
  /** The same grade of the same school in the period, for comparison. */
  gradeOverview: indicatorsSchema,
  gradeItems: itemStatsSchema,
  /** Every student of the class, by student number (the browser virtualises the table). */
  students: z.array(classStudentRowSchema),
  /** Students to watch, worst total first. */
  watch: z.array(
    z.object({ studentId: z.string(), name: z.string(), reasons: z.array(watchReasonSchema), total: z.number().nullable(), previousTotal: z.number().nullable() }),
  ),
});
export type ClassView = z.output<typeof classViewSchema>;

/** A row of the student list (dataCenter/student). */
export const studentListRowSchema = z.object({
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  studentNo: z.string().nullable(),
  gender: answerGenderSchema,
  orgId: z.string(),
  orgName: z.string(),
  classId: z.string(),
  className: z.string(),
  /** Current grade. */
  gradeNo: z.number(),
  resultId: z.string().nullable(),
  total: z.number().nullable(),
  level: scoreLevelSchema.nullable(),
  complete: z.boolean(),
  testedOn: z.string().nullable(),
});
export type StudentListRow = z.output<typeof studentListRowSchema>;

export const studentListPageSchema = z.object({ records: z.array(studentListRowSchema), total: z.number(), current: z.number(), size: z.number(), period: periodSchema });
export type StudentListPage = z.output<typeof studentListPageSchema>;

/** One valid result in a student's history. */
export const studentHistoryRowSchema = z.object({
  resultId: z.string(),
  planId: z.string(),
  planName: z.string(),
  schoolYear: z.number(),
  academicYear: z.string(),
  semesterCode: z.number(),
  planStartDate: z.string(),
  testedOn: z.string().nullable(),
  gradeNo: z.number(),
  classId: z.string(),
  className: z.string(),
  ...resultFigures,
});
export type StudentHistoryRow = z.output<typeof studentHistoryRowSchema>;

/** GET …/dataCenter/student/:id. */
export const studentViewSchema = z.object({
  student: z.object({
    id: z.string(),
    name: z.string(),
    regNo: z.string(),
    studentNo: z.string().nullable(),
    gender: answerGenderSchema,
    orgId: z.string(),
    orgName: z.string(),
    classId: z.string(),
    className: z.string(),
    gradeNo: z.number(),
  }),
  /** Oldest first. */
  history: z.array(studentHistoryRowSchema),
  /** Mean item scores and total of the latest result's class in that plan (radar chart), or null. */
  classAverage: z
    .object({ planId: z.string(), classId: z.string(), meanTotal: z.number().nullable(), items: z.partialRecord(itemKeySchema, z.number()) })
    .nullable(),
  asOf: z.string(),
});
export type StudentView = z.output<typeof studentViewSchema>;

/** GET …/dataCenter/filters: what the filter bar offers. */
export const dataCenterOptionsSchema = z.object({
  /** School years that have results, newest first. */
  schoolYears: z.array(z.object({ schoolYear: z.number(), academicYear: z.string() })),
  plans: z.array(
    z.object({ id: z.string(), name: z.string(), orgId: z.string(), orgName: z.string(), schoolYear: z.number(), semesterCode: z.number(), startDate: z.string() }),
  ),
  /** Grades that have results (at test time), ascending. */
  grades: z.array(z.number()),
  /** Classes (enabled) of the scope; empty for a bureau-wide scope without a school chosen. */
  classes: z.array(
    z.object({ id: z.string(), name: z.string(), orgId: z.string(), gradeNo: z.number(), collegeId: z.string().nullable(), majorId: z.string().nullable() }),
  ),
  /** Admin family: the bureau's schools. */
  schools: z.array(z.object({ id: z.string(), name: z.string(), type: z.number() })),
  /** Universities. */
  colleges: z.array(z.object({ id: z.string(), name: z.string() })),
  majors: z.array(z.object({ id: z.string(), name: z.string(), collegeId: z.string() })),
});
export type DataCenterOptions = z.output<typeof dataCenterOptionsSchema>;

/** Data of one wall scene (GET /api/screen/:token/scene/:scene): slices of the school view. */
export type WallSceneData =
  | { scene: 'schoolOverview'; overview: Indicators; items: ItemStats; trend: TrendPoint[] }
  | { scene: 'gradeComparison'; byGrade: GradeBreakdown[] }
  | { scene: 'classRanking'; ranking: Ranking }
  | { scene: 'weakestItems'; weakestItems: WeakItem[]; byGrade: GradeBreakdown[] }
  | DistrictSceneData
  | WarningsSceneData
  | LessonsSceneData;

export interface WallSceneAnswer {
  scene: DataCenterScene;
  scope: ViewScope;
  period: Period;
  asOf: string;
  data: WallSceneData;
}

/** The scene of a meet's board link (GET /api/screen/:token/scene/meetBoard): the meet's live board, published data only. */
export interface MeetBoardAnswer {
  scene: 'meetBoard';
  asOf: string;
  board: MeetBoardView;
}

/** Any scene a wall shows. */
export type WallAnswer = WallSceneAnswer | MeetBoardAnswer;
