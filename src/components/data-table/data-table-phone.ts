import { createContext, useContext } from 'react';
import type { Column, RowData } from '@tanstack/react-table';
import type { DataTableFeatures } from './data-table-features';
import type { PinSide } from './pinned-columns';

/**
 * How a table shows below 768 px (docs/decisions/054-phone-layout.md). `cards` (the default): each row a card with its
 * title, status badge, a few `label: value` lines, the rest folded under "All fields", and the row's actions in one
 * menu. `scroll`: the table as on a desktop, scrolling sideways with its first column kept in view, for wide numeric
 * tables (scores, rankings) where a card per row would hide the comparison across rows.
 */
export type DataTablePhone =
  | { mode: 'scroll' }
  | {
      mode?: 'cards';
      /** Column id of the card's title; the first column that is neither the selection nor the actions by default. */
      title?: string;
      /** Column id of the status badge beside the title; the `status` column when there is one, `false` for none. */
      badge?: string | false;
      /** Column ids shown as `label: value` lines, in this order; the next three columns after the title by default. */
      fields?: readonly string[];
    };

/** What a table is drawn as: the desktop table, phone cards, or the phone table that scrolls sideways. */
export type DataTableLayout = 'table' | 'cards' | 'scroll';

/**
 * The layout of the table a cell is drawn in, for cells that draw themselves differently on a card (row actions fold
 * into one menu there).
 */
export const DataTableLayoutContext = createContext<DataTableLayout>('table');

export const useDataTableLayout = () => useContext(DataTableLayoutContext);

/** Ids the list kit gives its own columns: the bulk-selection checkbox and the row actions. */
export const SELECT_COLUMN_ID = 'select';
export const ACTIONS_COLUMN_ID = 'actions';

const DEFAULT_CARD_FIELDS = 3;

type AnyColumn<T extends RowData> = Column<DataTableFeatures, T>;

export interface CardColumns<T extends RowData> {
  select?: AnyColumn<T>;
  title?: AnyColumn<T>;
  badge?: AnyColumn<T>;
  fields: AnyColumn<T>[];
  /** Every other column, folded under "All fields". */
  rest: AnyColumn<T>[];
  actions?: AnyColumn<T>;
}

const isActions = <T extends RowData>(c: AnyColumn<T>) => c.id === ACTIONS_COLUMN_ID || c.columnDef.meta?.pin === 'right';

/** Which column goes where on a card. */
export function cardColumns<T extends RowData>(columns: readonly AnyColumn<T>[], phone: DataTablePhone | undefined): CardColumns<T> {
  const spec = phone && phone.mode !== 'scroll' ? phone : {};
  const byId = new Map(columns.map((c) => [c.id, c]));
  const select = byId.get(SELECT_COLUMN_ID);
  const actions = columns.find(isActions);
  const data = columns.filter((c) => c !== select && c !== actions);
  const title = (spec.title ? byId.get(spec.title) : undefined) ?? data[0];
  const badge = spec.badge === false ? undefined : byId.get(spec.badge ?? 'status');
  const others = data.filter((c) => c !== title && c !== badge);
  const fields = spec.fields ? spec.fields.flatMap((id) => byId.get(id) ?? []) : others.slice(0, DEFAULT_CARD_FIELDS);
  return { select, title, badge: badge === title ? undefined : badge, fields, rest: others.filter((c) => !fields.includes(c)), actions };
}

/**
 * Where each column sticks on a phone whose table scrolls sideways: only the first data column, at the start, so every
 * row keeps its name in view while the figures pass under it (a column pinned at the end would take most of a 390 px
 * row). Elsewhere the columns' own pinning applies (pinned-columns.ts pinOf).
 */
export function phoneScrollSides<T extends RowData>(columns: readonly AnyColumn<T>[]): PinSide[] {
  const first = columns.find((c) => c.id !== SELECT_COLUMN_ID && !isActions(c));
  return columns.map((c) => (c === first ? 'start' : false));
}
