import type { ResultKey } from '../physique/national-template';

/**
 * Where a raw value of a result came from: a workbook import, a hand edit, or a device record (sync). Stored as two
 * bit masks per result (imported, edited); a value in neither came from a device. The bit of a field is its index
 * here: never reorder this list, only append (the masks are stored, and the migration backfills them by position).
 */
export const SOURCE_FIELDS: readonly ResultKey[] = [
  'heightCm',
  'weightKg',
  'vitalCapacity',
  'run50m',
  'sitAndReach',
  'rope1min',
  'sitUp1min',
  'shuttle50x8',
  'pullUp',
  'standingLongJump',
  'run1000m',
  'run800m',
];

export type ValueSource = 'import' | 'manual' | 'device';

const BIT = new Map(SOURCE_FIELDS.map((f, i) => [f, 1 << i]));

/** The bit of one field (0 for a field without one). */
export const fieldBit = (field: ResultKey): number => BIT.get(field) ?? 0;

/** The mask of several fields. */
export function fieldMask(fields: Iterable<ResultKey>): number {
  let mask = 0;
  for (const f of fields) mask |= fieldBit(f);
  return mask;
}

/** Source of one stored value from the result's masks. */
export function valueSource(masks: { importedFields: number; editedFields: number }, field: ResultKey): ValueSource {
  const bit = fieldBit(field);
  if (masks.editedFields & bit) return 'manual';
  if (masks.importedFields & bit) return 'import';
  return 'device';
}

/** The masks after `fields` were written from `source`: each field's bit moves to that source's mask. */
export function withSource(masks: { importedFields: number; editedFields: number }, fields: Iterable<ResultKey>, source: ValueSource) {
  const bits = fieldMask(fields);
  return {
    importedFields: source === 'import' ? masks.importedFields | bits : masks.importedFields & ~bits,
    editedFields: source === 'manual' ? masks.editedFields | bits : masks.editedFields & ~bits,
  };
}
