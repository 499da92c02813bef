import { z } from 'zod';
import { missingAsNull, uuid } from '../fields';
import { versionField } from '../list-query';

/**
 * The own organisation (docs/product-rules.md#own-organisation): name, two-digit code, branding, map location,
 * academic system years, the general management password (set or changed, never answered) and device counts.
 */

export const ORG_NAME_MAX = 50;
export const ORG_TITLE_MAX = 50;
export const FILING_NUMBER_MAX = 50;
export const ACTIVATION_CODE_MAX = 32;
export const MANAGEMENT_PASSWORD_MIN = 6;
export const MANAGEMENT_PASSWORD_MAX = 20;
export const ACADEMIC_YEARS_MAX = 12;
export const DEVICE_COUNT_MAX = 100000;

/** Two digits, unique among the siblings of the same superior. */
export const ORG_CODE_PATTERN = /^\d{2}$/;

/** The form saves the whole organisation: a text left blank or not sent is none (null). */
const clearableText = (max: number, key: string) => z.preprocess(missingAsNull, z.string().trim().max(max, key).nullable());
const fileId = z.preprocess(missingAsNull, uuid().nullable());
const coordinate = (limit: number, key: string) =>
  z.preprocess(missingAsNull, z.coerce.number({ error: key }).min(-limit, key).max(limit, key).nullable());

export const orgNameField = z.string().trim().min(1, 'validation:org.nameRequired').max(ORG_NAME_MAX, 'validation:org.nameLength');
export const orgCodeField = z.string({ error: 'validation:org.codeFormat' }).trim().regex(ORG_CODE_PATTERN, 'validation:org.codeFormat');

export const currentOrgSaveSchema = z
  .object({
    name: orgNameField,
    code: orgCodeField,
    title: clearableText(ORG_TITLE_MAX, 'validation:org.titleLength'),
    /** File-store ids (purpose 'branding', public). */
    iconFileId: fileId,
    loginImgFileId: fileId,
    filingNumber: clearableText(FILING_NUMBER_MAX, 'validation:org.filingNumberLength'),
    latitude: coordinate(90, 'validation:org.latitudeRange'),
    longitude: coordinate(180, 'validation:org.longitudeRange'),
    academicSystemYears: z.preprocess(
      missingAsNull,
      z.coerce.number({ error: 'validation:org.academicYearsRange' }).int('validation:org.academicYearsRange').min(1, 'validation:org.academicYearsRange').max(ACADEMIC_YEARS_MAX, 'validation:org.academicYearsRange').nullable(),
    ),
    /** Blank keeps the password as it is. */
    managementPassword: z.preprocess(
      missingAsNull,
      z.string().min(MANAGEMENT_PASSWORD_MIN, 'validation:org.managementPasswordLength').max(MANAGEMENT_PASSWORD_MAX, 'validation:org.managementPasswordLength').nullable(),
    ),
    deviceActivationCode: clearableText(ACTIVATION_CODE_MAX, 'validation:org.activationCodeLength'),
    activatableDevices: z.coerce.number({ error: 'validation:org.deviceCountRange' }).int('validation:org.deviceCountRange').min(0, 'validation:org.deviceCountRange').max(DEVICE_COUNT_MAX, 'validation:org.deviceCountRange'),
    version: versionField.optional(),
  })
  .strict();
export type CurrentOrgSave = z.output<typeof currentOrgSaveSchema>;
export type CurrentOrgForm = z.input<typeof currentOrgSaveSchema>;

/** GET …/tenantOrg/getSimpleInfo: whose branding the sign-in page shows (absent: the default organisation). */
export const simpleInfoQuery = z.object({ orgId: z.string().max(64).optional() });

/** The own organisation as the screen reads it (never the password, only whether one is set). */
export const currentOrgSchema = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
  type: z.number().int().describe('Organisation type (ORG_TYPE)'),
  parentId: z.string().nullable(),
  parentName: z.string().nullable(),
  title: z.string().nullable().describe('Platform name the sign-in page and header show'),
  iconFileId: z.string().nullable(),
  loginImgFileId: z.string().nullable(),
  filingNumber: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  academicSystemYears: z.number().int().nullable(),
  hasManagementPassword: z.boolean().describe('Whether a management password is set (the password itself is never answered)'),
  deviceActivationCode: z.string().nullable(),
  activatableDevices: z.number().int(),
  activatedDevices: z.number().int(),
  version: z.number().int().describe('Send it back with a save: a newer save answers 409'),
});
export type CurrentOrg = z.output<typeof currentOrgSchema>;
