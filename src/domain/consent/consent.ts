import { z } from 'zod';
import { requiredId } from '../fields';
import { idFilter, listQuery, textFilter, versionField } from '../list-query';
import { enumTable } from '../presentation';

/**
 * The guardian consent register (docs/product-rules.md#consent): per student and purpose the current state and every
 * change (who, when, how). A student with no row has given nothing: every purpose starts missing.
 */

/**
 * What a guardian consents to, one feature each: `facePhoto` a face photo stored, `video` homework and training videos,
 * `heartRate` heart-rate and wearable samples, `publicName` the full name on public boards and wall links, `appAccount`
 * a student or parent app account for the child.
 */
export const CONSENT_PURPOSES = ['facePhoto', 'video', 'heartRate', 'publicName', 'appAccount'] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];

/** A recorded state; `none` (no row yet) is what a student without any record has. */
export const CONSENT_STATES = ['given', 'withdrawn'] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];
export const CONSENT_STATUSES = ['given', 'withdrawn', 'none'] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

/** How a change came in: a parent in the app API, or the school recording a signed paper form (its scan required). */
export const CONSENT_CHANNELS = ['app', 'school'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/** The file-store purpose of a signed form's scan (a photo or a PDF). */
export const CONSENT_FORM_PURPOSE = 'attachment' as const;
export const CONSENT_FORM_MIMES: readonly string[] = ['image/png', 'image/jpeg', 'application/pdf'];
export const CONSENT_NOTE_MAX = 200;

export const CONSENT_PURPOSE_TABLE = enumTable(CONSENT_PURPOSES, (p) => `consent:purpose.${p}`);
export const CONSENT_STATUS_TABLE = enumTable(CONSENT_STATUSES, (s) => `consent:status.${s}`, { given: 'success', withdrawn: 'danger', none: 'warning' });
export const CONSENT_CHANNEL_TABLE = enumTable(CONSENT_CHANNELS, (c) => `consent:channel.${c}`);

/** The school records a signed form: the purpose, given or withdrawn, the form's scan (required) and a note. */
export const consentRecordSchema = z.object({
  purpose: z.enum(CONSENT_PURPOSES, { error: 'consent:purposeRequired' }),
  state: z.enum(CONSENT_STATES, { error: 'consent:stateRequired' }),
  formFileId: requiredId('consent:formRequired'),
  note: z.string({ error: 'validation:common.invalid' }).trim().max(CONSENT_NOTE_MAX, 'validation:common.tooLong').default(''),
  /** The version of the student's purpose the form was opened on (0: none yet): a stale form never overwrites a newer change. */
  version: versionField,
});
export type ConsentRecord = z.output<typeof consentRecordSchema>;
export type ConsentRecordForm = z.input<typeof consentRecordSchema>;

/** A parent gives or withdraws one purpose for one of their children (PUT /api/v1/app/consents/:studentId/:purpose). */
export const appConsentParams = z.object({ studentId: requiredId('validation:common.id'), purpose: z.enum(CONSENT_PURPOSES, { error: 'consent:purposeRequired' }) });
export const appConsentSaveSchema = z.object({ state: z.enum(CONSENT_STATES, { error: 'consent:stateRequired' }) }).strict();
export type AppConsentSave = z.output<typeof appConsentSaveSchema>;

/** The list of the school screen: students of the user's classes, by class, purpose and status. */
export const consentListQuery = listQuery({
  classId: idFilter,
  purpose: z.enum(CONSENT_PURPOSES).optional(),
  /** With a purpose: that purpose's status; without: `none` any purpose missing, else every purpose in that status. */
  status: z.enum(CONSENT_STATUSES).optional(),
  keyword: textFilter(),
});
export type ConsentListQuery = z.output<typeof consentListQuery>;
export const consentExportQuery = consentListQuery.omit({ current: true, size: true });
export const consentCoverageQuery = z.object({ classId: idFilter });

const statusOf = z.enum(CONSENT_STATUSES);
export const consentRowSchema = z.object({
  id: z.string().describe("The student's id"),
  name: z.string(),
  regNo: z.string(),
  classId: z.string(),
  className: z.string(),
  consents: z.object(Object.fromEntries(CONSENT_PURPOSES.map((p) => [p, statusOf])) as Record<ConsentPurpose, typeof statusOf>),
  /** Per purpose the version of its state (0: none recorded), for the record form's stale check. */
  versions: z.record(z.string(), z.number().int()),
});
export type ConsentRow = z.output<typeof consentRowSchema>;

export const consentChangeSchema = z.object({
  id: z.string(),
  purpose: z.enum(CONSENT_PURPOSES),
  state: z.enum(CONSENT_STATES),
  channel: z.enum(CONSENT_CHANNELS),
  changedByName: z.string().nullable(),
  changedAt: z.string(),
  formFileId: z.string().nullable(),
  formName: z.string().nullable(),
  note: z.string(),
});
export type ConsentChange = z.output<typeof consentChangeSchema>;
export const consentHistorySchema = z.array(consentChangeSchema);

/** Per class, per purpose: how many students gave consent of how many. */
export const consentCoverageSchema = z.object({
  purposes: z.array(z.enum(CONSENT_PURPOSES)),
  classes: z.array(z.object({ classId: z.string(), className: z.string(), students: z.number().int(), given: z.record(z.string(), z.number().int()) })),
  total: z.object({ students: z.number().int(), given: z.record(z.string(), z.number().int()) }),
});
export type ConsentCoverage = z.output<typeof consentCoverageSchema>;

export const consentOptionsSchema = z.object({ classes: z.array(z.object({ id: z.string(), name: z.string() })) });
export type ConsentOptions = z.output<typeof consentOptionsSchema>;

/** What the app answers: per child the state of each purpose and when it last changed. */
export const appConsentSchema = z.object({
  studentId: z.string(),
  studentName: z.string(),
  purposes: z.array(z.object({ purpose: z.enum(CONSENT_PURPOSES), status: statusOf, changedAt: z.string().nullable(), channel: z.enum(CONSENT_CHANNELS).nullable() })),
});
export type AppConsent = z.output<typeof appConsentSchema>;

// ── Public display (docs/product-rules.md#consent, "Public boards") ──────────────────────────────────────────────

/** Two-character surnames kept whole when masking (欧阳明 → 欧阳*). */
const COMPOUND_SURNAMES = ['欧阳', '司马', '诸葛', '上官', '东方', '皇甫', '尉迟', '公孙', '慕容', '长孙', '令狐', '夏侯', '端木', '司徒', '西门', '南宫'];

/** A name as a public board shows it without display consent: the surname and one * (张三丰 → 张*). */
export function maskStudentName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) return trimmed;
  const surname = COMPOUND_SURNAMES.find((s) => trimmed.startsWith(s) && trimmed.length > s.length) ?? Array.from(trimmed)[0];
  return `${surname}*`;
}

/**
 * The one rule of a student's name on anything public without sign-in (meet boards, score screens, wall links): the
 * full name only with the guardian's `publicName` consent and when the school has not chosen the masked form for
 * everyone (the organisation's `maskStudentNames`). The class is shown beside it either way.
 */
export function publicStudentName(name: string, shown: { consented: boolean; maskAll: boolean }): string {
  return shown.consented && !shown.maskAll ? name : maskStudentName(name);
}
