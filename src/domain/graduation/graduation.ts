import { z } from 'zod';
import { enumFilter, optionalId } from '../fields';
import { idFilter, listQuery } from '../list-query';
import type { Page } from '../api';
import type { ScoreLevel } from '../physique/level';
import type { Gender, ItemKey } from '../physique/standard';
import { STAGE_GRADES, type GradeStage } from '../school/grades';
import { GRADUATION_MIN_SCORE, type GraduationOutcome, type YearResultSource } from '../physique-year/year-result';

/**
 * 毕业成绩 and the physique history (docs/product-rules.md#physique-year: Graduation). The score itself is
 * graduationOutcome (src/domain/physique-year/year-result.ts); this file says which cohorts graduate, which school
 * years count, what a below-50 record means, and the shapes of the list, the history and the record card.
 */

/** The last grade of a stage: a cohort graduates in the school year it is in it (grade 6, 9, 12; university year 4). */
export const graduatingGradeNo = (stage: GradeStage): number => STAGE_GRADES[stage][1];

/** The school years (start years, oldest first) a cohort's graduation counts: every year of its stage. */
export function stageStartYears(stage: GradeStage, enrolYear: number): number[] {
  const [lo, hi] = STAGE_GRADES[stage];
  return Array.from({ length: hi - lo + 1 }, (_, i) => enrolYear + i);
}

/** The start year of the school year a cohort graduates in. */
export const graduationStartYear = (stage: GradeStage, enrolYear: number): number => stageStartYears(stage, enrolYear).at(-1)!;

/** The grade a cohort was in during the school year starting `startYear`. */
export const gradeInYear = (stage: GradeStage, enrolYear: number, startYear: number): number => STAGE_GRADES[stage][0] + startYear - enrolYear;

/**
 * What a graduation score below 50 means. The standard: 普通高中、中等职业学校和普通高等学校学生毕业时，《标准》测试的成绩达不到50分者
 * 按结业或肄业处理 — senior school and university only; a primary or junior-school record is flagged, nothing more.
 */
export function belowFiftyConsequence(stage: GradeStage, outcome: GraduationOutcome): 'completion' | null {
  return outcome.kind === 'scored' && outcome.score.score < GRADUATION_MIN_SCORE && (stage === 'senior' || stage === 'university') ? 'completion' : null;
}

/** The list's flags: below 50, the graduation year exempt (免测), the graduation year without a result. */
export const GRADUATION_FLAGS = ['belowFifty', 'exempt', 'missing'] as const;
export type GraduationFlag = (typeof GRADUATION_FLAGS)[number];

/** The list: one cohort (its grade; absent: the first graduating this school year), a class, a flag. */
export const graduationListQuery = listQuery({
  gradeId: idFilter,
  classId: idFilter,
  flag: enumFilter(GRADUATION_FLAGS, 'graduation:list.flagInvalid'),
});
export type GraduationListQuery = z.output<typeof graduationListQuery>;
export const graduationExportQuery = graduationListQuery.omit({ current: true, size: true });

/** The printed record cards: one student or a class. */
export const graduationPrintQuery = z
  .object({
    gradeId: optionalId(),
    classId: optionalId(),
    studentId: optionalId(),
  })
  // One student or one class (≈ 40 pages): a whole cohort is hundreds of pages, too long for one request.
  .refine((q) => Boolean(q.classId || q.studentId), { message: 'graduation:print.pick', path: ['classId'] });
export type GraduationPrintQuery = z.output<typeof graduationPrintQuery>;

export interface GraduationCohort {
  gradeId: string;
  stage: GradeStage;
  enrolYear: number;
  /** The school year it graduates (graduated) in, e.g. '2026-2027'. */
  graduationYear: string;
  /** Graduates this school year (the rest graduated before). */
  current: boolean;
  /** The stage's school years (start years, oldest first) the school has on record: earlier ones are not listed. */
  startYears: number[];
  classes: { id: string; name: string }[];
}

/** One school year of a student as the list and the card show it. */
export interface GraduationYearCell {
  startYear: number;
  academicYear: string;
  gradeNo: number;
  source: YearResultSource;
  total: number | null;
  level: ScoreLevel | null;
  /** The regular plan's and the re-test's totals when a re-test decided the year. */
  planTotal: number | null;
  retestTotal: number | null;
}

export interface GraduationRow {
  studentId: string;
  name: string;
  regNo: string;
  gender: Gender;
  classId: string;
  className: string;
  years: GraduationYearCell[];
  outcome: 'scored' | 'exempt' | 'missing';
  score: number | null;
  level: ScoreLevel | null;
  belowFifty: boolean;
  /** 'completion': 结业或肄业 (senior school, university) instead of graduating. */
  consequence: 'completion' | null;
  /** Years of the stage without a result and not exempt (left out of the mean). */
  missingYears: number;
}

export interface GraduationSummary {
  students: number;
  scored: number;
  belowFifty: number;
  exempt: number;
  missing: number;
  levels: Record<ScoreLevel, number>;
}

/** The list's page, with the cohort shown, its school years and the cohort's counts (the whole cohort, not the filter). */
export interface GraduationPage extends Page<GraduationRow> {
  cohort: GraduationCohort | null;
  years: { startYear: number; academicYear: string; gradeNo: number }[];
  summary: GraduationSummary;
}

export interface HistoryItem {
  item: ItemKey;
  raw: number | null;
  score: number | null;
  level: string | null;
  bonus: number | null;
}

/** One school year of a student's history: the year's result, and the items of the result it came from. */
export interface HistoryYear extends GraduationYearCell {
  planName: string | null;
  testedOn: string | null;
  heightCm: number | null;
  weightKg: number | null;
  standardScore: number | null;
  bonus: number | null;
  items: HistoryItem[];
}

export interface StudentHistory {
  student: { id: string; name: string; regNo: string; gender: Gender; className: string; orgName: string; birthDate: string | null; stage: GradeStage | null };
  /** Every school year with a result or an approved request, oldest first. */
  years: HistoryYear[];
  /** The graduation score over the stage's years so far (null: the student's grade has no stage). */
  graduation: { outcome: 'scored' | 'exempt' | 'missing'; score: number | null; level: ScoreLevel | null; belowFifty: boolean; consequence: 'completion' | null } | null;
}

// The answers, for the console API document (/api/docs): they describe, never filter.
const level = z.enum(['excellent', 'good', 'pass', 'fail']).nullable();
const yearCellSchema = z.object({
  startYear: z.number().int(),
  academicYear: z.string(),
  gradeNo: z.number().int(),
  source: z.enum(['plan', 'retest', 'exempt', 'deferred', 'none']).describe('What decided the year (src/domain/physique-year/year-result.ts)'),
  total: z.number().nullable(),
  level,
  planTotal: z.number().nullable(),
  retestTotal: z.number().nullable(),
});
export const graduationCohortSchema = z.object({
  gradeId: z.string(),
  stage: z.string(),
  enrolYear: z.number().int(),
  graduationYear: z.string(),
  current: z.boolean().describe('Graduates this school year'),
  startYears: z.array(z.number().int()).describe("The stage's school years the school has on record, oldest first"),
  classes: z.array(z.object({ id: z.string(), name: z.string() })),
});
export const graduationCohortsSchema = z.array(graduationCohortSchema);
const graduationRowSchema = z.object({
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  gender: z.string(),
  classId: z.string(),
  className: z.string(),
  years: z.array(yearCellSchema),
  outcome: z.enum(['scored', 'exempt', 'missing']),
  score: z.number().nullable(),
  level,
  belowFifty: z.boolean(),
  consequence: z.enum(['completion']).nullable().describe('completion: 结业或肄业 instead of graduating (senior school, university)'),
  missingYears: z.number().int(),
});
export const graduationPageSchema = z.object({
  records: z.array(graduationRowSchema),
  total: z.number().int(),
  current: z.number().int(),
  size: z.number().int(),
  cohort: graduationCohortSchema.nullable(),
  years: z.array(z.object({ startYear: z.number().int(), academicYear: z.string(), gradeNo: z.number().int() })),
  summary: z.object({
    students: z.number().int(),
    scored: z.number().int(),
    belowFifty: z.number().int(),
    exempt: z.number().int(),
    missing: z.number().int(),
    levels: z.record(z.string(), z.number().int()),
  }),
});
export const studentHistorySchema = z.object({
  student: z.object({ id: z.string(), name: z.string(), regNo: z.string(), gender: z.string(), className: z.string(), orgName: z.string(), birthDate: z.string().nullable(), stage: z.string().nullable() }),
  years: z.array(
    yearCellSchema.extend({
      planName: z.string().nullable(),
      testedOn: z.string().nullable(),
      heightCm: z.number().nullable(),
      weightKg: z.number().nullable(),
      standardScore: z.number().nullable(),
      bonus: z.number().nullable(),
      items: z.array(z.object({ item: z.string(), raw: z.number().nullable(), score: z.number().nullable(), level: z.string().nullable(), bonus: z.number().nullable() })),
    }),
  ),
  graduation: z
    .object({ outcome: z.enum(['scored', 'exempt', 'missing']), score: z.number().nullable(), level, belowFifty: z.boolean(), consequence: z.enum(['completion']).nullable() })
    .nullable(),
});
