import { z } from 'zod';
import { CLOCK_SKEW_MS } from '../activities/ingest';
import { DROP_REASONS, LATE_WINDOW_MINUTES } from './samples';

/**
 * The heart-rate ingest's answer and window (docs/product-rules.md#lesson-load, "Samples"). A batch answers how many
 * samples were stored new, how many were resends (stored before, or the same second twice in the batch) and the
 * drops by reason.
 */
export const heartRateBatchResultSchema = z.object({
  accepted: z.number().int().describe('Samples stored now'),
  duplicates: z.number().int().describe('Samples already stored (a resend), or a second sent twice'),
  dropped: z.partialRecord(z.enum(DROP_REASONS), z.number().int()).describe('Samples dropped, by reason (never stored)'),
});
export type HeartRateBatchResult = z.output<typeof heartRateBatchResultSchema>;

export const bandBindingsResultSchema = z.array(z.object({ band: z.string(), studentId: z.string() }));

/**
 * The times (epoch ms, inclusive) a lesson accepts samples for: from its start until LATE_WINDOW_MINUTES after its end;
 * a lesson still open, until now (a device clock's skew allowed). Nothing measured in the future is accepted.
 */
export function sampleWindow(startedAt: number, endedAt: number | null, now: number): { from: number; to: number } {
  const future = now + CLOCK_SKEW_MS;
  return { from: startedAt, to: endedAt === null ? future : Math.min(endedAt + LATE_WINDOW_MINUTES * 60_000, future) };
}
