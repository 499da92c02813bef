import { z } from 'zod';
import { appAccountSchema } from './app-accounts';
import { enumFilter, requiredId, uuid } from '../fields';
import { idFilter, listQuery, textFilter, versionField } from '../list-query';
import { enumTable } from '../presentation';
import { PARENT_RELATIONS, parentMobileSchema } from './parents';
import { GENDERS, genderSchema, personNameSchema } from './staff';

/**
 * Students (docs/product-rules.md#students-and-staff): registration number (学籍号) unique in the organisation
 * ('学籍号已注册'), student number, class, gender, birth date, ethnicity (two-digit national code, see
 * src/domain/physique/national-template.ts ethnicityCode), face photo, status, parents. A transfer changes the class
 * and keeps the history (student_class_history).
 */

export const STUDENT_STATUSES = ['studying', 'transferred', 'graduated', 'suspended'] as const;
export type StudentStatus = (typeof STUDENT_STATUSES)[number];
export const STUDENT_STATUS_TABLE = enumTable(STUDENT_STATUSES, (s) => `people:students.statuses.${s}`, { studying: 'success', transferred: 'plain', graduated: 'neutral', suspended: 'warning' });
export const REG_NO_MAX = 30;
export const STUDENT_NO_MAX = 30;
/** Registration numbers are letters and digits (the national 学籍号 is G/L/J + ID number + digits). */
export const REG_NO_PATTERN = /^[A-Za-z0-9]+$/;
/** Ethnicity codes of the `nation` dictionary: 01–56, 97 other, 98 foreign-born Chinese citizen. */
export const ETHNICITY_CODE = /^(0[1-9]|[1-4]\d|5[0-6]|97|98)$/;
/** The codes of the `nation` dictionary in order, for choices (names: locale keys people:students.nation.<code>). */
export const ETHNICITY_CODES: readonly string[] = [...Array.from({ length: 56 }, (_, i) => String(i + 1).padStart(2, '0')), '97', '98'];

/** Parents one student may have (linked and new together). */
export const STUDENT_PARENTS_MAX = 6;

/** A parent added from the student form: the parent's own fields and the relation to this student. */
export const newParentSchema = z.object({
  name: personNameSchema,
  gender: genderSchema,
  mobile: parentMobileSchema,
  relation: z.enum(PARENT_RELATIONS, { error: 'validation:parent.relationRequired' }),
});

const folded = (v: unknown) => (typeof v === 'string' ? v.normalize('NFKC').trim() : v);

export const studentSaveSchema = z
  .object({
    name: personNameSchema,
    regNo: z.preprocess(folded, z.string().min(1, 'validation:student.regNoRequired').max(REG_NO_MAX, 'validation:people.tooLong').regex(REG_NO_PATTERN, 'validation:student.regNoFormat')),
    studentNo: z.preprocess(folded, z.union([z.literal(''), z.string().max(STUDENT_NO_MAX, 'validation:people.tooLong').regex(/^[A-Za-z0-9-]+$/, 'validation:people.format')])),
    classId: requiredId('validation:people.classRequired'),
    gender: genderSchema,
    /** YYYY-MM-DD or '' (unknown). */
    birthDate: z.union([z.literal(''), z.iso.date('validation:people.birthDate')]),
    ethnicity: z.string().regex(ETHNICITY_CODE, 'validation:student.ethnicity').default('01'),
    status: z.enum(STUDENT_STATUSES).default('studying'),
    /** The face photo's file id; '' or null (an upload field cleared) for none. */
    photoFileId: z.preprocess((v) => v ?? '', z.union([z.literal(''), uuid()])),
    /** Parents already in the organisation, with the relation to this student. */
    parents: z.array(z.object({ parentId: uuid(), relation: z.enum(PARENT_RELATIONS, { error: 'validation:parent.relationRequired' }) })).max(STUDENT_PARENTS_MAX).default([]),
    /** Parents new to the organisation, created and linked in the same save. */
    newParents: z.array(newParentSchema).max(STUDENT_PARENTS_MAX).default([]),
    version: versionField.optional(),
  })
  .strict();
export type StudentSave = z.output<typeof studentSaveSchema>;
export type StudentForm = z.input<typeof studentSaveSchema>;

export const studentListQuery = listQuery({
  /** Name, registration number or student number. */
  keyword: textFilter(),
  gradeId: idFilter,
  classId: idFilter,
  status: enumFilter(STUDENT_STATUSES),
});

/** Moving students to another class of the organisation (history kept). */
export const studentTransferSchema = z.object({
  studentIds: z.array(uuid()).min(1).max(500),
  classId: requiredId('validation:people.classRequired'),
});

/** One student as the list and the form read them. */
export const studentRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  regNo: z.string().describe('Registration number (学籍号), unique in the organisation'),
  studentNo: z.string().nullable(),
  gender: z.enum(GENDERS),
  birthDate: z.string().nullable().describe('ISO date'),
  ethnicity: z.string().describe('Two-digit national code'),
  status: z.enum(STUDENT_STATUSES),
  photoFileId: z.string().nullable(),
  classId: z.string(),
  className: z.string(),
  gradeId: z.string(),
  gradeNo: z.number().int(),
  parents: z
    .array(z.object({ parentId: z.string(), name: z.string(), mobile: z.string(), relation: z.string() }))
    .describe('Mobiles masked in the list without the page\'s "view sensitive fields" button'),
  appAccount: appAccountSchema.nullable().describe("The student's own sign-in for the app API (docs/product-rules.md#app-accounts); null without one"),
  createdAt: z.string().describe('ISO instant'),
  version: z.number().int(),
});
export type StudentRecord = z.output<typeof studentRecordSchema>;

/** Why a student entered a class (student_class_history.reason). */
export const CLASS_CHANGE_REASONS = ['enrol', 'transfer', 'rollover', 'import'] as const;

/** One student with the classes they have been in, newest first (the edit screen). */
export const studentDetailSchema = studentRecordSchema.extend({
  history: z.array(z.object({ classId: z.string(), className: z.string(), reason: z.string(), since: z.string(), until: z.string().nullable() })),
});
export type StudentDetail = z.output<typeof studentDetailSchema>;

/** A choice of the pickers: a parent to link from the student form, a child from the parent form. */
export const personOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  hint: z.string().describe('Mobile (a parent, masked without the "view sensitive fields" button) or registration number and class (a student)'),
});
export type PersonOption = z.output<typeof personOptionSchema>;
export const personOptionsSchema = z.array(personOptionSchema);

/** The grades and classes (of the actor's scope) the student form and filters choose from. */
export const studentFormOptionsSchema = z.object({
  grades: z.array(z.object({ id: z.string(), gradeNo: z.number().int(), stage: z.string(), enrolYear: z.number().int() })),
  classes: z.array(z.object({ id: z.string(), name: z.string(), gradeId: z.string() })),
});
export type StudentFormOptions = z.output<typeof studentFormOptionsSchema>;

/** What a transfer answers: how many students changed class. */
export const studentTransferResultSchema = z.object({ moved: z.number().int() });
