import { z } from 'zod';
import { loginAccountSchema } from '../auth/schemas';
import { ORG_TYPE, PASSWORD_MAX, PASSWORD_MIN } from '../constants';
import { listQuery, textFilter } from '../list-query';
import { orgCodeField, orgNameField } from './current-org';

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

/** Enable or disable; `cascade` also enables the lower organisations (disabling always cascades). */
export const orgStatusSchema = z.object({ enabled: z.boolean(), cascade: z.boolean().optional() });
export type OrgStatus = z.output<typeof orgStatusSchema>;

export const orgListQuery = listQuery({ name: textFilter() });

/** A row of the organisation tree. */
export interface OrgRow {
  id: string;
  parentId: string | null;
  name: string;
  code: string;
  type: number;
  enabled: boolean;
  activatableDevices: number;
  activatedDevices: number;
  createdAt: string;
}
