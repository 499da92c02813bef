import { z } from 'zod';
import { appAccountSchema } from './app-accounts';
import { MOBILE } from '../auth/schemas';
import { uuid } from '../fields';
import { listQuery, textFilter, versionField } from '../list-query';
import { enumTable } from '../presentation';
import { GENDERS, genderSchema, personNameSchema } from './staff';

/**
 * Parents (docs/product-rules.md#students-and-staff): name, gender, contact mobile (unique in the organisation; its
 * format message names the parent's number) and at least one child of the organisation, each with the relation.
 */

export const PARENT_RELATIONS = ['father', 'mother', 'guardian', 'grandparent', 'other'] as const;
export type ParentRelation = (typeof PARENT_RELATIONS)[number];
export const PARENT_RELATION_TABLE = enumTable(PARENT_RELATIONS, (r) => `people:students.relations.${r}`);
export const PARENT_CHILDREN_MAX = 10;

export const parentChildSchema = z.object({
  studentId: uuid('validation:parent.childrenRequired'),
  relation: z.enum(PARENT_RELATIONS, { error: 'validation:parent.relationRequired' }),
});

/** A parent's contact mobile: its messages name the parent's number (not the user's own). */
export const parentMobileSchema = z.string({ error: 'validation:parent.mobileRequired' }).trim().min(1, 'validation:parent.mobileRequired').regex(MOBILE, 'validation:parent.mobileFormat');

export const parentSaveSchema = z
  .object({
    name: personNameSchema,
    gender: genderSchema,
    mobile: parentMobileSchema,
    children: z.array(parentChildSchema).min(1, 'validation:parent.childrenRequired').max(PARENT_CHILDREN_MAX),
    version: versionField.optional(),
  })
  .strict();
export type ParentSave = z.output<typeof parentSaveSchema>;
export type ParentForm = z.input<typeof parentSaveSchema>;

export const parentListQuery = listQuery({ keyword: textFilter(), studentKeyword: textFilter() });

export const parentRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  gender: z.enum(GENDERS),
  mobile: z.string().describe('Masked in the list without the page\'s "view sensitive fields" button'),
  children: z.array(z.object({ studentId: z.string(), name: z.string(), regNo: z.string(), className: z.string(), relation: z.enum(PARENT_RELATIONS) })),
  appAccount: appAccountSchema.nullable().describe("The parent's own sign-in for the app API (docs/product-rules.md#app-accounts); null without one"),
  createdAt: z.string().describe('ISO instant'),
  version: z.number().int(),
});
export type ParentRecord = z.output<typeof parentRecordSchema>;
