// Row shapes of the school core reads (classes, students, teachers, grades, school years), shared by server and browser.
import type { z } from 'zod';
import type { classDetailSchema, classRowSchema } from './classes';

/** A row of the class list (its schema, for the API document: classRowSchema). */
export type ClassRow = z.output<typeof classRowSchema>;

export interface GradeRow {
  id: string;
  stage: string;
  enrolYear: number;
  gradeNo: number;
  graduated: boolean;
}

export interface SemesterRow {
  id: string;
  code: number;
  startDate: string;
  endDate: string;
  breakStart: string | null;
  breakEnd: string | null;
  current: boolean;
}

export interface SchoolYearRow {
  id: string;
  academicYear: string;
  startYear: number;
  current: boolean;
  semesters: SemesterRow[];
}

/** A school year as its management screen reads it: the version a save must send back, and `current` from today. */
export interface SchoolYearDetail {
  id: string;
  academicYear: string;
  startYear: number;
  version: number;
  /** One of its semesters (with the break after it) contains today. */
  current: boolean;
  semesters: Omit<SemesterRow, never>[];
}

/** A class as its management screen reads it (its schema: classDetailSchema). */
export type ClassDetail = z.output<typeof classDetailSchema>;

/** Choices of the class form. */
export interface ClassFormOptions {
  grades: { id: string; stage: string; gradeNo: number; enrolYear: number }[];
  teachers: { id: string; name: string; workNo: string | null }[];
  majors: { id: string; name: string; collegeName: string }[];
}
