import * as XLSX from 'xlsx';
import { ERR, type ErrorKey } from '@/domain/errors';
import { AppError } from '../app-error';
import { cellFormats, classifyFormat, formatDateTime, type DateTimeFormat } from './number-format';
import { EventLoopPacer } from './pacer';
import {
  columnName,
  decodeEntities,
  EXCEL_MAX_COLUMNS,
  EXCEL_MAX_ROWS,
  rootElementName,
  RowScanner,
  scanSharedStrings,
  SharedStrings,
  SheetDataError,
  SheetScanError,
  type CellValue,
  type XlsxRow,
} from './sheet-scanner';
import { looksLikeZip, readZipDirectory, readZipEntry, streamZipEntry, ZipFormatError, ZipTooLargeError, ZipUnsupportedError, type ZipEntry } from './zip';

export type { CellValue, XlsxRow } from './sheet-scanner';

/**
 * Reads the rows of one worksheet of an uploaded .xlsx (docs/product-rules.md#uploads: imports accept .xlsx only).
 * A streaming scanner over the zip does the work (≈3× SheetJS on the national template, flat memory: docs/decisions/011-own-xlsx-reader.md);
 * whatever it cannot read (namespace prefixes, malformed XML) goes to SheetJS instead, once its parts are known to be small.
 * Numbers under a date or time format are read as the text they show (number-format.ts); formulas give their cached values.
 *
 * Crafted files: every part inflates in slices up to its limit (sheet, shared strings, styles), cell references beyond
 * Excel's grid and character references XML forbids are refused, rows and columns have limits, and the work pauses for
 * the event loop every few milliseconds, so one upload never stalls other requests (docs/decisions/011-own-xlsx-reader.md).
 */

export type XlsxReadErrorReason = 'notXlsx' | 'corrupt' | 'tooLarge' | 'noSheet' | 'tooManyRows' | 'tooManyColumns' | 'badCellRef' | 'badChar';
const REASON: Record<XlsxReadErrorReason, [number, ErrorKey]> = {
  notXlsx: [400, ERR.onlyExcel],
  corrupt: [400, ERR.fileFormat],
  tooLarge: [413, ERR.xlsxTooLarge],
  noSheet: [400, ERR.fileFormat],
  tooManyRows: [413, ERR.xlsxTooManyRows],
  tooManyColumns: [400, ERR.xlsxTooManyColumns],
  badCellRef: [400, ERR.xlsxBadCellRef],
  badChar: [400, ERR.xlsxBadChar],
};

/** The upload is not a readable workbook or is beyond a limit; carries the translated message's key and parameters. */
export class XlsxReadError extends AppError {
  constructor(
    readonly reason: XlsxReadErrorReason,
    readonly detail = '',
    params: Record<string, string | number> = {},
  ) {
    super(REASON[reason][0], REASON[reason][1], params);
    this.name = 'XlsxReadError';
  }
}

const MIB = 1024 * 1024;
const tooLarge = (maxBytes: number, detail: string) => new XlsxReadError('tooLarge', detail, { max: Math.ceil(maxBytes / MIB) });

export interface XlsxReadOptions {
  /** Sheet to read: index in workbook order or name. Default: the first visible sheet. */
  sheet?: number | string;
  /** Refuse a sheet with more rows than this (rows as stored, header included). Default and maximum: 1,048,576. */
  maxRows?: number;
  /** Refuse a sheet with a value in a column beyond this many. Default and maximum: 16,384 (XFD). */
  maxColumns?: number;
  /** Refuse a worksheet that inflates beyond this many bytes. Default 256 MiB. */
  maxXmlBytes?: number;
  /** Refuse shared strings that inflate beyond this many bytes. Default 64 MiB. */
  maxSharedStringsBytes?: number;
  /** 'sheetjs' forces the fallback reader (comparisons, benchmarks). */
  engine?: 'auto' | 'sheetjs';
}

export interface XlsxWorkbookInfo {
  sheetName: string;
  sheetNames: string[];
  /** The workbook counts serial dates from 1904-01-01 (old Mac Excel) instead of 1900. */
  date1904: boolean;
  /** Which reader produced the rows. */
  engine: 'scanner' | 'sheetjs';
}

export interface XlsxRowSource extends XlsxWorkbookInfo {
  /** 'sheetjs' from the start, or once the scanner handed over mid-sheet. */
  engine: 'scanner' | 'sheetjs';
  /** Rows in sheet order, in batches of a few hundred; empty rows that the file does not store are not yielded. */
  batches(): AsyncGenerator<XlsxRow[], void, undefined>;
  /**
   * The rows `batches()` yields, counted without reading their cells (the sheet's `<row>` tags in the inflated part):
   * a job's bar before the reading. A part that cannot be read counts what came before; `batches()` reports why.
   */
  rowCount(): Promise<number>;
}

const DEFAULT_MAX_XML_BYTES = 256 * MIB;
const DEFAULT_MAX_SST_BYTES = 64 * MIB;
/** Small parts (workbook, relationships, styles) never need more than this. */
const SMALL_PART_BYTES = 16 * MIB;
/** SheetJS reads a whole workbook at once, synchronously: only workbooks whose parts inflate to this much in total. */
const SHEETJS_MAX_BYTES = 64 * MIB;
const CHUNK_BYTES = 256 * 1024;

interface SheetRef {
  name: string;
  path: string | null;
  hidden: boolean;
}
interface ScanPlan {
  info: Omit<XlsxWorkbookInfo, 'engine'>;
  sheet: ZipEntry;
  strings: SharedStrings;
  formats: (DateTimeFormat | null)[];
}

function attr(attrs: string, name: string): string | null {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attrs);
  return m ? decodeEntities(m[1] ?? m[2]) : null;
}

function* elements(xml: string, local: string): Generator<string> {
  const re = new RegExp(`<(?:[\\w.-]+:)?${local}\\b([^>]*)>`, 'g');
  for (const m of xml.matchAll(re)) yield m[1];
}

/** Resolves a relationship target against the folder of the part that owns the relationships. */
function resolvePart(baseDir: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : `${baseDir}${target}`).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return out.join('/');
}

function relationships(xml: string, baseDir: string): { id: string; type: string; target: string }[] {
  const out: { id: string; type: string; target: string }[] = [];
  for (const a of elements(xml, 'Relationship')) {
    const id = attr(a, 'Id');
    const type = attr(a, 'Type') ?? '';
    const target = attr(a, 'Target');
    if (id && target && attr(a, 'TargetMode') !== 'External') out.push({ id, type, target: resolvePart(baseDir, target) });
  }
  return out;
}

const dirOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);

/** Workbook structure: sheets in workbook order with their part paths, shared strings path, date system. */
function readWorkbook(buf: Buffer, dir: Map<string, ZipEntry>) {
  const part = (path: string) => {
    const e = dir.get(path.toLowerCase());
    return e ? readZipEntry(buf, e, SMALL_PART_BYTES).toString('utf8') : null;
  };
  const rootRels = part('_rels/.rels');
  const officeDoc = rootRels ? relationships(rootRels, '').find((r) => r.type.endsWith('/officeDocument')) : undefined;
  const workbookPath = officeDoc?.target ?? 'xl/workbook.xml';
  const workbookXml = part(workbookPath);
  if (workbookXml === null) throw new XlsxReadError('notXlsx', 'no workbook part');
  const relsXml = part(`${dirOf(workbookPath)}_rels/${workbookPath.slice(dirOf(workbookPath).length)}.rels`);
  const rels = relsXml ? relationships(relsXml, dirOf(workbookPath)) : [];
  const sheets: SheetRef[] = [];
  for (const a of elements(workbookXml, 'sheet')) {
    const name = attr(a, 'name') ?? `Sheet${sheets.length + 1}`;
    const rid = /(?:^|\s)[\w.-]+:id\s*=\s*"([^"]*)"/.exec(a)?.[1];
    const rel = rid ? rels.find((r) => r.id === rid) : undefined;
    const state = attr(a, 'state');
    sheets.push({ name, path: rel && rel.type.endsWith('/worksheet') ? rel.target : null, hidden: state === 'hidden' || state === 'veryHidden' });
  }
  const pr = [...elements(workbookXml, 'workbookPr')][0] ?? '';
  const d1904 = attr(pr, 'date1904');
  const sst = rels.find((r) => r.type.endsWith('/sharedStrings'))?.target ?? null;
  const styles = rels.find((r) => r.type.endsWith('/styles'))?.target ?? null;
  return { sheets, date1904: d1904 === '1' || d1904 === 'true', sharedStringsPath: sst, stylesPath: styles, readPart: part };
}

function pickSheet<T extends { name: string; hidden: boolean }>(sheets: T[], which: number | string | undefined): T {
  let sheet: T | undefined;
  if (typeof which === 'number') sheet = sheets[which];
  else if (typeof which === 'string') sheet = sheets.find((s) => s.name === which);
  else sheet = sheets.find((s) => !s.hidden) ?? sheets[0];
  if (!sheet) throw new XlsxReadError('noSheet', `sheet ${String(which ?? 0)} not found`);
  return sheet;
}

async function planScan(buf: Buffer, dir: Map<string, ZipEntry>, options: XlsxReadOptions, pacer: EventLoopPacer): Promise<ScanPlan> {
  const wb = readWorkbook(buf, dir);
  const ref = pickSheet(wb.sheets, options.sheet);
  // A chart sheet or a dangling relationship: let SheetJS decide.
  const sheet = ref.path ? dir.get(ref.path.toLowerCase()) : undefined;
  if (!sheet) throw new SheetScanError(`worksheet part of ${ref.name} not found`);
  const strings = new SharedStrings();
  const sstEntry = wb.sharedStringsPath ? dir.get(wb.sharedStringsPath.toLowerCase()) : undefined;
  if (sstEntry) {
    let first = true;
    for await (const data of wholeElements(streamZipEntry(buf, sstEntry, options.maxSharedStringsBytes ?? DEFAULT_MAX_SST_BYTES, CHUNK_BYTES), SI_CLOSE)) {
      if (first) {
        const root = rootElementName(data);
        if (root !== null && root.includes(':')) throw new SheetScanError('namespace-prefixed shared strings');
        first = false;
      }
      scanSharedStrings(data, strings);
      await pacer.pace();
    }
  }
  const stylesXml = wb.stylesPath ? wb.readPart(wb.stylesPath) : null;
  const formats = stylesXml ? cellFormats(stylesXml) : [];
  return { info: { sheetName: ref.name, sheetNames: wb.sheets.map((s) => s.name), date1904: wb.date1904 }, sheet, strings, formats };
}

const SI_CLOSE = Buffer.from('</si>');
const ROW_OPEN = Buffer.from('<row');

/** `<row` tags (not `<rowBreaks`) in a worksheet part: the scanner yields one row per tag. */
async function countRowTags(buf: Buffer, sheet: ZipEntry, maxBytes: number, pacer: EventLoopPacer): Promise<number> {
  let count = 0;
  // The last bytes of a chunk, so a tag split across two chunks is seen once.
  let carry: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of streamZipEntry(buf, sheet, maxBytes, CHUNK_BYTES)) {
      const data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      let at = data.indexOf(ROW_OPEN);
      let end = 0;
      while (at >= 0 && at + ROW_OPEN.length < data.length) {
        const next = data[at + ROW_OPEN.length];
        // ' ', '\t', '\n', '\r', '>' or '/' ends the name.
        if (next === 0x20 || next === 0x3e || next === 0x2f || next === 0x09 || next === 0x0a || next === 0x0d) count++;
        end = at + 1;
        at = data.indexOf(ROW_OPEN, at + 1);
      }
      carry = data.subarray(Math.max(end, data.length - ROW_OPEN.length));
      await pacer.pace();
    }
  } catch {
    // The reading reports what is wrong with the part.
  }
  return count;
}

const ROW_CLOSE = Buffer.from('</row>');

/**
 * Regroups inflated chunks so that each piece ends just after the last `close` tag it holds (complete rows or shared
 * strings); a piece without one waits in a list, so a huge element costs one concatenation, not one per chunk.
 */
async function* wholeElements(chunks: AsyncIterable<Buffer>, close: Buffer): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  for await (const chunk of chunks) {
    const i = chunk.lastIndexOf(close);
    if (i < 0) {
      pending.push(chunk);
      continue;
    }
    const end = i + close.length;
    pending.push(chunk.subarray(0, end));
    yield pending.length === 1 ? pending[0] : Buffer.concat(pending);
    pending = end < chunk.length ? [chunk.subarray(end)] : [];
  }
  if (pending.length > 0) yield pending.length === 1 ? pending[0] : Buffer.concat(pending);
}

const ERROR_TEXT: Readonly<Record<number, string>> = { 0: '#NULL!', 7: '#DIV/0!', 15: '#VALUE!', 23: '#REF!', 29: '#NAME?', 36: '#NUM!', 42: '#N/A', 43: '#GETTING_DATA' };

function sheetJsValue(c: XLSX.CellObject | undefined, date1904: boolean): CellValue {
  if (!c) return null;
  switch (c.t) {
    case 's':
      return String(c.v ?? '');
    case 'n': {
      if (typeof c.v !== 'number') return null;
      const format = typeof c.z === 'string' ? classifyFormat(c.z) : null;
      return format ? formatDateTime(c.v, format, date1904) : c.v;
    }
    case 'b':
      return c.v === true;
    case 'e':
      return c.w ?? ERROR_TEXT[Number(c.v)] ?? '#ERROR';
    case 'd': {
      // ISO date text (t="d" cells), like the scanner.
      const d = c.v instanceof Date ? c.v : new Date(String(c.v));
      return Number.isNaN(d.getTime()) ? String(c.v) : d.toISOString().slice(0, 10);
    }
    default:
      return null;
  }
}

/** Limits shared by both readers. */
function limitsOf(options: XlsxReadOptions) {
  return {
    maxRows: Math.min(options.maxRows ?? EXCEL_MAX_ROWS, EXCEL_MAX_ROWS),
    maxColumns: Math.min(options.maxColumns ?? EXCEL_MAX_COLUMNS, EXCEL_MAX_COLUMNS),
  };
}

const tooManyRows = (maxRows: number) => new XlsxReadError('tooManyRows', `more than ${maxRows} rows`, { max: maxRows });

/**
 * Before SheetJS gets a workbook (it inflates and parses everything at once, synchronously), inflate its XML parts
 * in slices here and refuse it when they add up to more than SHEETJS_MAX_BYTES.
 */
async function assertSmallForSheetJs(buf: Buffer, pacer: EventLoopPacer): Promise<void> {
  let dir: Map<string, ZipEntry>;
  try {
    dir = readZipDirectory(buf);
  } catch (err) {
    throw new XlsxReadError('corrupt', (err as Error).message);
  }
  let total = 0;
  try {
    for (const entry of dir.values()) {
      if (entry.name.endsWith('/')) continue;
      for await (const chunk of streamZipEntry(buf, entry, SHEETJS_MAX_BYTES - total, CHUNK_BYTES)) {
        total += chunk.length;
        await pacer.pace();
      }
    }
  } catch (err) {
    if (err instanceof ZipTooLargeError) throw tooLarge(SHEETJS_MAX_BYTES, err.message);
    throw new XlsxReadError('corrupt', (err as Error).message);
  }
}

/** SheetJS 0.20 in dense mode: slower and materialises the sheet, but reads what the scanner refuses. */
function readWithSheetJs(buf: Buffer, options: XlsxReadOptions): { info: XlsxWorkbookInfo; rows: XlsxRow[] } {
  const { maxRows, maxColumns } = limitsOf(options);
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(buf, { type: 'buffer', dense: true, cellDates: false, cellFormula: false, cellHTML: false, cellText: false, cellStyles: false, cellNF: true, sheetRows: maxRows + 1 });
  } catch (err) {
    throw new XlsxReadError('corrupt', (err as Error).message);
  }
  const hidden = wb.Workbook?.Sheets ?? [];
  const sheets = wb.SheetNames.map((name, i) => ({ name, hidden: (hidden[i]?.Hidden ?? 0) !== 0 }));
  const { name } = pickSheet(sheets, options.sheet);
  const ws = wb.Sheets[name];
  const date1904 = Boolean(wb.Workbook?.WBProps?.date1904);
  const data: (XLSX.CellObject[] | undefined)[] = ws?.['!data'] ?? [];
  if (data.length > maxRows) throw tooManyRows(maxRows);
  const rows: XlsxRow[] = [];
  for (let r = 0; r < data.length; r++) {
    const src = data[r];
    if (!src) continue;
    // Checked before anything is sized by it: a cell at ZZZZZZ1 gives a sparse array of 321 million slots.
    let width = src.length;
    while (width > 0 && src[width - 1] == null) width--;
    if (width > EXCEL_MAX_COLUMNS) throw new XlsxReadError('badCellRef', `column ${width}`, { cell: `${columnName(EXCEL_MAX_COLUMNS)}${r + 1}` });
    if (width > maxColumns) throw new XlsxReadError('tooManyColumns', `column ${width}`, { cell: `${columnName(width - 1)}${r + 1}`, max: maxColumns });
    const cells: CellValue[] = [];
    for (let c = 0; c < width; c++) cells.push(sheetJsValue(src[c], date1904));
    while (cells.length > 0 && cells[cells.length - 1] === null) cells.pop();
    rows.push({ row: r + 1, cells });
  }
  return { info: { sheetName: name, sheetNames: wb.SheetNames, date1904, engine: 'sheetjs' }, rows };
}

async function sheetJsSource(buf: Buffer, options: XlsxReadOptions, pacer: EventLoopPacer): Promise<XlsxRowSource> {
  await assertSmallForSheetJs(buf, pacer);
  const { info, rows } = readWithSheetJs(buf, options);
  return {
    ...info,
    rowCount: async () => rows.length,
    async *batches() {
      for (let i = 0; i < rows.length; i += 500) {
        yield rows.slice(i, i + 500);
        await pacer.pace();
      }
    },
  };
}

/** The XlsxReadError for what the scanner found wrong with the data. */
function dataError(err: SheetDataError, maxColumns: number): XlsxReadError {
  switch (err.problem) {
    case 'cellRef':
      return new XlsxReadError('badCellRef', err.message, { cell: err.where });
    case 'char':
      return new XlsxReadError('badChar', err.message, { cell: err.where });
    case 'columns':
      return new XlsxReadError('tooManyColumns', err.message, { cell: err.where, max: maxColumns });
    default:
      return new XlsxReadError('corrupt', err.message);
  }
}

async function* scanBatches(buf: Buffer, plan: ScanPlan, options: XlsxReadOptions, pacer: EventLoopPacer, onFallback: () => void): AsyncGenerator<XlsxRow[], void, undefined> {
  const { maxRows, maxColumns } = limitsOf(options);
  const maxBytes = options.maxXmlBytes ?? DEFAULT_MAX_XML_BYTES;
  const scanner = new RowScanner(plan.strings, { formats: plan.formats, date1904: plan.info.date1904, maxColumns });
  let count = 0;
  let lastYielded = 0;
  try {
    for await (const data of wholeElements(streamZipEntry(buf, plan.sheet, maxBytes, CHUNK_BYTES), ROW_CLOSE)) {
      const out: XlsxRow[] = [];
      scanner.scan(data, out);
      count += out.length;
      if (count > maxRows) throw tooManyRows(maxRows);
      if (out.length > 0) {
        lastYielded = out[out.length - 1].row;
        yield out;
      }
      await pacer.pace();
    }
  } catch (err) {
    if (err instanceof XlsxReadError) throw err;
    if (err instanceof ZipTooLargeError) throw tooLarge(maxBytes, err.message);
    if (err instanceof SheetDataError) throw dataError(err, maxColumns);
    if (err instanceof ZipUnsupportedError) throw new XlsxReadError('corrupt', err.message);
    if (err instanceof SheetScanError || err instanceof ZipFormatError) {
      // Continue with SheetJS after the rows already handed out.
      onFallback();
      await assertSmallForSheetJs(buf, pacer);
      const { rows } = readWithSheetJs(buf, options);
      const rest = rows.filter((r) => r.row > lastYielded);
      for (let i = 0; i < rest.length; i += 500) {
        yield rest.slice(i, i + 500);
        await pacer.pace();
      }
      return;
    }
    throw err;
  }
}

/** Root element name of a worksheet part, from its first inflated bytes. */
async function sheetRoot(buf: Buffer, entry: ZipEntry): Promise<string | null> {
  const chunks = streamZipEntry(buf, entry, DEFAULT_MAX_XML_BYTES, 4096);
  try {
    const first = await chunks.next();
    return first.done ? null : rootElementName(first.value);
  } catch {
    return null; // the scan itself reports what is wrong with the part
  } finally {
    await chunks.return(undefined);
  }
}

/** Opens a workbook for streaming its rows (docs/product-rules.md#physique-results: score import): metadata now, rows through `batches()`. */
export async function openXlsx(buffer: Buffer, options: XlsxReadOptions = {}): Promise<XlsxRowSource> {
  if (!looksLikeZip(buffer)) throw new XlsxReadError('notXlsx', 'not a zip archive');
  const pacer = new EventLoopPacer();
  if (options.engine === 'sheetjs') return sheetJsSource(buffer, options, pacer);
  let dir: Map<string, ZipEntry>;
  try {
    dir = readZipDirectory(buffer);
  } catch (err) {
    // zip64, encryption: nothing an office suite writes for a sheet an import can take.
    throw new XlsxReadError('corrupt', (err as Error).message);
  }
  let plan: ScanPlan;
  try {
    plan = await planScan(buffer, dir, options, pacer);
  } catch (err) {
    if (err instanceof XlsxReadError) throw err;
    if (err instanceof ZipTooLargeError) throw tooLarge(options.maxSharedStringsBytes ?? DEFAULT_MAX_SST_BYTES, err.message);
    if (err instanceof SheetDataError) throw dataError(err, limitsOf(options).maxColumns);
    if (err instanceof ZipUnsupportedError) throw new XlsxReadError('corrupt', err.message);
    if (err instanceof SheetScanError || err instanceof ZipFormatError) return sheetJsSource(buffer, options, pacer);
    throw err;
  }
  // A prefixed document (<x:worksheet>) hides its rows from the byte patterns: SheetJS reads those.
  if ((await sheetRoot(buffer, plan.sheet))?.includes(':')) return sheetJsSource(buffer, options, pacer);
  const source: XlsxRowSource = {
    ...plan.info,
    engine: 'scanner',
    rowCount: () => countRowTags(buffer, plan.sheet, options.maxXmlBytes ?? DEFAULT_MAX_XML_BYTES, pacer),
    batches: () =>
      scanBatches(buffer, plan, options, pacer, () => {
        source.engine = 'sheetjs';
      }),
  };
  return source;
}

/** All rows of a sheet: rows[i] is Excel row i + 1 (rows the file does not store are []), cells from column A with null gaps. */
export async function readXlsxRows(buffer: Buffer, options: XlsxReadOptions = {}): Promise<XlsxWorkbookInfo & { rows: CellValue[][] }> {
  const source = await openXlsx(buffer, options);
  const rows: CellValue[][] = [];
  for await (const batch of source.batches()) {
    for (const { row, cells } of batch) {
      while (rows.length < row - 1) rows.push([]);
      rows[row - 1] = cells;
    }
  }
  const { sheetName, sheetNames, date1904, engine } = source;
  return { sheetName, sheetNames, date1904, engine, rows };
}
