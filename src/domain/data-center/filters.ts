import { z } from 'zod';
import { pageQuerySchema } from '../api';
import { blankAsUndefined as blank, enumFilter, numberish, optionalId as idFilter, semesterFilter } from '../fields';
import { idParamsSchema } from '../list-query';
import { GENDERS, isGrade } from '../physique/standard';

/**
 * Filters of every data-centre view (docs/product-rules.md#data-centre: filters): school year, semester, test plan, grade, class, gender, and for the
 * admin family one school of the bureau, for universities a college or major. The browser keeps them in jotai atoms
 * mirrored in the URL under these same names, so a link or a wall screen reopens the same view.
 */


/** Earliest and latest school-year start the filters accept. */
export const SCHOOL_YEAR_MIN = 2000;
export const SCHOOL_YEAR_MAX = 2100;

const optionalId = idFilter('dataCenter:validation.id');
const optionalSchoolYear = z.preprocess(
  (v) => numberish(blank(v)),
  z.number({ error: 'dataCenter:validation.schoolYear' }).int('dataCenter:validation.schoolYear').min(SCHOOL_YEAR_MIN, 'dataCenter:validation.schoolYear').max(SCHOOL_YEAR_MAX, 'dataCenter:validation.schoolYear').optional(),
);
const optionalSemester = semesterFilter('dataCenter:validation.semester');
const optionalGrade = z.preprocess((v) => numberish(blank(v)), z.number({ error: 'dataCenter:validation.grade' }).refine((v: number): boolean => isGrade(v), 'dataCenter:validation.grade').optional());
const optionalGender = enumFilter(GENDERS, 'dataCenter:validation.gender');

export const dataCenterFilterSchema = z.object({
  /** Admin family: one school of the bureau (absent = the whole bureau). Ignored by school families. */
  orgId: optionalId,
  /** School year by its start year (2025 = 2025-2026), so a bureau's schools share one value. Absent = the latest year with results. */
  schoolYear: optionalSchoolYear,
  /** 11 spring, 13 autumn (docs/product-rules.md#limits). Absent = both. */
  semesterCode: optionalSemester,
  /** One test plan; it fixes school year and semester. */
  planId: optionalId,
  /** Grade 1–16 at test time. */
  gradeNo: optionalGrade,
  classId: optionalId,
  /** Universities: classes of one college / one major. */
  collegeId: optionalId,
  majorId: optionalId,
  gender: optionalGender,
});
export type DataCenterFilter = z.output<typeof dataCenterFilterSchema>;
/** The names of the filters, in the order the filter bar shows them (also their URL query names). */
export const DATA_CENTER_FILTER_KEYS = Object.keys(dataCenterFilterSchema.shape) as (keyof DataCenterFilter)[];

/** Query of the student list (dataCenter/student): the filters, a name / number keyword and paging. */
export const studentListQuerySchema = pageQuerySchema.extend(dataCenterFilterSchema.shape).extend({
  keyword: z.preprocess(blank, z.string().trim().max(64, 'dataCenter:validation.keyword').optional()),
});
export type StudentListQuery = z.output<typeof studentListQuerySchema>;

export { idParamsSchema };

/**
 * A student whose total dropped by at least this many points since their previous valid result is "falling"
 * (docs/product-rules.md#data-centre: students to watch). The product's choice: half a level band.
 */
export const FALLING_TREND_MIN_DROP = 5;

/** Width of a histogram bucket of item scores (0–100) and totals (0–120). */
export const SCORE_BUCKET_WIDTH = 10;
