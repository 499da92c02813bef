import { z } from 'zod';
import { requiredId } from '../fields';
import { idFilter, listQuery, textFilter, versionField } from '../list-query';

/**
 * Colleges and majors of a university (docs/product-rules.md#colleges-and-majors): a name and a two-digit code,
 * unique in the university (colleges) or in the college (majors); a major belongs to a college and has a school length
 * in years.
 */

export const COLLEGE_NAME_MAX = 30;
export const SCHOOL_LENGTH_MIN = 1;
export const SCHOOL_LENGTH_MAX = 8;
const TWO_DIGITS = /^\d{2}$/;

const name = z.string().trim().min(1, 'validation:college.nameRequired').max(COLLEGE_NAME_MAX, 'validation:college.nameLength');
const code = z.string({ error: 'validation:college.codeFormat' }).trim().regex(TWO_DIGITS, 'validation:college.codeFormat');

export const collegeSaveSchema = z.object({ name, code, version: versionField.optional() });
export type CollegeSave = z.output<typeof collegeSaveSchema>;
export type CollegeForm = z.input<typeof collegeSaveSchema>;

export const majorSaveSchema = z.object({
  collegeId: requiredId('validation:college.collegeRequired'),
  name,
  code,
  schoolLength: z.coerce
    .number({ error: 'validation:college.schoolLength' })
    .int('validation:college.schoolLength')
    .min(SCHOOL_LENGTH_MIN, 'validation:college.schoolLength')
    .max(SCHOOL_LENGTH_MAX, 'validation:college.schoolLength'),
  version: versionField.optional(),
});
export type MajorSave = z.output<typeof majorSaveSchema>;
export type MajorForm = z.input<typeof majorSaveSchema>;

export const collegeListQuery = listQuery({ name: textFilter() });
export const majorListQuery = listQuery({ name: textFilter(), collegeId: idFilter });

/** A college as its screen reads it (list row, detail and saved answer alike). */
export const collegeDetailSchema = z.object({ id: z.string(), code: z.string(), name: z.string(), majorCount: z.number().int(), version: z.number().int() });
export type CollegeDetail = z.output<typeof collegeDetailSchema>;

/** A major as its screen reads it (list row, detail and saved answer alike). */
export const majorDetailSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  collegeId: z.string(),
  collegeName: z.string(),
  schoolLength: z.number().int().describe('Years of study: its classes graduate after them'),
  classCount: z.number().int(),
  version: z.number().int(),
});
export type MajorDetail = z.output<typeof majorDetailSchema>;

/** The major form's choices: the tenant's colleges. */
export const majorFormOptionsSchema = z.object({ colleges: z.array(z.object({ id: z.string(), code: z.string(), name: z.string() })) });
