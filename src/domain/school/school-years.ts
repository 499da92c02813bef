import { z } from 'zod';
import { SEMESTER } from '../constants';
import { blankAsNull } from '../fields';
import { intFilter, listQuery, versionField } from '../list-query';

/**
 * School years and their semesters (docs/product-rules.md#school-years): an academic year 'Y-(Y+1)' runs from
 * 1 August Y to 31 August Y+1 and holds the autumn semester (13) with the winter break after it, then the spring
 * semester (11) with the summer break after it. Periods never overlap, within a year or across years.
 */

/** '2026-2027': the second year follows the first. */
export const ACADEMIC_YEAR = /^(\d{4})-(\d{4})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The first calendar year of an academic year ('2026-2027' → 2026), or null when malformed. */
export function startYearOf(academicYear: string): number | null {
  const m = ACADEMIC_YEAR.exec(academicYear);
  if (!m) return null;
  const a = Number(m[1]);
  return Number(m[2]) === a + 1 && a >= 2000 && a <= 2098 ? a : null;
}

/** The window an academic year's semesters and breaks must lie in (inclusive ISO dates). */
export function academicYearWindow(startYear: number): { from: string; to: string } {
  return { from: `${startYear}-08-01`, to: `${startYear + 1}-08-31` };
}

/** A real calendar date in ISO form (rejects 2026-13-45 and year 0000). */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value && d.getUTCFullYear() >= 1900;
}

const date = z.string().refine(isIsoDate, 'validation:date.format');
const optionalDate = z.preprocess(blankAsNull, date.nullable().optional());

/** One semester as the form edits it: its dates and the break after it. */
export const semesterInputSchema = z.object({
  startDate: date,
  endDate: date,
  breakStart: optionalDate,
  breakEnd: optionalDate,
});
export type SemesterInput = z.output<typeof semesterInputSchema>;

export const SEMESTER_KEYS = ['autumn', 'spring'] as const;
export type SemesterKey = (typeof SEMESTER_KEYS)[number];

/** A period of a school year, for overlap checks and the current semester. */
export interface Period {
  start: string;
  end: string;
}

/** The semester and the break after it, as one period (the semester stays current through its break). */
export function semesterSpan(s: Pick<SemesterInput, 'startDate' | 'endDate' | 'breakStart' | 'breakEnd'>): Period {
  return { start: s.startDate, end: s.breakEnd ?? s.endDate };
}

export function overlaps(a: Period, b: Period): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/** Save a school year: the academic year, its two semesters and breaks, and the version the form loaded when editing. */
export const schoolYearSaveSchema = z
  .object({
    academicYear: z.string({ error: 'validation:schoolYear.required' }).trim().min(1, 'validation:schoolYear.required').regex(ACADEMIC_YEAR, 'validation:schoolYear.format'),
    autumn: semesterInputSchema,
    spring: semesterInputSchema,
    version: versionField.optional(),
  })
  .superRefine((v, ctx) => {
    const start = startYearOf(v.academicYear);
    if (start === null) {
      ctx.addIssue({ code: 'custom', path: ['academicYear'], message: 'validation:schoolYear.format' });
      return;
    }
    const window = academicYearWindow(start);
    for (const key of SEMESTER_KEYS) {
      const s = v[key];
      if (s.endDate < s.startDate) ctx.addIssue({ code: 'custom', path: [key, 'endDate'], message: 'validation:schoolYear.endBeforeStart' });
      if (s.startDate < window.from || s.endDate > window.to)
        ctx.addIssue({ code: 'custom', path: [key, 'startDate'], message: 'validation:schoolYear.outsideYear' });
      const hasBreak = Boolean(s.breakStart) || Boolean(s.breakEnd);
      if (hasBreak) {
        if (!s.breakStart || !s.breakEnd) ctx.addIssue({ code: 'custom', path: [key, s.breakStart ? 'breakEnd' : 'breakStart'], message: 'validation:schoolYear.breakBoth' });
        else if (s.breakStart <= s.endDate || s.breakEnd < s.breakStart)
          ctx.addIssue({ code: 'custom', path: [key, 'breakStart'], message: 'validation:schoolYear.breakAfter' });
        else if (s.breakEnd > window.to) ctx.addIssue({ code: 'custom', path: [key, 'breakEnd'], message: 'validation:schoolYear.outsideYear' });
      }
    }
    // Autumn (with the winter break) comes first and ends before spring starts.
    if (overlaps(semesterSpan(v.autumn), semesterSpan(v.spring)) || v.spring.startDate < v.autumn.startDate)
      ctx.addIssue({ code: 'custom', path: ['spring', 'startDate'], message: 'validation:schoolYear.overlap' });
  });
export type SchoolYearSave = z.output<typeof schoolYearSaveSchema>;
export type SchoolYearForm = z.input<typeof schoolYearSaveSchema>;

/** List of school years: optionally one start year. */
export const schoolYearListQuery = listQuery({ startYear: intFilter });

/** The semester code of a form key. */
export const SEMESTER_CODE: Record<SemesterKey, number> = { autumn: SEMESTER.autumn, spring: SEMESTER.spring };

/** Default dates of a new academic year: autumn 1 Sep – 15 Jan, winter break to mid-Feb, spring to early July, summer break to 31 Aug. */
export function defaultSchoolYear(startYear: number): SchoolYearForm {
  const y = startYear;
  return {
    academicYear: `${y}-${y + 1}`,
    autumn: { startDate: `${y}-09-01`, endDate: `${y + 1}-01-15`, breakStart: `${y + 1}-01-16`, breakEnd: `${y + 1}-02-16` },
    spring: { startDate: `${y + 1}-02-17`, endDate: `${y + 1}-07-05`, breakStart: `${y + 1}-07-06`, breakEnd: `${y + 1}-08-31` },
  };
}

/** A semester as the school-year reads answer it; `current` marks the organisation's current one. */
export const semesterRowSchema = z.object({
  id: z.string(),
  code: z.number().int().describe('Semester code (SEMESTER_CODE: autumn, spring)'),
  startDate: z.string().describe('ISO date'),
  endDate: z.string(),
  breakStart: z.string().nullable().describe('The break after it, when it has one'),
  breakEnd: z.string().nullable(),
  current: z.boolean(),
});

/** A school year of the dictionary list (GET org/acayear/list). */
export const schoolYearRowSchema = z.object({
  id: z.string(),
  academicYear: z.string().describe("'2026-2027'"),
  startYear: z.number().int(),
  current: z.boolean(),
  semesters: z.array(semesterRowSchema),
});
export const schoolYearRowsSchema = z.array(schoolYearRowSchema);

/** A school year as its management screen reads it: the version a save must send back, and `current` from today. */
export const schoolYearDetailSchema = schoolYearRowSchema.extend({
  version: z.number().int().describe('Send it back with a save: a newer save answers 409'),
  current: z.boolean().describe('One of its semesters (with the break after it) contains today'),
});
