import data2014 from './standards/2014.json';
import { compileLookup, type ScoreLookup } from './lookup';
import { GENDERS, type Gender } from '../people/gender';

/** Test items of the national student physique standard, in the order of the official tables (docs/product-rules.md#physique-scoring). */
export const ITEM_KEYS = [
  'bmi',
  'vitalCapacity',
  'run50m',
  'sitAndReach',
  'rope1min',
  'sitUp1min',
  'shuttle50x8',
  'standingLongJump',
  'pullUp',
  'run1000m',
  'run800m',
] as const;
export type ItemKey = (typeof ITEM_KEYS)[number];
/** Position of each item in ITEM_KEYS (its offset within a grade and gender's lookup slots); a Map, as it is read per score. */
export const ITEM_INDEX: ReadonlyMap<string, number> = new Map(ITEM_KEYS.map((k, i) => [k, i]));
/** Items scored by a threshold table (every item but BMI, which is scored by bands). */
export type TableItemKey = Exclude<ItemKey, 'bmi'>;

export { GENDERS, type Gender };

/** School grades 1–16: 1–6 primary, 7–9 junior middle, 10–12 senior high, 13–16 university years 1–4 (docs/product-rules.md#physique-scoring). */
export const GRADES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] as const;
export type Grade = (typeof GRADES)[number];
export type Stage = 'primary' | 'junior' | 'senior' | 'university';
const STAGES: readonly Stage[] = ['primary', 'junior', 'senior', 'university'];

/** Units of raw values: times in seconds, lengths in cm, vital capacity in ml, counts as integers, BMI in kg/m². */
export type ItemUnit = 'kg/m²' | 'ml' | 's' | 'cm' | 'count';
const UNITS: readonly ItemUnit[] = ['kg/m²', 'ml', 's', 'cm', 'count'];

export type BmiBand = 'normal' | 'lowWeight' | 'overweight' | 'obese';

/** Shape of a `standards/<version>.json` file (a compact form of the shared data file). */
export interface StandardData {
  version: string;
  title: string;
  titleEn: string;
  derivedFrom: string;
  /** Scores of the table rows, best first; a table's rows are these minus its blankScores. */
  scoreLevels: number[];
  bmiBandScores: Record<BmiBand, number>;
  items: Record<ItemKey, { unit: string; resolution: number; lowerIsBetter: boolean | null }>;
  /** Bonus increments beyond the 100-point threshold: extra[i] earns bonus i + 1. */
  bonusScales: Partial<Record<TableItemKey, { maxBonus: number; extra: number[] }>>;
  groups: StandardGroupData[];
}
export interface StandardGroupData {
  grades: number[];
  stage: string;
  tableColumn: string;
  male: GenderItemsData;
  female: GenderItemsData;
}
export type GenderItemsData = { bmi?: BmiItemData } & { [K in TableItemKey]?: TableItemData };
export interface BmiItemData {
  weight: number;
  bands: { lowWeightMax: number; normal: number[]; overweight: number[]; obeseMin: number };
}
export interface TableItemData {
  weight: number;
  thresholds: number[];
  blankScores?: number[];
  bonus?: boolean;
}

/** Grade-independent facts of an item. `lowerIsBetter` is null for BMI (scored by bands). */
export interface ItemMeta {
  readonly item: ItemKey;
  readonly unit: ItemUnit;
  readonly lowerIsBetter: boolean | null;
  /** Smallest step of the official tables (0.1 s, 1 cm, …). */
  readonly resolution: number;
}

/** An item as tested in one grade and gender: metadata plus weight (fraction of the 100-point standard score) and bonus cap. */
export interface ItemSpec extends ItemMeta {
  readonly weight: number;
  /** Most bonus points the item can add (0 when it is not a bonus item for this grade/gender). */
  readonly bonusMax: number;
}

/** Compiled threshold table; rows best first. */
export interface ScoreTable {
  readonly kind: 'table';
  readonly item: TableItemKey;
  readonly weightPct: number;
  readonly lowerIsBetter: boolean;
  readonly thresholds: Float64Array;
  readonly scores: Uint8Array;
  /** Absolute bonus thresholds, best first, with the bonus each row earns; empty when no bonus. */
  readonly bonusThresholds: Float64Array;
  readonly bonusValues: Uint8Array;
}
/** Compiled BMI bands (bounds inclusive at one decimal). */
export interface BmiTable {
  readonly kind: 'bmi';
  readonly item: 'bmi';
  readonly weightPct: number;
  readonly lowWeightMax: number;
  readonly normalMin: number;
  readonly normalMax: number;
  readonly overweightMin: number;
  readonly overweightMax: number;
  readonly obeseMin: number;
  readonly bandScores: Readonly<Record<BmiBand, number>>;
}
/** Everything needed to score one grade and gender. */
export interface GradeTable {
  readonly grade: Grade;
  readonly gender: Gender;
  readonly stage: Stage;
  /** Name of the column of the official table (e.g. 大一大二). */
  readonly tableColumn: string;
  readonly specs: readonly ItemSpec[];
  readonly byItem: Readonly<Partial<Record<ItemKey, ScoreTable | BmiTable>>>;
}
/** A compiled standard revision. */
export interface PhysiqueStandard {
  readonly version: string;
  readonly title: string;
  readonly titleEn: string;
  readonly items: Readonly<Record<ItemKey, ItemMeta>>;
  /** Index (grade − 1) × 2 + (female ? 1 : 0). */
  readonly tables: readonly GradeTable[];
  /** The same tables as typed arrays, addressed by lookupSlot(). */
  readonly lookup: ScoreLookup;
}

/** Slot of (grade, gender, item) in a standard's lookup; arguments must be valid (see isGrade, isGender). */
export function lookupSlot(grade: Grade, gender: Gender, item: ItemKey): number {
  return ((grade - 1) * 2 + (gender === 'female' ? 1 : 0)) * ITEM_KEYS.length + (ITEM_INDEX.get(item) ?? NaN);
}

const fail = (version: string, msg: string): never => {
  throw new Error(`physique standard ${version}: ${msg}`);
};

function compileItems(data: StandardData): Record<ItemKey, ItemMeta> {
  const out = {} as Record<ItemKey, ItemMeta>;
  for (const item of ITEM_KEYS) {
    const m = data.items[item] ?? fail(data.version, `item ${item} missing`);
    const unit = UNITS.find((u) => u === m.unit) ?? fail(data.version, `unknown unit ${m.unit}`);
    if ((item === 'bmi') !== (m.lowerIsBetter === null)) fail(data.version, `direction of ${item}`);
    out[item] = Object.freeze({ item, unit, lowerIsBetter: m.lowerIsBetter, resolution: m.resolution });
  }
  return out;
}

function compileTable(data: StandardData, item: TableItemKey, d: TableItemData, lowerIsBetter: boolean, where: string): ScoreTable {
  const blank = d.blankScores ?? [];
  const scores = data.scoreLevels.filter((s) => !blank.includes(s));
  if (scores.length !== d.thresholds.length) fail(data.version, `${where} ${item}: ${d.thresholds.length} thresholds for ${scores.length} scores`);
  for (let i = 1; i < d.thresholds.length; i++) {
    const better = lowerIsBetter ? d.thresholds[i - 1] < d.thresholds[i] : d.thresholds[i - 1] > d.thresholds[i];
    if (!better) fail(data.version, `${where} ${item}: thresholds not strictly ordered at row ${i}`);
  }
  let bonusThresholds = new Float64Array(0);
  let bonusValues = new Uint8Array(0);
  if (d.bonus) {
    const scale = data.bonusScales[item] ?? fail(data.version, `${where} ${item}: bonus item without bonus scale`);
    const top = d.thresholds[0];
    // Rows best first: the largest increment earns the most bonus.
    const n = scale.extra.length;
    bonusThresholds = Float64Array.from({ length: n }, (_, i) => (lowerIsBetter ? top - scale.extra[n - 1 - i] : top + scale.extra[n - 1 - i]));
    bonusValues = Uint8Array.from({ length: n }, (_, i) => n - i);
    if (n !== scale.maxBonus) fail(data.version, `${item}: bonus scale has ${n} steps for a cap of ${scale.maxBonus}`);
  }
  return Object.freeze({
    kind: 'table',
    item,
    weightPct: Math.round(d.weight * 100),
    lowerIsBetter,
    thresholds: Float64Array.from(d.thresholds),
    scores: Uint8Array.from(scores),
    bonusThresholds,
    bonusValues,
  });
}

function compileBmi(data: StandardData, d: BmiItemData, where: string): BmiTable {
  const b = d.bands;
  const [normalMin, normalMax] = b.normal;
  const [overweightMin, overweightMax] = b.overweight;
  // Bands must leave no gap at one decimal, or a rounded BMI could fall between two of them.
  const next = (x: number) => Math.round(x * 10 + 1) / 10;
  if (next(b.lowWeightMax) !== normalMin || next(normalMax) !== overweightMin || next(overweightMax) !== b.obeseMin) fail(data.version, `${where} bmi bands have gaps`);
  return Object.freeze({
    kind: 'bmi',
    item: 'bmi',
    weightPct: Math.round(d.weight * 100),
    lowWeightMax: b.lowWeightMax,
    normalMin,
    normalMax,
    overweightMin,
    overweightMax,
    obeseMin: b.obeseMin,
    bandScores: Object.freeze({ ...data.bmiBandScores }),
  });
}

/** Builds the lookup tables of one revision once, at module load, so scoring allocates almost nothing. */
export function compileStandard(data: StandardData): PhysiqueStandard {
  const items = compileItems(data);
  const tables: GradeTable[] = [];
  for (const group of data.groups) {
    const stage = STAGES.find((s) => s === group.stage) ?? fail(data.version, `unknown stage ${group.stage}`);
    for (const gender of GENDERS) {
      const where = `grades ${group.grades.join(',')} ${gender}`;
      const side = group[gender];
      const byItem: Partial<Record<ItemKey, ScoreTable | BmiTable>> = {};
      const specs: ItemSpec[] = [];
      let weightPct = 0;
      for (const item of ITEM_KEYS) {
        let table: ScoreTable | BmiTable;
        if (item === 'bmi') {
          if (!side.bmi) continue;
          table = compileBmi(data, side.bmi, where);
        } else {
          const d = side[item];
          if (!d) continue;
          table = compileTable(data, item, d, items[item].lowerIsBetter === true, where);
        }
        byItem[item] = table;
        weightPct += table.weightPct;
        const bonusMax = table.kind === 'table' ? table.bonusValues[0] ?? 0 : 0;
        specs.push(Object.freeze({ ...items[item], weight: table.weightPct / 100, bonusMax }));
      }
      if (weightPct !== 100) fail(data.version, `${where}: weights sum to ${weightPct}%`);
      for (const grade of group.grades) {
        if (!GRADES.includes(grade as Grade)) fail(data.version, `unknown grade ${grade}`);
        const index = (grade - 1) * 2 + (gender === 'female' ? 1 : 0);
        if (tables[index]) fail(data.version, `grade ${grade} defined twice`);
        tables[index] = Object.freeze({ grade: grade as Grade, gender, stage, tableColumn: group.tableColumn, specs: Object.freeze(specs), byItem: Object.freeze(byItem) });
      }
    }
  }
  for (let i = 0; i < GRADES.length * 2; i++) if (!tables[i]) fail(data.version, `grade ${Math.floor(i / 2) + 1} missing`);
  return Object.freeze({
    version: data.version,
    title: data.title,
    titleEn: data.titleEn,
    items: Object.freeze(items),
    tables: Object.freeze(tables),
    lookup: compileLookup(tables, ITEM_KEYS, (item) => items[item].resolution),
  });
}

let compiled2014: PhysiqueStandard | undefined;
/**
 * Registry of standard revisions; a test plan names its version (docs/product-rules.md#physique-scoring). A revision
 * is compiled by its first read, not at module load: every server start loads this module, and compiling 2014 is one
 * of the larger pieces of the app's module-level work (docs/decisions/065-built-server.md).
 */
export const STANDARDS = {
  get '2014'(): PhysiqueStandard {
    return (compiled2014 ??= compileStandard(data2014));
  },
} as const satisfies Record<string, PhysiqueStandard>;
export type StandardVersion = keyof typeof STANDARDS;
export const STANDARD_VERSIONS = Object.keys(STANDARDS) as StandardVersion[];
/** Version used when a caller names none. */
export const DEFAULT_STANDARD_VERSION: StandardVersion = '2014';

/** True when `value` names a registered standard revision. */
export function isStandardVersion(value: unknown): value is StandardVersion {
  return typeof value === 'string' && Object.hasOwn(STANDARDS, value);
}
/** True for an integer grade 1–16 (docs/product-rules.md#physique-scoring). */
export function isGrade(value: unknown): value is Grade {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 16;
}
/** True for 'male' or 'female'. */
export function isGender(value: unknown): value is Gender {
  return value === 'male' || value === 'female';
}

let defaultStandard: PhysiqueStandard | undefined;

/** The compiled standard of a revision (default 2014). */
export function getStandard(version: StandardVersion = DEFAULT_STANDARD_VERSION): PhysiqueStandard {
  // Versions are numeric strings, which objects keep as array indices: a keyed read per score is slow, so the default
  // version (nearly every call) skips it.
  if (version === DEFAULT_STANDARD_VERSION) return (defaultStandard ??= STANDARDS[DEFAULT_STANDARD_VERSION]);
  const standard: PhysiqueStandard | undefined = STANDARDS[version];
  if (!standard) throw new RangeError(`unknown physique standard version ${String(version)}`);
  return standard;
}

/** Lookup tables of one grade (1–16) and gender; throws RangeError for an unknown grade. */
export function gradeTable(grade: Grade, gender: Gender, version: StandardVersion = DEFAULT_STANDARD_VERSION): GradeTable {
  if (!isGrade(grade)) throw new RangeError(`grade must be an integer 1-16, got ${String(grade)}`);
  if (!isGender(gender)) throw new RangeError(`gender must be male or female, got ${String(gender)}`);
  return getStandard(version).tables[(grade - 1) * 2 + (gender === 'female' ? 1 : 0)];
}

/** Items tested in a grade (1–16) and gender, in table order, with unit, direction, weight (fraction) and bonus cap (docs/product-rules.md#physique-scoring). */
export function itemsForGrade(grade: Grade, gender: Gender, version: StandardVersion = DEFAULT_STANDARD_VERSION): readonly ItemSpec[] {
  return gradeTable(grade, gender, version).specs;
}

/** Grade-independent metadata of an item: unit (s, cm, ml, count, kg/m²), direction and resolution. */
export function itemMeta(item: ItemKey, version: StandardVersion = DEFAULT_STANDARD_VERSION): ItemMeta {
  return getStandard(version).items[item];
}

/** School stage of a grade 1–16 (primary 1–6, junior 7–9, senior 10–12, university 13–16). */
export function stageOf(grade: Grade): Stage {
  if (!isGrade(grade)) throw new RangeError(`grade must be an integer 1-16, got ${String(grade)}`);
  return grade <= 6 ? 'primary' : grade <= 9 ? 'junior' : grade <= 12 ? 'senior' : 'university';
}
