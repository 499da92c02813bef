import type { CellValue } from './sheet-scanner';
import { writeXlsx } from './xlsx-writer';

/** A refused row of an import: its cells as uploaded and why (docs/product-rules.md#import-files: the failures workbook). */
export interface ImportFailure {
  cells: readonly CellValue[];
  reason: string;
}

export interface FailuresWorkbookSpec {
  /** The uploaded header row; trailing blank cells are dropped so the reason column sits right after the data. */
  header: readonly CellValue[];
  failures: readonly ImportFailure[];
  /** Failed rows in all; more than listed adds a last row `more(total - listed, listed)`. */
  total: number;
  sheetName: string;
  reasonColumn: string;
  more?(count: number, listed: number): string;
  /** 0-based columns kept as text (long digit strings such as 学籍号). */
  textColumns?: readonly number[];
}

/** The failures workbook of an import: the uploaded header plus a reason column, each listed failed row as it was uploaded. */
export function failuresWorkbook(spec: FailuresWorkbookSpec): Buffer {
  let width = spec.header.length;
  while (width > 0 && (spec.header[width - 1] == null || spec.header[width - 1] === '')) width--;
  const header = [...spec.header.slice(0, width), spec.reasonColumn];
  const rows: unknown[][] = [header];
  for (const f of spec.failures) {
    const cells = f.cells.slice(0, width);
    while (cells.length < width) cells.push(null);
    rows.push([...cells, f.reason]);
  }
  if (spec.total > spec.failures.length && spec.more) rows.push([...Array<null>(width).fill(null), spec.more(spec.total - spec.failures.length, spec.failures.length)]);
  return writeXlsx([{ name: spec.sheetName, rows, columnWidths: [...header.slice(0, -1).map(() => 12), 60], textColumns: spec.textColumns }]);
}

/** `<prefix>_<success>_<failure>.xlsx` with a prefix free of '_' (docs/product-rules.md#import-files: the browser reads the counts from parts 2 and 3). */
export function importFileName(prefix: string, success: number, failure: number): string {
  return `${prefix.replace(/_/g, '-')}_${success}_${failure}.xlsx`;
}
