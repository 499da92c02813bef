import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, unique, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { orgs } from './orgs';
import { users } from './auth';
import { files } from './files';

const orgRef = () => uuid('org_id').notNull().references(() => orgs.id);
const created = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/** Raised by every save; a save that sends an older one is refused (docs/product-rules.md#concurrent-edits). */
const version = () => integer('version').notNull().default(1);

/** School years (e.g. '2025-2026', starting 2025) of an organisation (docs/product-rules.md#school-years). */
export const schoolYears = pgTable(
  'school_years',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    academicYear: text('academic_year').notNull(),
    startYear: smallint('start_year').notNull(),
    current: boolean('current').notNull().default(false),
    version: version(),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('school_years_org_year_uq').on(t.orgId, t.startYear),
    // At most one current school year per organisation: clear the old flag before setting the new one.
    uniqueIndex('school_years_org_current_uq').on(t.orgId).where(sql`${t.current}`),
  ],
);

/** Semesters of a school year: spring 11, autumn 13 (docs/product-rules.md#school-years, #limits), each with the break that follows it. */
export const semesters = pgTable(
  'semesters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    schoolYearId: uuid('school_year_id').notNull().references(() => schoolYears.id, { onDelete: 'cascade' }),
    code: smallint('code').notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    /** Winter break after autumn, summer break after spring. */
    breakStart: date('break_start'),
    breakEnd: date('break_end'),
    current: boolean('current').notNull().default(false),
  },
  (t) => [
    uniqueIndex('semesters_year_code_uq').on(t.schoolYearId, t.code),
    // At most one current semester per organisation.
    uniqueIndex('semesters_org_current_uq').on(t.orgId).where(sql`${t.current}`),
  ],
);

/**
 * Grades as enrolment cohorts (docs/product-rules.md#grades): stage, enrolment year, graduation status;
 * the current grade number 1–12 (K12) or 13–16 (university years 1–4) follows from the enrolment year.
 */
export const grades = pgTable(
  'grades',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    stage: text('stage', { enum: ['primary', 'junior', 'senior', 'university'] }).notNull(),
    enrolYear: smallint('enrol_year').notNull(),
    gradeNo: smallint('grade_no').notNull(),
    graduated: boolean('graduated').notNull().default(false),
    version: version(),
    createdAt: created(),
  },
  (t) => [uniqueIndex('grades_org_stage_year_uq').on(t.orgId, t.stage, t.enrolYear), index('grades_org_no_idx').on(t.orgId, t.gradeNo)],
);

/** Colleges (departments) of a university, two-digit code (docs/product-rules.md#colleges-and-majors, #organisations). */
export const colleges = pgTable(
  'colleges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    version: version(),
    createdAt: created(),
  },
  (t) => [uniqueIndex('colleges_org_code_uq').on(t.orgId, t.code)],
);

export const majors = pgTable(
  'majors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    collegeId: uuid('college_id').notNull().references(() => colleges.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** Years of study. */
    schoolLength: smallint('school_length').notNull().default(4),
    version: version(),
    createdAt: created(),
  },
  (t) => [uniqueIndex('majors_college_code_uq').on(t.collegeId, t.code)],
);

/** Classes (docs/product-rules.md#classes): code 1–99 within a grade, display name, class number, head count. */
export const classes = pgTable(
  'classes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    gradeId: uuid('grade_id').notNull().references(() => grades.id),
    collegeId: uuid('college_id').references(() => colleges.id),
    majorId: uuid('major_id').references(() => majors.id),
    code: smallint('code').notNull(),
    name: text('name').notNull(),
    /** National class number (e.g. '2025010301'). */
    classNo: text('class_no'),
    size: smallint('size').notNull().default(0),
    /** Head teacher (班主任) and PE teacher of the class. */
    headTeacherId: uuid('head_teacher_id').references((): AnyPgColumn => teachers.id, { onDelete: 'set null' }),
    peTeacherId: uuid('pe_teacher_id').references((): AnyPgColumn => teachers.id, { onDelete: 'set null' }),
    enabled: boolean('enabled').notNull().default(true),
    version: version(),
    createdAt: created(),
  },
  (t) => [
    // NULLS NOT DISTINCT: K12 classes have no major, and their codes must still be unique within the grade.
    unique('classes_grade_major_code_uq').on(t.gradeId, t.majorId, t.code).nullsNotDistinct(),
    index('classes_org_idx').on(t.orgId),
    index('classes_grade_idx').on(t.gradeId),
  ],
);

/** Staff (docs/product-rules.md#students-and-staff): the person; their login account is `users` + a membership with a role. */
export const teachers = pgTable(
  'teachers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    userId: uuid('user_id').references(() => users.id),
    name: text('name').notNull(),
    gender: text('gender', { enum: ['male', 'female'] }).notNull(),
    mobile: text('mobile'),
    workNo: text('work_no'),
    /** Resident ID number (GB 11643, check digit verified: src/domain/people/id-card.ts). */
    idCard: text('id_card'),
    /** Another identity document (src/domain/people/id-card.ts CERTIFICATE_TYPES) and its number. */
    certificateType: text('certificate_type'),
    certificateNo: text('certificate_no'),
    photoFileId: uuid('photo_file_id').references(() => files.id),
    enabled: boolean('enabled').notNull().default(true),
    version: version(),
    createdAt: created(),
  },
  (t) => [uniqueIndex('teachers_org_work_no_uq').on(t.orgId, t.workNo), index('teachers_org_idx').on(t.orgId), index('teachers_user_idx').on(t.userId)],
);

/** Classes a staff member teaches, per subject (src/domain/people/staff.ts TEACHING_SUBJECTS). */
export const teacherClasses = pgTable(
  'teacher_classes',
  {
    teacherId: uuid('teacher_id').notNull().references(() => teachers.id, { onDelete: 'cascade' }),
    classId: uuid('class_id').notNull().references(() => classes.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull().default('pe'),
  },
  (t) => [primaryKey({ columns: [t.teacherId, t.classId, t.subject] }), index('teacher_classes_class_idx').on(t.classId)],
);

/** Students (docs/product-rules.md#students-and-staff): registration number (学籍号) unique per organisation (“学籍号已注册”). */
export const students = pgTable(
  'students',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    classId: uuid('class_id').notNull().references(() => classes.id),
    userId: uuid('user_id').references(() => users.id),
    name: text('name').notNull(),
    regNo: text('reg_no').notNull(),
    studentNo: text('student_no'),
    gender: text('gender', { enum: ['male', 'female'] }).notNull(),
    birthDate: date('birth_date'),
    /** National ethnicity code, '01' = 汉族. */
    ethnicity: text('ethnicity').notNull().default('01'),
    address: text('address'),
    /** studying / transferred / graduated / suspended (src/domain/people/students.ts STUDENT_STATUSES). */
    status: text('status', { enum: ['studying', 'transferred', 'graduated', 'suspended'] }).notNull().default('studying'),
    photoFileId: uuid('photo_file_id').references(() => files.id),
    enabled: boolean('enabled').notNull().default(true),
    version: version(),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('students_org_reg_no_uq').on(t.orgId, t.regNo),
    index('students_class_idx').on(t.classId),
    index('students_org_name_idx').on(t.orgId, t.name),
    // The data centre's student list reads a class's enabled students in the list's order by key (docs/decisions/031-score-list-pages-by-class.md).
    index('students_class_list_idx').on(t.classId, t.studentNo, t.regNo, t.id).where(sql`enabled`),
  ],
);

export const parents = pgTable(
  'parents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    userId: uuid('user_id').references(() => users.id),
    name: text('name').notNull(),
    gender: text('gender', { enum: ['male', 'female'] }).notNull(),
    mobile: text('mobile').notNull(),
    version: version(),
    createdAt: created(),
  },
  (t) => [uniqueIndex('parents_org_mobile_uq').on(t.orgId, t.mobile)],
);

export const parentStudents = pgTable(
  'parent_students',
  {
    parentId: uuid('parent_id').notNull().references(() => parents.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id').notNull().references(() => students.id, { onDelete: 'cascade' }),
    /** src/domain/people/parents.ts PARENT_RELATIONS. */
    relation: text('relation').notNull(),
  },
  (t) => [primaryKey({ columns: [t.parentId, t.studentId] }), index('parent_students_student_idx').on(t.studentId)],
);

/**
 * The classes a student has been in (docs/product-rules.md#students-and-staff): a transfer or a year rollover closes
 * the open row and opens one for the new class, so reports of earlier years keep the class of their time.
 */
export const studentClassHistory = pgTable(
  'student_class_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    studentId: uuid('student_id').notNull().references(() => students.id, { onDelete: 'cascade' }),
    classId: uuid('class_id').notNull().references(() => classes.id),
    /** enrol, transfer, rollover, import. */
    reason: text('reason').notNull(),
    since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
    until: timestamp('until', { withTimezone: true }),
  },
  (t) => [
    index('student_class_history_student_idx').on(t.studentId),
    // One open row per student: the class they are in now.
    uniqueIndex('student_class_history_open_uq').on(t.studentId).where(sql`${t.until} is null`),
  ],
);

/**
 * Year rollovers (docs/product-rules.md#year-rollover): what each one did, so the last one can be undone exactly —
 * the cohorts it moved or graduated (with their values before), the students it graduated, the classes it renamed,
 * and the school year, cohorts and classes it created.
 */
export const schoolRollovers = pgTable(
  'school_rollovers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    fromStartYear: smallint('from_start_year').notNull(),
    toStartYear: smallint('to_start_year').notNull(),
    /** Null once that school year is deleted. */
    toYearId: uuid('to_year_id').references(() => schoolYears.id, { onDelete: 'set null' }),
    changes: jsonb('changes').$type<RolloverChanges>().notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: created(),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [index('school_rollovers_org_idx').on(t.orgId, t.createdAt)],
);

/** A row as the rollover left it: its id, the values it had before, and the version the rollover gave it. */
export interface RolloverRowChange<Before> {
  id: string;
  before: Before;
  version: number;
}

export interface RolloverChanges {
  /** The target year was created by the rollover (undo deletes it). */
  createdYear: boolean;
  /** The school year and semester flagged current before. */
  previousCurrentYearId: string | null;
  previousCurrentSemesterId: string | null;
  /** Cohorts moved up one grade, or graduated (`graduates`). */
  grades: (RolloverRowChange<{ gradeNo: number; graduated: boolean }> & { graduates: boolean })[];
  classes: RolloverRowChange<{ name: string }>[];
  students: RolloverRowChange<{ status: 'studying' | 'transferred' | 'graduated' | 'suspended' }>[];
  createdGrades: string[];
  createdClasses: string[];
}
