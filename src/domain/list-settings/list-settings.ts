import { z } from 'zod';
import '../fields';

/**
 * A user's column settings of one list (docs/product-rules.md#lists, docs/decisions/049-list-settings-on-the-server.md):
 * hidden columns, their order, pinned columns and the row density, stored per user and list on the server. The list
 * key is the catalogue page key and the list's id (`k12.user.student:student-list`).
 */

export const DENSITIES = ['compact', 'default', 'loose'] as const;
export type Density = (typeof DENSITIES)[number];

/** Rows of a list at each density differ from its default height by this many px (virtual rows use it as their size). */
export const DENSITY_ROW_DELTA: Record<Density, number> = { compact: -8, default: 0, loose: 8 };

/** The row height of a list at a density, from its default row height. */
export const rowHeightAt = (rowHeight: number, density: Density): number => rowHeight + DENSITY_ROW_DELTA[density];

/** Most columns a list may name (a long wide-row list has ~60). */
export const LIST_SETTINGS_MAX_COLUMNS = 120;
/** Most lists one user keeps settings of: far more than the catalogue's lists, so a loop cannot fill the table. */
export const LIST_SETTINGS_MAX_PER_USER = 400;

const columnId = z.string().min(1).max(80);
const columnIds = z.array(columnId).max(LIST_SETTINGS_MAX_COLUMNS, { message: 'listSettings:errors.tooManyColumns' });

/** `<catalogue page key>:<list id>`: the page key's dotted words, then the list's own id. */
export const LIST_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z0-9_-]+){1,4}:[A-Za-z0-9_-]{1,80}$/;
export const listKeySchema = z.string().max(160).regex(LIST_KEY_PATTERN, { message: 'listSettings:errors.badListKey' });

/** What the browser saves: every field required (a partial body would reset the others silently). */
export const listSettingsSchema = z.object(
  {
    hidden: columnIds,
    order: columnIds,
    pinStart: columnIds,
    pinEnd: columnIds,
    density: z.enum(DENSITIES, { message: 'listSettings:errors.badDensity' }),
  },
  { message: 'listSettings:errors.badSettings' },
);
export type ListSettings = z.infer<typeof listSettingsSchema>;

export const DEFAULT_LIST_SETTINGS: ListSettings = { hidden: [], order: [], pinStart: [], pinEnd: [], density: 'default' };

/**
 * Settings read back from storage: whatever an older shape or a bad row holds is dropped field by field (a list never
 * fails to open because of its settings).
 */
export function readListSettings(value: unknown): ListSettings {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const ids = (x: unknown) => {
    const parsed = columnIds.safeParse(x);
    return parsed.success ? [...new Set(parsed.data)] : [];
  };
  const density = z.enum(DENSITIES).safeParse(v.density);
  return { hidden: ids(v.hidden), order: ids(v.order), pinStart: ids(v.pinStart), pinEnd: ids(v.pinEnd), density: density.success ? density.data : 'default' };
}

export const saveListSettingsSchema = z.object({ listKey: listKeySchema, settings: listSettingsSchema });
export const listKeyBodySchema = z.object({ listKey: listKeySchema });
export const listSettingsEntrySchema = z.object({ listKey: z.string(), settings: listSettingsSchema, updatedAt: z.string() });
export type ListSettingsEntry = z.infer<typeof listSettingsEntrySchema>;
export const listSettingsAnswerSchema = z.array(listSettingsEntrySchema);

/** A list's columns as the settings see them. */
export interface ListColumnInfo {
  id: string;
  /** Cannot be hidden (the key column, the actions and select columns). */
  keep: boolean;
  /** Placed by the list, not the user: the select column first, the actions column last. */
  fixed?: 'start' | 'end';
}

/** The state a list shows: visibility by id, the full order, pinned ids, the density. */
export interface ResolvedListSettings {
  visibility: Record<string, boolean>;
  order: string[];
  pinStart: string[];
  pinEnd: string[];
  density: Density;
}

/**
 * Applies stored settings to a list's columns as they are now: unknown ids (a renamed or removed column) are ignored,
 * new columns take their default place, a column that must stay is shown whatever is stored.
 */
export function resolveListSettings(columns: readonly ListColumnInfo[], stored: ListSettings, defaultPinEnd: readonly string[] = []): ResolvedListSettings {
  const known = new Map(columns.map((c) => [c.id, c]));
  const movable = columns.filter((c) => !c.fixed).map((c) => c.id);
  const ordered = stored.order.filter((id) => known.has(id) && !known.get(id)!.fixed);
  // A column the stored order does not name (new since) goes after the named column it follows by default.
  const order = [...ordered];
  movable.forEach((id, i) => {
    if (order.includes(id)) return;
    const before = movable.slice(0, i).reverse().find((b) => order.includes(b));
    order.splice(before === undefined ? 0 : order.indexOf(before) + 1, 0, id);
  });
  const start = columns.filter((c) => c.fixed === 'start').map((c) => c.id);
  const end = columns.filter((c) => c.fixed === 'end').map((c) => c.id);
  const visibility: Record<string, boolean> = {};
  for (const id of stored.hidden) if (known.has(id) && !known.get(id)!.keep) visibility[id] = false;
  const pinnable = (id: string) => known.has(id) && !known.get(id)!.fixed;
  const pinStart = stored.pinStart.filter(pinnable);
  const pinEnd = stored.pinEnd.filter((id) => pinnable(id) && !pinStart.includes(id));
  return {
    visibility,
    order: [...start, ...order, ...end],
    // The select column stays first: pinned with the others when any column is pinned to the start.
    pinStart: pinStart.length > 0 ? [...start, ...pinStart] : [],
    pinEnd: [...pinEnd, ...defaultPinEnd.filter((id) => known.has(id) && !pinEnd.includes(id))],
    density: stored.density,
  };
}

/** The shown columns in the order the list shows them: pinned to the start first, to the end last. */
export function shownColumns(resolved: ResolvedListSettings): string[] {
  const pinned = new Set([...resolved.pinStart, ...resolved.pinEnd]);
  return [...resolved.pinStart, ...resolved.order.filter((id) => !pinned.has(id)), ...resolved.pinEnd].filter((id) => resolved.visibility[id] !== false);
}

/** True when the list shows its columns as it does by default (all of them, in their order): an export keeps its own layout. */
export function showsDefaultColumns(resolved: ResolvedListSettings, columns: readonly ListColumnInfo[]): boolean {
  const shown = shownColumns(resolved);
  return shown.length === columns.length && shown.every((id, i) => id === columns[i].id);
}

/** The query parameter an export of a list gets: the visible column ids in their order, comma separated. */
export const EXPORT_COLUMNS_PARAM = 'columns';
export const exportColumnsSchema = z
  .string()
  .max(4000)
  .transform((s) => s.split(',').map((id) => id.trim()).filter(Boolean))
  .pipe(z.array(columnId).max(LIST_SETTINGS_MAX_COLUMNS));
