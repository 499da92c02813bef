import type { ColumnOrderState, ColumnPinningState, ColumnVisibilityState } from '@tanstack/react-table';
import type { Density, ResolvedListSettings } from '@/domain/list-settings/list-settings';

/** A list's resolved settings as TanStack Table's visibility, order and pinning state. */
export function settingsState(settings: ResolvedListSettings): { columnVisibility: ColumnVisibilityState; columnOrder: ColumnOrderState; columnPinning: ColumnPinningState } {
  return {
    columnVisibility: settings.visibility,
    columnOrder: settings.order,
    columnPinning: { start: settings.pinStart, end: settings.pinEnd },
  };
}

/** Vertical padding of a paged table's cells at each density (virtual rows take their height instead). */
export const DENSITY_CELL_CLASS: Record<Density, string> = { compact: 'py-1', default: 'py-2', loose: 'py-3' };
