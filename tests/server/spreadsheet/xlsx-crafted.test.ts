import { describe, expect, it } from 'vitest';
import { ERR } from '@/domain/errors';
import { readXlsxRows, XlsxReadError, type XlsxReadOptions } from '../../../server/lib/spreadsheet/xlsx-reader';
import { xlsxPackage } from './xlsx-package';

/** Files built to break a reader: cells beyond Excel's grid, forbidden characters, parts that inflate enormously. */

const failure = async (buf: Buffer, options?: XlsxReadOptions): Promise<XlsxReadError> => {
  try {
    await readXlsxRows(buf, options);
  } catch (err) {
    if (err instanceof XlsxReadError) return err;
    throw err;
  }
  throw new Error('expected an XlsxReadError');
};
const sheet = (sheetData: string, sharedStrings?: string[]) => xlsxPackage({ sheets: [{ name: 'S', sheetData }], sharedStrings });

describe('crafted workbooks are refused with a clear message, never a crash', () => {
  it.each([['scanner'], ['sheetjs']] as const)('a cell beyond column XFD (ZZZZZZ1) is a damaged file (%s)', async (engine) => {
    const err = await failure(sheet('<row r="1"><c r="ZZZZZZ1"><v>1</v></c></row>'), { engine: engine === 'sheetjs' ? 'sheetjs' : 'auto' });
    expect(err).toMatchObject({ reason: 'badCellRef', status: 400, i18nKey: ERR.xlsxBadCellRef });
    if (engine === 'scanner') expect(err.params).toEqual({ cell: 'ZZZZZZ1' });
  });

  it('refuses XFE1, a row beyond 1,048,576 and a reference of many letters', async () => {
    expect((await failure(sheet('<row r="1"><c r="XFE1" t="inlineStr"><is><t>x</t></is></c></row>'))).reason).toBe('badCellRef');
    expect((await failure(sheet('<row r="1048577"><c r="A1048577"><v>1</v></c></row>'))).params).toEqual({ cell: '1048577' });
    expect((await failure(sheet(`<row r="1"><c r="${'Z'.repeat(5000)}1"><v>1</v></c></row>`))).reason).toBe('badCellRef');
    // XFD itself is Excel's last column: read.
    const last = await readXlsxRows(sheet('<row r="1"><c r="XFD1"><v>7</v></c></row>'));
    expect(last.rows[0]).toHaveLength(16_384);
    expect(last.rows[0][16_383]).toBe(7);
  });

  it('stops at a value beyond maxColumns, naming the cell; styled empty cells out there do not count', async () => {
    const err = await failure(sheet('<row r="1"><c r="A1"><v>1</v></c><c r="IW1"><v>2</v></c></row>'), { maxColumns: 256 });
    expect(err).toMatchObject({ reason: 'tooManyColumns', status: 400, i18nKey: ERR.xlsxTooManyColumns, params: { cell: 'IW1', max: 256 } });
    expect((await readXlsxRows(sheet('<row r="1"><c r="A1"><v>1</v></c><c r="XFD1" s="0"/></row>'), { maxColumns: 256 })).rows).toEqual([[1]]);
  });

  it.each([
    ['&#x110000;', 'A1'],
    ['&#1114112;', 'A1'],
    ['&#0;', 'A1'],
    ['&#xD800;', 'A1'],
    ['&#xFFFE;', 'A1'],
  ])('an invalid character reference %s in a cell is a damaged file', async (ref, cell) => {
    const err = await failure(sheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>a${ref}b</t></is></c></row>`));
    expect(err).toMatchObject({ reason: 'badChar', status: 400, i18nKey: ERR.xlsxBadChar, params: { cell } });
    expect((await failure(sheet(`<row r="2"><c r="C2" t="str"><v>${ref}</v></c></row>`))).params).toEqual({ cell: 'C2' });
  });

  it('an invalid character reference in the shared strings is a damaged file too; valid ones are read', async () => {
    const err = await failure(sheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', ['<si><t>ok</t></si>', '<si><t>&#x110000;</t></si>']));
    expect(err.reason).toBe('badChar');
    const ok = await readXlsxRows(sheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', ['<si><t>&#x10FFFF;&#x9;&#x4E2D;</t></si>']));
    expect(ok.rows).toEqual([['\u{10FFFF}\t中']]);
  });

  it('refuses shared strings that inflate beyond their limit, however small the file', async () => {
    const bomb = sheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', Array<string>(200_000).fill(`<si><t>${'a'.repeat(100)}</t></si>`));
    expect(bomb.length).toBeLessThan(200_000);
    expect(await failure(bomb, { maxSharedStringsBytes: 4 * 1024 * 1024 })).toMatchObject({ reason: 'tooLarge', status: 413, params: { max: 4 } });
  });
});
