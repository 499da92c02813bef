import { z } from 'zod';
import { SEMESTER, type SemesterCode } from '../constants';
import { enumFilter, optionalId, semesterFilter } from '../fields';
import { SCHOOL_YEAR_MAX, SCHOOL_YEAR_MIN } from '../data-center/filters';
import { CURRICULUM_TARGETS, ZONE_AGE_MAX, ZONE_AGE_MIN, zoneAge, zoneThresholds } from './zones';

/**
 * Lesson-load reports over weeks and a term (docs/product-rules.md#lesson-load: reports): figures of the stored lesson
 * rows (lesson_loads) per class, teacher, grade, college or school, the weekly trend, students persistently below or
 * above, and a district's schools side by side. Never raw samples.
 */

/** What a summary groups its lessons by. `college` is a university's; `grade` a K12 school's. */
export const LOAD_GROUPS = ['class', 'teacher', 'grade', 'college', 'school'] as const;
export type LoadGroup = (typeof LOAD_GROUPS)[number];

/**
 * Persistently below: a student measured in at least PERSISTENT_MIN_LESSONS lessons of the term whose individual
 * density was under the curriculum's 50 % in at least PERSISTENT_SHARE of them. Persistently above: as many of the
 * lessons with a peak in the high zone or above (≥ 85 % of the age-predicted maximum).
 */
export const PERSISTENT_MIN_LESSONS = 3;
export const PERSISTENT_SHARE = 0.6;

export function isPersistent(lessons: number, count: number): boolean {
  return lessons >= PERSISTENT_MIN_LESSONS && count >= PERSISTENT_SHARE * lessons;
}
/** A lesson counts toward "below" when the student's individual density was under the curriculum's target. */
export const isBelow = (density: number | null) => density !== null && density < CURRICULUM_TARGETS.individualDensity;
/** The typical age of a grade for the zones when the roster has no birth date: K12 grade N → 5 + N, university 19. */
export const typicalAgeOfGrade = (gradeNo: number) => (gradeNo >= 13 ? 19 : 5 + gradeNo);
/** The bpm from which a peak counts toward "above": the high zone's floor for the student's age on `day`. */
export function abovePeakBpm(birthDate: string | null, gradeNo: number, day: string): number {
  return zoneThresholds(zoneAge(birthDate, typicalAgeOfGrade(gradeNo), day)).high;
}

/**
 * The ages a student's term rollup counts lessons "above" for (lesson_load_student_terms.above), oldest first: the
 * clamped ages zoneAge answers, ZONE_AGE_MAX down to ZONE_AGE_MIN, so their thresholds (abovePeakByAge) ascend.
 */
export const ABOVE_AGES: readonly number[] = Array.from({ length: ZONE_AGE_MAX - ZONE_AGE_MIN + 1 }, (_, i) => ZONE_AGE_MAX - i);
/** The peak from which a lesson counts toward "above" for each of ABOVE_AGES (abovePeakBpm's threshold at that age). */
export const abovePeakByAge = (): number[] => ABOVE_AGES.map((age) => zoneThresholds(age).high);

/** Grades from this number on share one typical age (typicalAgeOfGrade), so aboveAgeSteps' `byGrade` stops here. */
const STEP_GRADE_MAX = 13;
const DAY_MS = 86_400_000;
/**
 * Which of ABOVE_AGES a student is on `day` (abovePeakBpm's age), as step functions for one SQL statement over a whole
 * school (the term summary's persistently-above list): with a birth date, the number of `from` dates (ascending) on or
 * before it, PostgreSQL's `width_bucket(birth_date, from)`; without one, `byGrade[min(gradeNo, byGrade.length - 1)]`.
 * `from` holds, for each age ZONE_AGE_MAX … ZONE_AGE_MIN + 1, the first birth date too late to have reached it on
 * `day`. Equal to zoneAge's for every birth date and grade (tests/domain/lesson-load).
 */
export function aboveAgeSteps(day: string): { from: string[]; byGrade: number[] } {
  const [y, m, d] = day.slice(0, 10).split('-').map(Number);
  const from = ABOVE_AGES.slice(0, -1).map((age) => {
    // Born on or before (y − age, m, d) as a date's text: that age reached. 29 February of a common year is 1 March here.
    const t = Date.UTC(y - age, m - 1, d);
    return new Date(new Date(t).getUTCDate() === d ? t + DAY_MS : t).toISOString().slice(0, 10);
  });
  const byGrade = Array.from({ length: STEP_GRADE_MAX + 1 }, (_, g) => ABOVE_AGES.indexOf(zoneAge(null, typicalAgeOfGrade(g), day)));
  return { from, byGrade };
}

/**
 * The term a report covers: the organisation's semester of that school year and code (with its break) when it has one,
 * else the calendar term: autumn 1 August Y – 31 January Y+1, spring 1 February – 31 August Y+1
 * (docs/product-rules.md#school-years).
 */
export function calendarTerm(startYear: number, code: SemesterCode): { from: string; to: string } {
  return code === SEMESTER.autumn ? { from: `${startYear}-08-01`, to: `${startYear + 1}-01-31` } : { from: `${startYear + 1}-02-01`, to: `${startYear + 1}-08-31` };
}
/** The calendar term a day (YYYY-MM-DD) falls in. */
export function termOfDay(day: string): { schoolYear: number; semester: SemesterCode } {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  if (m >= 8) return { schoolYear: y, semester: SEMESTER.autumn };
  if (m === 1) return { schoolYear: y - 1, semester: SEMESTER.autumn };
  return { schoolYear: y - 1, semester: SEMESTER.spring };
}

const schoolYearFilter = z.preprocess(
  (v) => (v === '' || v === null || v === undefined ? undefined : Number(v)),
  z.number({ error: 'lessonLoad:summary.invalidYear' }).int('lessonLoad:summary.invalidYear').min(SCHOOL_YEAR_MIN, 'lessonLoad:summary.invalidYear').max(SCHOOL_YEAR_MAX, 'lessonLoad:summary.invalidYear').optional(),
);

/** GET …/class/load/summary (and its export): the term, how to group, and optionally one class or grade. */
export const loadSummaryQuery = z.object({
  schoolYear: schoolYearFilter,
  semester: semesterFilter('lessonLoad:summary.invalidTerm'),
  group: enumFilter(LOAD_GROUPS, 'lessonLoad:summary.invalidGroup'),
  classId: optionalId(),
  gradeNo: z.preprocess((v) => (v === '' || v === null || v === undefined ? undefined : Number(v)), z.number({ error: 'validation:common.invalid' }).int('validation:common.invalid').min(1, 'validation:common.invalid').max(16, 'validation:common.invalid').optional()),
});
export type LoadSummaryQuery = z.output<typeof loadSummaryQuery>;

/** GET admin …/class/load/schools (and its export): the district's term. */
export const loadDistrictQuery = loadSummaryQuery.pick({ schoolYear: true, semester: true });
export type LoadDistrictQuery = z.output<typeof loadDistrictQuery>;

/** The data-centre card's scope: the school (orgId for a bureau looking at one), a grade or a class. */
export const loadCardQuery = z.object({
  orgId: optionalId(),
  gradeNo: loadSummaryQuery.shape.gradeNo,
  classId: optionalId(),
  schoolYear: schoolYearFilter,
  semester: semesterFilter('lessonLoad:summary.invalidTerm'),
});
export type LoadCardQuery = z.output<typeof loadCardQuery>;

const share = z.number().nullable();
/** Figures of a set of stored lessons: each lesson weighs the same in the means. */
export const loadFiguresSchema = z.object({
  lessons: z.number(),
  /** Lessons meeting all three curriculum targets / lessons. */
  meetsShare: share,
  mainMeanBpm: share,
  groupDensity: share,
  individualDensity: share,
  targetShare: share,
});
export type LoadFigures = z.output<typeof loadFiguresSchema>;

export const loadTermSchema = z.object({ schoolYear: z.number(), semester: z.number(), from: z.string(), to: z.string() });
export type LoadTerm = z.output<typeof loadTermSchema>;

/** A week of the trend: its Monday (YYYY-MM-DD, local) and the figures of its lessons. */
export const loadWeekSchema = loadFiguresSchema.extend({ week: z.string() });
export type LoadWeek = z.output<typeof loadWeekSchema>;

export const loadGroupRowSchema = loadFiguresSchema.extend({ id: z.string().nullable(), name: z.string().nullable() });
export type LoadGroupRow = z.output<typeof loadGroupRowSchema>;

export const loadFlaggedStudentSchema = z.object({
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  className: z.string(),
  /** Lessons measured in the term, and of them those below (density) or above (peak). */
  lessons: z.number(),
  count: z.number(),
  share: z.number(),
});
export type LoadFlaggedStudent = z.output<typeof loadFlaggedStudentSchema>;

export const loadSummarySchema = z.object({
  term: loadTermSchema,
  group: z.enum(LOAD_GROUPS),
  total: loadFiguresSchema,
  rows: z.array(loadGroupRowSchema),
  weeks: z.array(loadWeekSchema),
  below: z.array(loadFlaggedStudentSchema),
  above: z.array(loadFlaggedStudentSchema),
});
export type LoadSummary = z.output<typeof loadSummarySchema>;

export const loadCardSchema = z.object({ term: loadTermSchema, total: loadFiguresSchema, weeks: z.array(loadWeekSchema) });
export type LoadCard = z.output<typeof loadCardSchema>;

export const loadSchoolRowSchema = loadFiguresSchema.extend({ orgId: z.string(), name: z.string() });
export type LoadSchoolRow = z.output<typeof loadSchoolRowSchema>;
export const loadDistrictSchema = z.object({ term: loadTermSchema, total: loadFiguresSchema, schools: z.array(loadSchoolRowSchema) });
export type LoadDistrict = z.output<typeof loadDistrictSchema>;

/** The wall's scene of today's lessons (docs/product-rules.md#wall-display): counts and class figures, never a name of a student. */
export interface LessonsSceneRow {
  /** A class (a school's wall) or a school (a district's wall). */
  name: string;
  inProgress: number;
  finished: number;
  meanBpm: number | null;
  density: number | null;
}
export interface LessonsSceneData {
  scene: 'lessons';
  day: string;
  /** What a row is: a class (a school's wall) or a school (a district's). */
  unit: 'class' | 'school';
  inProgress: number;
  finished: number;
  meetsTargets: number;
  rows: LessonsSceneRow[];
}
