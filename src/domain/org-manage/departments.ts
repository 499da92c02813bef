import { z } from 'zod';
import { missingAsNull, uuid } from '../fields';
import { idFilter, listQuery, textFilter, versionField } from '../list-query';

/**
 * Departments of the management organisation (docs/product-rules.md#departments): a tree of named departments with a
 * two-digit code unique among the departments of the same parent, and members chosen from the organisation's accounts.
 */

export const DEPARTMENT_NAME_MAX = 30;
/** How many accounts one "add members" request may carry. */
export const DEPARTMENT_MEMBERS_ADD_MAX = 200;
export const DEPARTMENT_CODE_PATTERN = /^\d{2}$/;

export const departmentSaveSchema = z
  .object({
    name: z.string().trim().min(1, 'validation:department.nameRequired').max(DEPARTMENT_NAME_MAX, 'validation:department.nameLength'),
    code: z.string({ error: 'validation:department.codeFormat' }).trim().regex(DEPARTMENT_CODE_PATTERN, 'validation:department.codeFormat'),
    /** The parent department (same organisation); null for a top department. */
    parentId: z.preprocess(missingAsNull, uuid('validation:department.parentUnknown').nullable()),
    version: versionField.optional(),
  })
  .strict();
export type DepartmentSave = z.output<typeof departmentSaveSchema>;
export type DepartmentForm = z.input<typeof departmentSaveSchema>;

export const departmentListQuery = z.object({ name: textFilter() });
export const departmentMemberListQuery = listQuery({ keyword: textFilter() });
export const departmentCandidateQuery = z.object({ keyword: textFilter(), roleId: idFilter });
export const departmentMembersAddSchema = z.object({
  accountIds: z.array(uuid()).min(1, 'validation:department.membersRequired').max(DEPARTMENT_MEMBERS_ADD_MAX),
});

export const departmentRowSchema = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  name: z.string(),
  code: z.string(),
  memberCount: z.number().int(),
  version: z.number().int(),
});
export type DepartmentRow = z.output<typeof departmentRowSchema>;
/** The department tree as flat rows (each names its parent). */
export const departmentRowsSchema = z.array(departmentRowSchema);

/** An account of a department's members (and of the add dialog's candidates). */
export const departmentMemberSchema = z.object({ accountId: z.string(), name: z.string(), accountNum: z.string(), mobile: z.string().nullable() });
export type DepartmentMember = z.output<typeof departmentMemberSchema>;
