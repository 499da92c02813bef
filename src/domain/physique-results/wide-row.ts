import { bmiFromHeightWeight } from '../physique/bmi';
import type { ScoreLevel } from '../physique/level';
import type { NationalResults, ResultKey } from '../physique/national-template';
import type { StudentResults, StudentScore } from '../physique/score';
import { ITEM_KEYS, type BmiBand, type ItemKey } from '../physique/standard';

/**
 * The wide physique result row (one per student per plan, docs/product-rules.md#physique-results): the raw value, score and level of every
 * item, the bonus of the bonus items, and the aggregates. Property names equal those of the server's
 * physique_results table, so a database row and an engine result map onto each other here, in one place.
 */

/** Items that can earn bonus points in some grade (docs/product-rules.md#physique-scoring): rope skipping in primary, pull-ups/sit-ups and the long runs later. */
export const BONUS_ITEMS = ['rope1min', 'sitUp1min', 'pullUp', 'run1000m', 'run800m'] as const;
export type BonusItemKey = (typeof BONUS_ITEMS)[number];

export function isBonusItem(item: ItemKey): item is BonusItemKey {
  return (BONUS_ITEMS as readonly string[]).includes(item);
}

export type ItemLevel = ScoreLevel | BmiBand;

type RawFields = { [K in ItemKey]: number | null };
type ScoreFields = { [K in ItemKey as `${K}Score`]: number | null };
type LevelFields = { [K in ItemKey as `${K}Level`]: string | null };
type BonusFields = { [K in BonusItemKey as `${K}Bonus`]: number | null };

/** Measured values that are not items themselves: BMI comes from them. */
export interface BodyFields {
  heightCm: number | null;
  weightKg: number | null;
}

export interface AggregateFields {
  /** Σ item score × weight (0–100), null while incomplete. */
  standardScore: number | null;
  /** Bonus points (≤ 20), null while incomplete. */
  bonus: number | null;
  /** standardScore + bonus (≤ 120), null while incomplete. */
  total: number | null;
  level: ScoreLevel | null;
  /** Every item of the student's grade has a result. */
  complete: boolean;
}

/** The raw values of a result (cm, kg, ml, s, counts; BMI in kg/m²). */
export type WideRawFields = BodyFields & RawFields;
/** Every column the engine computes or the raw values feed. */
export type WideScoreFields = WideRawFields & ScoreFields & LevelFields & BonusFields & AggregateFields;

/** Column names of one item in the wide row. */
export interface ItemColumns {
  item: ItemKey;
  raw: ItemKey;
  score: `${ItemKey}Score`;
  level: `${ItemKey}Level`;
  bonus: `${BonusItemKey}Bonus` | null;
}

/** Columns of every item, in the order of the official tables. */
export const ITEM_COLUMNS: readonly ItemColumns[] = ITEM_KEYS.map((item) => ({
  item,
  raw: item,
  score: `${item}Score` as const,
  level: `${item}Level` as const,
  bonus: isBonusItem(item) ? (`${item}Bonus` as const) : null,
}));

/** Every raw-value field (what an import or an edit writes). */
export const RAW_FIELDS: readonly (keyof WideRawFields)[] = ['heightCm', 'weightKg', ...ITEM_KEYS];

/** Every field of WideScoreFields, in a fixed order (bulk writes list them in this order). */
export const WIDE_SCORE_FIELDS: readonly (keyof WideScoreFields)[] = [
  'heightCm',
  'weightKg',
  ...ITEM_COLUMNS.flatMap((c) => [c.raw, c.score, c.level, ...(c.bonus ? [c.bonus] : [])] as (keyof WideScoreFields)[]),
  'standardScore',
  'bonus',
  'total',
  'level',
  'complete',
];

/** A row with nothing measured. */
export function emptyWideScore(): WideScoreFields {
  const row = { complete: false } as Record<keyof WideScoreFields, unknown>;
  for (const f of WIDE_SCORE_FIELDS) if (f !== 'complete') row[f] = null;
  return row as unknown as WideScoreFields;
}

/**
 * Raw values of a stored row as engine input (docs/product-rules.md#physique-scoring): BMI is recomputed from height and weight whenever both are
 * present (so an edited height rescored never keeps a stale BMI); a stored BMI alone is used only without them.
 */
export function engineInputOf(raw: Partial<WideRawFields>): StudentResults {
  const out: StudentResults = {};
  for (const item of ITEM_KEYS) {
    const v = raw[item];
    if (item !== 'bmi' && v != null) out[item] = v;
  }
  if (raw.heightCm != null) out.heightCm = raw.heightCm;
  if (raw.weightKg != null) out.weightKg = raw.weightKg;
  if ((raw.heightCm == null || raw.weightKg == null) && raw.bmi != null) out.bmi = raw.bmi;
  return out;
}

/** Merges national-template results (parsed, ResultKey → value) over stored raw values: a value present wins, an absent one keeps the stored value. */
export function mergeRaw(stored: Partial<WideRawFields> | undefined, incoming: NationalResults): Partial<WideRawFields> {
  if (!stored) return incoming;
  const out: Partial<WideRawFields> = { ...stored };
  for (const key of Object.keys(incoming) as ResultKey[]) {
    const v = incoming[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** Keeps only the raw values the plan tests for this student (the plan's items; height and weight go with BMI). */
export function restrictToItems<T extends Partial<Record<keyof WideRawFields, number | null>>>(raw: T, items: readonly ItemKey[]): T {
  const out: Partial<Record<keyof WideRawFields, number | null>> = {};
  for (const f of rawFieldsOf(items)) {
    const v = raw[f];
    if (v != null) out[f] = v;
  }
  return out as T;
}

/** The raw fields of some items, per item list (an import restricts 50,000 rows to a few lists). */
const rawFieldsCache = new WeakMap<readonly ItemKey[], readonly (keyof WideRawFields)[]>();
function rawFieldsOf(items: readonly ItemKey[]): readonly (keyof WideRawFields)[] {
  let fields = rawFieldsCache.get(items);
  if (!fields) {
    const wanted = new Set<string>(items);
    fields = RAW_FIELDS.filter((f) => wanted.has(f === 'heightCm' || f === 'weightKg' ? 'bmi' : f));
    // A list that may change later is not cached (itemsFor hands out frozen lists).
    if (Object.isFrozen(items)) rawFieldsCache.set(items, fields);
  }
  return fields;
}

/** One value of a wide row: a raw value, score, level, bonus, aggregate or the completeness flag. */
export type WideScoreValue = number | string | boolean | null;

/**
 * The values of WIDE_SCORE_FIELDS, in that order, for an engine result (scoreStudent) over the raw values it was
 * computed from: what bulk writes send, built without an intermediate object (imports do this 50,000 times). `out`,
 * when given, is emptied and refilled, so a bulk writer reuses one array for every row.
 */
export function wideScoreValues(raw: Partial<WideRawFields>, score: StudentScore, out: WideScoreValue[] = []): WideScoreValue[] {
  out.length = 0;
  out.push(raw.heightCm ?? null, raw.weightKg ?? null);
  for (const c of ITEM_COLUMNS) {
    const s = score.items[c.item];
    const v = raw[c.raw];
    // The BMI of the row is the one the engine scored (rounded, from height and weight when given).
    out.push(c.item === 'bmi' ? (s?.value ?? v ?? bmiFromHeightWeight(raw.heightCm, raw.weightKg)) : (v ?? null));
    out.push(s ? s.score : null, s ? s.level : null);
    if (c.bonus) out.push(s ? s.bonus : null);
  }
  out.push(score.standardScore, score.bonus, score.total, score.level, score.complete);
  return out;
}

/** The wide row of an engine result (scoreStudent) over the raw values it was computed from. */
export function wideFromScore(raw: Partial<WideRawFields>, score: StudentScore): WideScoreFields {
  const values = wideScoreValues(raw, score);
  const row: Record<string, unknown> = {};
  WIDE_SCORE_FIELDS.forEach((f, i) => (row[f] = values[i]));
  return row as unknown as WideScoreFields;
}
