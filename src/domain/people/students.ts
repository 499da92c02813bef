import { z } from 'zod';
import { idFilter, listQuery, textFilter, UUID_PATTERN, versionField } from '../list-query';
import { PARENT_RELATIONS } from './parents';
import { genderSchema, personNameSchema, type Gender } from './staff';

/**
 * Students (docs/product-rules.md#students-and-staff): registration number (学籍号) unique in the organisation
 * ('学籍号已注册'), student number, class, gender, birth date, ethnicity (two-digit national code, see
 * src/domain/physique/national-template.ts ethnicityCode), face photo, status, parents. A transfer changes the class
 * and keeps the history (student_class_history).
 */

export const STUDENT_STATUSES = ['studying', 'transferred', 'graduated', 'suspended'] as const;
export type StudentStatus = (typeof STUDENT_STATUSES)[number];
export const REG_NO_MAX = 30;
export const STUDENT_NO_MAX = 30;
/** Registration numbers are letters and digits (the national 学籍号 is G/L/J + ID number + digits). */
export const REG_NO_PATTERN = /^[A-Za-z0-9]+$/;
/** Ethnicity codes of the `nation` dictionary: 01–56, 97 other, 98 foreign-born Chinese citizen. */
export const ETHNICITY_CODE = /^(0[1-9]|[1-4]\d|5[0-6]|97|98)$/;

const folded = (v: unknown) => (typeof v === 'string' ? v.normalize('NFKC').trim() : v);

export const studentSaveSchema = z
  .object({
    name: personNameSchema,
    regNo: z.preprocess(folded, z.string().min(1, 'validation:student.regNoRequired').max(REG_NO_MAX, 'validation:people.tooLong').regex(REG_NO_PATTERN, 'validation:student.regNoFormat')),
    studentNo: z.preprocess(folded, z.union([z.literal(''), z.string().max(STUDENT_NO_MAX, 'validation:people.tooLong').regex(/^[A-Za-z0-9-]+$/, 'validation:people.format')])),
    classId: z.string({ error: 'validation:people.classRequired' }).regex(UUID_PATTERN, 'validation:people.classRequired'),
    gender: genderSchema,
    /** YYYY-MM-DD or '' (unknown). */
    birthDate: z.union([z.literal(''), z.iso.date('validation:people.birthDate')]),
    ethnicity: z.string().regex(ETHNICITY_CODE, 'validation:student.ethnicity').default('01'),
    status: z.enum(STUDENT_STATUSES).default('studying'),
    photoFileId: z.union([z.literal(''), z.string().regex(UUID_PATTERN, 'validation:common.id')]),
    /** Parents already in the organisation, with the relation to this student. */
    parents: z.array(z.object({ parentId: z.string().regex(UUID_PATTERN, 'validation:common.id'), relation: z.enum(PARENT_RELATIONS, { error: 'validation:parent.relationRequired' }) })).max(6).default([]),
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
  status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(STUDENT_STATUSES).optional()),
});

/** Moving students to another class of the organisation (history kept). */
export const studentTransferSchema = z.object({
  studentIds: z.array(z.string().regex(UUID_PATTERN, 'validation:common.id')).min(1).max(500),
  classId: z.string({ error: 'validation:people.classRequired' }).regex(UUID_PATTERN, 'validation:people.classRequired'),
});

/** One student as the list and the form read them. */
export interface StudentRecord {
  id: string;
  name: string;
  regNo: string;
  studentNo: string | null;
  gender: Gender;
  birthDate: string | null;
  ethnicity: string;
  status: StudentStatus;
  photoFileId: string | null;
  classId: string;
  className: string;
  gradeId: string;
  gradeNo: number;
  parents: { parentId: string; name: string; mobile: string; relation: string }[];
  createdAt: string;
  version: number;
}
