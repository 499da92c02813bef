import { z } from 'zod';
import { initialPasswordSchema, loginAccountSchema, mobileSchema } from '../auth/schemas';
import { enumFilter, requiredId } from '../fields';
import { idFilter, listQuery, textFilter, versionField } from '../list-query';
import { enumTable } from '../presentation';
import { GENDERS } from './gender';
import { CERTIFICATE_NO_MAX, CERTIFICATE_NO_PATTERN, CERTIFICATE_TYPES, idCardSchema } from './id-card';

/**
 * Staff of a school or university (docs/product-rules.md#students-and-staff): the person (name, gender, mobile, work
 * number unique in the organisation, identity documents, face photo, taught classes) and their login account (6–20
 * letters/digits, unique across the system) holding one role of the organisation.
 */

export const PERSON_NAME_MAX = 30;
export const WORK_NO_MAX = 20;
/** Subjects a staff member teaches a class in. */
export const TEACHING_SUBJECTS = ['pe', 'health', 'other'] as const;
export type TeachingSubject = (typeof TEACHING_SUBJECTS)[number];
export const TEACHING_SUBJECT_TABLE = enumTable(TEACHING_SUBJECTS, (s) => `people:staff.subject.${s}`);
export { GENDER_TABLE, GENDERS, type Gender } from './gender';
export const CERTIFICATE_TYPE_TABLE = enumTable(CERTIFICATE_TYPES, (c) => `people:staff.certificate.${c}`);

export const personNameSchema = z.string({ error: 'validation:people.nameRequired' }).trim().min(1, 'validation:people.nameRequired').max(PERSON_NAME_MAX, 'validation:people.nameLength');
export const genderSchema = z.enum(GENDERS, { error: 'validation:people.genderRequired' });
/** A text the person may leave empty (''), compared as typed on any keyboard (NFKC: full-width digits are digits). */
const foldedText = (max: number, pattern?: RegExp, message = 'validation:people.format') =>
  z.preprocess((v) => (typeof v === 'string' ? v.normalize('NFKC').trim() : v), z.union([z.literal(''), pattern ? z.string().max(max, 'validation:people.tooLong').regex(pattern, message) : z.string().max(max, 'validation:people.tooLong')]));

export const taughtClassSchema = z.object({ classId: requiredId('validation:people.classRequired'), subject: z.enum(TEACHING_SUBJECTS) });
export type TaughtClass = z.output<typeof taughtClassSchema>;

const staffFields = {
  name: personNameSchema,
  accountNum: loginAccountSchema,
  roleId: requiredId('validation:user.roleRequired'),
  mobile: z.union([z.literal(''), mobileSchema]),
  gender: genderSchema,
  workNo: foldedText(WORK_NO_MAX, /^[A-Za-z0-9-]+$/, 'validation:people.workNoFormat'),
  idCard: idCardSchema,
  certificateType: z.union([z.literal(''), z.enum(CERTIFICATE_TYPES)]),
  certificateNo: foldedText(CERTIFICATE_NO_MAX, CERTIFICATE_NO_PATTERN, 'validation:people.certificateNoFormat'),
  /** The face photo: a file of the organisation's store (purpose 'face'), or '' (null) for none. */
  photoFileId: z.preprocess((v) => v ?? '', z.union([z.literal(''), requiredId('validation:common.id')])),
  taughtClasses: z.array(taughtClassSchema).max(200).default([]),
};
const certificateTogether = <T extends { certificateType: string; certificateNo: string }>(v: T, ctx: z.RefinementCtx) => {
  if (v.certificateType && !v.certificateNo) ctx.addIssue({ code: 'custom', path: ['certificateNo'], message: 'validation:people.certificateNoRequired' });
  if (!v.certificateType && v.certificateNo) ctx.addIssue({ code: 'custom', path: ['certificateType'], message: 'validation:people.certificateTypeRequired' });
};

/** Adding a staff member: the administrator sets the account's first password (changed at first sign-in). */
export const staffCreateSchema = z.object({ ...staffFields, password: initialPasswordSchema }).strict().superRefine(certificateTogether);
/** Editing: the password is reset on its own (the users screen's reset), never here. */
export const staffUpdateSchema = z.object({ ...staffFields, version: versionField.optional() }).strict().superRefine(certificateTogether);
export type StaffCreate = z.output<typeof staffCreateSchema>;
export type StaffUpdate = z.output<typeof staffUpdateSchema>;
/** The form's values (add and edit share one form; edit has no password). */
export type StaffForm = z.input<typeof staffCreateSchema> & { version?: number };

export const staffListQuery = listQuery({
  /** Name, mobile, work number or login account. */
  keyword: textFilter(),
  roleId: idFilter,
  classId: idFilter,
  enabled: enumFilter(['true', 'false']),
});

/** One staff member as the list and the form read them. */
export const staffRowSchema = z.object({
  id: z.string(),
  accountId: z.string().nullable().describe('The account (membership) the person signs in with; null for staff without one'),
  name: z.string(),
  accountNum: z.string().nullable(),
  roleId: z.string().nullable(),
  roleName: z.string().nullable(),
  mobile: z.string().nullable().describe('Masked in the list without the page\'s "view sensitive fields" button'),
  gender: z.enum(GENDERS),
  workNo: z.string().nullable(),
  idCard: z.string().nullable(),
  certificateType: z.string().nullable(),
  certificateNo: z.string().nullable(),
  photoFileId: z.string().nullable(),
  taughtClasses: z.array(z.object({ classId: z.string(), subject: z.enum(TEACHING_SUBJECTS), className: z.string() })),
  enabled: z.boolean(),
  mustChangePassword: z.boolean().describe('The password an administrator chose must be changed at the next sign-in'),
  createdAt: z.string().describe('ISO instant'),
  version: z.number().int(),
});
export type StaffRow = z.output<typeof staffRowSchema>;

/** A staff member in the list: never their identity document numbers (docs/product-rules.md#students-and-staff). */
export const staffListRowSchema = staffRowSchema.omit({ idCard: true, certificateNo: true });
export type StaffListRow = z.output<typeof staffListRowSchema>;

/** What the staff form chooses from: the organisation's staff roles and classes. */
export const staffFormOptionsSchema = z.object({
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  classes: z.array(z.object({ id: z.string(), name: z.string(), gradeNo: z.number().int() })),
});
export type StaffFormOptions = z.output<typeof staffFormOptionsSchema>;
