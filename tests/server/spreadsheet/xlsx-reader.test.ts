import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import { ERR } from '@/domain/errors';
import { openXlsx, readXlsxRows, XlsxReadError, type CellValue, type XlsxReadOptions } from '../../../server/lib/spreadsheet/xlsx-reader';
import { readZipDirectory, writeZip } from '../../../server/lib/spreadsheet/zip';
import { writeXlsx } from '../../../server/lib/spreadsheet/xlsx-writer';
import { nationalTemplateRows } from '../../support/national-template-fixture';
import { xlsxPackage } from './xlsx-package';

/** A workbook as SheetJS writes it; bookSST puts strings in sharedStrings.xml, which SheetJS writes AFTER the sheet. */
function sheetJsWorkbook(rows: unknown[][], bookSST: boolean, extra: { name: string; rows: unknown[][] }[] = []): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Data');
  for (const s of extra) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(s.rows), s.name);
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', bookSST, compression: true }) as Buffer;
}

/** The rows SheetJS itself reads (header: 1, raw values; dates as ISO text like the reader), with trailing blanks trimmed as the reader does. */
function sheetJsRows(buf: Buffer, sheet = 0): CellValue[][] {
  const wb = XLSX.read(buf, { type: 'buffer', cellDates: true });
  const rows = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[wb.SheetNames[sheet]], { header: 1, raw: true, blankrows: true, defval: null, UTC: true });
  return rows.map((r) => {
    const cells = r.map((c) => (c === undefined ? null : c instanceof Date ? c.toISOString().slice(0, 10) : c)) as CellValue[];
    while (cells.length && cells[cells.length - 1] === null) cells.pop();
    return cells;
  });
}

const read = async (buf: Buffer, options?: XlsxReadOptions) => readXlsxRows(buf, options);
const failure = async (promise: Promise<unknown>): Promise<XlsxReadError> => {
  try {
    await promise;
  } catch (err) {
    if (err instanceof XlsxReadError) return err;
    throw err;
  }
  throw new Error('expected an XlsxReadError');
};

const MIXED: unknown[][] = [
  ['姓名', 'name', '学籍号', '数字', '布尔', '日期'],
  ['张三', 'Zhang San', 'G11010520070901123X', 1, true, new Date(Date.UTC(2010, 4, 1))],
  [null, ' spaced  ', '0012', -2.5, false, new Date(Date.UTC(2007, 8, 1))],
  [],
  ['a & b < c > d "e" \'f\'', '', null, 1e21, null, null],
  ['𠀀 emoji 😀', 'line\nbreak', 'tab\there', 0.1 + 0.2, 123456789012345, 3.14159],
  [null, null, null, null, null, 'last'],
];

const EXPECTED: CellValue[][] = [
  ['姓名', 'name', '学籍号', '数字', '布尔', '日期'],
  ['张三', 'Zhang San', 'G11010520070901123X', 1, true, '2010-05-01'],
  [null, ' spaced  ', '0012', -2.5, false, '2007-09-01'],
  [],
  ['a & b < c > d "e" \'f\'', '', null, 1e21],
  ['𠀀 emoji 😀', 'line\nbreak', 'tab\there', 0.1 + 0.2, 123456789012345, 3.14159],
  [null, null, null, null, null, 'last'],
];

describe('readXlsxRows on workbooks written by SheetJS', () => {
  it.each([
    ['shared strings written after the sheet', true],
    ['cell strings (t="str")', false],
  ])('%s: same cells as SheetJS reads', async (_, bookSST) => {
    const buf = sheetJsWorkbook(MIXED, bookSST);
    if (bookSST) {
      const order = [...readZipDirectory(buf).keys()];
      expect(order.indexOf('xl/sharedstrings.xml')).toBeGreaterThan(order.indexOf('xl/worksheets/sheet1.xml'));
    }
    const r = await read(buf);
    expect(r.engine).toBe('scanner');
    expect(r.sheetName).toBe('Data');
    expect(r.date1904).toBe(false);
    expect(r.rows).toEqual(EXPECTED);
    expect(r.rows).toEqual(sheetJsRows(buf));
    const fallback = await read(buf, { engine: 'sheetjs' });
    expect(fallback.engine).toBe('sheetjs');
    expect(fallback.rows).toEqual(EXPECTED);
  });

  it('reads a national template of several thousand rows across many inflate chunks like SheetJS', async () => {
    const { rows } = nationalTemplateRows({ rows: 6000, seed: 3 });
    const buf = writeXlsx([{ name: '体测成绩', rows }]);
    const source = await openXlsx(buf);
    let batches = 0;
    const seen: number[] = [];
    for await (const batch of source.batches()) {
      batches++;
      for (const r of batch) seen.push(r.row);
    }
    expect(batches).toBeGreaterThan(3);
    expect(seen).toEqual(rows.map((_, i) => i + 1));
    const r = await read(buf);
    expect(r.engine).toBe('scanner');
    expect(r.rows).toEqual(sheetJsRows(buf));
    expect(r.rows[0]).toEqual(rows[0]);
    expect(r.rows).toHaveLength(rows.length);
  });

  it('picks a sheet by name or index, the first visible one by default', async () => {
    const buf = sheetJsWorkbook([['first']], true, [{ name: '第二页', rows: [['second']] }]);
    expect((await read(buf)).rows).toEqual([['first']]);
    expect((await read(buf, { sheet: 1 })).rows).toEqual([['second']]);
    const named = await read(buf, { sheet: '第二页' });
    expect(named.rows).toEqual([['second']]);
    expect(named.sheetNames).toEqual(['Data', '第二页']);
    expect((await failure(read(buf, { sheet: 'nope' }))).reason).toBe('noSheet');

    const hidden = xlsxPackage({ sheets: [{ name: 'dict', sheetData: '<row r="1"><c r="A1"><v>1</v></c></row>', state: 'hidden' }, { name: 'data', sheetData: '<row r="1"><c r="A1"><v>2</v></c></row>' }] });
    expect(await read(hidden)).toMatchObject({ sheetName: 'data', rows: [[2]] });
    expect(await read(hidden, { engine: 'sheetjs' })).toMatchObject({ sheetName: 'data', rows: [[2]] });
  });
});

describe('readXlsxRows on hand-written SpreadsheetML', () => {
  const SST = [
    '<si><t>plain</t></si>',
    '<si><t xml:space="preserve">  padded  </t></si>',
    '<si><r><rPr><b/></rPr><t>漢</t></r><r><t>字</t></r><rPh sb="0" eb="1"><t>カンジ</t></rPh><phoneticPr fontId="1"/></si>',
    '<si><t/></si>',
    '<si><t>&lt;&amp;&gt;&quot;&apos;&#20013;&#x6587;_x000D_</t></si>',
  ];
  const DATA =
    // shared, inline, rich inline, number, boolean, error, formula with cached value, formula string, styled empty cell
    '<row r="1" spans="1:9"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>inline</t></is></c><c r="C1" t="inlineStr"><is><r><t>ri</t></r><r><t>ch</t></r></is></c>' +
    '<c r="D1" s="2"><v>-12.75</v></c><c r="E1" t="b"><v>1</v></c><c r="F1" t="e"><v>#N/A</v></c><c r="G1"><f>D1*2</f><v>-25.5</v></c><c r="H1" t="str"><f>"a"&amp;"b"</f><v>ab</v></c><c r="I1" s="3"/></row>' +
    // gaps between cells and rows, rows and cells without r, self-closing rows
    '<row r="3"><c r="C3" t="s"><v>1</v></c><c r="AA3"><v>27</v></c></row>' +
    '<row><c><v>1</v></c><c><v>2</v></c><c r="E4"><v>5</v></c><c><v>6</v></c></row>' +
    '<row r="6" spans="1:1"/>' +
    '<row r="7"><c r="A7" t="s"><v>2</v></c><c r="B7" t="s"><v>3</v></c><c r="C7" t="s"><v>4</v></c><c r="D7" t="inlineStr"><is><t/></is></c></row>' +
    '<row r="8"><c r="A8"><v>1.5E-3</v></c><c r="B8"><v>12345678901234567890</v></c><c r="C8"><v></v></c><c r="D8" t="n"><v>0</v></c></row>';

  const expected: CellValue[][] = [
    ['plain', 'inline', 'rich', -12.75, true, '#N/A', -25.5, 'ab'],
    [],
    [null, null, '  padded  ', ...Array<null>(23).fill(null), 27],
    [1, 2, null, null, 5, 6],
    [],
    [],
    ['漢字', '', '<&>"\'中文\r', ''],
    [0.0015, Number('12345678901234567890'), null, 0],
  ];

  it.each([
    ['deflated, shared strings first', { level: 6 }],
    ['stored, shared strings last', { level: 0, sharedStringsLast: true }],
  ])('%s', async (_, o) => {
    const buf = xlsxPackage({ sheets: [{ name: 'S', sheetData: DATA }], sharedStrings: SST, ...o });
    const r = await read(buf);
    expect(r.engine).toBe('scanner');
    expect(r.rows).toEqual(expected);
    // SheetJS agrees on everything the scanner reads.
    expect((await read(buf, { engine: 'sheetjs' })).rows).toEqual(expected);
  });

  it('reports the 1904 date system', async () => {
    const buf = xlsxPackage({ sheets: [{ name: 'S', sheetData: '<row r="1"><c r="A1"><v>38837</v></c></row>' }], date1904: true });
    expect(await read(buf)).toMatchObject({ date1904: true, rows: [[38837]] });
  });

  it('skips elements after the rows that share their prefix', async () => {
    const sheet = `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData><rowBreaks count="1" manualBreakCount="1"><brk id="1" max="16383" man="1"/></rowBreaks></worksheet>`;
    expect((await read(xlsxPackage({ sheets: [{ name: 'S', sheetData: sheet, raw: true }] }))).rows).toEqual([[1]]);
  });

  it('hands namespace-prefixed documents to SheetJS', async () => {
    const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    const sheet = `<x:worksheet xmlns:x="${NS}"><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>hi</x:t></x:is></x:c><x:c r="B1"><x:v>2</x:v></x:c></x:row><x:row r="3"><x:c r="C3" t="s"><x:v>0</x:v></x:c></x:row></x:sheetData></x:worksheet>`;
    const r = await read(xlsxPackage({ sheets: [{ name: 'P', sheetData: sheet, raw: true }], sharedStrings: ['<si><t>shared</t></si>'] }));
    expect(r.engine).toBe('sheetjs');
    expect(r.rows).toEqual([['hi', 2], [], [null, null, 'shared']]);
  });

  it('continues with SheetJS after the rows it already read when it meets XML it does not handle', async () => {
    const rows: string[] = [];
    for (let i = 1; i <= 30_000; i++) rows.push(`<row r="${i}"><c r="A${i}"><v>${i}</v></c><c r="B${i}" t="inlineStr"><is><t>row ${i}</t></is></c></row>`);
    rows[25_000] = '<row r="25001" spans><c r="A25001"><v>25001</v></c><c r="B25001" t="inlineStr"><is><t>row 25001</t></is></c></row>';
    const buf = xlsxPackage({ sheets: [{ name: 'S', sheetData: rows.join('') }] });
    const source = await openXlsx(buf);
    expect(source.engine).toBe('scanner');
    const seen: number[] = [];
    for await (const batch of source.batches()) for (const r of batch) seen.push(r.row);
    expect(source.engine).toBe('sheetjs');
    expect(seen).toEqual(Array.from({ length: 30_000 }, (_, i) => i + 1));
    const all = await read(buf);
    expect(all.rows[25_000]).toEqual([25001, 'row 25001']);
    expect(all.rows[29_999]).toEqual([30000, 'row 30000']);
  });
});

describe('readXlsxRows errors', () => {
  it('refuses what is not an .xlsx', async () => {
    for (const bytes of [Buffer.from('name,age\nzhang,12\n'), Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...Array<number>(600).fill(0)]), Buffer.alloc(0)]) {
      const err = await failure(read(bytes));
      expect(err.reason).toBe('notXlsx');
      expect(err.status).toBe(400);
      expect(err.i18nKey).toBe(ERR.onlyExcel);
    }
    // A zip that is not a workbook (a .docx, say).
    const docx = writeZip([{ name: 'word/document.xml', data: Buffer.from('<w:document/>') }]);
    expect((await failure(read(docx))).reason).toBe('notXlsx');
  });

  it('reports a damaged file', async () => {
    const buf = sheetJsWorkbook(MIXED, true);
    const err = await failure(read(buf.subarray(0, Math.floor(buf.length / 2))));
    expect(err.reason).toBe('corrupt');
    expect(err.i18nKey).toBe(ERR.fileFormat);
    const dangling = xlsxPackage({ sheets: [{ name: 'S', sheetData: '<row r="1"><c r="A1"><v>1</v></c><c r="B1" t="s"><v>5</v></c></row>' }], sharedStrings: ['<si><t>a</t></si>'] });
    expect((await failure(read(dangling))).reason).toBe('corrupt');
  });

  it('stops at the row and size limits', async () => {
    const { rows } = nationalTemplateRows({ rows: 2000 });
    const buf = writeXlsx([{ name: 'x', rows }]);
    const err = await failure(read(buf, { maxRows: 1000 }));
    expect(err).toMatchObject({ reason: 'tooManyRows', status: 413, i18nKey: ERR.xlsxTooManyRows, params: { max: 1000 } });
    expect(await failure(read(buf, { maxXmlBytes: 2 * 64 * 1024 }))).toMatchObject({ reason: 'tooLarge', status: 413, i18nKey: ERR.xlsxTooLarge, params: { max: 1 } });
    expect(await failure(read(buf, { maxSharedStringsBytes: 64 * 1024 }))).toMatchObject({ reason: 'tooLarge', params: { max: 1 } });
    expect((await read(buf, { maxRows: 2001 })).rows).toHaveLength(2001);
  });
});

describe('rowCount (a job bar counts the file before reading it)', () => {
  const yielded = async (buf: Buffer) => {
    let n = 0;
    for await (const batch of (await openXlsx(buf)).batches()) n += batch.length;
    return n;
  };

  it('counts the rows batches() yields, across the inflated chunks of a large sheet', async () => {
    const buf = writeXlsx([{ name: '体测成绩', rows: nationalTemplateRows({ rows: 6000, invalidShare: 0.02, seed: 7 }).rows }]);
    expect(await (await openXlsx(buf)).rowCount()).toBe(await yielded(buf));
  });

  it('counts empty stored rows and not the page breaks of a worksheet', async () => {
    const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    const sheetData = `<worksheet xmlns="${NS}"><sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="2"/><row r="3" spans="1:1"><c r="A3"><v>3</v></c></row></sheetData><rowBreaks count="1" manualBreakCount="1"><brk id="2" max="16383" man="1"/></rowBreaks></worksheet>`;
    const buf = xlsxPackage({ sheets: [{ name: 'S', sheetData, raw: true }] });
    const source = await openXlsx(buf);
    expect(await source.rowCount()).toBe(await yielded(buf));
    expect(await source.rowCount()).toBe(3);
  });
});
