import { z } from 'zod';
import { loginAccountSchema } from '../auth/schemas';
import { ORG_TYPE, PASSWORD_MAX, PASSWORD_MIN } from '../constants';
import { listQuery, textFilter, versionField } from '../list-query';
import { DEVICE_COUNT_MAX, orgCodeField, orgNameField } from './current-org';

/**
 * Organisations under the signed-in one (docs/product-rules.md#organisations): a school is created together with its
 * administrator account; disabling an organisation disables every organisation below it.
 */

export const ADMIN_NAME_MAX = 30;

/** Types an organisation can create below itself. */
export const CHILD_ORG_TYPES = [ORG_TYPE.management, ORG_TYPE.k12, ORG_TYPE.university, ORG_TYPE.enterprise] as const;

export const orgCreateSchema = z.object({
  name: orgNameField,
  code: orgCodeField,
  type: z.coerce.number({ error: 'validation:org.typeRequired' }).refine((v) => (CHILD_ORG_TYPES as readonly number[]).includes(v), 'validation:org.typeRequired'),
  adminName: z.string().trim().min(1, 'validation:org.adminNameRequired').max(ADMIN_NAME_MAX, 'validation:org.adminNameLength'),
  adminAccount: loginAccountSchema,
  adminPassword: z.string().min(PASSWORD_MIN, 'validation:org.adminPasswordLength').max(PASSWORD_MAX, 'validation:org.adminPasswordLength'),
});
export type OrgCreate = z.output<typeof orgCreateSchema>;

/**
 * Editing a lower organisation: the rules of adding, without its administrator (that account is managed by the
 * organisation itself). The type stays as created: the organisation's roles and screens belong to its family.
 */
export const orgUpdateSchema = z
  .object({
    name: orgNameField,
    code: orgCodeField,
    activatableDevices: z.coerce
      .number({ error: 'validation:org.deviceCountRange' })
      .int('validation:org.deviceCountRange')
      .min(0, 'validation:org.deviceCountRange')
      .max(DEVICE_COUNT_MAX, 'validation:org.deviceCountRange'),
    version: versionField.optional(),
  })
  .strict();
export type OrgUpdate = z.output<typeof orgUpdateSchema>;
export type OrgUpdateForm = z.input<typeof orgUpdateSchema>;

/** Enable or disable; `cascade` also enables the lower organisations (disabling always cascades). */
export const orgStatusSchema = z.object({ enabled: z.boolean(), cascade: z.boolean().optional() });
export type OrgStatus = z.output<typeof orgStatusSchema>;

export const orgListQuery = listQuery({ name: textFilter() });

/** A row of the organisation tree. */
export const orgRowSchema = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  name: z.string(),
  code: z.string(),
  type: z.number().int().describe('Organisation type (ORG_TYPE)'),
  enabled: z.boolean(),
  activatableDevices: z.number().int(),
  activatedDevices: z.number().int(),
  createdAt: z.string().describe('ISO instant'),
});
export type OrgRow = z.output<typeof orgRowSchema>;
/** The organisation tree as flat rows (each names its parent). */
export const orgRowsSchema = z.array(orgRowSchema);

/** One lower organisation as its edit and detail pages read it. */
export const orgDetailSchema = orgRowSchema.extend({
  version: z.number().int(),
  parentName: z.string().nullable(),
  admins: z
    .array(z.object({ name: z.string(), accountNum: z.string(), mobile: z.string().nullable(), enabled: z.boolean() }))
    .describe("The organisation's built-in administrator account(s): name and login account, never the password"),
  counts: z.object({ students: z.number().int(), classes: z.number().int(), accounts: z.number().int(), lowerOrgs: z.number().int() }),
});
export type OrgDetail = z.output<typeof orgDetailSchema>;
