import { GENDERS, GRADES, ITEM_KEYS, itemsForGrade, type Grade, type ItemKey, type StandardVersion } from '../physique/standard';
import type { PlanGradeItems } from './types';

/**
 * Items a plan may test in a grade (1–16) under a standard version: the standard's items of both
 * genders, in table order (docs/product-rules.md#test-plans). A plan's default is all of them; a student is tested on
 * the plan's items that the standard sets for their gender.
 */
export function planItemsForGrade(grade: Grade, version: StandardVersion): ItemKey[] {
  const items = new Set<ItemKey>();
  for (const gender of GENDERS) for (const spec of itemsForGrade(grade, gender, version)) items.add(spec.item);
  return ITEM_KEYS.filter((item) => items.has(item));
}

/** Default items of every grade under a standard version. */
export function defaultPlanItems(version: StandardVersion, grades: readonly Grade[] = GRADES): PlanGradeItems[] {
  return grades.map((gradeNo) => ({ gradeNo, items: planItemsForGrade(gradeNo, version) }));
}

/** The plan's items for a student of this grade and gender: the selection intersected with the standard's items for the gender. */
export function studentPlanItems(selected: readonly ItemKey[], grade: Grade, gender: 'male' | 'female', version: StandardVersion): ItemKey[] {
  const wanted = new Set(selected);
  return itemsForGrade(grade, gender, version)
    .map((s) => s.item)
    .filter((item) => wanted.has(item));
}
