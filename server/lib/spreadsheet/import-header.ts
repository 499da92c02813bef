import type { Translate } from '@/domain/physique-results/export-layout';
import { cellText } from '@/domain/school/class-import';
import { AppError } from '../app-error';
import type { CellValue } from './xlsx-reader';

/** How many rows from the top an import looks through for its header row (titles and notes may come first). */
export const HEADER_SCAN_ROWS = 10;

export interface HeaderColumn<K extends string> {
  key: K;
  header: string;
  required?: boolean;
}

/**
 * The header row among the first rows of an import: the first whose cells name every required column (spaces and a
 * leading '*' ignored), with each column's index. Otherwise the 400 naming the required columns missing from the best
 * candidate row, or 'header not found' when no row looks like a header.
 */
export function findHeaderRow<K extends string>(rows: readonly CellValue[][], columns: readonly HeaderColumn<K>[], t: Translate) {
  let best: { index: Partial<Record<K, number>>; missing: string[] } | null = null;
  for (let i = 0; i < Math.min(rows.length, HEADER_SCAN_ROWS); i++) {
    const index: Partial<Record<K, number>> = {};
    (rows[i] ?? []).forEach((cell, c) => {
      const text = cellText(cell).replace(/\s+/g, '').replace(/^\*/, '');
      const col = columns.find((x) => x.header === text);
      if (col && index[col.key] === undefined) index[col.key] = c;
    });
    const missing = columns.filter((c) => c.required && index[c.key] === undefined).map((c) => c.header);
    if (missing.length === 0) return { row: i, index };
    if (!best || Object.keys(index).length > Object.keys(best.index).length) best = { index, missing };
  }
  if (best && Object.keys(best.index).length >= 2) {
    throw new AppError(400, 'physique:import.missingColumns', { columns: best.missing.join(t('physique:import.errorSeparator', { interpolation: { escapeValue: false } })) });
  }
  throw new AppError(400, 'school:import.headerNotFound');
}
