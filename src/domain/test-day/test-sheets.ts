import { z } from 'zod';
import { blankAsUndefined, optionalId } from '../fields';
import type { ResultKey } from '../physique/national-template';
import { ITEM_KEYS, type ItemKey } from '../physique/standard';

/**
 * The printed sheets of a test day (docs/product-rules.md#physique-year, "Test sheets"): test cards (a QR code per
 * student, `testCardCode`) and a station's class roster with blank columns for the items it tests.
 */
export const TEST_SHEET_KINDS = ['cards', 'roster'] as const;
export type TestSheetKind = (typeof TEST_SHEET_KINDS)[number];

/** Cards on one A4 page: 4 across, 12 down; a larger class runs onto a second page. */
export const CARDS_ACROSS = 4;
export const CARDS_DOWN = 12;
export const CARDS_PER_PAGE = CARDS_ACROSS * CARDS_DOWN;

/** Cards of one class, or of every class of the plan the caller may see (no `classId`). */
export const testCardsQuery = z.object({ classId: optionalId('testSheets:classInvalid') });
export type TestCardsQuery = z.output<typeof testCardsQuery>;

const itemList = z.preprocess(
  (v) => {
    const raw = blankAsUndefined(v);
    if (raw === undefined) return raw;
    const list = Array.isArray(raw) ? raw : String(raw).split(',');
    return [...new Set(list.map((s) => String(s).trim()).filter(Boolean))];
  },
  z.array(z.enum(ITEM_KEYS, { error: 'testSheets:itemUnknown' }), { error: 'testSheets:itemsRequired' }).min(1, 'testSheets:itemsRequired'),
);

/** A station's roster: the items it tests (`items=run50m,sitAndReach`) and optionally one class. */
export const stationRosterQuery = z.object({ items: itemList, classId: optionalId('testSheets:classInvalid') });
export type StationRosterQuery = z.output<typeof stationRosterQuery>;

/** The result fields a roster leaves blank for an item: BMI is measured as height and weight. */
export function rosterFields(item: ItemKey): ResultKey[] {
  return item === 'bmi' ? ['heightCm', 'weightKg'] : [item as ResultKey];
}

/** What the print dialog offers for a plan: its classes the caller may see and the items each grade takes. */
export const testSheetOptionsSchema = z.object({
  planName: z.string(),
  classes: z.array(z.object({ id: z.string(), name: z.string(), gradeNo: z.number(), students: z.number() })),
  /** The plan's items, in the standard's order, over all of its grades. */
  items: z.array(z.enum(ITEM_KEYS)),
});
export type TestSheetOptions = z.output<typeof testSheetOptionsSchema>;

/** Value of the print dialog's class choice for every class of the plan. */
export const ALL_CLASSES = 'all';

/** The print dialog's form: what to print, for which class (or all), and a roster's items. */
export const printSheetsFormSchema = z
  .object({
    kind: z.enum(TEST_SHEET_KINDS, { error: 'testSheets:kindRequired' }),
    classId: z.string({ error: 'testSheets:classInvalid' }).min(1, 'testSheets:classInvalid'),
    items: z.array(z.enum(ITEM_KEYS, { error: 'testSheets:itemUnknown' }), { error: 'testSheets:itemsRequired' }),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'roster' && v.items.length === 0) ctx.addIssue({ code: 'custom', path: ['items'], message: 'testSheets:itemsRequired' });
  });
export type PrintSheetsForm = z.input<typeof printSheetsFormSchema>;
