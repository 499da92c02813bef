import { z } from 'zod';
import { formBoolean, requiredNumber } from '../fields';
import type { Locale } from '../constants';
import { listQuery, versionField } from '../list-query';
import type { EnumTable } from '../presentation';
import { EXEMPTION_KIND_TABLE } from '../exemptions/exemptions';
import { GENDER_TABLE } from '../people/gender';
import { PARENT_RELATION_TABLE } from '../people/parents';
import { ETHNICITY_CODES } from '../people/students';
import { CERTIFICATE_TYPE_TABLE, TEACHING_SUBJECT_TABLE } from '../people/staff';
import { gradeNameKey } from '../school/grade-name';
import { DEVICE_KIND_TABLE } from '../venue/devices';
import { VENUE_TYPE_TABLE } from '../venue/venues';
import { dictionaryCode } from './codes';

/**
 * Dictionaries (字典管理, docs/product-rules.md#dictionaries, docs/decisions/057-dictionaries.md): a code and its
 * entries. Platform entries are the areas' own code lists (one source: the enum tables beside each rule, labels in the
 * locales); an extendable dictionary also takes an organisation's own entries (its own labels per language), which the
 * organisation and the organisations below it see. A platform dictionary's codes are what other rules depend on, so
 * organisations only read it.
 */

export interface PlatformEntry {
  code: string;
  labelKey: string;
}

interface DictionaryDef {
  /** Organisations may add their own entries (and disable or rename those), never change a platform entry. */
  extendable: boolean;
  entries: readonly PlatformEntry[];
}

const fromTable = (table: EnumTable): readonly PlatformEntry[] => table.map((e) => ({ code: e.value, labelKey: e.labelKey }));
const GRADE_NOS = Array.from({ length: 16 }, (_, i) => i + 1);

/** Every dictionary, in the order the screen lists them. */
export const DICTIONARIES = {
  venueType: { extendable: true, entries: fromTable(VENUE_TYPE_TABLE) },
  deviceKind: { extendable: false, entries: fromTable(DEVICE_KIND_TABLE) },
  gender: { extendable: false, entries: fromTable(GENDER_TABLE) },
  nation: { extendable: false, entries: ETHNICITY_CODES.map((code) => ({ code, labelKey: `people:students.nation.${code}` })) },
  grade: { extendable: false, entries: GRADE_NOS.map((n) => ({ code: String(n), labelKey: gradeNameKey(n) })) },
  parentRelation: { extendable: false, entries: fromTable(PARENT_RELATION_TABLE) },
  certificateType: { extendable: false, entries: fromTable(CERTIFICATE_TYPE_TABLE) },
  teachingSubject: { extendable: false, entries: fromTable(TEACHING_SUBJECT_TABLE) },
  exemptionKind: { extendable: false, entries: fromTable(EXEMPTION_KIND_TABLE) },
} as const satisfies Record<string, DictionaryDef>;

export type DictionaryCode = keyof typeof DICTIONARIES;
export const DICTIONARY_CODES = Object.keys(DICTIONARIES) as [DictionaryCode, ...DictionaryCode[]];
export type ExtendableDictionary = { [K in DictionaryCode]: (typeof DICTIONARIES)[K]['extendable'] extends true ? K : never }[DictionaryCode];
export const EXTENDABLE_DICTIONARIES = DICTIONARY_CODES.filter((c) => DICTIONARIES[c].extendable) as [ExtendableDictionary, ...ExtendableDictionary[]];
export const isExtendable = (code: string): code is ExtendableDictionary => (EXTENDABLE_DICTIONARIES as readonly string[]).includes(code);
export const dictionaryNameKey = (code: DictionaryCode) => `dictionaries:name.${code}` as const;

export const ENTRY_LABEL_MAX = 30;
export const ENTRY_SORT_MAX = 9999;
/** Where an entry comes from, seen from the signed-in organisation. */
export const ENTRY_ORIGINS = ['platform', 'inherited', 'own'] as const;
export type EntryOrigin = (typeof ENTRY_ORIGINS)[number];

const label = (required: boolean) =>
  required
    ? z.string({ error: 'dictionaries:errors.labelRequired' }).trim().min(1, 'dictionaries:errors.labelRequired').max(ENTRY_LABEL_MAX, 'validation:common.tooLong')
    : z.string({ error: 'validation:common.invalid' }).trim().max(ENTRY_LABEL_MAX, 'validation:common.tooLong').default('');

const entryFields = {
  // The simplified Chinese label is required; the others fall back to it where blank.
  labelZhCn: label(true),
  labelZhTw: label(false),
  labelEnUs: label(false),
  sort: requiredNumber('dictionaries:errors.sortRequired', 'validation:common.int').pipe(
    z.number().int('validation:common.int').min(0, 'validation:common.tooSmall').max(ENTRY_SORT_MAX, 'validation:common.tooBig'),
  ),
  enabled: formBoolean,
};

/** A new organisation entry: its dictionary (an extendable one) and code, which stay as they are once saved. */
export const dictionaryEntryCreateSchema = z.object({
  dictionary: z.enum(DICTIONARY_CODES, { error: 'dictionaries:errors.dictionaryRequired' }),
  code: dictionaryCode('dictionaries:errors.codeRequired'),
  ...entryFields,
});
/** An organisation entry's labels, order and whether it is offered; `version` refuses a stale save. */
export const dictionaryEntryUpdateSchema = z.object({ ...entryFields, version: versionField });
export type DictionaryEntryCreate = z.output<typeof dictionaryEntryCreateSchema>;
export type DictionaryEntryUpdate = z.output<typeof dictionaryEntryUpdateSchema>;
export type DictionaryEntryForm = z.input<typeof dictionaryEntryCreateSchema> & { version?: number };

/** The screen's list: one dictionary's effective entries (disabled ones too). */
export const dictionaryEntryListQuery = listQuery({ dictionary: z.enum(DICTIONARY_CODES, { error: 'dictionaries:errors.dictionaryRequired' }).default('venueType') });
export type DictionaryEntryListQuery = z.output<typeof dictionaryEntryListQuery>;
export const dictionaryParamsSchema = z.object({ code: z.enum(DICTIONARY_CODES, { error: 'errors:notFound' }) });

/** One entry as the organisation sees it: a platform entry has a label key, an organisation entry its own labels. */
export const dictionaryEntrySchema = z.object({
  /** The organisation entry's id; for a platform entry `platform.<dictionary>.<code>` (it cannot be addressed). */
  id: z.string(),
  code: z.string(),
  labelKey: z.string().nullable(),
  labels: z.object({ zh_cn: z.string(), zh_tw: z.string(), en_us: z.string() }).nullable(),
  sort: z.number().int(),
  enabled: z.boolean(),
  origin: z.enum(ENTRY_ORIGINS),
  /** The organisation that added it (an inherited or own entry). */
  orgName: z.string().nullable(),
  version: z.number().int().nullable(),
});
export type DictionaryEntry = z.output<typeof dictionaryEntrySchema>;
export const dictionaryAnswerSchema = z.object({ code: z.enum(DICTIONARY_CODES), extendable: z.boolean(), entries: z.array(dictionaryEntrySchema) });
export type DictionaryAnswer = z.output<typeof dictionaryAnswerSchema>;

/** The platform entries of a dictionary as entries (sorted as listed, always enabled). */
export function platformEntries(code: DictionaryCode): DictionaryEntry[] {
  return DICTIONARIES[code].entries.map((e, i) => ({
    id: `platform.${code}.${e.code}`,
    code: e.code,
    labelKey: e.labelKey,
    labels: null,
    sort: i,
    enabled: true,
    origin: 'platform',
    orgName: null,
    version: null,
  }));
}

/**
 * The effective list: the platform's entries first, then the organisation's and its ancestors' by sort and code. A
 * platform code is never shadowed (the server refuses such an entry; one from an older save is left out here).
 */
export function effectiveEntries(code: DictionaryCode, orgEntries: readonly DictionaryEntry[]): DictionaryEntry[] {
  const platform = platformEntries(code);
  const taken = new Set(platform.map((e) => e.code));
  const own: DictionaryEntry[] = [];
  for (const entry of [...orgEntries].sort((a, b) => a.sort - b.sort || a.code.localeCompare(b.code))) {
    if (taken.has(entry.code)) continue;
    taken.add(entry.code);
    own.push(entry);
  }
  return [...platform, ...own];
}

/** An entry's label in a language: a platform entry through the translator, an organisation entry its own (blank → zh_cn). */
export function entryLabel(entry: Pick<DictionaryEntry, 'labelKey' | 'labels'>, locale: Locale, t: (key: string) => string): string {
  if (entry.labelKey) return t(entry.labelKey);
  const labels = entry.labels;
  if (!labels) return '';
  return labels[locale] || labels.zh_tw || labels.zh_cn;
}

/** A code's label among entries; an unknown code shows as it is (a newer or removed entry). */
export function codeLabel(entries: readonly DictionaryEntry[], code: string, locale: Locale, t: (key: string) => string): string {
  const entry = entries.find((e) => e.code === code);
  return entry ? entryLabel(entry, locale, t) : code;
}

/**
 * The one rule "a code is in the effective dictionary" (docs/product-rules.md#dictionaries), for the form and the
 * server: an enabled entry, or the value the record already holds (a disabled entry stays on the records that have it).
 * Null when accepted, else the message key.
 */
export function dictionaryCodeIssue(entries: readonly DictionaryEntry[], code: string, current?: string | null): string | null {
  if (current !== undefined && current !== null && code === current) return null;
  return entries.some((e) => e.enabled && e.code === code) ? null : 'dictionaries:errors.notInDictionary';
}
