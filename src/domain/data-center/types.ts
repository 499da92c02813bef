import type { ScoreLevel } from '../physique/level';
import type { BmiBand, Gender, ItemKey } from '../physique/standard';
import type { ItemResult } from '../physique-results/types';
import type { DataCenterFilter } from './filters';
import type { MeetBoardView } from '../meets/board';
import type { DistrictSceneData } from './district';
import type { DataCenterScene } from '../wall/wall';

/**
 * Answers of the data-centre views (docs/product-rules.md#data-centre: conventions), one request per view. Conventions:
 * - Only valid results count (docs/product-rules.md#score-validity); within the period each student counts once, with their latest result.
 * - Rates are fractions 0–1 rounded to 4 decimals; means of scores and totals are rounded to 1 decimal; null when
 *   there is nothing to divide by.
 * - "tested": students with a valid result in the period; "assessed": those whose result is complete (has a total
 *   and a level). Level counts and rates are over assessed students; item figures over the students tested on the item.
 */

export type LevelCounts = Record<ScoreLevel, number>;
export type BmiCounts = Record<BmiBand, number>;

/** Headline figures of a population (a school, grade, class, gender or year). */
export interface Indicators {
  /** Students who should be tested (the roster of the period's school year); null where a roster is not defined. */
  students: number | null;
  tested: number;
  assessed: number;
  /** tested / students. */
  participationRate: number | null;
  levels: LevelCounts;
  /** Share of each level among assessed. */
  levelRates: Record<ScoreLevel, number | null>;
  /** 优秀率: excellent / assessed. */
  excellentRate: number | null;
  /** 优良率: (excellent + good) / assessed. */
  goodRate: number | null;
  /** 及格率: (excellent + good + pass) / assessed. */
  passRate: number | null;
  meanTotal: number | null;
  /** BMI bands of the tested students who have a BMI. */
  bmi: BmiCounts;
}

/** One item over a population. */
export interface ItemStat {
  /** Students with a score on the item. */
  n: number;
  meanScore: number | null;
  /** Share with item level 'excellent' (null for BMI, which has bands). */
  excellentRate: number | null;
  /** Share with item level 'fail' (null for BMI). */
  failRate: number | null;
}
/** Items that have at least one score in the population. */
export type ItemStats = Partial<Record<ItemKey, ItemStat>>;

/** The period the figures are for, after defaults were applied. */
export interface Period {
  /** Start year of the school year (2025 = 2025-2026); null when there is no result at all. */
  schoolYear: number | null;
  academicYear: string | null;
  semesterCode: number | null;
  planId: string | null;
  planName: string | null;
}

export interface ViewScope {
  /** The organisation the figures are for: the school, or the bureau for a bureau-wide view. */
  orgId: string;
  orgName: string;
  /** Schools included (1 for a school). */
  schools: number;
}

interface ViewBase {
  scope: ViewScope;
  period: Period;
  /** The filters as applied (defaults filled in). */
  filters: DataCenterFilter;
  /** ISO instant the figures were computed. */
  asOf: string;
}

export interface GradeBreakdown {
  gradeNo: number;
  indicators: Indicators;
  items: ItemStats;
}

export interface GenderBreakdown {
  gender: Gender;
  indicators: Indicators;
  items: ItemStats;
}

/** One school year of the year-on-year trend (same filters, other school years). */
export interface TrendPoint {
  schoolYear: number;
  academicYear: string;
  indicators: Indicators;
  items: ItemStats;
}

/** An item among the weakest (lowest mean score first; BMI is reported by bands, not here). */
export interface WeakItem {
  item: ItemKey;
  n: number;
  meanScore: number;
  failRate: number | null;
}

/** A class (or, in a bureau-wide view, a school) with its figures and rank by mean total. */
export interface RankRow {
  id: string;
  name: string;
  orgId: string;
  orgName: string;
  /** Grade at test time (classes only). */
  gradeNo: number | null;
  tested: number;
  assessed: number;
  meanTotal: number | null;
  excellentRate: number | null;
  goodRate: number | null;
  passRate: number | null;
  /** 1 = best mean total; rows without a mean come last without a rank. */
  rank: number | null;
}

export interface Ranking {
  /** 'class' within one school; 'school' when the view spans a bureau's schools. */
  unit: 'class' | 'school';
  rows: RankRow[];
}

/** GET …/dataCenter/school. */
export interface SchoolView extends ViewBase {
  overview: Indicators;
  items: ItemStats;
  byGrade: GradeBreakdown[];
  byGender: GenderBreakdown[];
  trend: TrendPoint[];
  weakestItems: WeakItem[];
  ranking: Ranking;
}

/** Five-number summary (box plot) computed with percentile_cont. */
export interface FiveNumbers {
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
}

export interface HistogramBucket {
  /** Inclusive lower bound. */
  from: number;
  /** Exclusive upper bound (the last bucket includes its upper bound). */
  to: number;
  count: number;
}

/** Distribution of one item's scores (or of totals) in a grade. */
export interface Distribution {
  item: ItemKey | 'total';
  n: number;
  score: FiveNumbers | null;
  /** Five numbers of the raw values (units of the item); null for 'total'. */
  raw: FiveNumbers | null;
  histogram: HistogramBucket[];
}

/** A class (or school) of a grade side by side with the others. */
export interface UnitRow extends RankRow {
  levels: LevelCounts;
  items: ItemStats;
}

/** GET …/dataCenter/grade. */
export interface GradeView extends ViewBase {
  gradeNo: number | null;
  overview: Indicators;
  items: ItemStats;
  byGender: GenderBreakdown[];
  trend: TrendPoint[];
  weakestItems: WeakItem[];
  units: { unit: 'class' | 'school'; rows: UnitRow[] };
  distributions: Distribution[];
}

/** GET …/dataCenter/class (the class list page). */
export interface ClassListView extends ViewBase {
  rows: UnitRow[];
}

export type WatchReason = 'failing' | 'obese' | 'falling';

/** A student of a class with their latest valid result of the period (nulls when untested). */
export interface ClassStudentRow {
  studentId: string;
  name: string;
  regNo: string;
  studentNo: string | null;
  gender: Gender;
  resultId: string | null;
  planId: string | null;
  testedOn: string | null;
  gradeNo: number | null;
  heightCm: number | null;
  weightKg: number | null;
  items: Partial<Record<ItemKey, ItemResult>>;
  standardScore: number | null;
  bonus: number | null;
  total: number | null;
  level: ScoreLevel | null;
  complete: boolean;
  /** Total of the student's previous valid complete result (an earlier plan), for the trend. */
  previousTotal: number | null;
  /** total − previousTotal, one decimal. */
  change: number | null;
  watch: WatchReason[];
}

export interface ClassInfo {
  id: string;
  name: string;
  orgId: string;
  orgName: string;
  /** Current grade of the class. */
  gradeNo: number;
  /** Grade at test time in the period (null without results). */
  testGradeNo: number | null;
  collegeName: string | null;
  majorName: string | null;
}

/** GET …/dataCenter/class/:id. */
export interface ClassView extends ViewBase {
  class: ClassInfo;
  overview: Indicators;
  items: ItemStats;
  /** The same grade of the same school in the period, for comparison. */
  gradeOverview: Indicators;
  gradeItems: ItemStats;
  /** Every student of the class, by student number (the browser virtualises the table). */
  students: ClassStudentRow[];
  /** Students to watch, worst total first. */
  watch: { studentId: string; name: string; reasons: WatchReason[]; total: number | null; previousTotal: number | null }[];
}

/** A row of the student list (dataCenter/student). */
export interface StudentListRow {
  studentId: string;
  name: string;
  regNo: string;
  studentNo: string | null;
  gender: Gender;
  orgId: string;
  orgName: string;
  classId: string;
  className: string;
  /** Current grade. */
  gradeNo: number;
  resultId: string | null;
  total: number | null;
  level: ScoreLevel | null;
  complete: boolean;
  testedOn: string | null;
}

export interface StudentListPage {
  records: StudentListRow[];
  total: number;
  current: number;
  size: number;
  period: Period;
}

/** One valid result in a student's history. */
export interface StudentHistoryRow {
  resultId: string;
  planId: string;
  planName: string;
  schoolYear: number;
  academicYear: string;
  semesterCode: number;
  planStartDate: string;
  testedOn: string | null;
  gradeNo: number;
  classId: string;
  className: string;
  heightCm: number | null;
  weightKg: number | null;
  items: Partial<Record<ItemKey, ItemResult>>;
  standardScore: number | null;
  bonus: number | null;
  total: number | null;
  level: ScoreLevel | null;
  complete: boolean;
}

/** GET …/dataCenter/student/:id. */
export interface StudentView {
  student: {
    id: string;
    name: string;
    regNo: string;
    studentNo: string | null;
    gender: Gender;
    orgId: string;
    orgName: string;
    classId: string;
    className: string;
    gradeNo: number;
  };
  /** Oldest first. */
  history: StudentHistoryRow[];
  /** Mean item scores and total of the latest result's class in that plan (radar chart), or null. */
  classAverage: { planId: string; classId: string; meanTotal: number | null; items: Partial<Record<ItemKey, number>> } | null;
  asOf: string;
}

/** GET …/dataCenter/filters: what the filter bar offers. */
export interface DataCenterOptions {
  /** School years that have results, newest first. */
  schoolYears: { schoolYear: number; academicYear: string }[];
  plans: { id: string; name: string; orgId: string; orgName: string; schoolYear: number; semesterCode: number; startDate: string }[];
  /** Grades that have results (at test time), ascending. */
  grades: number[];
  /** Classes (enabled) of the scope; empty for a bureau-wide scope without a school chosen. */
  classes: { id: string; name: string; orgId: string; gradeNo: number; collegeId: string | null; majorId: string | null }[];
  /** Admin family: the bureau's schools. */
  schools: { id: string; name: string; type: number }[];
  /** Universities. */
  colleges: { id: string; name: string }[];
  majors: { id: string; name: string; collegeId: string }[];
}

/** Data of one wall scene (GET /api/screen/:token/scene/:scene): slices of the school view. */
export type WallSceneData =
  | { scene: 'schoolOverview'; overview: Indicators; items: ItemStats; trend: TrendPoint[] }
  | { scene: 'gradeComparison'; byGrade: GradeBreakdown[] }
  | { scene: 'classRanking'; ranking: Ranking }
  | { scene: 'weakestItems'; weakestItems: WeakItem[]; byGrade: GradeBreakdown[] }
  | DistrictSceneData;

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
