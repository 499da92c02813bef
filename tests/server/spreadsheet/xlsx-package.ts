import { writeZip } from '../../../server/lib/spreadsheet/zip';

/**
 * Hand-built .xlsx packages for reader tests: the XML is written exactly as given, so tests can use constructs
 * SheetJS never writes (inline strings, rich text, phonetic runs, formulas, prefixed namespaces, row gaps).
 */

export interface PackageSheet {
  name: string;
  /** Everything inside <sheetData>…</sheetData>, or a whole worksheet document when `raw` is set. */
  sheetData: string;
  raw?: boolean;
  state?: 'hidden' | 'veryHidden';
}

export interface PackageOptions {
  sheets: PackageSheet[];
  /** <si> elements of the shared strings part (omitted when undefined). */
  sharedStrings?: string[];
  /** Write sharedStrings.xml after the worksheets (as SheetJS does) instead of before (as Excel does). */
  sharedStringsLast?: boolean;
  date1904?: boolean;
  /** styles.xml: custom number formats by id and the numFmtId of each cell style (the s attribute indexes cellXfs). */
  styles?: { numFmts?: Record<number, string>; cellXfs: number[] };
  /** 0 = stored (no compression). */
  level?: number;
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const R_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const xml = (s: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s}`, 'utf8');

export function xlsxPackage(o: PackageOptions): Buffer {
  const sheetParts = o.sheets.map((s, i) => ({
    name: `xl/worksheets/sheet${i + 1}.xml`,
    data: xml(s.raw ? s.sheetData : `<worksheet xmlns="${NS}" xmlns:r="${R_NS}"><dimension ref="A1"/><sheetData>${s.sheetData}</sheetData></worksheet>`),
  }));
  const sst =
    o.sharedStrings === undefined
      ? []
      : [{ name: 'xl/sharedStrings.xml', data: xml(`<sst xmlns="${NS}" count="${o.sharedStrings.length}" uniqueCount="${o.sharedStrings.length}">${o.sharedStrings.join('')}</sst>`) }];
  const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const styles = o.styles
    ? [
        {
          name: 'xl/styles.xml',
          data: xml(
            `<styleSheet xmlns="${NS}"><numFmts count="${Object.keys(o.styles.numFmts ?? {}).length}">${Object.entries(o.styles.numFmts ?? {})
              .map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${esc(code)}"/>`)
              .join('')}</numFmts><fonts count="1"><font/></fonts><fills count="1"><fill/></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0"/></cellStyleXfs><cellXfs count="${o.styles.cellXfs.length}">${o.styles.cellXfs
              .map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`)
              .join('')}</cellXfs></styleSheet>`,
          ),
        },
      ]
    : [];
  const overrides = [
    `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>`,
    ...sheetParts.map((p) => `<Override PartName="/${p.name}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`),
    ...sst.map(() => `<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>`),
    ...styles.map(() => `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>`),
  ].join('');
  const parts = [
    {
      name: '[Content_Types].xml',
      data: xml(
        `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides}</Types>`,
      ),
    },
    { name: '_rels/.rels', data: xml(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`) },
    {
      name: 'xl/workbook.xml',
      data: xml(
        `<workbook xmlns="${NS}" xmlns:r="${R_NS}"><workbookPr${o.date1904 ? ' date1904="1"' : ''}/><sheets>${o.sheets
          .map((s, i) => `<sheet name="${s.name}" sheetId="${i + 1}"${s.state ? ` state="${s.state}"` : ''} r:id="rId${i + 1}"/>`)
          .join('')}</sheets></workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: xml(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${o.sheets
          .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
          .join('')}${sst.length ? `<Relationship Id="rId${o.sheets.length + 1}" Type="${REL}/sharedStrings" Target="/xl/sharedStrings.xml"/>` : ''}${styles.length ? `<Relationship Id="rId${o.sheets.length + 2}" Type="${REL}/styles" Target="styles.xml"/>` : ''}</Relationships>`,
      ),
    },
    ...styles,
    ...(o.sharedStringsLast ? [...sheetParts, ...sst] : [...sst, ...sheetParts]),
  ];
  return writeZip(parts, o.level ?? 6);
}
