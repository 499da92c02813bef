import { foldCell } from '@/domain/people/people-import';
import type { RowUpdate } from '@/domain/people/import-updates';
import type { Translate } from '@/domain/physique-results/export-layout';
import type { DbOrTx } from '../../db/client';
import type { ImportFailure } from '../../lib/spreadsheet/import-report';
import type { CellValue } from '../../lib/spreadsheet/xlsx-reader';
import type { Actor } from '../../plugins/tenant';

// The shapes every people import shares (the file, its rows, a plan of what to write), apart from the service that
// dispatches to the staff and student imports, so those never import the service back.

export type Family = 'admin' | 'k12' | 'gx';
export const RAW = { interpolation: { escapeValue: false } };

export interface DataRow {
  /** Excel row number. */
  row: number;
  cells: CellValue[];
}

export interface ParsedFile {
  header: CellValue[];
  index: Partial<Record<string, number>>;
  rows: DataRow[];
  date1904: boolean;
}

/** A refused row: its number, the cells as uploaded and the reason in the request's language. */
export interface Rejected extends ImportFailure {
  row: number;
}

/** What checking a file found: counts, refused rows, and how to write the accepted ones. */
export interface ImportPlan {
  create: number;
  update: number;
  /** Rows matching an existing record that would change nothing (skipped). */
  unchanged?: number;
  /** Every row that would update an existing record, with what changes. */
  updates?: RowUpdate[];
  parentsCreate?: number;
  parentsUpdate?: number;
  rejected: Rejected[];
  /** Writes the accepted rows in one transaction. */
  write(db: DbOrTx): Promise<void>;
}

export interface ImportContext {
  db: DbOrTx;
  actor: Actor;
  family: Family;
  t: Translate;
  /** `reason(row, column header, message key, params)`: one line of the failures workbook. */
  reason(row: number, field: string, message: string, params?: Record<string, unknown>): string;
  extra: Record<string, string>;
}

/** Text of a column of a row ('' when the file lacks the column). */
export const cellOf = (file: ParsedFile, r: DataRow, key: string) => {
  const i = file.index[key];
  return i === undefined ? '' : foldCell(r.cells[i]);
};
export const rawOf = (file: ParsedFile, r: DataRow, key: string): CellValue => {
  const i = file.index[key];
  return i === undefined ? null : (r.cells[i] ?? null);
};

