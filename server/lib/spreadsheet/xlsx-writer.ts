import * as XLSX from 'xlsx';
import { currentExportStamp, withStampXml } from './export-stamp';
import { recompressZip } from './zip';

/**
 * Text a spreadsheet would take for a formula (or DDE command) if someone edited the cell and pressed Enter:
 * = + - @ and a leading tab or carriage return (OWASP "CSV injection").
 */
const FORMULA_LIKE = /^[=+\-@\t\r]/;

/** Text format (@): whatever is typed into the cell stays text. */
const TEXT_FORMAT = '@';

/** One worksheet to write. */
export interface SheetSpec {
  /** Sheet tab name; characters Excel forbids are replaced and it is cut to 31 characters. */
  name: string;
  /** Rows of cells: string, number, boolean, Date (written as an Excel date), null/undefined (blank). */
  rows: readonly (readonly unknown[])[];
  /** Column widths in characters, from column A. */
  columnWidths?: readonly number[];
  /** 0-based columns formatted as text (@), so Excel keeps long digit strings such as 学籍号 intact when edited. */
  textColumns?: readonly number[];
  /** Drop-down lists (Excel data validation): the cells of a column from `firstRow` to `lastRow` (1-based) take a value of `source`, a range such as `'lists'!$A$1:$A$2`. */
  validations?: readonly { column: number; firstRow: number; lastRow: number; source: string }[];
  /** Hidden tab (the lists behind drop-downs). */
  hidden?: boolean;
}

const MAX_SHEET_NAME = 31;

function sheetName(name: string, taken: Set<string>): string {
  const base = (name.replace(/[[\]:*?/\\]/g, '_').trim() || 'Sheet').slice(0, MAX_SHEET_NAME);
  let out = base;
  for (let n = 2; taken.has(out.toLowerCase()); n++) out = `${base.slice(0, MAX_SHEET_NAME - String(n).length - 1)}_${n}`;
  taken.add(out.toLowerCase());
  return out;
}

function cellValue(v: unknown): string | number | boolean | Date | null {
  if (v == null) return null;
  if (typeof v === 'string' || typeof v === 'boolean' || v instanceof Date) return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') return v.toString();
  return String(v);
}

const isPlainCell = (v: unknown) =>
  v == null || typeof v === 'string' || typeof v === 'boolean' || v instanceof Date || (typeof v === 'number' && Number.isFinite(v));

/** Writes an .xlsx workbook (exports, failure workbooks of imports; docs/product-rules.md#import-files) with SheetJS; shared strings and part order as Excel writes them. */
export function writeXlsx(sheets: readonly SheetSpec[]): Buffer {
  if (sheets.length === 0) throw new RangeError('writeXlsx needs at least one sheet');
  const wb = XLSX.utils.book_new();
  const taken = new Set<string>();
  const validations = new Map<string, string>();
  sheets.forEach((spec, i) => {
    if (spec.validations?.length) validations.set(`xl/worksheets/sheet${i + 1}.xml`, dataValidationsXml(spec.validations));
  });
  for (const spec of sheets) {
    // Cells of other types (bigint, objects) become text and NaN a blank; ordinary rows pass through uncopied.
    const rows = spec.rows.map((r) => (r.every(isPlainCell) ? r : r.map(cellValue)));
    const ws = XLSX.utils.aoa_to_sheet(rows as unknown[][], { dense: true });
    if (spec.columnWidths) ws['!cols'] = spec.columnWidths.map((wch) => ({ wch }));
    const textColumns = new Set(spec.textColumns ?? []);
    for (const row of ws['!data'] ?? []) {
      if (!row) continue;
      for (let c = 0; c < row.length; c++) {
        const cell = row[c];
        // Exported values come from users (names, addresses, file cells): text that looks like a formula is written
        // as text under the text format with Excel's quote prefix, so editing it cannot turn it into a formula.
        if (cell?.t === 's' && (textColumns.has(c) || FORMULA_LIKE.test(String(cell.v)))) cell.z = TEXT_FORMAT;
      }
    }
    XLSX.utils.book_append_sheet(wb, ws, sheetName(spec.name, taken));
  }
  // Stored by SheetJS, deflated by zlib: 2.5× smaller than SheetJS's own compression in about the same time.
  if (sheets.some((s) => s.hidden)) wb.Workbook = { Sheets: sheets.map((s) => ({ Hidden: s.hidden ? 1 : 0 })) };
  // Every exported workbook names its exporter and time in the sheets' print header and footer (docs/product-rules.md#personal-data-access).
  const stamp = currentExportStamp();
  return recompressZip(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', bookSST: true, compression: false }) as Buffer, 6, (name, data) => {
    const out = validations.has(name.toLowerCase()) ? withDataValidations(data, validations.get(name.toLowerCase())!) : quotePrefixTextStyles(name, data);
    return stamp && /^xl\/worksheets\/sheet\d+\.xml$/i.test(name) ? Buffer.from(withStampXml(out.toString('utf8'), stamp), 'utf8') : out;
  });
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function dataValidationsXml(list: NonNullable<SheetSpec['validations']>): string {
  const items = list.map((v) => {
    const col = XLSX.utils.encode_col(v.column);
    return `<dataValidation type="list" allowBlank="1" showErrorMessage="1" sqref="${col}${v.firstRow}:${col}${v.lastRow}"><formula1>${escapeXml(v.source)}</formula1></dataValidation>`;
  });
  return `<dataValidations count="${items.length}">${items.join('')}</dataValidations>`;
}

/**
 * SheetJS CE does not write data validations: the element goes into the worksheet where the schema orders it, before
 * hyperlinks, print options, margins and page setup.
 */
function withDataValidations(data: Buffer, xml: string): Buffer {
  const sheet = data.toString('utf8');
  const after = sheet.indexOf('</sheetData>');
  const next = /<(hyperlinks|printOptions|pageMargins|pageSetup|headerFooter|rowBreaks|colBreaks|customProperties|cellWatches|ignoredErrors|smartTags|drawing|legacyDrawing|tableParts|extLst)\b|<\/worksheet>/g;
  next.lastIndex = after < 0 ? 0 : after;
  const at = next.exec(sheet)?.index ?? -1;
  if (after < 0 || at < 0) return data;
  return Buffer.from(sheet.slice(0, at) + xml + sheet.slice(at), 'utf8');
}

/**
 * Marks the cell styles of the text format (numFmtId 49) with quotePrefix, as Excel does for text typed after an
 * apostrophe: the formula bar shows '=1+1 and Enter keeps it text. SheetJS does not write the attribute itself.
 */
function quotePrefixTextStyles(name: string, data: Buffer): Buffer {
  if (name.toLowerCase() !== 'xl/styles.xml') return data;
  const xml = data.toString('utf8');
  const open = xml.indexOf('<cellXfs');
  const close = xml.indexOf('</cellXfs>', open);
  if (open < 0 || close < 0) return data;
  const xfs = xml.slice(open, close).replace(/<xf\b(?=[^>]*\bnumFmtId="49")(?![^>]*\bquotePrefix=)/g, '<xf quotePrefix="1"');
  return Buffer.from(xml.slice(0, open) + xfs + xml.slice(close), 'utf8');
}
