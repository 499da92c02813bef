import { z } from 'zod';
import { uuid as idField } from '../fields';
import { versionField } from '../list-query';
import { RESULT_STATUSES } from './ranking';

/**
 * Results (docs/product-rules.md#meets): entered per heat or flight (a time, the attempts of a field event, a height
 * with its failures), then confirmed and published by a reviewer; DNS/DNF/DQ place nobody. A published result that
 * beats a record is flagged and becomes the record after review.
 */
export const RESULT_STATES = ['pending', 'entered', 'confirmed', 'published'] as const;
export type ResultState = (typeof RESULT_STATES)[number];

const uuid = idField();
const mark = z.coerce.number().positive('meets:v.mark').max(100000, 'meets:v.mark');

export const resultLineSchema = z.object({
  id: uuid,
  mark: mark.nullable().optional(),
  attempts: z.array(mark.nullable()).max(6).nullable().optional(),
  failuresAtBest: z.coerce.number().int().min(0).max(3).nullable().optional(),
  failures: z.coerce.number().int().min(0).max(60).nullable().optional(),
  status: z.enum(RESULT_STATUSES).default('ok'),
  version: versionField.optional(),
});
export const heatResultsSchema = z.object({ results: z.array(resultLineSchema).min(1).max(200) });
export type HeatResults = z.output<typeof heatResultsSchema>;

export const resultStepSchema = z.object({ step: z.enum(['confirm', 'publish']), heatIds: z.array(uuid).min(1).max(500) });
export type ResultStep = z.output<typeof resultStepSchema>;
/** Setting a result invalid needs its reason (shown beside the result); restoring it clears the reason. */
export const invalidSchema = z
  .object({ invalid: z.boolean(), reason: z.string().trim().max(100, 'meets:v.reasonLength').optional() })
  .refine((b) => !b.invalid || !!b.reason, { message: 'meets:v.invalidReason', path: ['reason'] });
export type InvalidRequest = z.output<typeof invalidSchema>;

export interface ResultRow {
  id: string;
  heatId: string;
  entryId: string;
  lane: number;
  /** The athlete's name, or the relay team's. */
  studentName: string;
  /** A relay team's runners in leg order ('张三、李四…'); null for an athlete. */
  legNames: string | null;
  className: string;
  bib: string | null;
  mark: number | null;
  attempts: (number | null)[] | null;
  failuresAtBest: number | null;
  failures: number | null;
  status: (typeof RESULT_STATUSES)[number];
  state: ResultState;
  place: number | null;
  invalid: boolean;
  invalidReason: string | null;
  newRecord: boolean;
  qualified: boolean;
  version: number;
}

/** A result of a heat as the results screen reads it (ResultRow; the OpenAPI document's schema). */
export const resultRowSchema = z.object({
  id: z.string(),
  heatId: z.string(),
  entryId: z.string(),
  lane: z.number().int(),
  studentName: z.string().describe("The athlete's name, or the relay team's"),
  legNames: z.string().nullable().describe("A relay team's runners in leg order; null for an athlete"),
  className: z.string(),
  bib: z.string().nullable(),
  mark: z.number().nullable(),
  attempts: z.array(z.number().nullable()).nullable(),
  failuresAtBest: z.number().int().nullable(),
  failures: z.number().int().nullable(),
  status: z.enum(RESULT_STATUSES),
  state: z.enum(RESULT_STATES),
  place: z.number().int().nullable(),
  invalid: z.boolean(),
  invalidReason: z.string().nullable(),
  newRecord: z.boolean(),
  qualified: z.boolean().describe('Goes through to the final'),
  version: z.number().int(),
});

/** GET …/heats/:heatId/results: the heat's results in lane (or start) order. */
export const heatResultListSchema = z.array(resultRowSchema);
