import { ITEM_KEYS, type ItemKey } from '../physique/standard';
import { PARSE_RULES } from '../physique/parse';
import { enumTable } from '../presentation';

/**
 * Items a device or the app can record (docs/product-rules.md#activities): the physique standard's measured items
 * (every one but BMI, which is computed) and everyday exercise items. The physique items keep the physique parser's
 * ranges and units, so a value a device sends is checked by the same rule as a value typed into the console.
 */
export const EXERCISE_ITEM_KEYS = ['running', 'walking', 'cycling', 'ropeFree', 'jumpingJack', 'plank', 'basketballDribble', 'footballDribble'] as const;
export type ExerciseItemKey = (typeof EXERCISE_ITEM_KEYS)[number];
export type PhysiqueActivityItemKey = Exclude<ItemKey, 'bmi'>;
export const ACTIVITY_ITEM_KEYS = [...(ITEM_KEYS.filter((k) => k !== 'bmi') as PhysiqueActivityItemKey[]), ...EXERCISE_ITEM_KEYS] as const;
export type ActivityItemKey = PhysiqueActivityItemKey | ExerciseItemKey;

/** Unit of the value stored for an item: seconds, centimetres, millilitres, counts, metres or steps. */
export type ActivityUnit = 's' | 'cm' | 'ml' | 'count' | 'm' | 'steps';

export interface ActivityItem {
  readonly key: ActivityItemKey;
  readonly unit: ActivityUnit;
  /** Smaller is better (times); a ranking orders by this. */
  readonly lowerIsBetter: boolean;
  readonly min: number;
  readonly max: number;
}

const PHYSIQUE_UNITS: Record<PhysiqueActivityItemKey, ActivityUnit> = {
  vitalCapacity: 'ml',
  run50m: 's',
  sitAndReach: 'cm',
  rope1min: 'count',
  sitUp1min: 'count',
  shuttle50x8: 's',
  standingLongJump: 'cm',
  pullUp: 'count',
  run1000m: 's',
  run800m: 's',
};

const EXERCISE_ITEMS: Record<ExerciseItemKey, Omit<ActivityItem, 'key'>> = {
  // One session: distance in metres (a marathon is the ceiling), steps, free rope skipping and so on per session.
  running: { unit: 'm', lowerIsBetter: false, min: 1, max: 42_195 },
  walking: { unit: 'steps', lowerIsBetter: false, min: 1, max: 100_000 },
  cycling: { unit: 'm', lowerIsBetter: false, min: 1, max: 200_000 },
  ropeFree: { unit: 'count', lowerIsBetter: false, min: 0, max: 20_000 },
  jumpingJack: { unit: 'count', lowerIsBetter: false, min: 0, max: 5_000 },
  plank: { unit: 's', lowerIsBetter: false, min: 1, max: 3_600 },
  basketballDribble: { unit: 's', lowerIsBetter: true, min: 3, max: 300 },
  footballDribble: { unit: 's', lowerIsBetter: true, min: 3, max: 300 },
};

const LOWER_IS_BETTER = new Set<PhysiqueActivityItemKey>(['run50m', 'shuttle50x8', 'run1000m', 'run800m']);

export const ACTIVITY_ITEMS: ReadonlyMap<ActivityItemKey, ActivityItem> = new Map<ActivityItemKey, ActivityItem>([
  ...(Object.keys(PHYSIQUE_UNITS) as PhysiqueActivityItemKey[]).map(
    (key): [ActivityItemKey, ActivityItem] => [
      key,
      { key, unit: PHYSIQUE_UNITS[key], lowerIsBetter: LOWER_IS_BETTER.has(key), min: PARSE_RULES[key].min, max: PARSE_RULES[key].max },
    ],
  ),
  ...(Object.keys(EXERCISE_ITEMS) as ExerciseItemKey[]).map((key): [ActivityItemKey, ActivityItem] => [key, { key, ...EXERCISE_ITEMS[key] }]),
]);

export function isActivityItem(value: unknown): value is ActivityItemKey {
  return typeof value === 'string' && ACTIVITY_ITEMS.has(value as ActivityItemKey);
}

/** Where a record came from. */
export const ACTIVITY_SOURCES = ['device', 'app', 'console'] as const;
export type ActivitySource = (typeof ACTIVITY_SOURCES)[number];
export const ACTIVITY_SOURCE_TABLE = enumTable(ACTIVITY_SOURCES, (s) => `activities:source.${s}`);

/**
 * What a record belongs to: a free exercise session, an entry of a contest, a homework submission, a session of a
 * special-training plan, or a value taken during a PE lesson (practice, test or match). `ref_id` names the contest,
 * homework, plan or lesson.
 */
export const ACTIVITY_KINDS = ['exercise', 'contest', 'homework', 'training', 'lesson'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
