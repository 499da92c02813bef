import { z } from 'zod';
import { optionalText, uuid } from '../fields';
import { listQuery, versionField } from '../list-query';
import { ALERT_KINDS } from './alerts';
import { ZONES } from './zones';

/**
 * The live lesson monitor (docs/product-rules.md#lesson-load): the lessons in progress today, the bands lent in one,
 * its live view (a tile per student, the class's running figures, alerts) and an alert's acknowledgement.
 */

/** How often the live view reads the lesson again (ms): 2–5 s, as a teacher on the field expects (docs/decisions/053-live-monitor-updates.md). */
export const MONITOR_POLL_MS = 3000;
/** The tiles' trend: the last TREND_MINUTES minutes in buckets of TREND_STEP_S seconds (the bucket's mean bpm). */
export const TREND_MINUTES = 5;
export const TREND_STEP_S = 10;
export const TREND_POINTS = (TREND_MINUTES * 60) / TREND_STEP_S;

export const monitorListQuery = listQuery({});
export type MonitorListQuery = z.output<typeof monitorListQuery>;

export const monitorRowSchema = z.object({
  id: z.string(),
  className: z.string(),
  teacherName: z.string().nullable(),
  venueName: z.string().nullable(),
  startedAt: z.string().describe('ISO instant'),
  endedAt: z.string().nullable().describe('ISO instant; null while the lesson is in progress'),
  studentCount: z.number().int(),
  bandCount: z.number().int().describe('Bands lent in the lesson'),
  openAlerts: z.number().int().describe('Alerts not acknowledged yet'),
  version: z.number().int(),
});
export type MonitorRow = z.output<typeof monitorRowSchema>;

/** Lending bands from the console: each student of the roster with a band serial number, or '' for none. */
export const monitorBandsSchema = z.object({
  bindings: z
    .array(z.object({ studentId: uuid(), band: z.string({ error: 'validation:common.invalid' }).trim().max(64, 'validation:common.tooLong') }), { error: 'validation:common.invalid' })
    .max(200, 'validation:common.tooBig')
    .refine((list) => {
      const bands = list.map((b) => b.band).filter(Boolean);
      return new Set(bands).size === bands.length;
    }, 'lessonLoad:monitor.bandTwice'),
  version: versionField,
});
export type MonitorBands = z.output<typeof monitorBandsSchema>;
export type MonitorBandsForm = z.input<typeof monitorBandsSchema>;

/** What the lending dialog shows: the roster with each student's band, and the school's bands. */
export const monitorBandsViewSchema = z.object({
  students: z.array(z.object({ id: z.string(), name: z.string(), regNo: z.string(), band: z.string().nullable() })),
  bands: z.array(z.object({ serialNo: z.string(), name: z.string(), parentName: z.string().nullable() })),
  version: z.number().int(),
});
export type MonitorBandsView = z.output<typeof monitorBandsViewSchema>;

export const alertAcknowledgeSchema = z.object({ note: optionalText(200, 'validation:common.tooLong') });
export type AlertAcknowledge = z.output<typeof alertAcknowledgeSchema>;

export const alertViewSchema = z.object({
  id: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  kind: z.enum(ALERT_KINDS),
  startedAt: z.string().describe('ISO instant the condition began'),
  raisedAt: z.string(),
  peakBpm: z.number().int().nullable(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable().describe("The acknowledging user's name"),
  note: z.string().nullable(),
});
export type AlertView = z.output<typeof alertViewSchema>;

/** A tile's state: reading (a sample within SILENT_AFTER_S), silent (the band stopped), waiting (lent, nothing yet), no band. */
export const TILE_STATES = ['reading', 'silent', 'waiting', 'noBand'] as const;
export type TileState = (typeof TILE_STATES)[number];

export const liveViewSchema = z.object({
  lesson: monitorRowSchema,
  now: z.string(),
  students: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      band: z.string().nullable(),
      age: z.number().int(),
      state: z.enum(TILE_STATES),
      bpm: z.number().int().nullable().describe('The last sample (the current one while reading)'),
      lastAt: z.string().nullable(),
      zone: z.enum(ZONES).nullable().describe("The zone of the current bpm for the student's age; null unless reading"),
      trend: z.array(z.number().nullable()).describe(`The last ${TREND_MINUTES} minutes, mean bpm per ${TREND_STEP_S} s (null: no sample)`),
    }),
  ),
  current: z.object({
    meanBpm: z.number().nullable().describe('Mean of the students reading now'),
    inTarget: z.number().nullable().describe('Share (0–1) of the students reading now who are in the target zone'),
    reading: z.number().int(),
  }),
  load: z.object({
    mainMeanBpm: z.number().nullable(),
    peakBpm: z.number().nullable(),
    groupDensity: z.number().nullable(),
    individualDensity: z.number().nullable(),
    targetShare: z.number().nullable(),
  }),
  alerts: z.object({ open: z.array(alertViewSchema), history: z.array(alertViewSchema) }),
});
export type LiveView = z.output<typeof liveViewSchema>;
