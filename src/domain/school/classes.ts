import { z } from 'zod';
import { CLASS_CODE_MAX } from '../constants';
import { nullableId, optionalText, requiredId } from '../fields';
import { idFilter, listQuery, textFilter, versionField } from '../list-query';

/**
 * Classes (docs/product-rules.md#classes): code 1–99, unique within the grade (and major, at a university); a grade is
 * required; university classes also name their major. The head count is the number of the class's students.
 */

export const CLASS_NAME_MAX = 30;
export const CLASS_NO_MAX = 20;

export const classSaveSchema = z.object({
  gradeId: requiredId('validation:class.gradeRequired'),
  code: z.coerce
    .number({ error: 'validation:class.codeRequired' })
    .int('validation:class.codeRange')
    .min(1, 'validation:class.codeRange')
    .max(CLASS_CODE_MAX, 'validation:class.codeMax'),
  name: z.string().trim().min(1, 'validation:class.nameRequired').max(CLASS_NAME_MAX, 'validation:class.nameLength'),
  classNo: optionalText(CLASS_NO_MAX, 'validation:class.classNoLength'),
  headTeacherId: nullableId(),
  peTeacherId: nullableId(),
  /** University classes only: the major (its college follows). */
  majorId: nullableId(),
  version: versionField.optional(),
});
export type ClassSave = z.output<typeof classSaveSchema>;
export type ClassForm = z.input<typeof classSaveSchema>;

/** The class list's filters. */
export const classListQuery = listQuery({ gradeId: idFilter, name: textFilter(), majorId: idFilter });

const nullableText = z.string().nullable();

/** A row of the class list as the API answers it (the OpenAPI document's schema; ClassRow in ./types). */
export const classRowSchema = z.object({
  id: z.string(),
  code: z.number().int().describe('Class code 1–99, unique within the grade (and major)'),
  name: z.string(),
  classNo: nullableText.describe('The school\'s own class number, when it keeps one'),
  size: z.number().int().describe('Head count: the class\'s students'),
  gradeId: z.string(),
  gradeNo: z.number().int().describe('Grade number within its stage (1 = first year)'),
  stage: z.string().describe('School stage of the grade (primary, junior, senior, university…)'),
  enrolYear: z.number().int().describe('Year the grade enrolled'),
  collegeId: nullableText.describe('University classes: the college of the major'),
  collegeName: nullableText,
  majorId: nullableText.describe('University classes: the major'),
  majorName: nullableText,
  enabled: z.boolean(),
});

/** A class as its management screen reads it (list row and detail alike; ClassDetail in ./types). */
export const classDetailSchema = classRowSchema.extend({
  headTeacherId: nullableText,
  headTeacherName: nullableText,
  peTeacherId: nullableText,
  peTeacherName: nullableText,
  studentCount: z.number().int(),
  version: z.number().int().describe('Send it back with a save: a newer save answers 409'),
});

/** Choices of the class form (GET org/class/options): grades in school, enabled staff and (universities) majors. */
export const classFormOptionsSchema = z.object({
  grades: z.array(z.object({ id: z.string(), stage: z.string(), gradeNo: z.number().int(), enrolYear: z.number().int() })),
  teachers: z.array(z.object({ id: z.string(), name: z.string(), workNo: nullableText })),
  majors: z.array(z.object({ id: z.string(), name: z.string(), collegeName: z.string() })),
});
