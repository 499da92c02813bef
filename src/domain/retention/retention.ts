import { z } from 'zod';
import { enumFilter } from '../fields';
import { listQuery, paramsOf, textFilter, versionField } from '../list-query';
import { VIDEO_KEEP_MONTHS } from '../homework/homework';
import { RAW_RETENTION_DAYS } from '../lesson-load/samples';
import { enumTable } from '../presentation';

/**
 * The retention schedule (docs/product-rules.md#retention, docs/privacy.md): how long each category of personal data
 * is kept, its default and the bounds a platform operator may move it within. docs/privacy.md states every default
 * here (tests/domain/privacy-doc.test.ts keeps the two the same).
 */
export type RetentionUnit = 'day' | 'month' | 'year';

export interface RetentionCategory {
  unit: RetentionUnit;
  default: number;
  min: number;
  max: number;
  /** What happens when a row is due: removed, or anonymised (its statistics kept). */
  effect: 'remove' | 'anonymise' | 'archiveRemove';
}

/** The minimum of the operation, sign-in and access logs (等保 2.0: logs kept at least six months) is a rule, not a setting. */
export const LOG_MIN_DAYS = 180;

export const RETENTION_CATEGORIES = {
  /** Homework submission videos (the record and its value stay). */
  homeworkVideos: { unit: 'month', default: VIDEO_KEEP_MONTHS, min: 1, max: 12, effect: 'remove' },
  /** Raw heart-rate samples (per-minute aggregates and lesson figures stay). */
  heartRateRaw: { unit: 'day', default: RAW_RETENTION_DAYS, min: 7, max: 365, effect: 'remove' },
  /** Graduates' personal data, counted from graduation: anonymised, results kept for statistics. */
  graduates: { unit: 'year', default: 3, min: 1, max: 10, effect: 'anonymise' },
  /** Sign-in attempts. */
  signInLogs: { unit: 'day', default: LOG_MIN_DAYS, min: LOG_MIN_DAYS, max: 3650, effect: 'remove' },
  /** The operation log: archived to a verifiable export, then removed. */
  auditLog: { unit: 'day', default: LOG_MIN_DAYS, min: LOG_MIN_DAYS, max: 3650, effect: 'archiveRemove' },
  /** The access log (every signed-in API request): archived to an export, then removed. */
  accessLog: { unit: 'day', default: LOG_MIN_DAYS, min: LOG_MIN_DAYS, max: 3650, effect: 'archiveRemove' },
} as const satisfies Record<string, RetentionCategory>;

export type RetentionKey = keyof typeof RETENTION_CATEGORIES;
export const RETENTION_KEYS = Object.keys(RETENTION_CATEGORIES) as RetentionKey[];
export type RetentionDurations = Record<RetentionKey, number>;

export const RETENTION_DEFAULTS = Object.fromEntries(RETENTION_KEYS.map((k) => [k, RETENTION_CATEGORIES[k].default])) as RetentionDurations;

const duration = (key: RetentionKey) => {
  const c = RETENTION_CATEGORIES[key];
  return z.coerce
    .number({ error: 'retention:errors.durationRequired' })
    .int('retention:errors.durationInteger')
    .min(c.min, `retention:errors.range.${key}`)
    .max(c.max, `retention:errors.range.${key}`);
};

/** The operator's form and the request body; `version` keeps a stale form from overwriting a newer save. */
export const retentionSaveSchema = z.object({
  homeworkVideos: duration('homeworkVideos'),
  heartRateRaw: duration('heartRateRaw'),
  graduates: duration('graduates'),
  signInLogs: duration('signInLogs'),
  auditLog: duration('auditLog'),
  accessLog: duration('accessLog'),
  version: versionField,
});
export type RetentionSave = z.output<typeof retentionSaveSchema>;
export type RetentionForm = z.input<typeof retentionSaveSchema>;

/** The stored schedule (no row: the defaults, version 0). `canEdit`: the reader is a platform operator. */
export const retentionScheduleSchema = z.object({
  durations: z.object(Object.fromEntries(RETENTION_KEYS.map((k) => [k, z.number().int()])) as Record<RetentionKey, z.ZodNumber>),
  version: z.number().int(),
  canEdit: z.boolean(),
});
export type RetentionSchedule = z.output<typeof retentionScheduleSchema>;

/** The instant before which a category's rows are due, `amount` units before `now` (months and years by calendar). */
export function retentionCutoff(now: Date, unit: RetentionUnit, amount: number): Date {
  const d = new Date(now.getTime());
  if (unit === 'day') d.setUTCDate(d.getUTCDate() - amount);
  else if (unit === 'month') d.setUTCMonth(d.getUTCMonth() - amount);
  else d.setUTCFullYear(d.getUTCFullYear() - amount);
  return d;
}

/** One category's outcome in a run. */
export const retentionRunItemSchema = z.object({
  category: z.enum(RETENTION_KEYS as [RetentionKey, ...RetentionKey[]]),
  rows: z.number().int(),
  cutoff: z.string(),
  error: z.string().nullable(),
});
export type RetentionRunItem = z.output<typeof retentionRunItemSchema>;

export const retentionRunRowSchema = z.object({
  id: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  items: retentionRunItemSchema.array(),
  archives: z.object({ id: z.string(), orgId: z.string(), orgName: z.string().nullable(), fromSeq: z.number(), toSeq: z.number(), rows: z.number(), size: z.number() }).array(),
});
export type RetentionRunRow = z.output<typeof retentionRunRowSchema>;

/** How many runs the screen lists. */
export const RETENTION_RUNS_SHOWN = 30;

/**
 * An access-log archive (docs/decisions/062-access-log.md): a day's partition (period: that China day) or a batch of
 * rows that were outside the day partitions (period: its first and last request; none on archives made before).
 */
export const accessLogArchiveRowSchema = z.object({
  id: z.string(),
  periodFrom: z.string().nullable(),
  periodTo: z.string().nullable(),
  fromId: z.number(),
  toId: z.number(),
  rows: z.number(),
  size: z.number(),
  createdAt: z.string(),
});
export type AccessLogArchiveRow = z.output<typeof accessLogArchiveRowSchema>;

/** How many access-log archives the screen lists, newest first (a year of days and more). */
export const ACCESS_LOG_ARCHIVES_SHOWN = 400;

// ---------------------------------------------------------------------------------------------------------------------
// Parents' data requests (docs/product-rules.md#retention, "Data requests")

/** A school answers a request within this many days of it (个人信息保护法 第五十条: 及时; see decision 061). */
export const DATA_REQUEST_DEADLINE_DAYS = 15;
export const DATA_REQUEST_KINDS = ['correction', 'deletion'] as const;
export type DataRequestKind = (typeof DATA_REQUEST_KINDS)[number];
export const DATA_REQUEST_STATUSES = ['pending', 'done', 'refused'] as const;
export const DATA_REQUEST_TEXT_MAX = 500;
export const DATA_REQUEST_KIND_TABLE = enumTable(DATA_REQUEST_KINDS, (k) => `retention:request.kinds.${k}`, { deletion: 'warning' });
export const DATA_REQUEST_STATUS_TABLE = enumTable(DATA_REQUEST_STATUSES, (s) => `retention:request.statuses.${s}`, { pending: 'warning', done: 'success', refused: 'danger' });

const text = (required: string) => z.string({ error: required }).trim().min(1, required).max(DATA_REQUEST_TEXT_MAX, 'retention:errors.textTooLong');

/** A parent's request (app API). */
export const dataRequestSaveSchema = z.object({
  studentId: z.uuid('retention:errors.studentRequired'),
  kind: z.enum(DATA_REQUEST_KINDS, { error: 'retention:errors.kindRequired' }),
  text: text('retention:errors.textRequired'),
});
export type DataRequestSave = z.output<typeof dataRequestSaveSchema>;

/** The school's handling: done with a note, or refused with a reason (both required). */
export const dataRequestHandleSchema = z.object({
  status: z.enum(['done', 'refused'], { error: 'retention:errors.statusRequired' }),
  note: text('retention:errors.noteRequired'),
  version: versionField,
});
export type DataRequestHandle = z.output<typeof dataRequestHandleSchema>;
export type DataRequestHandleForm = z.input<typeof dataRequestHandleSchema>;

export const dataRequestRowSchema = z.object({
  id: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  className: z.string().nullable(),
  parentName: z.string().nullable(),
  kind: z.enum(DATA_REQUEST_KINDS),
  text: z.string(),
  status: z.enum(DATA_REQUEST_STATUSES),
  createdAt: z.string(),
  dueAt: z.string(),
  overdue: z.boolean(),
  handledAt: z.string().nullable(),
  note: z.string().nullable(),
  version: z.number().int(),
});
export type DataRequestRow = z.output<typeof dataRequestRowSchema>;

export const dataRequestListQuery = listQuery({ status: enumFilter(DATA_REQUEST_STATUSES), keyword: textFilter() });
export type DataRequestListQuery = z.output<typeof dataRequestListQuery>;

/** `GET /api/v1/app/children/:studentId/data`: the child, and `download=1` for the JSON file. */
export const appChildParams = paramsOf('studentId');
export const appChildDataQuery = z.object({ download: z.enum(['0', '1']).optional() });

/** A request is due DATA_REQUEST_DEADLINE_DAYS days after it was made. */
export const dataRequestDue = (createdAt: Date) => new Date(createdAt.getTime() + DATA_REQUEST_DEADLINE_DAYS * 86_400_000);
