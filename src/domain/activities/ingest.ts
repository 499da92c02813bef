import { z } from 'zod';
import { uuid } from '../fields';
import { ITEM_KEYS } from '../physique/standard';
import { ACTIVITY_ITEMS, ACTIVITY_KINDS, isActivityItem } from './items';

/**
 * The ingestion API (docs/product-rules.md#ingest): devices and the student/parent app send records in batches; each
 * record is accepted, recognised as a resend (`duplicate`) or rejected with a reason, independently of the others.
 */

/** Records in one device batch (one transaction). */
export const DEVICE_BATCH_MAX = 1000;
/** Records in one app submission. */
export const APP_BATCH_MAX = 100;
/** A device clock may run this far ahead; a record measured later than now + skew is refused. */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;
/** Devices buffer offline: a record may arrive this late, never later. */
export const INGEST_MAX_AGE_DAYS = 90;
export const CLIENT_ID_MAX = 64;

/** What a record is: a self-test value (physique items, into the test records) or an activity of ACTIVITY_KINDS. */
export const INGEST_KINDS = ['selfTest', ...ACTIVITY_KINDS] as const;
export type IngestKind = (typeof INGEST_KINDS)[number];
/** Kinds whose records name what they belong to (`refId`). */
export const KINDS_WITH_REF: ReadonlySet<IngestKind> = new Set(['contest', 'homework', 'training', 'lesson']);

const PHYSIQUE_ITEMS: ReadonlySet<string> = new Set(ITEM_KEYS);

const id = uuid();

/** An ISO 8601 date and time without a time-zone offset ('2026-09-01T08:30:00'). */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/i;
/** An ISO 8601 date and time with its offset: what `measuredAt` must be. */
const OFFSET_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * One record on the wire. Its shape is checked for the whole batch (a malformed record is a client bug: 400 naming
 * the field); its values are judged per record by `judgeRecord`, so one impossible value refuses only that record.
 */
export const ingestRecordSchema = z.object({
  /** The sender's own id of the record; a resend with the same id creates nothing. */
  clientId: z.string({ error: 'activities:ingest.clientIdRequired' }).trim().min(1, 'activities:ingest.clientIdRequired').max(CLIENT_ID_MAX, 'activities:ingest.clientIdRequired'),
  /** The student by id, or by registration number (学籍号) within the sender's school. */
  studentId: id.optional(),
  regNo: z.string().trim().min(1).max(32).optional(),
  kind: z.enum(INGEST_KINDS, { error: 'activities:ingest.kindUnknown' }).default('exercise'),
  refId: id.nullish(),
  /** An item key of the activity catalogue; the value is in that item's unit (s, cm, ml, count, m, steps). */
  item: z.string().max(32),
  value: z.number({ error: 'activities:ingest.valueRequired' }),
  durationS: z.number().int().min(0).max(86_400).nullish(),
  /**
   * When it was measured, ISO 8601 with its offset (`Z` or `±hh:mm`). A wall-clock time without one would be read in
   * the server's zone, whatever the device's: refused for the whole batch (a sender's setting, not one record's value).
   */
  measuredAt: z
    .string()
    .max(40)
    .refine((v) => !LOCAL_DATE_TIME.test(v), 'activities:ingest.timeOffset')
    .describe('ISO 8601 with a time-zone offset, e.g. 2026-09-01T08:30:00+08:00 or 2026-09-01T00:30:00Z; without an offset the batch is refused (400)'),
  /** A video uploaded through the file store (purpose `video`) beforehand. */
  videoFileId: id.nullish(),
});
export type IngestRecord = z.output<typeof ingestRecordSchema>;

export const deviceBatchSchema = z.object({
  records: z.array(ingestRecordSchema).min(1, 'activities:ingest.batchEmpty').max(DEVICE_BATCH_MAX, 'activities:ingest.batchTooLarge'),
});

/** Per-record outcome. */
export const INGEST_STATUSES = ['accepted', 'duplicate', 'rejected'] as const;
export type IngestStatus = (typeof INGEST_STATUSES)[number];

export interface IngestResult {
  clientId: string;
  status: IngestStatus;
  /** Rejected only: the reason's code (an i18n key) and its text in the request's language. */
  code?: string;
  reason?: string;
}

export interface IngestSummary {
  accepted: number;
  duplicate: number;
  rejected: number;
  results: IngestResult[];
}

export interface Refusal {
  key: string;
  params?: Record<string, unknown>;
}

/**
 * The rules a record's values must meet, whoever sends it (device, app): a known item in its range, a time neither
 * in the future nor too old, a self test only of a physique item, a `refId` exactly for the kinds that belong to
 * something. Returns null or the refusal.
 */
export function judgeRecord(r: IngestRecord, now: Date): Refusal | null {
  if (!r.studentId && !r.regNo) return { key: 'activities:ingest.studentRequired' };
  if (!isActivityItem(r.item)) return { key: 'activities:ingest.itemUnknown', params: { item: r.item } };
  if (r.kind === 'selfTest' && !PHYSIQUE_ITEMS.has(r.item)) return { key: 'activities:ingest.selfTestItem' };
  const item = ACTIVITY_ITEMS.get(r.item)!;
  if (!Number.isFinite(r.value) || r.value < item.min || r.value > item.max) {
    return { key: 'activities:ingest.valueRange', params: { min: item.min, max: item.max, unit: item.unit } };
  }
  const t = Date.parse(r.measuredAt);
  if (!OFFSET_DATE_TIME.test(r.measuredAt) || Number.isNaN(t)) return { key: 'activities:ingest.timeFormat' };
  if (t > now.getTime() + CLOCK_SKEW_MS) return { key: 'activities:ingest.timeFuture' };
  if (t < now.getTime() - INGEST_MAX_AGE_DAYS * 86_400_000) return { key: 'activities:ingest.timeTooOld', params: { days: INGEST_MAX_AGE_DAYS } };
  if (KINDS_WITH_REF.has(r.kind) && !r.refId) return { key: 'activities:ingest.refRequired' };
  if (!KINDS_WITH_REF.has(r.kind) && r.refId) return { key: 'activities:ingest.refUnexpected' };
  return null;
}

/** Device credential answer: the secret is shown this once and never again. */
export interface DeviceCredential {
  serialNo: string;
  secret: string;
  issuedAt: string;
}

/** Per-record outcome on the wire (documented in the OpenAPI document). */
export const ingestSummarySchema = z.object({
  accepted: z.number().int(),
  duplicate: z.number().int(),
  rejected: z.number().int(),
  results: z.array(
    z.object({
      clientId: z.string(),
      status: z.enum(INGEST_STATUSES),
      code: z.string().optional().describe('Rejected only: the reason as a stable key'),
      reason: z.string().optional().describe('Rejected only: the reason in the language of accept-language'),
    }),
  ),
});

/** App sign-in: the account number or mobile and the SHA-256 hex of the password (as the console sends it). */
export const appSignInSchema = z.object({
  account: z.string({ error: 'validation:login.usernameRequired' }).trim().min(1, 'validation:login.usernameRequired').max(32),
  password: z.string({ error: 'validation:login.passwordRequired' }).regex(/^[0-9a-f]{64}$/, 'validation:login.passwordRequired'),
});
export type AppSignIn = z.output<typeof appSignInSchema>;

/** A submission of the app: up to APP_BATCH_MAX records; `studentId` may be left out by a student (itself). */
export const appBatchSchema = z.object({
  records: z.array(ingestRecordSchema).min(1, 'activities:ingest.batchEmpty').max(APP_BATCH_MAX, 'activities:ingest.batchTooLarge'),
});

export const appRecordQuery = z.object({
  studentId: id.optional(),
  kind: z.enum(ACTIVITY_KINDS).optional(),
  item: z.string().max(32).optional(),
  current: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export type AppRecordQuery = z.output<typeof appRecordQuery>;

export interface AppStudent {
  id: string;
  name: string;
  orgId: string;
  classId: string;
  className: string;
  /** For a parent: the relation to the child (src/domain/people/parents.ts); null for the student itself. */
  relation: string | null;
}

export interface AppIdentity {
  userId: string;
  name: string;
  identity: 'student' | 'parent';
  /** The students the user may act for: itself, or its children. */
  students: AppStudent[];
}

export interface AppRecordRow {
  id: string;
  clientId: string;
  kind: (typeof ACTIVITY_KINDS)[number];
  refId: string | null;
  item: string;
  value: number;
  durationS: number | null;
  measuredAt: string;
  source: string;
  invalid: boolean;
}

export interface AppSelfTestRow {
  id: string;
  item: string;
  value: number;
  source: string;
  testedAt: string;
  invalid: boolean;
}

// The answers of the device and app API, as the OpenAPI document describes them (server/modules/ingest).

/** GET /device/students: `classId` narrows to one class. */
export const deviceStudentQuery = z.object({ classId: id.optional() });
export const deviceStudentSchema = z.object({ id: z.string(), name: z.string(), regNo: z.string(), gender: z.string(), classId: z.string(), className: z.string() });

/** The app's token pair (sign-in and refresh). */
export const appTokenSchema = z.object({ access_token: z.string(), expires_in: z.number(), refresh_token: z.string(), token_type: z.string(), must_change_password: z.boolean().optional() });

export const appStudentSchema = z.object({ id: z.string(), name: z.string(), orgId: z.string(), classId: z.string(), className: z.string(), relation: z.string().nullable() });
export const appIdentitySchema = z.object({ userId: z.string(), name: z.string(), identity: z.enum(['student', 'parent']), students: z.array(appStudentSchema) });

export const appRecordRowSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  kind: z.string(),
  refId: z.string().nullable(),
  item: z.string(),
  value: z.number(),
  durationS: z.number().nullable(),
  measuredAt: z.string(),
  source: z.string(),
  invalid: z.boolean(),
});
export const appSelfTestRowSchema = z.object({ id: z.string(), item: z.string(), value: z.number(), source: z.string(), testedAt: z.string(), invalid: z.boolean() });

/** POST /app/videos: the tus 1.0 creation headers. */
export const appVideoCreateHeaders = z.object({
  'tus-resumable': z.literal('1.0.0').describe('tus protocol version'),
  'upload-length': z.string().regex(/^\d+$/).describe('Size of the whole video in bytes'),
  'upload-metadata': z.string().optional(),
});

/** A created lesson's answer (POST /device/lessons). */
export const createdIdSchema = z.object({ id: z.string() });
