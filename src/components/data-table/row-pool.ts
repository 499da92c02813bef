import { type CSSProperties, type ReactNode } from 'react';
import type { Column, Row, RowData } from '@tanstack/react-table';
import type { DataTableFeatures } from './data-table-features';
import { renderVirtualCell } from './data-table-parts';

/** One body cell of every pooled row: the column (display index) and its fixed inline style (grid track, pinned offset). */
export interface PoolCell {
  column: number;
  style?: CSSProperties;
}

/** What the pool draws: changes only on a React render of the table (data, sorting, columns, column window, density). */
export interface PoolConfig<T extends RowData> {
  rows: readonly Row<DataTableFeatures, T>[];
  columns: readonly Column<DataTableFeatures, T>[];
  cellClasses: readonly string[];
  cells: readonly PoolCell[];
  rowClass: string;
  height: number;
  /** Rows are focusable (the table has a row click). */
  focusable: boolean;
}

interface PooledCell {
  readonly td: HTMLTableCellElement;
  /** The column it shows (display index), and its inline style as text (to see when the plan gives it another). */
  readonly column: number;
  style: string;
  text: Text | null;
  /** What a cell with a component shows, rendered into the cell by a React portal; undefined for a text cell. */
  node: ReactNode | undefined;
}

interface PooledRow {
  readonly tr: HTMLTableRowElement;
  cells: PooledCell[];
  /** The row (display index) this element shows, -1 for none. */
  index: number;
}

const styleText = (style: CSSProperties | undefined) => (style ? JSON.stringify(style) : '');

function newCell({ column, style }: PoolCell): PooledCell {
  const td = document.createElement('td');
  if (style) Object.assign(td.style, style);
  return { td, column, style: styleText(style), text: null, node: undefined };
}

/** A cell template's answer React would draw as text (or nothing). */
const isText = (node: ReactNode): node is string | number | boolean | null | undefined =>
  node === null || node === undefined || typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean';

/**
 * The body rows of a virtual table: a fixed number of row elements (slots) that DataTable's scroll handler fills
 * straight from the row model, without a React render per frame (decision 014). Row i always lives in slot
 * i % slots, so a scroll step refills only the rows that entered the view and moves each of them once (the row leaving
 * at one end goes to the other), and rows still in view are not touched. Text cells get their text node's data set;
 * a cell whose template answers a component (a link, a badge) is drawn by React through a portal into the cell
 * (`portalCells`), so only tables with such cells render React while scrolling, and only those cells.
 */
export class RowPool<T extends RowData> {
  private body: HTMLElement | null = null;
  private spacer: HTMLElement | null = null;
  private config: PoolConfig<T> | null = null;
  private slots: PooledRow[] = [];
  private spacerHeight = -1;
  private flinging = false;
  private componentCells = 0;

  /** The table body and its spacer row (React's), or null on unmount. */
  attach(body: HTMLElement | null, spacer: HTMLElement | null): void {
    if (body === this.body && spacer === this.spacer) return;
    this.body = body;
    this.spacer = spacer;
    this.slots = [];
    this.spacerHeight = -1;
    this.flinging = false;
  }

  /**
   * Inputs from a React render: rows are made again when their cells change, and drawn again when the rows do
   * (new data, sorting); a render that changed neither (the portals' own) leaves them.
   */
  configure(config: PoolConfig<T>): void {
    const prev = this.config;
    this.config = config;
    if (!prev) return;
    if (
      prev.columns !== config.columns ||
      prev.cellClasses !== config.cellClasses ||
      prev.rowClass !== config.rowClass ||
      prev.height !== config.height ||
      prev.focusable !== config.focusable
    ) {
      for (const slot of this.slots) slot.tr.remove();
      this.slots = [];
    } else if (prev.cells !== config.cells) {
      this.replan();
    } else if (prev.rows !== config.rows) {
      for (const slot of this.slots) slot.index = -1;
    }
  }

  /**
   * Shows `count` slots of rows from `first` (display index), placed by the spacer's height. While `flinging` the
   * rows last drawn stay as they are and the body's background shows placeholder rows (fling.ts).
   */
  draw(first: number, count: number, flinging: boolean, placeholder: string): void {
    const { body, spacer, config } = this;
    if (!body || !spacer || !config) return;
    if (flinging !== this.flinging) {
      this.flinging = flinging;
      body.toggleAttribute('data-flinging', flinging);
      body.style.backgroundImage = flinging ? placeholder : '';
    }
    const { rows, height } = config;
    count = Math.max(1, count);
    if (this.slots.length !== count) this.resize(count);
    const last = Math.min(rows.length, first + count);
    const spacerHeight = last > first ? first * height : 0;
    if (spacerHeight !== this.spacerHeight) {
      this.spacerHeight = spacerHeight;
      spacer.style.height = `${spacerHeight}px`;
    }

    // The rows still in view keep their element and place: one run, in order, as both the old and the new are.
    let keptFrom = -1;
    let keptTo = -2;
    for (let i = first; i < last; i++) {
      if (this.slots[i % count]!.index !== i) continue;
      if (keptFrom < 0) keptFrom = i;
      keptTo = i;
    }
    // Slot s shows the row `first + offset`; slots past the end of the list leave the body.
    const used = last - first;
    for (let s = 0; s < count; s++) {
      const slot = this.slots[s]!;
      const offset = (s - (first % count) + count) % count;
      if (offset < used) {
        if (slot.index !== first + offset) this.fill(slot, first + offset);
      } else if (slot.index !== -1 || slot.tr.parentNode) {
        this.leave(slot);
        slot.index = -1;
        slot.tr.remove();
      }
    }
    // Each new row goes right after the one before it; a row already there is not moved (a move restyles it).
    let prev: Element = spacer;
    for (let i = first; i < last; i++) {
      if (i === keptFrom) {
        prev = this.slots[keptTo % count]!.tr;
        i = keptTo;
        continue;
      }
      const tr = this.slots[i % count]!.tr;
      if (prev.nextSibling !== tr) body.insertBefore(tr, prev.nextSibling);
      prev = tr;
    }
  }

  /** The cells drawn by React (templates that answer components): [cell, content, key]. */
  componentCellList(): [HTMLTableCellElement, ReactNode, string][] {
    const list: [HTMLTableCellElement, ReactNode, string][] = [];
    this.slots.forEach((slot, s) => {
      if (slot.index < 0) return;
      slot.cells.forEach((cell) => {
        if (cell.node !== undefined) list.push([cell.td, cell.node, `${s}:${cell.column}`]);
      });
    });
    return list;
  }

  private resize(count: number): void {
    for (const slot of this.slots) slot.tr.remove();
    const config = this.config!;
    this.slots = Array.from({ length: count }, () => {
      const tr = document.createElement('tr');
      tr.setAttribute('data-slot', 'data-table-row');
      tr.className = config.rowClass;
      tr.style.height = `${config.height}px`;
      if (config.focusable) tr.tabIndex = 0;
      const cells = config.cells.map((plan): PooledCell => {
        const cell = newCell(plan);
        tr.append(cell.td);
        return cell;
      });
      return { tr, cells, index: -1 };
    });
  }

  /**
   * The columns in horizontal view changed (a sideways scroll): each row keeps the cells of the columns still drawn,
   * gains the new ones and drops the rest, in the plan's order, and is filled again (unchanged text is not written).
   */
  private replan(): void {
    const plan = this.config!.cells;
    for (const slot of this.slots) {
      const old = new Map(slot.cells.map((cell) => [cell.column, cell]));
      const cells = plan.map((want): PooledCell => {
        const cell = old.get(want.column);
        if (!cell) return newCell(want);
        old.delete(want.column);
        const style = styleText(want.style);
        if (cell.style !== style) {
          cell.td.removeAttribute('style');
          if (want.style) Object.assign(cell.td.style, want.style);
          cell.style = style;
        }
        return cell;
      });
      for (const gone of old.values()) gone.td.remove();
      let at: ChildNode | null = slot.tr.firstChild;
      for (const cell of cells) {
        if (at === cell.td) at = at.nextSibling;
        else slot.tr.insertBefore(cell.td, at);
      }
      slot.cells = cells;
      slot.index = -1;
    }
  }

  /** A slot stops showing its row: if it had focus, Enter would open another record, so focus goes to the scroll area. */
  private leave(slot: PooledRow): void {
    if (slot.tr === document.activeElement) slot.tr.closest<HTMLElement>('[data-slot=data-table-scroll]')?.focus({ preventScroll: true });
  }

  private fill(slot: PooledRow, index: number): void {
    const { rows, columns, cellClasses, cells } = this.config!;
    const row = rows[index]!;
    if (slot.index !== -1) this.leave(slot);
    slot.index = index;
    slot.tr.setAttribute('aria-rowindex', String(index + 2));
    let components = false;
    for (let c = 0; c < cells.length; c++) {
      const at = cells[c]!.column;
      const column = columns[at]!;
      const cell = slot.cells[c]!;
      const own = column.columnDef.meta?.cellClass?.(row.original);
      const className = own ? `${cellClasses[at]} ${own}` : cellClasses[at]!;
      if (cell.td.className !== className) cell.td.className = className;
      const content = renderVirtualCell(column, row);
      if (cell.node === undefined && isText(content)) {
        const text = content === null || content === undefined || typeof content === 'boolean' ? '' : String(content);
        if (cell.text) {
          if (cell.text.data !== text) cell.text.data = text;
        } else {
          cell.text = document.createTextNode(text);
          cell.td.append(cell.text);
        }
      } else {
        // Once a cell has had a component, React draws it from then on (a portal's content is React's to remove).
        cell.text?.remove();
        cell.text = null;
        cell.node = content ?? null;
        components = true;
      }
    }
    if (components) this.componentCells++;
  }

  /** Whether any cell drawn since the last call has a component (DataTable then renders their portals). */
  takeComponentChanges(): boolean {
    const changed = this.componentCells > 0;
    this.componentCells = 0;
    return changed;
  }
}
