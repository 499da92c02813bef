import * as XLSX from 'xlsx';
import { ERR, type ErrorKey } from '@/domain/errors';
import { AppError } from '../app-error';
import { lastRowEnd, rootElementName, RowScanner, scanSharedStrings, SheetDataError, SheetScanError, type CellValue, type XlsxRow } from './sheet-scanner';
import { looksLikeZip, readZipDirectory, readZipEntry, streamZipEntry, ZipFormatError, ZipTooLargeError, ZipUnsupportedError, type ZipEntry } from './zip';

export type { CellValue, XlsxRow } from './sheet-scanner';

/**
 * Reads the rows of one worksheet of an uploaded .xlsx (spec §5: imports accept .xlsx only).
 * A streaming scanner over the zip does the work (≈3× SheetJS on the national template, flat memory: PERFORMANCE.md);
 * whatever it cannot read (zip64, encryption, namespace prefixes, malformed XML) goes to SheetJS instead.
 * Dates stay Excel serial numbers (see `date1904`); formulas give their cached values.
 */

export type XlsxReadErrorReason = 'notXlsx' | 'corrupt' | 'tooLarge' | 'noSheet';
const REASON: Record<XlsxReadErrorReason, [number, ErrorKey]> = {
  notXlsx: [400, ERR.onlyExcel],
  corrupt: [400, ERR.fileFormat],
  tooLarge: [413, ERR.fileTooLarge],
  noSheet: [400, ERR.fileFormat],
};

/** The upload is not a readable workbook; carries the spec §8 message for the error handler. */
export class XlsxReadError extends AppError {
  constructor(
    readonly reason: XlsxReadErrorReason,
    readonly detail = '',
  ) {
    super(REASON[reason][0], REASON[reason][1]);
    this.name = 'XlsxReadError';
  }
}

export interface XlsxReadOptions {
  /** Sheet to read: index in workbook order or name. Default: the first visible sheet. */
  sheet?: number | string;
  /** Refuse a sheet with more rows than this (rows as stored, header included). */
  maxRows?: number;
  /** Refuse any part that inflates beyond this many bytes (zip bombs). Default 1 GiB. */
  maxXmlBytes?: number;
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
}

const DEFAULT_MAX_XML_BYTES = 1024 * 1024 * 1024;
/** Small parts (workbook, relationships) never need more than this. */
const SMALL_PART_BYTES = 16 * 1024 * 1024;
const CHUNK_BYTES = 256 * 1024;

interface SheetRef {
  name: string;
  path: string | null;
  hidden: boolean;
}
interface ScanPlan {
  info: Omit<XlsxWorkbookInfo, 'engine'>;
  sheet: ZipEntry;
  strings: string[];
}

const xmlUnescape = (s: string) =>
  s.replace(/&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g, (_, hex: string | undefined, dec: string | undefined, named: string | undefined) =>
    named ? ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[named] : String.fromCodePoint(hex ? parseInt(hex, 16) : Number(dec)),
  );

function attr(attrs: string, name: string): string | null {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attrs);
  return m ? xmlUnescape(m[1] ?? m[2]) : null;
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
  return { sheets, date1904: d1904 === '1' || d1904 === 'true', sharedStringsPath: sst };
}

function pickSheet<T extends { name: string; hidden: boolean }>(sheets: T[], which: number | string | undefined): T {
  let sheet: T | undefined;
  if (typeof which === 'number') sheet = sheets[which];
  else if (typeof which === 'string') sheet = sheets.find((s) => s.name === which);
  else sheet = sheets.find((s) => !s.hidden) ?? sheets[0];
  if (!sheet) throw new XlsxReadError('noSheet', `sheet ${String(which ?? 0)} not found`);
  return sheet;
}

function planScan(buf: Buffer, dir: Map<string, ZipEntry>, options: XlsxReadOptions): ScanPlan {
  const wb = readWorkbook(buf, dir);
  const ref = pickSheet(wb.sheets, options.sheet);
  // A chart sheet or a dangling relationship: let SheetJS decide.
  const sheet = ref.path ? dir.get(ref.path.toLowerCase()) : undefined;
  if (!sheet) throw new SheetScanError(`worksheet part of ${ref.name} not found`);
  let strings: string[] = [];
  const sstEntry = wb.sharedStringsPath ? dir.get(wb.sharedStringsPath.toLowerCase()) : undefined;
  if (sstEntry) {
    const sst = readZipEntry(buf, sstEntry, options.maxXmlBytes ?? DEFAULT_MAX_XML_BYTES);
    const root = rootElementName(sst);
    if (root !== null && root.includes(':')) throw new SheetScanError('namespace-prefixed shared strings');
    strings = scanSharedStrings(sst);
  }
  return { info: { sheetName: ref.name, sheetNames: wb.sheets.map((s) => s.name), date1904: wb.date1904 }, sheet, strings };
}

const ERROR_TEXT: Readonly<Record<number, string>> = { 0: '#NULL!', 7: '#DIV/0!', 15: '#VALUE!', 23: '#REF!', 29: '#NAME?', 36: '#NUM!', 42: '#N/A', 43: '#GETTING_DATA' };
const DAY_MS = 86_400_000;

function sheetJsValue(c: XLSX.CellObject | undefined, date1904: boolean): CellValue {
  if (!c) return null;
  switch (c.t) {
    case 's':
      return String(c.v ?? '');
    case 'n':
      return typeof c.v === 'number' ? c.v : null;
    case 'b':
      return c.v === true;
    case 'e':
      return c.w ?? ERROR_TEXT[Number(c.v)] ?? '#ERROR';
    case 'd': {
      // Keep dates as serial numbers, like the scanner.
      const d = c.v instanceof Date ? c.v : new Date(String(c.v));
      const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
      return (Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()) - epoch) / DAY_MS;
    }
    default:
      return null;
  }
}

/** SheetJS 0.20 in dense mode: slower and materialises the sheet, but reads what the scanner refuses. */
function readWithSheetJs(buf: Buffer, options: XlsxReadOptions): { info: XlsxWorkbookInfo; rows: XlsxRow[] } {
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(buf, { type: 'buffer', dense: true, cellDates: false, cellFormula: false, cellHTML: false, cellText: false, cellStyles: false, cellNF: false });
  } catch (err) {
    throw new XlsxReadError('corrupt', (err as Error).message);
  }
  const hidden = wb.Workbook?.Sheets ?? [];
  const sheets = wb.SheetNames.map((name, i) => ({ name, hidden: (hidden[i]?.Hidden ?? 0) !== 0 }));
  const { name } = pickSheet(sheets, options.sheet);
  const ws = wb.Sheets[name];
  const date1904 = Boolean(wb.Workbook?.WBProps?.date1904);
  const data: (XLSX.CellObject[] | undefined)[] = ws?.['!data'] ?? [];
  const rows: XlsxRow[] = [];
  for (let r = 0; r < data.length; r++) {
    const src = data[r];
    if (!src) continue;
    const cells: CellValue[] = [];
    for (let c = 0; c < src.length; c++) cells.push(sheetJsValue(src[c], date1904));
    while (cells.length > 0 && cells[cells.length - 1] === null) cells.pop();
    rows.push({ row: r + 1, cells });
  }
  if (options.maxRows !== undefined && rows.length > options.maxRows) throw new XlsxReadError('tooLarge', `more than ${options.maxRows} rows`);
  return { info: { sheetName: name, sheetNames: wb.SheetNames, date1904, engine: 'sheetjs' }, rows };
}

function sheetJsSource(buf: Buffer, options: XlsxReadOptions): XlsxRowSource {
  const { info, rows } = readWithSheetJs(buf, options);
  return {
    ...info,
    async *batches() {
      for (let i = 0; i < rows.length; i += 500) yield rows.slice(i, i + 500);
    },
  };
}

async function* scanBatches(buf: Buffer, plan: ScanPlan, options: XlsxReadOptions, onFallback: () => void): AsyncGenerator<XlsxRow[], void, undefined> {
  const scanner = new RowScanner(plan.strings);
  const maxRows = options.maxRows ?? Infinity;
  let carry: Buffer | null = null;
  let count = 0;
  let lastYielded = 0;
  const emit = (data: Buffer): XlsxRow[] => {
    const out: XlsxRow[] = [];
    scanner.scan(data, out);
    count += out.length;
    if (count > maxRows) throw new XlsxReadError('tooLarge', `more than ${maxRows} rows`);
    return out;
  };
  try {
    for await (const chunk of streamZipEntry(buf, plan.sheet, options.maxXmlBytes ?? DEFAULT_MAX_XML_BYTES, CHUNK_BYTES)) {
      const data: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
      const cut = lastRowEnd(data);
      if (cut === 0) {
        carry = data;
        continue;
      }
      carry = cut < data.length ? data.subarray(cut) : null;
      const out = emit(data.subarray(0, cut));
      if (out.length > 0) {
        lastYielded = out[out.length - 1].row;
        yield out;
      }
    }
    if (carry) {
      const out = emit(carry);
      if (out.length > 0) yield out;
    }
  } catch (err) {
    if (err instanceof XlsxReadError) throw err;
    if (err instanceof ZipTooLargeError) throw new XlsxReadError('tooLarge', err.message);
    if (err instanceof SheetDataError) throw new XlsxReadError('corrupt', err.message);
    if (err instanceof SheetScanError || err instanceof ZipFormatError || err instanceof ZipUnsupportedError) {
      // Continue with SheetJS after the rows already handed out.
      onFallback();
      const { rows } = readWithSheetJs(buf, options);
      const rest = rows.filter((r) => r.row > lastYielded);
      for (let i = 0; i < rest.length; i += 500) yield rest.slice(i, i + 500);
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

/** Opens a workbook for streaming its rows (issue 3 §3 import): metadata now, rows through `batches()`. */
export async function openXlsx(buffer: Buffer, options: XlsxReadOptions = {}): Promise<XlsxRowSource> {
  if (!looksLikeZip(buffer)) throw new XlsxReadError('notXlsx', 'not a zip archive');
  if (options.engine === 'sheetjs') return sheetJsSource(buffer, options);
  let dir: Map<string, ZipEntry>;
  try {
    dir = readZipDirectory(buffer);
  } catch (err) {
    if (err instanceof ZipUnsupportedError) return sheetJsSource(buffer, options);
    throw new XlsxReadError('corrupt', (err as Error).message);
  }
  let plan: ScanPlan;
  try {
    plan = planScan(buffer, dir, options);
  } catch (err) {
    if (err instanceof XlsxReadError) throw err;
    if (err instanceof ZipTooLargeError) throw new XlsxReadError('tooLarge', err.message);
    if (err instanceof SheetDataError) throw new XlsxReadError('corrupt', err.message);
    if (err instanceof SheetScanError || err instanceof ZipUnsupportedError || err instanceof ZipFormatError) return sheetJsSource(buffer, options);
    throw err;
  }
  // A prefixed document (<x:worksheet>) hides its rows from the byte patterns: SheetJS reads those.
  if ((await sheetRoot(buffer, plan.sheet))?.includes(':')) return sheetJsSource(buffer, options);
  const source: XlsxRowSource = {
    ...plan.info,
    engine: 'scanner',
    batches: () =>
      scanBatches(buffer, plan, options, () => {
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
