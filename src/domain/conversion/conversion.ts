import { z } from 'zod';
import { enumFilter, optionalText, requiredNumber, requiredText } from '../fields';
import { listQuery, textFilter, versionField } from '../list-query';
import { enumTable } from '../presentation';
import { ITEM_KEYS, type ItemKey } from '../physique/standard';
import { K12_STAGES, STAGE_GRADES } from '../school/grades';

/**
 * 中考体育 conversion tables (docs/product-rules.md#physique-year: 中考体育 conversion): a management organisation
 * (district) publishes, per stage and exam year, a step table from a basis (the total, or one item's score) to exam
 * points. Each upload for the same stage and year is a new version; a version a plan applies is frozen.
 */

export const CONVERSION_STAGES = K12_STAGES;
export type ConversionStage = (typeof CONVERSION_STAGES)[number];
export const CONVERSION_STAGE_TABLE = enumTable(CONVERSION_STAGES, (s) => `school:grade.stages.${s}`);

/** What a table converts: the result's total (标准分 + 附加分) or one item's score (单项得分, 0–100). */
export const CONVERSION_BASES = ['total', ...ITEM_KEYS] as const;
export type ConversionBasis = (typeof CONVERSION_BASES)[number];
/** The label key of a basis: the total, or the item's name. */
export const basisLabelKey = (basis: ConversionBasis) => (basis === 'total' ? 'conversion:basis.total' : `physique:item.${basis}`);

export const CONVERSION_NAME_MAX = 40;
export const CONVERSION_NOTE_MAX = 200;
export const CONVERSION_YEAR_MIN = 2000;
export const CONVERSION_YEAR_MAX = 2100;
/** A total reaches 120 (100 + 20 bonus points); an item's score 100. */
export const CONVERSION_THRESHOLD_MAX = 120;
/** The highest full mark a table may give (中考体育 is 30–100 points by province). */
export const CONVERSION_POINTS_MAX = 200;
export const CONVERSION_ROWS_MAX = 200;
/** Thresholds and points keep at most this many decimals (a half point is common). */
export const CONVERSION_DECIMALS = 2;

/** One step: a basis value of at least `min` converts to `points` (the highest step reached counts). */
export interface ConversionStep {
  min: number;
  points: number;
}

const decimalsOf = (n: number) => {
  const s = String(n);
  const dot = s.indexOf('.');
  return dot < 0 || s.includes('e') ? 0 : s.length - dot - 1;
};

export type StepProblem = 'minInvalid' | 'pointsInvalid' | 'overlap' | 'unordered' | 'pointsDecrease' | 'pointsAboveMax';
/** Message key of a step problem. */
export const stepMessage = (p: StepProblem) => `conversion:validation.${p}` as const;

/**
 * The table's rules on its steps (docs/product-rules.md#physique-year: 中考体育 conversion), row by row in upload
 * order: thresholds between 0 and 120, ascending, none twice (two steps at one threshold overlap); points between 0
 * and the table's full mark, never fewer for a higher threshold. One problem per row (the first), with the field it
 * is about, so the form marks the cell and the import names the row.
 */
export function stepProblem(step: { min: number; points: number }, before: ConversionStep | undefined, maxPoints: number): { field: 'min' | 'points'; problem: StepProblem } | null {
  if (!Number.isFinite(step.min) || step.min < 0 || step.min > CONVERSION_THRESHOLD_MAX || decimalsOf(step.min) > CONVERSION_DECIMALS) return { field: 'min', problem: 'minInvalid' };
  if (!Number.isFinite(step.points) || step.points < 0 || decimalsOf(step.points) > CONVERSION_DECIMALS) return { field: 'points', problem: 'pointsInvalid' };
  if (Number.isFinite(maxPoints) && step.points > maxPoints) return { field: 'points', problem: 'pointsAboveMax' };
  if (before) {
    if (step.min === before.min) return { field: 'min', problem: 'overlap' };
    if (step.min < before.min) return { field: 'min', problem: 'unordered' };
    if (step.points < before.points) return { field: 'points', problem: 'pointsDecrease' };
  }
  return null;
}

const stepSchema = z.object({
  min: requiredNumber('conversion:validation.minRequired', 'conversion:validation.minInvalid'),
  points: requiredNumber('conversion:validation.pointsRequired', 'conversion:validation.pointsInvalid'),
});

/** The full mark and the steps, checked together (shared by the save and the import's rows). */
export const maxPointsField = requiredNumber('conversion:validation.maxPointsRequired', 'conversion:validation.maxPointsInvalid').pipe(
  z
    .number()
    .gt(0, 'conversion:validation.maxPointsInvalid')
    .max(CONVERSION_POINTS_MAX, 'conversion:validation.maxPointsInvalid')
    .refine((n) => decimalsOf(n) <= CONVERSION_DECIMALS, 'conversion:validation.maxPointsInvalid'),
);

/** What a table is besides its steps: name, stage, exam year, basis, full mark, note (the import's dialog asks these). */
export const conversionHeadSchema = z.object({
  name: requiredText(CONVERSION_NAME_MAX, 'conversion:validation.nameRequired'),
  stage: z.enum(CONVERSION_STAGES, { error: 'conversion:validation.stageRequired' }),
  year: requiredNumber('conversion:validation.yearRequired', 'conversion:validation.yearInvalid').pipe(
    z.number().int('conversion:validation.yearInvalid').min(CONVERSION_YEAR_MIN, 'conversion:validation.yearInvalid').max(CONVERSION_YEAR_MAX, 'conversion:validation.yearInvalid'),
  ),
  basis: z.enum(CONVERSION_BASES, { error: 'conversion:validation.basisRequired' }),
  maxPoints: maxPointsField,
  note: optionalText(CONVERSION_NOTE_MAX, 'validation:common.tooLong'),
});
export type ConversionHead = z.output<typeof conversionHeadSchema>;

/** A table version saved from the form (add: a new version of its stage and year; edit: that version, while no plan applies it). */
export const conversionSaveSchema = conversionHeadSchema
  .extend({
    rows: z
      .array(stepSchema, { error: 'conversion:validation.rowsRequired' })
      .min(1, 'conversion:validation.rowsRequired')
      .max(CONVERSION_ROWS_MAX, 'conversion:validation.rowsTooMany'),
    version: versionField.optional(),
  })
  .superRefine((t, ctx) => {
    t.rows.forEach((step, i) => {
      const found = stepProblem(step, i > 0 ? t.rows[i - 1] : undefined, t.maxPoints);
      if (found) ctx.addIssue({ code: 'custom', path: ['rows', i, found.field], message: stepMessage(found.problem) });
    });
  });
export type ConversionSave = z.output<typeof conversionSaveSchema>;
export type ConversionForm = z.input<typeof conversionSaveSchema>;

export const conversionListQuery = listQuery({ name: textFilter(), stage: enumFilter(CONVERSION_STAGES) });
export type ConversionListQuery = z.output<typeof conversionListQuery>;

/** A table version as the list, the form and the plan form read it. */
export const conversionRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  stage: z.enum(CONVERSION_STAGES),
  year: z.number().int(),
  basis: z.enum(CONVERSION_BASES),
  maxPoints: z.number(),
  note: z.string().nullable(),
  rows: z.array(z.object({ min: z.number(), points: z.number() })),
  /** The table's version within its stage and year (1, 2, …), not the record's edit counter. */
  tableVersion: z.number().int(),
  /** A sample table (the demo's), not an official one: every screen says so. */
  sample: z.boolean(),
  /** Plans applying this version (it is frozen while any does). */
  plans: z.number().int(),
  version: z.number().int(),
  updatedAt: z.string(),
});
export type ConversionRow = z.infer<typeof conversionRowSchema>;

/** A version a plan may apply (the plan form's options). */
export const conversionOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  stage: z.enum(CONVERSION_STAGES),
  year: z.number().int(),
  tableVersion: z.number().int(),
  sample: z.boolean(),
  orgName: z.string(),
});
export type ConversionOption = z.infer<typeof conversionOptionSchema>;

/** The converted points on a report (null when the plan applies no table, or the result is not converted). */
export const examPointsSchema = z.object({
  points: z.number(),
  maxPoints: z.number(),
  tableName: z.string(),
  version: z.number().int(),
  basis: z.enum(CONVERSION_BASES),
  sample: z.boolean(),
});
export type ExamPoints = z.infer<typeof examPointsSchema>;

/**
 * The step lookup (docs/product-rules.md#physique-year: 中考体育 conversion): the points of the highest step whose
 * threshold the value reaches; below the lowest step, 0; no value (an incomplete result, an untested item), null.
 * `steps` ascend by threshold (the schema's rule).
 */
export function convertPoints(steps: readonly ConversionStep[], value: number | null | undefined): number | null {
  if (value == null || !Number.isFinite(value)) return null;
  let points = 0;
  for (const step of steps) {
    if (value >= step.min) points = step.points;
    else break;
  }
  return points;
}

/** Whether a grade number (1–12) is in the table's stage: only those students' results are converted. */
export const gradeInStage = (gradeNo: number, stage: ConversionStage) => gradeNo >= STAGE_GRADES[stage][0] && gradeNo <= STAGE_GRADES[stage][1];

/** A result as the conversion reads it. */
export interface ConvertibleResult {
  gradeNo: number;
  total: number | null;
  items: Partial<Record<ItemKey, { score: number | null } | undefined>>;
}

/** A result's exam points under a table: null outside the table's stage or without the basis's value. */
export function examPointsOf(table: { stage: ConversionStage; basis: ConversionBasis; rows: readonly ConversionStep[] }, result: ConvertibleResult): number | null {
  if (!gradeInStage(result.gradeNo, table.stage)) return null;
  const value = table.basis === 'total' ? result.total : (result.items[table.basis]?.score ?? null);
  return convertPoints(table.rows, value);
}
