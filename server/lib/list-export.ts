import type { Readable } from 'node:stream';
import { EXPORT_COLUMNS_PARAM, exportColumnsSchema } from '@/domain/list-settings/list-settings';
import { AppError } from './app-error';
import { xlsxStream, type StreamColumn } from './spreadsheet/xlsx-stream';

/**
 * An export that follows its list's shown columns (docs/adding-a-screen.md, column settings): the list sends the ids
 * of the columns it shows, in their order, as `?columns=`; an export built from the list's columns names, per column,
 * the list column it shows (`list`), and the kit leaves out those the list hides and puts them in the list's order.
 * Columns without `list` are the export's own (a re-import needs them, say) and keep their places. Without `?columns=`
 * (the list shows its defaults) the export is as declared.
 *
 *   resourceAction(app, { method: 'GET', path: '/export', answers: 'file', …,
 *     read: async (db, actor, { query }) => ({ sheet: { name, columns: [{ header: '名称', list: 'name' }, …], rows }, fileName }) });
 */
export interface ListExportColumn extends StreamColumn {
  /** The id of the list column this export column shows; several export columns may show one list column. */
  list?: string;
}

/** The rows of a list export: all at once, or in batches read while the file is sent. */
export type ListExportRows = readonly (readonly unknown[])[] | AsyncIterable<readonly (readonly unknown[])[]>;

export interface ListSheet {
  name: string;
  columns: readonly ListExportColumn[];
  /** Each row has one value per declared column, in the declared order. */
  rows: ListExportRows;
}

/** The shown column ids the request carries, or undefined (the list shows its defaults). A bad value is refused. */
export function requestedColumns(url: string): string[] | undefined {
  const raw = new URL(url, 'http://x').searchParams.get(EXPORT_COLUMNS_PARAM);
  if (raw === null || raw === '') return undefined;
  const parsed = exportColumnsSchema.safeParse(raw);
  if (!parsed.success) throw new AppError(400, 'listSettings:errors.badColumns', {}, { field: EXPORT_COLUMNS_PARAM });
  return parsed.data;
}

/**
 * Which declared columns are written, in what order (indexes into `columns`): a column showing a hidden list column
 * is left out; those showing shown list columns take the list's order, in the places such columns hold; the export's
 * own columns stay where they are.
 */
export function followList(columns: readonly ListExportColumn[], shown: readonly string[] | undefined): number[] {
  const all = columns.map((_, i) => i);
  if (!shown) return all;
  const rank = new Map(shown.map((id, i) => [id, i]));
  const kept = all.filter((i) => columns[i].list === undefined || rank.has(columns[i].list!));
  // Stable: columns showing one list column keep their declared order among themselves.
  const listed = kept.filter((i) => columns[i].list !== undefined).sort((a, b) => rank.get(columns[a].list!)! - rank.get(columns[b].list!)! || a - b);
  let next = 0;
  return kept.map((i) => (columns[i].list === undefined ? i : listed[next++]));
}

async function* batchesOf(rows: ListExportRows, pick: readonly number[]): AsyncGenerator<readonly (readonly unknown[])[]> {
  const project = (batch: readonly (readonly unknown[])[]) => batch.map((row) => pick.map((i) => row[i]));
  if (Symbol.asyncIterator in rows) {
    for await (const batch of rows as AsyncIterable<readonly (readonly unknown[])[]>) yield project(batch);
  } else {
    yield project(rows as readonly (readonly unknown[])[]);
  }
}

/** The workbook of a list sheet with the shown columns (streamed). */
export function listSheetWorkbook(sheet: ListSheet, shown: readonly string[] | undefined): Readable {
  const pick = followList(sheet.columns, shown);
  return xlsxStream(
    sheet.name,
    pick.map((i) => sheet.columns[i]),
    batchesOf(sheet.rows, pick),
  );
}
