import { z } from 'zod';
import '../fields';

/**
 * Heart-rate samples from bands (docs/product-rules.md#lesson-load). A band (or a hub relaying many) posts batches of
 * samples for a lesson it is lent in; a resent sample (same lesson, student, second) changes nothing.
 */

/** Plausible heart rates (bpm): a value outside is dropped and counted, never stored. */
export const BPM_MIN = 30;
export const BPM_MAX = 230;
/**
 * A change faster than this (bpm per second, against the student's previous kept sample within JUMP_WINDOW_S) is a
 * contact artefact, not a heart: dropped and counted.
 */
export const JUMP_MAX_BPM_PER_S = 25;
export const JUMP_WINDOW_S = 5;
/** One batch holds at most this many samples (40 bands × 60 s). */
export const SAMPLE_BATCH_MAX = 2400;
/** Samples are accepted from the lesson's start until this long after its end (late and offline batches). */
export const LATE_WINDOW_MINUTES = 60;
/** Raw samples are kept this many days by default (TIYU_HEART_RATE_RAW_DAYS); per-minute aggregates for good. */
export const RAW_RETENTION_DAYS = 30;

export const DROP_REASONS = ['range', 'jump', 'window', 'unbound', 'consent'] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export const heartRateSampleSchema = z.object({
  /** The band's serial number; the lesson's binding tells whose heart it is. */
  band: z.string().trim().min(1).max(64),
  at: z.iso.datetime({ offset: true, error: 'activities:ingest.timeFormat' }),
  bpm: z.number().int(),
  /** The band's activity index, 0–100, where it has an accelerometer. */
  intensity: z.number().int().min(0).max(100).optional(),
});
export type HeartRateSample = z.output<typeof heartRateSampleSchema>;

export const heartRateBatchSchema = z.object({
  samples: z.array(heartRateSampleSchema).min(1).max(SAMPLE_BATCH_MAX, 'lessonLoad:rules.batchTooLarge'),
});

export interface KeptSample {
  studentId: string;
  /** Epoch milliseconds, whole seconds. */
  at: number;
  bpm: number;
  intensity: number | null;
}

/**
 * Screens one student's samples (any order) against the drop rules: out of range, or a jump from the previous kept
 * sample (the last kept one before the batch may be given). Returns the kept samples in time order and the drops by
 * reason. Two samples in the same second: the first that passes is kept (a resend).
 */
export function screenSamples(
  samples: readonly { at: number; bpm: number; intensity: number | null }[],
  previous: { at: number; bpm: number } | null,
): {
  kept: { at: number; bpm: number; intensity: number | null }[];
  drops: Partial<Record<DropReason, number>>;
  /** Each dropped sample's second and reason (the ingest counts a resent drop once). */
  dropped: { at: number; reason: DropReason }[];
} {
  const drops: Partial<Record<DropReason, number>> = {};
  const dropped: { at: number; reason: DropReason }[] = [];
  const kept: { at: number; bpm: number; intensity: number | null }[] = [];
  let last = previous;
  const seen = new Set<number>();
  for (const s of [...samples].sort((a, b) => a.at - b.at)) {
    const second = Math.floor(s.at / 1000) * 1000;
    if (seen.has(second)) continue;
    if (s.bpm < BPM_MIN || s.bpm > BPM_MAX) {
      drops.range = (drops.range ?? 0) + 1;
      dropped.push({ at: second, reason: 'range' });
      continue;
    }
    if (last) {
      const dt = (second - last.at) / 1000;
      if (dt > 0 && dt <= JUMP_WINDOW_S && Math.abs(s.bpm - last.bpm) / dt > JUMP_MAX_BPM_PER_S) {
        drops.jump = (drops.jump ?? 0) + 1;
        dropped.push({ at: second, reason: 'jump' });
        continue;
      }
    }
    seen.add(second);
    kept.push({ at: second, bpm: s.bpm, intensity: s.intensity });
    last = { at: second, bpm: s.bpm };
  }
  return { kept, drops, dropped };
}

/** Lending bands to students for a lesson: a band's serial number and the student (by id or 学籍号). */
export const bandBindingSchema = z.object({
  band: z.string().trim().min(1).max(64),
  studentId: z.string().uuid().optional(),
  regNo: z.string().trim().min(1).max(32).optional(),
});
export const bandBindingsSchema = z.object({
  bindings: z.array(bandBindingSchema.refine((b) => b.studentId !== undefined || b.regNo !== undefined, { path: ['studentId'], message: 'lessonLoad:rules.studentRequired' })).min(1).max(200),
});
export type BandBinding = z.output<typeof bandBindingSchema>;
