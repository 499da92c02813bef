import { z } from 'zod';
import '../fields';
import { PASSWORD_MAX, PASSWORD_MIN } from '../constants';
import { versionField } from '../list-query';

/**
 * An organisation's security settings (docs/product-rules.md#data-protection): its password policy, two-factor sign-in
 * for its administrators, session limits, the watermark over personal data, the export approval threshold and the
 * masked display of students' names on public boards. No stored row: these defaults.
 */

/** Character classes a password may be asked to mix: lower case, upper case, digits, symbols. */
export const PASSWORD_CLASS_MAX = 4;
export const IDLE_TIMEOUT_MINUTES = { min: 5, max: 240, default: 30 } as const;
export const SESSION_LIFETIME_HOURS = { min: 1, max: 72, default: 12 } as const;
export const EXPORT_APPROVAL_ROWS = { min: 1, max: 100_000, default: 100 } as const;

const int = (min: number, max: number, message: string) => z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);

export const securitySettingsFields = {
  /** Shortest password this organisation's accounts may set (the product's own floor and ceiling still hold). */
  passwordMinLength: int(PASSWORD_MIN, PASSWORD_MAX, 'security:settings.passwordMinLengthRange'),
  /** How many of the character classes a new password must mix. */
  passwordClasses: int(1, PASSWORD_CLASS_MAX, 'security:settings.passwordClassesRange'),
  /** Two-factor sign-in required of this organisation's administrators (platform operators and district administrators always). */
  totpRequiredForAdministrators: z.boolean(),
  /** A session unused this long ends. */
  idleTimeoutMinutes: int(IDLE_TIMEOUT_MINUTES.min, IDLE_TIMEOUT_MINUTES.max, 'security:settings.idleTimeoutRange'),
  /** A session ends this long after its sign-in, used or not. */
  sessionLifetimeHours: int(SESSION_LIFETIME_HOURS.min, SESSION_LIFETIME_HOURS.max, 'security:settings.sessionLifetimeRange'),
  /** The viewer's name, account and the time drawn over screens that show personal data. */
  watermark: z.boolean(),
  /** An export of more personal-data rows than this needs an administrator's approval. */
  exportApprovalRows: int(EXPORT_APPROVAL_ROWS.min, EXPORT_APPROVAL_ROWS.max, 'security:settings.exportApprovalRowsRange'),
  /** Public boards and wall links show every student as surname + * and class, consent or not. */
  maskStudentNames: z.boolean(),
};

export const securitySettingsSchema = z.object(securitySettingsFields);
export type SecuritySettings = z.output<typeof securitySettingsSchema>;

export const DEFAULT_SECURITY_SETTINGS: SecuritySettings = {
  passwordMinLength: PASSWORD_MIN,
  passwordClasses: 1,
  totpRequiredForAdministrators: false,
  idleTimeoutMinutes: IDLE_TIMEOUT_MINUTES.default,
  sessionLifetimeHours: SESSION_LIFETIME_HOURS.default,
  watermark: true,
  exportApprovalRows: EXPORT_APPROVAL_ROWS.default,
  maskStudentNames: false,
};

/** The settings form and request body; `version`: a stale form never overwrites a newer save. */
export const securitySettingsSaveSchema = securitySettingsSchema.extend({ version: versionField });
export type SecuritySettingsSave = z.output<typeof securitySettingsSaveSchema>;
export type SecuritySettingsForm = z.input<typeof securitySettingsSaveSchema>;

/** What the settings screen and the other features read: the effective settings and the stored version (0: defaults). */
export const securitySettingsAnswerSchema = securitySettingsSchema.extend({ version: z.number().int() });
export type SecuritySettingsAnswer = z.output<typeof securitySettingsAnswerSchema>;
