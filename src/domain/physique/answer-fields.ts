import { z } from 'zod';
// Installs the error map before this module builds its answer schemas (tests/domain/schemas/messages.test.ts).
import '../fields';
import { GENDERS } from '../people/gender';
import { SCORE_LEVELS, type ScoreLevel } from './level';
import { BMI_BAND_ORDER } from './lookup';
import { ITEM_KEYS, type BmiBand } from './standard';

/**
 * Fields of the answers that show physique results (data centre, results, reports), as zod for the API document
 * (/api/docs): they describe what the server answers, never a rule of input.
 */
export const scoreLevelSchema = z.enum(SCORE_LEVELS as [ScoreLevel, ...ScoreLevel[]]);
export const bmiBandSchema = z.enum(BMI_BAND_ORDER as [BmiBand, ...BmiBand[]]);
export const itemKeySchema = z.enum(ITEM_KEYS);
export const answerGenderSchema = z.enum(GENDERS);
/** An item's level: excellent/good/pass/fail, or for BMI its band. */
export const itemLevelSchema = z.union([scoreLevelSchema, bmiBandSchema]);

/** One item of a result as the screens show it (docs/product-rules.md#physique-results). */
export const itemResultSchema = z.object({
  /** Raw value in the item's unit (s, cm, ml, count; BMI kg/m²). */
  raw: z.number().nullable(),
  /** Item score 0–100. */
  score: z.number().nullable(),
  level: itemLevelSchema.nullable(),
  /** Bonus points of a bonus item (null for the others). */
  bonus: z.number().nullable(),
});
/** Items with any value, keyed by item. */
export const itemResultsSchema = z.partialRecord(itemKeySchema, itemResultSchema);
