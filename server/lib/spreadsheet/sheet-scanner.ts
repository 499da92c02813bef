/**
 * A byte-level scanner for the SpreadsheetML parts of an .xlsx (worksheet rows and shared strings). It reads only what
 * an import needs (cell positions and values), works on UTF-8 bytes without building a DOM or decoding the whole part,
 * and throws SheetScanError on anything it does not understand so the caller can fall back to SheetJS.
 */
import { formatDateTime, type DateTimeFormat } from './number-format';

/** What a cell holds after reading: text, number, boolean, or null. Numbers under a date or time format are the text they show. */
export type CellValue = string | number | boolean | null;

/** One worksheet row: its 1-based Excel row number and its cells from column A (gaps are null). */
export interface XlsxRow {
  row: number;
  cells: CellValue[];
}

/** The scanner met XML it does not handle: the caller falls back to SheetJS. */
export class SheetScanError extends Error {
  override readonly name = 'SheetScanError';
}

/**
 * What is wrong with readable data: 'corrupt' (a cell points at a shared string that does not exist), 'cellRef' (a cell
 * or row beyond Excel's grid), 'char' (a character reference XML does not allow), 'columns' (a value beyond maxColumns).
 */
export type SheetDataProblem = 'corrupt' | 'cellRef' | 'char' | 'columns';

/** The part is readable but its data is broken or beyond a limit: the file is refused, no fallback. */
export class SheetDataError extends Error {
  override readonly name = 'SheetDataError';
  constructor(
    message: string,
    readonly problem: SheetDataProblem = 'corrupt',
    /** Where: a cell reference such as B7, or the part. */
    public where = '',
  ) {
    super(message);
  }
}

/** Excel's grid: columns A–XFD, rows 1–1,048,576. */
export const EXCEL_MAX_COLUMNS = 16_384;
export const EXCEL_MAX_ROWS = 1_048_576;

/** Column letters of a 0-based column index (0 → A, 16383 → XFD). */
export function columnName(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const EQ = 0x3d;
const DQ = 0x22;
const SQ = 0x27;
const AMP = 0x26;
const UNDERSCORE = 0x5f;
const MINUS = 0x2d;
const DOT = 0x2e;

const ROW_OPEN = Buffer.from('<row');
const SI_OPEN = Buffer.from('<si');
const RPH_CLOSE = Buffer.from('</rPh>');

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
/** Byte after an element name: whitespace, '>' or '/'. */
const endsName = (b: number) => b === GT || b === SLASH || isSpace(b);

// Cell types (the t attribute).
const T_NUMBER = 0;
const T_SHARED = 1;
const T_BOOL = 2;
const T_ERROR = 3;
const T_TEXT = 4; // str (formula text), inlineStr given in <v>, d (ISO date text)

const ENTITY = /&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
// OOXML escapes characters XML cannot carry as _xHHHH_ (ST_Xstring), e.g. _x000D_ for a carriage return.
const X_ESCAPE = /_x([0-9a-fA-F]{4})_/g;

/** XML 1.0 Char: a reference to anything else (&#x110000;, &#0;, a surrogate) makes the document malformed. */
const isXmlChar = (cp: number) =>
  cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);

/** Resolves XML entities and character references; a reference to a character XML does not allow is a SheetDataError. */
export function decodeEntities(s: string): string {
  return s.replace(ENTITY, (ref: string, hex: string | undefined, dec: string | undefined, named: string | undefined) => {
    if (named) return NAMED[named];
    const cp = hex ? parseInt(hex, 16) : Number(dec);
    if (!isXmlChar(cp)) throw new SheetDataError(`invalid character reference ${ref.slice(0, 20)}`, 'char');
    return String.fromCodePoint(cp);
  });
}

/** Text between a and b, UTF-8 decoded, with XML entities and _xHHHH_ escapes resolved. ASCII takes the cheaper latin1 path. */
export function decodeText(buf: Buffer, a: number, b: number): string {
  let high = false;
  let amp = false;
  let underscore = false;
  for (let i = a; i < b; i++) {
    const c = buf[i];
    if (c >= 0x80) high = true;
    else if (c === AMP) amp = true;
    else if (c === UNDERSCORE) underscore = true;
  }
  let s = high ? buf.toString('utf8', a, b) : buf.toString('latin1', a, b);
  if (amp) s = decodeEntities(s);
  if (underscore) s = s.replace(X_ESCAPE, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return s;
}

/** Number of a <v> element; exact like Number() (mantissa < 2^53 divided by an exact power of ten is correctly rounded). */
function parseNumber(buf: Buffer, a: number, b: number): CellValue {
  let i = a;
  const negative = buf[i] === MINUS;
  if (negative) i++;
  let m = 0;
  let digits = 0;
  let scale = 0;
  let dot = false;
  for (; i < b; i++) {
    const c = buf[i];
    if (c >= 0x30 && c <= 0x39) {
      m = m * 10 + (c - 0x30);
      digits++;
      if (dot) scale++;
    } else if (c === DOT && !dot) dot = true;
    else return slowNumber(buf, a, b);
  }
  if (digits === 0 || digits > 15) return slowNumber(buf, a, b);
  const v = scale ? m / POW10[scale] : m;
  return negative ? -v : v;
}

function slowNumber(buf: Buffer, a: number, b: number): CellValue {
  const text = decodeText(buf, a, b).trim();
  if (text === '') return null;
  const n = Number(text);
  // Garbage in a numeric cell stays visible as text rather than turning into NaN.
  return Number.isNaN(n) ? text : n;
}

function parseUint(buf: Buffer, a: number, b: number): number {
  let n = 0;
  for (let i = a; i < b; i++) {
    const c = buf[i];
    if (c < 0x30 || c > 0x39) return -1;
    n = n * 10 + (c - 0x30);
  }
  return b > a ? n : -1;
}

/** 0-based column of a cell reference such as AB12; -1 when it has no letters; a SheetDataError beyond column XFD. */
function parseColumn(buf: Buffer, a: number, b: number): number {
  let col = 0;
  let i = a;
  for (; i < b; i++) {
    const c = buf[i];
    if (c >= 0x41 && c <= 0x5a) col = col * 26 + (c - 0x40);
    else if (c >= 0x61 && c <= 0x7a) col = col * 26 + (c - 0x60);
    else break;
    if (col > EXCEL_MAX_COLUMNS) throw new SheetDataError('cell reference beyond column XFD', 'cellRef', buf.toString('latin1', a, Math.min(b, a + 20)));
  }
  return i === a ? -1 : col - 1;
}

/** Concatenated text of the <t> elements in [start, end), leaving out phonetic runs (<rPh>), as in <is> and <si>. */
export function richText(buf: Buffer, start: number, end: number): string {
  let out: string | null = null;
  let p = start;
  for (;;) {
    const k = buf.indexOf(LT, p);
    if (k < 0 || k >= end) break;
    const b1 = buf[k + 1];
    const gt = buf.indexOf(GT, k);
    if (gt < 0 || gt >= end) throw new SheetScanError('rich text: unterminated tag');
    if (b1 === 0x74 /* t */ && endsName(buf[k + 2])) {
      if (buf[gt - 1] === SLASH) {
        out ??= '';
        p = gt + 1;
        continue;
      }
      const close = buf.indexOf(LT, gt + 1);
      if (close < 0 || close >= end) throw new SheetScanError('rich text: unterminated <t>');
      const text = decodeText(buf, gt + 1, close);
      out = out === null ? text : out + text;
      p = close;
    } else if (b1 === 0x72 && buf[k + 2] === 0x50 && buf[k + 3] === 0x68 && endsName(buf[k + 4]) /* rPh */) {
      if (buf[gt - 1] === SLASH) p = gt + 1;
      else {
        const close = buf.indexOf(RPH_CLOSE, gt);
        if (close < 0 || close >= end) throw new SheetScanError('rich text: unterminated <rPh>');
        p = close + RPH_CLOSE.length;
      }
    } else p = gt + 1;
  }
  return out ?? '';
}

export interface RowScannerOptions {
  /** Number formats by style index (the s attribute): numbers under a date or time format are read as the text shown. */
  formats?: readonly (DateTimeFormat | null)[];
  /** The workbook counts dates from 1904-01-01. */
  date1904?: boolean;
  /** A value in a column beyond this (count, not index) is a SheetDataError 'columns'. Default and maximum: XFD. */
  maxColumns?: number;
}

/**
 * Scans complete <row> elements of a worksheet fragment and appends them to `out`.
 * Not re-entrant per instance: positions live in fields to avoid allocating a result object per cell.
 */
export class RowScanner {
  /** Row number of the last row seen, for rows without an r attribute. */
  lastRow = 0;
  private buf: Buffer = Buffer.alloc(0);
  private len = 0;
  private pos = 0;
  // Attribute parsed by nextAttribute(): name and value ranges, or nameStart = -1 at the end of the tag.
  private nameStart = 0;
  private nameEnd = 0;
  private valueStart = 0;
  private valueEnd = 0;
  private selfClosing = false;

  private readonly strings: SharedStrings;
  private readonly formats: readonly (DateTimeFormat | null)[];
  private readonly date1904: boolean;
  private readonly maxColumns: number;

  constructor(strings: SharedStrings, options: RowScannerOptions = {}) {
    this.strings = strings;
    this.formats = options.formats ?? [];
    this.date1904 = options.date1904 ?? false;
    this.maxColumns = Math.min(options.maxColumns ?? EXCEL_MAX_COLUMNS, EXCEL_MAX_COLUMNS);
  }

  private fail(what: string): never {
    throw new SheetScanError(`worksheet: ${what} at byte ${this.pos}`);
  }

  /** Reads the next attribute of the open tag at pos; at '>' or '/>' moves past it and sets nameStart = -1. */
  private nextAttribute(): void {
    const buf = this.buf;
    const len = this.len;
    let j = this.pos;
    while (j < len && isSpace(buf[j])) j++;
    if (j >= len) this.fail('unterminated tag');
    const b = buf[j];
    if (b === GT) {
      this.selfClosing = false;
      this.nameStart = -1;
      this.pos = j + 1;
      return;
    }
    if (b === SLASH) {
      if (buf[j + 1] !== GT) this.fail('bad tag end');
      this.selfClosing = true;
      this.nameStart = -1;
      this.pos = j + 2;
      return;
    }
    this.nameStart = j;
    while (j < len && buf[j] !== EQ && !isSpace(buf[j]) && buf[j] !== GT) j++;
    this.nameEnd = j;
    while (j < len && buf[j] !== DQ && buf[j] !== SQ) {
      if (buf[j] !== EQ && !isSpace(buf[j])) this.fail('attribute without value');
      j++;
    }
    if (j >= len) this.fail('unterminated attribute');
    const q = buf[j];
    const end = buf.indexOf(q, j + 1);
    if (end < 0) this.fail('unterminated attribute value');
    this.valueStart = j + 1;
    this.valueEnd = end;
    this.pos = end + 1;
  }

  /** Skips the tag that starts at pos ('<…>'); returns true when it was self-closing. */
  private skipTag(): boolean {
    const gt = this.buf.indexOf(GT, this.pos);
    if (gt < 0) this.fail('unterminated tag');
    this.pos = gt + 1;
    return this.buf[gt - 1] === SLASH;
  }

  /** Index of the next '<' from pos, failing at the end of the fragment. */
  private nextLt(): number {
    const k = this.buf.indexOf(LT, this.pos);
    if (k < 0) this.fail('unexpected end');
    return k;
  }

  /** Scans every complete row in buf; rows are appended to out. */
  scan(buf: Buffer, out: XlsxRow[]): void {
    this.buf = buf;
    this.len = buf.length;
    this.pos = 0;
    for (;;) {
      const i = buf.indexOf(ROW_OPEN, this.pos);
      if (i < 0) break;
      this.pos = i + 4;
      // <rowBreaks> and the like share the prefix.
      if (i + 4 >= this.len || !endsName(buf[i + 4])) continue;
      out.push(this.readRow());
    }
  }

  private readRow(): XlsxRow {
    const buf = this.buf;
    let row = -1;
    for (;;) {
      this.nextAttribute();
      if (this.nameStart < 0) break;
      if (this.nameEnd - this.nameStart === 1 && buf[this.nameStart] === 0x72 /* r */) row = parseUint(buf, this.valueStart, this.valueEnd);
    }
    if (row <= 0) row = this.lastRow + 1;
    if (row > EXCEL_MAX_ROWS) throw new SheetDataError('row beyond 1048576', 'cellRef', `${row}`);
    this.lastRow = row;
    const cells: CellValue[] = [];
    if (this.selfClosing) return { row, cells };
    let lastCol = -1;
    for (;;) {
      const k = this.nextLt();
      const b1 = buf[k + 1];
      this.pos = k;
      if (b1 === 0x63 /* c */ && endsName(buf[k + 2])) {
        this.pos = k + 2;
        lastCol = this.readCell(cells, lastCol);
      } else if (b1 === SLASH) {
        this.skipTag();
        // Only </row> ends the row; a stray closing tag (of an unknown child) is skipped.
        if (buf[k + 2] === 0x72 && buf[k + 3] === 0x6f && buf[k + 4] === 0x77 && buf[k + 5] === GT) break;
      } else if (!this.skipTag()) {
        // An unknown child element with content (e.g. an extension list): skip to its closing tag.
        this.skipElementBody(k);
      }
    }
    return { row, cells };
  }

  /** Skips the content and closing tag of the element opened at k (its start tag is already consumed). */
  private skipElementBody(k: number): void {
    const buf = this.buf;
    let nameEnd = k + 1;
    while (nameEnd < this.len && !endsName(buf[nameEnd])) nameEnd++;
    const close = Buffer.concat([Buffer.from('</'), buf.subarray(k + 1, nameEnd), Buffer.from('>')]);
    const at = buf.indexOf(close, this.pos);
    if (at < 0) this.fail('unterminated element');
    this.pos = at + close.length;
  }

  /** Reads the <c> element whose attributes start at pos; returns its column. */
  private readCell(cells: CellValue[], lastCol: number): number {
    try {
      return this.readCellBody(cells, lastCol);
    } catch (err) {
      // Name the cell in the message: "B7 holds an invalid character".
      if (err instanceof SheetDataError && err.where === '') err.where = `${columnName(Math.max(0, this.cellCol))}${this.lastRow}`;
      throw err;
    }
  }

  /** Column of the cell being read, for error messages. */
  private cellCol = 0;

  private readCellBody(cells: CellValue[], lastCol: number): number {
    const buf = this.buf;
    let col = -1;
    let type = T_NUMBER;
    let style = -1;
    this.cellCol = lastCol + 1;
    for (;;) {
      this.nextAttribute();
      if (this.nameStart < 0) break;
      if (this.nameEnd - this.nameStart !== 1) continue;
      const a = buf[this.nameStart];
      if (a === 0x72 /* r */) this.cellCol = col = parseColumn(buf, this.valueStart, this.valueEnd);
      else if (a === 0x73 /* s */) style = parseUint(buf, this.valueStart, this.valueEnd);
      else if (a === 0x74 /* t */) {
        const vs = this.valueStart;
        const n = this.valueEnd - vs;
        const c0 = buf[vs];
        if (n === 1) type = c0 === 0x73 ? T_SHARED : c0 === 0x62 ? T_BOOL : c0 === 0x65 ? T_ERROR : c0 === 0x6e ? T_NUMBER : T_TEXT;
        else type = T_TEXT; // str, inlineStr, d
      }
    }
    if (col < 0) col = lastCol + 1;
    if (col >= EXCEL_MAX_COLUMNS) throw new SheetDataError('cell beyond column XFD', 'cellRef');
    if (this.selfClosing) return col;
    let value: CellValue = null;
    let has = false;
    for (;;) {
      const m = this.nextLt();
      const b1 = buf[m + 1];
      this.pos = m;
      if (b1 === SLASH) {
        this.skipTag();
        if (buf[m + 2] === 0x63 /* c */ && buf[m + 3] === GT) break;
      } else if (b1 === 0x76 /* v */ && endsName(buf[m + 2])) {
        if (this.skipTag()) {
          value = type === T_TEXT ? '' : null;
          has = true;
          continue;
        }
        const vs = this.pos;
        const ve = this.nextLt();
        value = this.convert(type, vs, ve);
        has = true;
        this.pos = ve;
      } else if (b1 === 0x69 && buf[m + 2] === 0x73 && endsName(buf[m + 3]) /* is */) {
        if (this.skipTag()) value = '';
        else {
          const start = this.pos;
          const end = buf.indexOf('</is>', start, 'latin1');
          if (end < 0) this.fail('unterminated <is>');
          value = richText(buf, start, end);
          this.pos = end + 5;
        }
        has = true;
      } else if (b1 === 0x66 /* f */ && endsName(buf[m + 2])) {
        // Formula: only its cached <v> matters; the formula text cannot contain a raw '<'.
        if (!this.skipTag()) this.pos = this.nextLt();
      } else if (!this.skipTag()) this.skipElementBody(m);
    }
    if (has && value !== null) {
      if (col >= this.maxColumns) throw new SheetDataError(`value beyond column ${this.maxColumns}`, 'columns');
      if (typeof value === 'number' && type === T_NUMBER && style >= 0 && style < this.formats.length) {
        const format = this.formats[style];
        if (format) value = formatDateTime(value, format, this.date1904);
      }
      if (col < cells.length) cells[col] = value;
      else {
        while (cells.length < col) cells.push(null);
        cells.push(value);
      }
    }
    return col;
  }

  private convert(type: number, a: number, b: number): CellValue {
    const buf = this.buf;
    switch (type) {
      case T_NUMBER:
        return a === b ? null : parseNumber(buf, a, b);
      case T_SHARED: {
        const idx = parseUint(buf, a, b);
        if (idx < 0 || idx >= this.strings.length) throw new SheetDataError(`worksheet: shared string ${decodeText(buf, a, b)} missing`);
        return this.strings.get(idx);
      }
      case T_BOOL:
        return buf[a] === 0x31 || (b - a === 4 && buf.toString('latin1', a, b) === 'true');
      default:
        return decodeText(buf, a, b);
    }
  }
}

/**
 * A workbook's shared strings as UTF-8 bytes in one buffer, decoded when a cell reads one. A district's file holds
 * hundreds of thousands of distinct names and numbers; as JS strings they stayed on the heap for the whole import and
 * V8 lets garbage grow with the live heap before a major GC (docs/decisions/011-own-xlsx-reader.md).
 */
export class SharedStrings {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  /** End offset of string i in `bytes`. */
  private ends = new Uint32Array(1024);
  length = 0;

  push(s: string): void {
    const room = s.length * 3;
    if (this.used + room > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + room));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.used += this.bytes.write(s, this.used, 'utf8');
    if (this.length === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.length++] = this.used;
  }

  get(i: number): string {
    return this.bytes.toString('utf8', i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }
}

/** Appends the shared strings (<si> elements of sharedStrings.xml) of buf to out: rich-text runs concatenated, phonetic runs left out. */
export function scanSharedStrings<T extends { push(s: string): void; length: number }>(buf: Buffer, out: T): T {
  let p = 0;
  for (;;) {
    const i = buf.indexOf(SI_OPEN, p);
    if (i < 0) break;
    if (i + 3 >= buf.length || !endsName(buf[i + 3])) {
      p = i + 3;
      continue;
    }
    const gt = buf.indexOf(GT, i);
    if (gt < 0) throw new SheetScanError('shared strings: unterminated <si>');
    if (buf[gt - 1] === SLASH) {
      out.push('');
      p = gt + 1;
      continue;
    }
    const end = buf.indexOf('</si>', gt, 'latin1');
    if (end < 0) throw new SheetScanError('shared strings: unterminated <si>');
    try {
      out.push(richText(buf, gt + 1, end));
    } catch (err) {
      if (err instanceof SheetDataError && err.where === '') err.where = `sharedStrings #${out.length}`;
      throw err;
    }
    p = end + 5;
  }
  return out;
}

/** Name of the root element of an XML part (with its namespace prefix, if any), from its first bytes. */
export function rootElementName(buf: Buffer): string | null {
  let p = 0;
  for (;;) {
    const k = buf.indexOf(LT, p);
    if (k < 0 || k + 1 >= buf.length) return null;
    const b1 = buf[k + 1];
    if (b1 === 0x3f /* ? */ || b1 === 0x21 /* ! */) {
      const gt = buf.indexOf(GT, k);
      if (gt < 0) return null;
      p = gt + 1;
      continue;
    }
    let e = k + 1;
    while (e < buf.length && !endsName(buf[e])) e++;
    return buf.toString('utf8', k + 1, e);
  }
}
