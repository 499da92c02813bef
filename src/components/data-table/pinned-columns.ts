import { useLayoutEffect, type CSSProperties, type RefObject } from 'react';
import type { Column, RowData } from '@tanstack/react-table';
import type { DataTableFeatures } from './data-table-features';

/** Where a column is pinned: the start (left) or end (right) edge of the table, or not at all. */
export type PinSide = 'start' | 'end' | false;

/**
 * A column's pinned side. With column settings (`pinning` state) TanStack's own; without them the column's
 * `meta.pin: 'right'` (the row actions), as every table had it before the settings.
 */
export function pinOf<T extends RowData>(column: Column<DataTableFeatures, T>, withSettings: boolean): PinSide {
  if (withSettings) return column.getIsPinned();
  return column.columnDef.meta?.pin === 'right' ? 'end' : false;
}

const SHADOW_END = 'shadow-[inset_1px_0_0_var(--color-border),-6px_0_8px_-6px_rgb(0_0_0/0.18)]';
const SHADOW_START = 'shadow-[inset_-1px_0_0_var(--color-border),6px_0_8px_-6px_rgb(0_0_0/0.18)]';

/** Sticky, opaque, with a shadow on the side rows pass under. */
export function pinCellClass(side: PinSide, head: boolean): string | false {
  if (!side) return false;
  return `sticky ${head ? 'z-[2] bg-muted' : 'z-[1] bg-card'} ${side === 'start' ? SHADOW_START : SHADOW_END}`;
}

/** The offset of the column at display index `i` from its edge, measured after layout (usePinnedOffsets). */
export function pinStyle(side: PinSide, i: number): CSSProperties | undefined {
  if (!side) return undefined;
  return side === 'start' ? { left: `var(--dt-pin-${i}, 0px)` } : { right: `var(--dt-pin-${i}, 0px)` };
}

/**
 * Several pinned columns stack: each sits past the widths of the pinned columns nearer its edge. Widths are only known
 * after layout (paged tables size columns by content), so they are measured from the header cells and handed to the
 * cells as CSS variables on the table. `key` changes when the columns or rows change; resizes are observed.
 */
export function usePinnedOffsets(tableRef: RefObject<HTMLTableElement | null>, sides: readonly PinSide[], key: unknown): void {
  const pinnedCount = sides.filter(Boolean).length;
  const sidesKey = sides.join(',');
  useLayoutEffect(() => {
    const table = tableRef.current;
    // One column pinned at each edge at most sits at offset 0: nothing to measure.
    if (!table || pinnedCount === 0) return;
    const measure = () => {
      const cells = [...table.querySelectorAll<HTMLElement>(':scope > thead > tr:first-child > th')];
      let left = 0;
      cells.forEach((th, i) => {
        if (th.dataset.pin !== 'start') return;
        table.style.setProperty(`--dt-pin-${i}`, `${left}px`);
        left += th.getBoundingClientRect().width;
      });
      let right = 0;
      for (let i = cells.length - 1; i >= 0; i--) {
        if (cells[i].dataset.pin !== 'end') continue;
        table.style.setProperty(`--dt-pin-${i}`, `${right}px`);
        right += cells[i].getBoundingClientRect().width;
      }
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(table);
    return () => observer.disconnect();
  }, [tableRef, pinnedCount, sidesKey, key]);
}
