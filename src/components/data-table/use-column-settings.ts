import { useCallback, useMemo } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import {
  DEFAULT_LIST_SETTINGS,
  readListSettings,
  resolveListSettings,
  showsDefaultColumns,
  shownColumns,
  type ListSettings,
  type ListSettingsEntry,
  type ResolvedListSettings,
} from '@/domain/list-settings/list-settings';
import { get, post } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import type { ColumnSettingsItem } from './column-settings';

/** The signed-in user's list settings (server/modules/list-settings): loaded once per session, saved a moment after a change. */
export const LIST_SETTINGS_API = '/api/busi/web/listSettings';
export const LIST_SETTINGS_QUERY_KEY = ['listSettings'] as const;
/** A drag or a few ticks in a row make one save. */
export const LIST_SETTINGS_SAVE_DELAY_MS = 600;

// Saves waiting for their delay, by list key: module level, so a change made just before leaving the page is still saved.
const pending = new Map<string, ReturnType<typeof setTimeout>>();

function putLocal(client: QueryClient, listKey: string, settings: ListSettings | null) {
  client.setQueryData<ListSettingsEntry[]>(LIST_SETTINGS_QUERY_KEY, (old = []) => {
    const others = old.filter((e) => e.listKey !== listKey);
    return settings ? [{ listKey, settings, updatedAt: new Date().toISOString() }, ...others] : others;
  });
}

/** A failed save keeps the local state (the page goes on showing it) and says so. */
const saveFailed = (t: TFunction) => (error: unknown) => {
  toast.warning(t('listSettings:saveFailed', { message: error instanceof Error ? error.message : String(error) }));
};

export interface ColumnSettingsStore {
  /** The list's stored settings (the defaults until the user changes something). */
  settings: ListSettings;
  /** Whether the user's settings have arrived (a list shows its defaults until then). */
  loaded: boolean;
  change(next: ListSettings): void;
  /** Back to the list's defaults, here and on the server. */
  reset(): void;
}

/**
 * One list's settings of the signed-in user (docs/decisions/049-list-settings-on-the-server.md). `listKey` undefined:
 * a list without settings (nothing is loaded or saved).
 */
export function useColumnSettings(listKey: string | undefined): ColumnSettingsStore {
  const client = useQueryClient();
  const { t } = useTranslation('listSettings');
  const query = useQuery({
    queryKey: LIST_SETTINGS_QUERY_KEY,
    queryFn: () => get<ListSettingsEntry[]>(LIST_SETTINGS_API),
    enabled: listKey !== undefined,
    // Once per session: this browser's own changes go into the cache as they are made.
    staleTime: Infinity,
    gcTime: Infinity,
    // A list works with its defaults when the settings cannot be read; no toast for it.
    meta: { silent: true },
    retry: false,
  });
  const entry = listKey ? query.data?.find((e) => e.listKey === listKey) : undefined;
  const settings = useMemo(() => (entry ? readListSettings(entry.settings) : DEFAULT_LIST_SETTINGS), [entry]);

  const change = useCallback(
    (next: ListSettings) => {
      if (!listKey) return;
      putLocal(client, listKey, next);
      clearTimeout(pending.get(listKey));
      pending.set(
        listKey,
        setTimeout(() => {
          pending.delete(listKey);
          post(`${LIST_SETTINGS_API}/save`, { listKey, settings: next }).catch(saveFailed(t));
        }, LIST_SETTINGS_SAVE_DELAY_MS),
      );
    },
    [client, listKey, t],
  );
  const reset = useCallback(() => {
    if (!listKey) return;
    clearTimeout(pending.get(listKey));
    pending.delete(listKey);
    putLocal(client, listKey, null);
    post(`${LIST_SETTINGS_API}/reset`, { listKey }).catch(saveFailed(t));
  }, [client, listKey, t]);

  return { settings, loaded: !query.isPending || listKey === undefined, change, reset };
}

/** A column definition as far as the settings read it. */
interface ColumnDefLike {
  id?: string;
  accessorKey?: unknown;
  header?: unknown;
  meta?: { pin?: 'right'; label?: string; keep?: boolean };
}

/** The id TanStack Table gives a column: its `id`, else its accessor key (dots as underscores), else its text header. */
export function columnIdOf(def: ColumnDefLike): string | undefined {
  if (def.id) return def.id;
  if (typeof def.accessorKey === 'string') return def.accessorKey.replaceAll('.', '_');
  return typeof def.header === 'string' ? def.header : undefined;
}

/**
 * The columns of a list as the settings see them: the select column first and the actions column (or any column pinned
 * right by the list) last are the list's, not the user's; the key column (the first other one, or one marked
 * `meta.keep`) cannot be hidden.
 */
export function columnItemsOf(defs: readonly ColumnDefLike[]): ColumnSettingsItem[] {
  const items: ColumnSettingsItem[] = [];
  const marked = defs.some((d) => d.meta?.keep);
  let keyTaken = false;
  for (const def of defs) {
    const id = columnIdOf(def);
    if (!id) continue;
    const fixed = id === 'select' ? 'start' : id === 'actions' || def.meta?.pin === 'right' ? 'end' : undefined;
    const isKey = !fixed && (marked ? def.meta?.keep === true : !keyTaken);
    if (!fixed && !marked) keyTaken = true;
    items.push({ id, label: def.meta?.label ?? (typeof def.header === 'string' ? def.header : id), keep: Boolean(fixed) || isKey, ...(fixed && { fixed }) });
  }
  return items;
}

export interface ListColumnSettings extends ColumnSettingsStore {
  items: ColumnSettingsItem[];
  resolved: ResolvedListSettings;
  /** The shown column ids in their order, or undefined while the list shows its defaults (an export keeps its layout). */
  exportColumns: string[] | undefined;
}

/** A list's column settings: the store, its columns, and the settings applied to them. */
export function useListColumnSettings(listKey: string, columns: readonly ColumnDefLike[]): ListColumnSettings {
  const store = useColumnSettings(listKey);
  const items = useMemo(() => columnItemsOf(columns), [columns]);
  const resolved = useMemo(
    // The columns the list itself pins right (the row actions) stay pinned there.
    () => resolveListSettings(items, store.settings, columns.filter((d) => d.meta?.pin === 'right').map((d) => columnIdOf(d)!)),
    [items, columns, store.settings],
  );
  const exportColumns = useMemo(() => (showsDefaultColumns(resolved, items) ? undefined : shownColumns(resolved)), [resolved, items]);
  return { ...store, items, resolved, exportColumns };
}
