import { crc32 } from 'node:zlib';
import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { writeXlsx } from '../../../server/lib/spreadsheet/xlsx-writer';
import { readZipDirectory, readZipEntry } from '../../../server/lib/spreadsheet/zip';
import { NATIONAL_COLUMNS } from '@/domain/physique/national-template';

const HEADER = NATIONAL_COLUMNS.map((c) => c.header);

describe('writeXlsx', () => {
  it('writes a workbook SheetJS reads back cell for cell', () => {
    const rows = [HEADER.slice(0, 6), [41, '4101', '2025级1班', '11010520070901123X', '01', '张三'], [11, 1101, null, 'G1', true, 3.4], [], ['a & <b>', '', undefined, -0.5, false, 1e-7]];
    const buf = writeXlsx([{ name: '体测成绩', rows }]);
    const wb = XLSX.read(buf, { type: 'buffer' });
    expect(wb.SheetNames).toEqual(['体测成绩']);
    const back = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets['体测成绩'], { header: 1, raw: true, blankrows: true, defval: null });
    expect(back.map((r) => r.map((c) => (c === '' ? null : c)))).toEqual([
      HEADER.slice(0, 6),
      [41, '4101', '2025级1班', '11010520070901123X', '01', '张三'],
      [11, 1101, null, 'G1', true, 3.4],
      [null, null, null, null, null, null],
      ['a & <b>', null, null, -0.5, false, 1e-7],
    ]);
  });

  it('writes several sheets with safe, unique names, widths, text columns and dates', () => {
    const buf = writeXlsx([
      { name: 'a/b:c*?[x]', rows: [['学籍号', '出生日期'], ['0012', new Date(2010, 4, 1)]], columnWidths: [22, 12], textColumns: [0] },
      { name: 'A/B:C*?[X]', rows: [[1n, { toString: () => 'obj' }, Number.NaN, Infinity, 'ok']] },
      { name: 'x'.repeat(40), rows: [] },
    ]);
    const wb = XLSX.read(buf, { type: 'buffer', cellStyles: true, cellNF: true, cellDates: true });
    expect(wb.SheetNames).toEqual(['a_b_c___x_', 'A_B_C___X__2', 'x'.repeat(31)]);
    const first = wb.Sheets[wb.SheetNames[0]];
    expect(first['!cols']?.map((c) => Math.round(c.wch ?? 0))).toEqual([22, 12]);
    expect(first.A2).toMatchObject({ t: 's', v: '0012', z: '@' });
    expect(first.B2.t).toBe('d');
    expect((first.B2.v as Date).getFullYear()).toBe(2010);
    const second = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[wb.SheetNames[1]], { header: 1, raw: true, defval: null });
    expect(second).toEqual([['1', 'obj', null, null, 'ok']]);
  });

  it('is a valid zip with zlib-deflated parts in Excel order, read by the scanner too', async () => {
    const rows = [HEADER, ...Array.from({ length: 500 }, (_, i) => [11, `11${String(i % 9).padStart(2, '0')}`, `${i % 9}班`, `G${String(i).padStart(18, '0')}`, '01', `学生${i}`, 1 + (i % 2), '2019-09-01', '地址', 120.5, 23.4, 1200, 10.5, 9.5, 88])];
    const buf = writeXlsx([{ name: 'x', rows }]);
    const dir = readZipDirectory(buf);
    const names = [...dir.values()].map((e) => e.name);
    expect(names[0]).toBe('[Content_Types].xml');
    expect(names.indexOf('xl/sharedStrings.xml')).toBeLessThan(names.indexOf('xl/worksheets/sheet1.xml'));
    for (const e of dir.values()) {
      expect(e.method).toBe(8);
      expect(crc32(readZipEntry(buf, e, 1 << 30))).toBe(e.crc32);
    }
    const back = await readXlsxRows(buf);
    expect(back.engine).toBe('scanner');
    expect(back.rows).toEqual(rows);
  });

  it('writes text that looks like a formula so that editing it in Excel cannot make it one; numbers stay numbers', async () => {
    const risky = ['=1+1', '+86 138 0000 0000', '-x', '@SUM(A1:A2)', '\tTab', '\rCR', '=HYPERLINK("http://x","y")', '-3'];
    const safe = ['plain', '张三', 'a=b', ''];
    const buf = writeXlsx([{ name: 's', rows: [[...risky, ...safe, -3, 5.5, 0]] }]);
    const wb = XLSX.read(buf, { type: 'buffer', cellNF: true, cellFormula: true });
    const ws = wb.Sheets.s;
    const cells = Array.from({ length: risky.length + safe.length + 3 }, (_, c) => ws[XLSX.utils.encode_cell({ r: 0, c })] as XLSX.CellObject);
    for (const [i, v] of risky.entries()) {
      expect(cells[i], JSON.stringify(v)).toMatchObject({ t: 's', v, z: '@' });
      expect(cells[i].f).toBeUndefined();
    }
    for (const [i, v] of safe.entries()) if (v !== '') expect(cells[risky.length + i].z, v).not.toBe('@');
    expect(cells.slice(-3).map((c) => [c.t, c.v])).toEqual([['n', -3], ['n', 5.5], ['n', 0]]);
    expect(cells.at(-3)!.z).not.toBe('@');
    // The text style carries Excel's quote prefix (the formula bar shows '=1+1).
    const styles = readZipEntry(buf, readZipDirectory(buf).get('xl/styles.xml')!, 1 << 20).toString('utf8');
    const xfs = styles.slice(styles.indexOf('<cellXfs'), styles.indexOf('</cellXfs>'));
    expect(xfs).toMatch(/<xf quotePrefix="1"[^>]*numFmtId="49"/);
    expect(xfs.match(/quotePrefix/g)).toHaveLength(1);
    // And the reader reads back exactly what was written.
    expect((await readXlsxRows(buf)).rows).toEqual([[...risky, 'plain', '张三', 'a=b', '', -3, 5.5, 0]]);
  });

  it('needs at least one sheet', () => {
    expect(() => writeXlsx([])).toThrow(RangeError);
  });
});
