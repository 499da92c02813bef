import { changedFields, type FieldChange, type RowUpdate } from '@/domain/people/import-updates';
import { ERR } from '@/domain/errors';
import { parseTemplateDate } from '@/domain/physique/national-template';
import type { Translate } from '@/domain/physique-results/export-layout';
import type { Db, Tx } from '../db/client';
import { AppError, type MessageKey } from './app-error';
import { failuresWorkbook, importFileName, type ImportFailure } from './spreadsheet/import-report';
import { openXlsx, type CellValue } from './spreadsheet/xlsx-reader';

/**
 * The row-import kit (docs/adding-a-screen.md#import, docs/decisions/034-row-import-kit.md): an uploaded .xlsx read with
 * the project's reader, its header row found by the declared columns, every data row checked by the import's `each`
 * with cell readers and `fail`, and the answer: counts, refused rows with reasons (`import:rowError`, in the request's
 * language) and the failures workbook (the uploaded header and rows plus a reason column).
 *
 * `importRows` is the all-or-nothing import (class, sign-up, records): the rows run in one transaction, one refused
 * row and nothing is written; a dry run does the same work and always rolls back. `checkRows` is the loop alone, for
 * an import that checks first and writes later (people: the dry run keeps what it checked for its commit).
 */

const RAW = { interpolation: { escapeValue: false } };

/** How many rows from the top the header row may be in (titles and notes may come first). */
export const HEADER_SCAN_ROWS = 10;

export interface ImportColumn<K extends string = string> {
  key: K;
  /** The header as the template writes it (spaces, a leading '*' and a trailing ':' are ignored when matching). */
  header: string;
  /** Other headers a file may use for the column. */
  aliases?: readonly string[];
  required?: boolean;
  /** Kept as text in the failures workbook (long digit strings such as 学籍号, marks such as 2:05.30). */
  text?: boolean;
}

/** An uploaded sheet: its header row, where each declared column is, and the non-blank rows under the header. */
export interface ImportSheet<K extends string = string> {
  header: CellValue[];
  index: Partial<Record<K, number>>;
  rows: ImportRow[];
  date1904: boolean;
  /** The declared columns (keys widened, so a sheet read for any column set passes where a narrower one is expected). */
  columns: readonly ImportColumn[];
  /** A cell as the import reads it (see `ReadSpec.cellText`). */
  cellText(cell: unknown): string;
}

export interface ImportRow {
  /** The Excel row number. */
  row: number;
  cells: CellValue[];
}

export interface ReadSpec<K extends string> {
  columns: readonly ImportColumn<K>[];
  /** Most data rows accepted; more is a 400 (`messages.tooManyRows`, `{ max }`). */
  maxRows?: number;
  /** Most rows the sheet may store (the reader's 413); default `maxRows` + HEADER_SCAN_ROWS. */
  sheetRows?: number;
  /** An import's own wording of the kit's messages (e.g. naming its template). */
  messages?: { headerNotFound?: MessageKey; tooManyRows?: MessageKey };
  /** How a cell reads as text; default: trimmed (numbers as written). People fold full-width forms and spaces. */
  cellText?: (cell: unknown) => string;
}

/** The kit's default cell text: trimmed; a number as JavaScript writes it. */
export function plainCellText(v: unknown): string {
  if (v == null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  return String(v).trim();
}

const headerText = (v: unknown) =>
  plainCellText(v)
    .normalize('NFKC')
    .replace(/[\s\u200b\ufeff]+/g, '')
    .replace(/^\*/, '')
    .replace(/[*:：]$/, '');

/** The header row among the first rows: the first naming every required column, or the 400 naming what is missing. */
function findHeader<K extends string>(rows: readonly ImportRow[], spec: ReadSpec<K>, t: Translate) {
  let best: { index: Partial<Record<K, number>>; missing: string[] } | null = null;
  for (const r of rows.slice(0, HEADER_SCAN_ROWS)) {
    const index: Partial<Record<K, number>> = {};
    r.cells.forEach((cell, i) => {
      const text = headerText(cell);
      if (!text) return;
      const col = spec.columns.find((c) => c.header === text || c.aliases?.includes(text));
      if (col && index[col.key] === undefined) index[col.key] = i;
    });
    const missing = spec.columns.filter((c) => c.required && index[c.key] === undefined).map((c) => c.header);
    if (missing.length === 0) return { at: r.row, index, header: r.cells };
    if (!best || Object.keys(index).length > Object.keys(best.index).length) best = { index, missing };
  }
  if (best && Object.keys(best.index).length >= 2) throw new AppError(400, 'import:missingColumns', { columns: best.missing.join(t('import:errorSeparator', RAW)) });
  throw new AppError(400, spec.messages?.headerNotFound ?? 'import:headerNotFound');
}

/** Reads an upload: .xlsx only, the header row found by the columns, at least one data row, at most `maxRows`. */
export async function readImportSheet<K extends string>(file: { fileName: string; buffer: Buffer }, spec: ReadSpec<K>, t: Translate): Promise<ImportSheet<K>> {
  if (!/\.xlsx$/i.test(file.fileName.trim())) throw new AppError(400, ERR.onlyExcel);
  const cellText = spec.cellText ?? plainCellText;
  const source = await openXlsx(file.buffer, { maxRows: spec.sheetRows ?? (spec.maxRows ?? 1_000_000) + HEADER_SCAN_ROWS, maxColumns: 64 });
  const all: ImportRow[] = [];
  for await (const batch of source.batches()) {
    for (const r of batch) if (r.cells.some((c) => cellText(c) !== '')) all.push({ row: r.row, cells: r.cells });
  }
  const header = findHeader(all, spec, t);
  const rows = all.filter((r) => r.row > header.at);
  if (rows.length === 0) throw new AppError(400, 'import:emptyFile');
  if (spec.maxRows !== undefined && rows.length > spec.maxRows) throw new AppError(400, spec.messages?.tooManyRows ?? 'import:tooManyRows', { max: spec.maxRows });
  return { header: header.header, index: header.index, rows, date1904: source.date1904, columns: spec.columns, cellText };
}

/** The non-blank texts of one column over every data row (for the lookups an import makes before its rows). */
export function columnTexts<K extends string>(sheet: ImportSheet<K>, key: K): string[] {
  const i = sheet.index[key];
  return i === undefined ? [] : sheet.rows.map((r) => sheet.cellText(r.cells[i])).filter(Boolean);
}

/** One line of the failures workbook: `第{row}行，{field}：{reason}` in the request's language. */
export function rowReason(t: Translate, row: number, field: string, message: string, params: Record<string, unknown> = {}): string {
  return t('import:rowError', { row, field, reason: t(message, { ...params, ...RAW }), ...RAW });
}

/** A refused row: its number, the cells as uploaded and the reason. */
export interface RowFailure extends ImportFailure {
  row: number;
}

/** What `each` gets besides the row: readers of its cells and `fail`. */
export interface RowTools<K extends string> {
  /** Whether the file has the column. */
  has(key: K): boolean;
  /** The cell as text ('' when blank or the file lacks the column). */
  text(key: K): string;
  /** The cell as stored (null when blank or the file lacks the column). */
  raw(key: K): CellValue;
  /** The cell as a number: null when blank, NaN when it is not one. */
  number(key: K): number | null;
  /** The cell as an ISO date (a date cell, a serial number or 2025-04-18 / 2025/4/18 / 20250418): '' when blank, null when not a date. */
  date(key: K): string | null;
  /** Refuses the row: `message` (an i18n key) with `params`, about the column `key`. */
  fail(key: K, message: string, params?: Record<string, unknown>): void;
}

/** `each`'s answer: nothing for a row taken, 'unchanged' for a row skipped because it changes nothing. */
export type RowOutcome = void | 'unchanged';

export interface CheckSpec<K extends string> {
  t: Translate;
  /** The i18n key of each column's name in a reason; a column without one is named by its header. */
  labels?: Partial<Record<K, string>>;
  /** Called after each row (a job's progress); awaited. */
  onProgress?(done: number, total: number): void | Promise<void>;
}

/** How the file names a column in a reason. */
export function columnName<K extends string>(sheet: ImportSheet<K>, spec: CheckSpec<K>, key: K): string {
  const label = spec.labels?.[key];
  return label ? spec.t(label, RAW) : (sheet.columns.find((c) => c.key === key)?.header ?? key);
}

/**
 * Runs `each` over every data row (in order, one at a time: a row is judged with the rows before it), collecting the
 * refused rows. A row is refused when `each` calls `fail` (it should then return); anything `each` throws ends the
 * import. Writes nothing itself.
 */
export async function checkRows<K extends string>(
  sheet: ImportSheet<K>,
  spec: CheckSpec<K>,
  each: (row: ImportRow, tools: RowTools<K>) => RowOutcome | Promise<RowOutcome>,
): Promise<{ taken: number; unchanged: number; failures: RowFailure[] }> {
  const failures: RowFailure[] = [];
  let taken = 0;
  let unchanged = 0;
  const total = sheet.rows.length;
  // One set of tools over the current row (a 100,000-row people file: no closures per row).
  let r: ImportRow = sheet.rows[0];
  let failed = false;
  const raw = (key: K): CellValue => {
    const i = sheet.index[key];
    return i === undefined ? null : (r.cells[i] ?? null);
  };
  const text = (key: K) => sheet.cellText(raw(key));
  const tools: RowTools<K> = {
    has: (key) => sheet.index[key] !== undefined,
    text,
    raw,
    number: (key) => {
      const v = raw(key);
      if (typeof v === 'number') return v;
      const s = text(key);
      return s === '' ? null : /^[-+]?(\d+\.?\d*|\.\d+)$/.test(s) ? Number(s) : NaN;
    },
    date: (key) => {
      const v = raw(key);
      if (v == null || (typeof v === 'string' && v.trim() === '')) return '';
      return parseTemplateDate(v, sheet.date1904);
    },
    fail: (key, message, params) => {
      // The first reason of a row is its reason.
      if (failed) return;
      failed = true;
      failures.push({ row: r.row, cells: r.cells, reason: rowReason(spec.t, r.row, columnName(sheet, spec, key), message, params) });
    },
  };
  for (let n = 0; n < total; n++) {
    r = sheet.rows[n];
    failed = false;
    let outcome = each(r, tools);
    // Awaited only when `each` is async (a synchronous check of 100,000 rows stays synchronous).
    if (outcome instanceof Promise) outcome = await outcome;
    if (!failed) {
      if (outcome === 'unchanged') unchanged++;
      else taken++;
    }
    if (spec.onProgress) await spec.onProgress(n + 1, total);
  }
  return { taken, unchanged, failures };
}

export interface FailuresFileSpec {
  t: Translate;
  /** The file's name: `<prefix>_<success>_<failures>.xlsx` (docs/product-rules.md#import-files). */
  fileName: string;
  success: number;
  failures: readonly RowFailure[];
  /** Failed rows listed one by one; the rest are counted on a last line. Default: all. */
  listed?: number;
  /** 0-based columns kept as text; default the columns declared `text`. */
  textColumns?: readonly number[];
}

/** The failures workbook of an import (the uploaded header plus a reason column) and its file name with the counts. */
export function failuresFile<K extends string>(sheet: Pick<ImportSheet<K>, 'header' | 'index' | 'columns'>, spec: FailuresFileSpec): { workbook: Buffer; fileName: string } {
  const { t } = spec;
  const listed = spec.listed ?? spec.failures.length;
  const workbook = failuresWorkbook({
    header: sheet.header,
    failures: spec.failures.slice(0, listed),
    total: spec.failures.length,
    sheetName: t('import:failureSheet', RAW),
    reasonColumn: t('import:reasonColumn', RAW),
    more: (count, shown) => t('import:moreFailures', { count, listed: shown, ...RAW }),
    textColumns: spec.textColumns ?? sheet.columns.flatMap((c) => (c.text && sheet.index[c.key as K] !== undefined ? [sheet.index[c.key as K]!] : [])),
  });
  return { workbook, fileName: importFileName(spec.fileName, spec.success, spec.failures.length) };
}

export interface ImportRowsSpec<K extends string> extends CheckSpec<K> {
  /** Checks and writes one row inside the import's transaction (`tx`). */
  each(row: ImportRow, tools: RowTools<K>, tx: Tx): RowOutcome | Promise<RowOutcome>;
  /** Once every row is in and none was refused, still in the transaction (e.g. settling what the rows touched). */
  after?(tx: Tx): Promise<void>;
  /** Do the work and roll it back: the counts and refused rows of a commit, nothing written. */
  dryRun?: boolean;
  /** The failures workbook's file name prefix (translated). */
  fileName: string;
}

export interface ImportRowsResult {
  /** Rows written (a refused commit writes none; a dry run counts those it would write). */
  success: number;
  failure: number;
  /** Rows that matched a record and changed nothing. */
  unchanged: number;
  failures: RowFailure[];
  workbook: Buffer;
  fileName: string;
}

class Rollback extends Error {}

/**
 * The all-or-nothing import: every row through `each` in one transaction; one refused row (or a dry run) rolls it all
 * back, so a failure half-way leaves nothing; the answer lists every refused row and carries the failures workbook.
 */
export async function importRows<K extends string>(db: Db, sheet: ImportSheet<K>, spec: ImportRowsSpec<K>): Promise<ImportRowsResult> {
  let result: Awaited<ReturnType<typeof checkRows<K>>> = { taken: 0, unchanged: 0, failures: [] };
  const report = spec.onProgress;
  // Not awaited inside the transaction: on PGlite (one connection) a progress write through another handle waits for
  // the transaction's end, so awaiting it here would never return; on PostgreSQL it lands at once.
  const onProgress = report && ((done: number, total: number) => void Promise.resolve(report(done, total)).catch(() => undefined));
  try {
    await db.transaction(async (tx) => {
      result = await checkRows(sheet, { ...spec, onProgress }, (row, tools) => spec.each(row, tools, tx));
      if (result.failures.length === 0 && spec.after) await spec.after(tx);
      if (result.failures.length > 0 || spec.dryRun) throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  const success = result.failures.length > 0 && !spec.dryRun ? 0 : result.taken;
  const file = failuresFile(sheet, { t: spec.t, fileName: spec.fileName, success, failures: result.failures });
  return { success, failure: result.failures.length, unchanged: result.unchanged, failures: result.failures, ...file };
}

/**
 * "Would update" (docs/product-rules.md#import-updates): an import that matches existing records changes one only
 * when the person ticked 更新已存在的数据; a row that changes nothing is skipped; the dry run lists every update with
 * its fields before → after. One tracker per import run.
 */
export function updateTracker(t: Translate, allowed: boolean) {
  const updates: RowUpdate[] = [];
  return {
    updates,
    /** The fields whose values differ, labelled (i18n keys) and shown as a person reads them. */
    diff<F extends string>(before: Readonly<Record<F, unknown>>, after: Readonly<Record<F, unknown>>, fields: readonly F[], label: Readonly<Record<F, string>>, shown: (field: F, value: unknown) => string = (_f, v) => (v == null ? '' : String(v))): FieldChange[] {
      return changedFields(before, after, fields, (f) => t(label[f], RAW), shown);
    },
    /**
     * Judges a row that matches an existing record: 'unchanged' (nothing changes: skip it), 'refused' (changes, but
     * updates are not allowed here: the caller fails the row with its message) or 'update' (listed in `updates`).
     */
    judge(row: number, who: string, changes: FieldChange[], refuse = false): 'unchanged' | 'refused' | 'update' {
      if (changes.length === 0) return 'unchanged';
      if (!allowed || refuse) return 'refused';
      updates.push({ row, who, changes });
      return 'update';
    },
    /** Forgets a row's update (refused later by a rule over all the rows). */
    drop(row: number) {
      const at = updates.findIndex((u) => u.row === row);
      if (at >= 0) updates.splice(at, 1);
    },
  };
}
