import { z } from 'zod';
import { LOCALES, type Locale } from '../constants';
import { blankAsNull, blankAsUndefined } from '../fields';
import { versionField } from '../list-query';
import { getCatalogEntry, type CatalogEntry, type CatalogFamily } from './catalog';

/**
 * Menu management (docs/product-rules.md#menu-management): platform operators rename, reorder, re-icon and hide the
 * catalogue's groups and pages without a deploy. The catalogue stays the source of what screens exist; these are
 * changes laid over it, and a reset drops them.
 */

/** The families whose menu trees menu management edits (the personal centre is fixed). */
export const MENU_FAMILIES = ['admin', 'k12', 'gx', 'single'] as const;
export type MenuFamily = (typeof MENU_FAMILIES)[number];

/** The screen that edits menus: never hidden, so an operator cannot lock themselves out of it. */
export const MENU_MANAGEMENT_KEY = 'single.menuManagement';

/** Icons a menu entry may use: the one list of the side menu's curated lucide set (src/components/layout/menu-icon.tsx maps each to its icon). */
export const MENU_ICON_NAMES = [
  'activity',
  'award',
  'bar-chart-3',
  'book-marked',
  'book-open',
  'building-2',
  'calendar-days',
  'clipboard-check',
  'clipboard-list',
  'cpu',
  'dumbbell',
  'flag',
  'graduation-cap',
  'heart-pulse',
  'image',
  'layout-dashboard',
  'layout-grid',
  'library',
  'map-pin',
  'medal',
  'monitor',
  'monitor-smartphone',
  'network',
  'notebook-pen',
  'school',
  'settings',
  'shield',
  'shield-check',
  'target',
  'timer',
  'trophy',
  'user-cog',
  'user-round',
  'users',
] as const;
export type MenuIconName = (typeof MENU_ICON_NAMES)[number];

export const MENU_NAME_MAX = 20;

/** Groups and pages of the edited families: what shows in a side menu. Hidden sub-routes and buttons follow their page. */
export function isMenuEditable(entry: CatalogEntry | undefined): entry is CatalogEntry {
  return !!entry && (MENU_FAMILIES as readonly CatalogFamily[]).includes(entry.family) && (entry.kind === 'group' || entry.kind === 'page');
}

const nameField = z.preprocess(blankAsUndefined, z.string().trim().max(MENU_NAME_MAX, 'validation:menu.nameLength').optional());

/** `:key` of a menu entry: a catalogue key. */
export const menuKeyParams = z.object({ key: z.string().max(120) });

export const menuCustomSaveSchema = z.object({
  /** Names by language; a language left empty shows the catalogue's name. */
  names: z.object({ zh_cn: nameField, zh_tw: nameField, en_us: nameField }).default({}),
  /** Empty: the catalogue's icon. */
  icon: z.preprocess(blankAsNull, z.enum(MENU_ICON_NAMES, { error: 'validation:menu.iconUnknown' }).nullable().optional()),
  visible: z.boolean().default(true),
  version: versionField.optional(),
});
export type MenuCustomSave = z.output<typeof menuCustomSaveSchema>;
export type MenuCustomForm = z.input<typeof menuCustomSaveSchema>;

export const menuMoveSchema = z.object({ direction: z.enum(['up', 'down']) });
export const menuFamilyQuery = z.object({ family: z.enum(MENU_FAMILIES, { error: 'validation:menu.familyUnknown' }) });

/** One entry of a family's menu tree as menu management shows it: the catalogue's values and the changes over them. */
export const menuCustomRowSchema = z.object({
  key: z.string(),
  parent: z.string().nullable(),
  kind: z.enum(['group', 'page']),
  path: z.string(),
  i18nKey: z.string(),
  /** The catalogue's zh_cn name. */
  name: z.string(),
  /** The catalogue's icon. */
  icon: z.string().nullable(),
  /** The order in effect (custom or the catalogue's). */
  sortNum: z.number(),
  names: z.partialRecord(z.enum(LOCALES), z.string()),
  customIcon: z.string().nullable(),
  hidden: z.boolean(),
  /** True when anything differs from the catalogue. */
  customised: z.boolean(),
  version: z.number(),
});
export type MenuCustomRow = z.output<typeof menuCustomRowSchema>;
/** The answer of resetting a family's menus: how many entries went back to the catalogue. */
export const menuResetCountSchema = z.object({ count: z.number() });

/** Keeps only the languages with a name, in a stable order; null when none. */
export function cleanNames(names: Partial<Record<Locale, string | undefined>>): Partial<Record<Locale, string>> | null {
  const out: Partial<Record<Locale, string>> = {};
  for (const l of LOCALES) if (names[l]) out[l] = names[l];
  return Object.keys(out).length ? out : null;
}

/**
 * True when a menu row (an entry `key` or a button `key#action`) is hidden: it or one of its catalogue ancestors
 * is. A hidden page takes its sub-routes and buttons with it, a hidden group its pages.
 */
export function isHiddenBy(hidden: ReadonlySet<string>, menuId: string): boolean {
  if (hidden.size === 0) return false;
  let key: string | null | undefined = menuId.split('#')[0];
  if (menuId !== key && hidden.has(menuId)) return true;
  while (key) {
    if (hidden.has(key)) return true;
    key = getCatalogEntry(key)?.parent;
  }
  return false;
}
