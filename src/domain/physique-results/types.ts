import type { Page } from '../api';
import type { ScoreLevel } from '../physique/level';
import type { ResultKey } from '../physique/national-template';
import type { Gender, ItemKey } from '../physique/standard';
import type { ValueSource } from './value-source';
import type { ItemLevel } from './wide-row';

/** One item of a result as the screens show it (docs/product-rules.md#physique-results). */
export interface ItemResult {
  /** Raw value in the item's unit (s, cm, ml, count; BMI kg/m²). */
  raw: number | null;
  /** Item score 0–100. */
  score: number | null;
  /** excellent/good/pass/fail, or for BMI normal/lowWeight/overweight/obese. */
  level: ItemLevel | null;
  /** Bonus points of a bonus item (null for the others). */
  bonus: number | null;
}

export type ResultSource = 'import' | 'sync' | 'manual';

/** A physique result row of score search and the results screen (docs/product-rules.md#physique-results: score search). */
export interface ResultRow {
  id: string;
  /** The school the result belongs to (the admin family lists several). */
  orgId: string;
  orgName: string;
  planId: string;
  planName: string;
  schoolYearId: string;
  academicYear: string;
  /** 11 spring, 13 autumn (docs/product-rules.md#limits). */
  semesterCode: number;
  studentId: string;
  name: string;
  regNo: string;
  studentNo: string | null;
  gender: Gender;
  /** Grade 1–16 at test time. */
  gradeNo: number;
  classId: string;
  className: string;
  /** YYYY-MM-DD or null. */
  testedOn: string | null;
  heightCm: number | null;
  weightKg: number | null;
  /** Items with any value, keyed by item. */
  items: Partial<Record<ItemKey, ItemResult>>;
  standardScore: number | null;
  bonus: number | null;
  total: number | null;
  level: ScoreLevel | null;
  complete: boolean;
  /** Set invalid: kept, shown flagged, excluded from every ranking, average and aggregate (docs/product-rules.md#score-validity). */
  invalid: boolean;
  /** ISO instant. */
  invalidAt: string | null;
  source: ResultSource;
  /** ISO instant. */
  updatedAt: string;
}

/** Aggregates of the rows a score search matches; invalid results never count (docs/product-rules.md#score-validity). */
export interface ScoreSummary {
  /** Rows matched, invalid ones included (= page total). */
  matched: number;
  /** Valid rows matched. */
  valid: number;
  /** Valid and complete rows (the ones with a total). */
  complete: number;
  /** Mean total of the valid complete rows, one decimal; null when none. */
  averageTotal: number | null;
  /** Valid complete rows per level. */
  levels: Record<ScoreLevel, number>;
}

export interface ScoreSearchPage extends Page<ResultRow> {
  summary: ScoreSummary;
  /** The school year the list defaulted to (a management organisation's list naming no year; `allYears` lifts it). */
  defaultYear?: { id: string; academicYear: string };
}

export type ResultLogAction = 'edit' | 'invalid' | 'restore' | 'import' | 'sync';

/** Who changed a result and when (docs/product-rules.md#physique-results: results screen). */
export interface ResultLogRow {
  id: string;
  action: ResultLogAction;
  /** Edited field (a raw field such as run50m or heightCm) or null. */
  field: string | null;
  oldValue: string | null;
  newValue: string | null;
  byUserId: string | null;
  byName: string | null;
  /** ISO instant. */
  at: string;
}

/** One result with its history and what is still missing (testResult detail, editUpReport). */
export interface ResultDetail extends ResultRow {
  /** Items of the plan for this student (grade, gender): the fields that may be edited. */
  planItems: ItemKey[];
  /** Items of the plan without a result. */
  missing: ItemKey[];
  logs: ResultLogRow[];
}

/** A single-item test record (selfTest/testRecord). */
export interface TestRecordRow {
  id: string;
  orgId: string;
  studentId: string;
  name: string;
  regNo: string;
  gender: Gender;
  gradeNo: number;
  classId: string;
  className: string;
  item: ResultKey;
  raw: number;
  source: 'device' | 'self' | 'class';
  deviceSn: string | null;
  /** ISO instant. */
  testedAt: string;
  invalid: boolean;
  invalidAt: string | null;
}

/** Answer of invalid/restore calls. */
export interface ChangedCount {
  changed: number;
}

/** Answer of a physique sync (docs/product-rules.md#plan-states). */
export interface SyncSummary {
  /** Students whose result was written or rescored. */
  students: number;
  /** Values written from test records. */
  records: number;
}

/** One value a sync would change: who, which item, old → new and where the old value came from. */
export interface SyncChange {
  studentId: string;
  name: string;
  regNo: string;
  className: string;
  field: ResultKey;
  /** Raw values in the item's unit; old is null when nothing is stored yet. */
  oldValue: number | null;
  newValue: number;
  oldSource: ValueSource | null;
  /** The old value was imported or edited by hand: replaced only when the person allows it. */
  manual: boolean;
}

/** What a sync would write (POST …/sync/:planId/preview): the changes (at most SYNC_PREVIEW_MAX_ROWS listed) and their counts. */
export interface SyncPreview {
  changes: SyncChange[];
  /** Every change, listed or not. */
  total: number;
  /** Changes that replace imported or hand-edited values. */
  manual: number;
  /** Students with any change. */
  students: number;
}

/** One item of the student report (docs/product-rules.md#physique-results: student report). */
export interface ReportItem extends ItemResult {
  item: ItemKey;
  /** Weight of the item in the standard score (fraction). */
  weight: number;
  /** Mean item score of the student's class in the same plan, valid results only; null when none. */
  classAverage: number | null;
}

export interface ReportHistoryEntry {
  planId: string;
  planName: string;
  academicYear: string;
  semesterCode: number;
  /** Plan start date YYYY-MM-DD. */
  startDate: string;
  /** Test date YYYY-MM-DD (the chart's axis and order), or the plan's start date when the result has none. */
  testedOn: string;
  gradeNo: number;
  standardScore: number | null;
  bonus: number | null;
  total: number | null;
  level: ScoreLevel | null;
}

/** The student physique report of one school year (docs/product-rules.md#physique-results: student report). */
export interface StudentReport {
  student: {
    id: string;
    name: string;
    regNo: string;
    studentNo: string | null;
    gender: Gender;
    birthDate: string | null;
    className: string;
    orgName: string;
  };
  /** School years the student has results in, newest first (the year selector). */
  years: { schoolYearId: string; academicYear: string }[];
  schoolYearId: string | null;
  academicYear: string | null;
  /** Plans of that year the student has results in, latest first (the plan selector when there are several). */
  plans: { planId: string; planName: string; semesterCode: number }[];
  /** The result shown: the plan asked for, else the year's latest plan (a valid result preferred); null when none. */
  result: {
    id: string;
    planId: string;
    planName: string;
    semesterCode: number;
    testedOn: string | null;
    /** Grade and class at test time. */
    gradeNo: number;
    className: string;
    heightCm: number | null;
    weightKg: number | null;
    items: ReportItem[];
    standardScore: number | null;
    bonus: number | null;
    total: number | null;
    level: ScoreLevel | null;
    complete: boolean;
    missing: ItemKey[];
    invalid: boolean;
    /** Mean total of the class in that plan (valid complete results). */
    classAverageTotal: number | null;
  } | null;
  /** Totals over the years and plans, oldest first (valid results only). */
  history: ReportHistoryEntry[];
  /** Items to improve: failing items first, then the lowest scores below "good", at most three. */
  improve: ItemKey[];
}
