/**
 * How a domain enum shows to users: one table per enum, next to the enum, of each value's label (an i18n key, 'ns:path')
 * and tone (the colour of its badge, by meaning). Select options, a table cell's text and a badge all derive from it
 * (enumOptions, enumLabel here; EnumBadge in src/components/enum-badge), so a state reads and looks the same on every
 * screen and a new value is added in one place.
 */

/** A badge's colour by meaning; src/components/enum-badge maps each to a Badge variant. */
export const TONES = ['primary', 'neutral', 'success', 'warning', 'danger', 'plain'] as const;
export type Tone = (typeof TONES)[number];

export interface EnumEntry<V extends string = string> {
  value: V;
  labelKey: string;
  tone: Tone;
}

/** The presentation table of one enum, in the order its options list. */
export type EnumTable<V extends string = string> = readonly EnumEntry<V>[];

/**
 * A table from the enum's values: `labelKey` names each value's label, `tones` its tone (neutral when not named).
 * `enumTable(DEVICE_STATUSES, (s) => `venue:device.statuses.${s}`, { online: 'success', disabled: 'danger' })`.
 */
export function enumTable<V extends string>(values: readonly V[], labelKey: (value: V) => string, tones: Partial<Record<V, Tone>> = {}): EnumTable<V> {
  return values.map((value) => ({ value, labelKey: labelKey(value), tone: tones[value] ?? 'neutral' }));
}

/** The entry of a value; undefined for a value the table does not know (an older or newer server). */
export function enumEntry<V extends string>(table: EnumTable<V>, value: string): EnumEntry<V> | undefined {
  return table.find((e) => e.value === value);
}

type Translate = (key: string) => string;

/** The select or radio options of an enum; with `only`, those values in that order (values the table lacks left out). */
export function enumOptions<V extends string>(table: EnumTable<V>, t: Translate, only?: readonly string[]): { value: V; label: string }[] {
  const entries = only ? only.flatMap((v) => table.filter((e) => e.value === v)) : table;
  return entries.map((e) => ({ value: e.value, label: t(e.labelKey) }));
}

/** A value's label, for a table cell or a text; a value the table does not know shows as it is. */
export function enumLabel(table: EnumTable, value: string, t: Translate): string {
  const entry = enumEntry(table, value);
  return entry ? t(entry.labelKey) : value;
}
