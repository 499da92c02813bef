import { z } from 'zod';
// The domain's zod error map (unnamed issues answer i18n keys).
import '../fields';

/**
 * Imports never change an existing record silently (docs/product-rules.md#import-updates): a row that matches an
 * existing person or class by its key (学籍号, login account, grade + class code) changes it only when the person
 * ticked 更新已存在的数据 (`updateExisting`, off by default); otherwise the row is refused with a message. The dry run
 * lists every row it would update with the fields that change, before → after.
 */

/** The form field of the upload (and of the class import's query) that allows updates of existing records. */
export const UPDATE_EXISTING_FIELD = 'updateExisting';

/** Whether an upload's fields allow updates ('true' or '1' only: anything else, or no field, leaves them refused). */
export const allowsUpdates = (fields: Readonly<Record<string, string | undefined>>) => fields[UPDATE_EXISTING_FIELD] === 'true' || fields[UPDATE_EXISTING_FIELD] === '1';

/** One field an update changes: its label and both values, as the request's language shows them. */
export const fieldChangeSchema = z.object({ field: z.string(), label: z.string(), before: z.string(), after: z.string() });
export type FieldChange = z.output<typeof fieldChangeSchema>;

/** A row the commit would update (or, without the option, would have updated): row number, whom, what changes. */
export const rowUpdateSchema = z.object({
  row: z.number().int(),
  who: z.string().describe('The record as a person recognises it, e.g. 李思颖（G1100…）'),
  changes: z.array(fieldChangeSchema),
});
export type RowUpdate = z.output<typeof rowUpdateSchema>;

/** Updated rows the dry run lists one by one (the count covers them all). */
export const PREVIEW_UPDATE_ROWS = 500;

/**
 * The fields whose values differ, in the order given. `values` turns a raw value into what a person reads (a class
 * id into its name, a gender code into 男/女); equal raw values are no change.
 */
export function changedFields<K extends string>(
  before: Readonly<Record<K, unknown>>,
  after: Readonly<Record<K, unknown>>,
  fields: readonly K[],
  label: (field: K) => string,
  shown: (field: K, value: unknown) => string,
): FieldChange[] {
  const norm = (v: unknown) => (v == null ? '' : String(v));
  return fields.filter((f) => norm(before[f]) !== norm(after[f])).map((f) => ({ field: f, label: label(f), before: shown(f, before[f]), after: shown(f, after[f]) }));
}

/**
 * The student change rule (docs/product-rules.md#student-changes), for the student form and the import alike: a
 * student with physique results or test records keeps the gender they were scored with (the standard's tables differ
 * by gender, and a result keeps the gender it was scored with, so a changed gender would print a girl's scores on a
 * boy's report); a class change is a transfer (history kept; results keep the class and grade of their test).
 * Answers the refusal's message key, or null when the change is allowed.
 */
export function studentChangeRefusal(before: { gender: string }, after: { gender: string }, hasResults: boolean): `validation:${string}` | null {
  return before.gender !== after.gender && hasResults ? 'validation:student.genderHasResults' : null;
}
