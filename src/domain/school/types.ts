// Row shapes of the school core reads (classes, students, teachers, grades, school years), shared by server and browser.

export interface ClassRow {
  id: string;
  code: number;
  name: string;
  classNo: string | null;
  size: number;
  gradeId: string;
  gradeNo: number;
  stage: string;
  enrolYear: number;
  collegeId: string | null;
  collegeName: string | null;
  majorId: string | null;
  majorName: string | null;
  enabled: boolean;
}

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

/** A class as its management screen reads it. */
export interface ClassDetail extends ClassRow {
  headTeacherId: string | null;
  headTeacherName: string | null;
  peTeacherId: string | null;
  peTeacherName: string | null;
  /** Head count: the class's students. */
  studentCount: number;
  version: number;
}

/** Choices of the class form. */
export interface ClassFormOptions {
  grades: { id: string; stage: string; gradeNo: number; enrolYear: number }[];
  teachers: { id: string; name: string; workNo: string | null }[];
  majors: { id: string; name: string; collegeName: string }[];
}
