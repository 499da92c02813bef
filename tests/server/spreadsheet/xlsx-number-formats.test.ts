import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import { readXlsxRows, type CellValue } from '../../../server/lib/spreadsheet/xlsx-reader';
import { xlsxPackage } from './xlsx-package';

/** 3'40" as Excel stores a time typed as 00:03:40: a fraction of a day. */
const RUN = 0.0025462962962963;

/** One cell per style: <c r="A1" s="i"><v>value</v></c>. */
const row = (r: number, cells: [value: number | string, style: number, extra?: string][]) =>
  `<row r="${r}">${cells.map(([v, s, extra], i) => `<c r="${String.fromCharCode(65 + i)}${r}" s="${s}"${extra ?? ''}>${typeof v === 'number' ? `<v>${v}</v>` : v}</c>`).join('')}</row>`;

const CUSTOM = {
  164: 'hh:mm:ss',
  165: 'mm:ss',
  166: '[h]:mm:ss',
  167: 'yyyy-mm-dd',
  168: 'm/d/yy',
  169: '0.00',
  170: 'mm:ss.0',
  171: 'yyyy-mm-dd hh:mm:ss',
  172: '[$-409]h:mm:ss AM/PM;@',
  173: 'yyyy"年"m"月"d"日"',
  174: '[Red]0.00;[Blue]-0.00',
  175: 'h"时"mm"分"ss"秒"',
};
// s index:     0  1    2    3    4    5    6    7    8    9    10   11   12   13  14  15  16  17  18  19  20  21  22  23  24
const XFS = [0, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 14, 20, 21, 22, 45, 46, 47, 31, 33, 2, 49, 57];

async function readStyled(sheetData: string, o: { date1904?: boolean; engine?: 'sheetjs' } = {}): Promise<CellValue[][]> {
  const buf = xlsxPackage({ sheets: [{ name: 'S', sheetData }], styles: { numFmts: CUSTOM, cellXfs: XFS }, sharedStrings: ['<si><t>03:40</t></si>'], date1904: o.date1904 });
  return (await readXlsxRows(buf, { engine: o.engine })).rows;
}

describe('cells under date and time number formats are read as the text they show', () => {
  const data =
    row(1, [[RUN, 1], [RUN, 2], [RUN, 3], [RUN, 7], [RUN, 0], [RUN, 6], [RUN, 17], [RUN, 18], [RUN, 19], [RUN, 14], [RUN, 15], [RUN, 12], [RUN, 21]]) +
    row(2, [[40299, 4], [40299, 5], [40299, 13], [40299.75, 8], [40299.5, 16], [40299, 10], [40299, 20], [40299, 24], [1.5, 3], [0.75, 9], [-1, 1], [3.14159, 22], [-2.5, 11]]) +
    // Numbers stored as text, shared and inline strings keep their text under any format; a formula's cached value is formatted.
    row(3, [['<v>0</v>', 2, ' t="s"'], ['<is><t>3:40</t></is>', 1, ' t="inlineStr"'], ['<v>00:03:40</v>', 1, ' t="str"'], [`<f>B9/86400</f><v>${RUN}</v>`, 2], ['<v>220</v>', 23]]);

  const expected: CellValue[][] = [
    ['00:03:40', '03:40', '0:03:40', '03:40.0', RUN, RUN, '03:40', '0:03:40', '0340.0', '0:03', '0:03:40', '0时03分40秒', '0时03分40秒'],
    ['2010-05-01', '2010-05-01', '2010-05-01', '2010-05-01 18:00:00', '2010-05-01 12:00:00', '2010-05-01', '2010-05-01', '2010-05-01', '36:00:00', '6:00:00 PM', -1, 3.14159, -2.5],
    ['03:40', '3:40', '00:03:40', '03:40', 220],
  ];

  it('honours custom formats (numFmts) and built-in format ids 14–22, 45–47 and the zh-CN date ids', async () => {
    expect(await readStyled(data)).toEqual(expected);
  });

  it('gives the same cells when SheetJS reads the file, but for the zh-CN built-in ids SheetJS does not know', async () => {
    const sheetjs = expected.map((r) => [...r]);
    sheetjs[0][12] = RUN; // id 33
    sheetjs[1][6] = 40299; // id 31
    sheetjs[1][7] = 40299; // id 57
    expect(await readStyled(data, { engine: 'sheetjs' })).toEqual(sheetjs);
  });

  it('counts dates in the 1900 system with its fictitious 1900-02-29, and in the 1904 system', async () => {
    const dates = row(1, [[1, 4], [59, 4], [60, 4], [61, 4], [0.5, 4], [2958465, 4], [2958466, 4]]);
    expect(await readStyled(dates)).toEqual([['1900-01-01', '1900-02-28', '1900-02-29', '1900-03-01', 0.5, '9999-12-31', 2958466]]);
    expect(await readStyled(row(1, [[0, 4], [38837, 4], [38837.25, 8], [RUN, 1]]), { date1904: true })).toEqual([['1904-01-01', '2010-05-01', '2010-05-01 06:00:00', '00:03:40']]);
  });

  it('rounds to the precision the format shows, as Excel does', async () => {
    // 3'39.6": mm:ss shows 03:40, mm:ss.0 shows 03:39.6, h:mm shows 0:03; 23:59:59.6 under hh:mm:ss is 00:00:00 of the next day.
    const v = 219.6 / 86400;
    expect(await readStyled(row(1, [[v, 2], [v, 7], [v, 14], [86399.6 / 86400, 1], [86399.6 / 86400, 3]]))).toEqual([['03:40', '03:39.6', '0:03', '00:00:00', '24:00:00']]);
  });

  it('reads a workbook SheetJS wrote with number formats', async () => {
    const ws = XLSX.utils.aoa_to_sheet([['1000米跑', '出生日期']]);
    ws.A2 = { t: 'n', v: RUN, z: 'mm:ss' };
    ws.B2 = { t: 'n', v: 40299, z: 'yyyy/m/d' };
    ws.A3 = { t: 'n', v: RUN, z: 'hh:mm:ss' };
    ws.B3 = { t: 'n', v: 40299, z: XLSX.SSF.get_table()[14] as string };
    ws['!ref'] = 'A1:B3';
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'S');
    const buf = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', cellStyles: true }) as Buffer;
    const r = await readXlsxRows(buf);
    expect(r.engine).toBe('scanner');
    expect(r.rows).toEqual([['1000米跑', '出生日期'], ['03:40', '2010-05-01'], ['00:03:40', '2010-05-01']]);
  });
});

describe('workbooks saved by LibreOffice Calc', () => {
  // fixtures/libreoffice-times.csv opened in Calc 7 with the zh-CN and the en-US locale and saved as .xlsx
  // (soffice --headless --convert-to xlsx --infilter="CSV:44,34,76,1,,2052|1033"): times become hh:mm:ss or
  // hh:mm:ss AM/PM fractions of a day, dates yyyy-mm-dd serials, with 'General' as a custom format.
  const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name));

  it('reads the zh-CN file as Calc shows it', async () => {
    const r = await readXlsxRows(fixture('libreoffice-zh-cn-times.xlsx'));
    expect(r.engine).toBe('scanner');
    expect(r.rows).toEqual([
      ['姓名', '1000米跑', '800米跑', '50米跑', '出生日期'],
      ['张三', '00:03:40', '00:03:05', 8.4, '2010-05-01'],
      ['李四', '00:04:05', '00:03:59', 9.1, '2009-12-31'],
    ]);
  });

  it('reads the en-US file as Calc shows it, a 12-hour clock included', async () => {
    const r = await readXlsxRows(fixture('libreoffice-en-us-times.xlsx'));
    expect(r.rows.slice(1)).toEqual([
      ['张三', '12:03:40 AM', '12:03:05 AM', 8.4, '2010-05-01'],
      ['李四', '12:04:05 AM', '12:03:59 AM', 9.1, '2009-12-31'],
    ]);
  });
});
