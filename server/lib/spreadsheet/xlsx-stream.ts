import { Readable } from 'node:stream';
import { crc32, createDeflateRaw } from 'node:zlib';
import { currentExportStamp, stampHeaderFooterXml, type ExportStamp } from './export-stamp';
import { columnName } from './sheet-scanner';

/**
 * A one-sheet .xlsx written as a stream (exports of 100,000 rows, docs/decisions/011-own-xlsx-reader.md): rows arrive in
 * batches from the database and leave deflated, so neither the rows nor the workbook are ever whole in memory.
 * Strings are inline (no shared-strings table to keep), the zip parts carry data descriptors (sizes after the data).
 * Text columns and text that looks like a formula get the text format with Excel's quote prefix, as `writeXlsx` does.
 */

export interface StreamColumn {
  header: string;
  width?: number;
  /** Written as text under the text format (long digit strings such as 学籍号). */
  text?: boolean;
}

const FORMULA_LIKE = /^[=+\-@\t\r]/;
// Characters XML 1.0 forbids (C0 controls but tab, LF, CR; lone surrogates; U+FFFE/FFFF).
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const escapeXml = (s: string) => s.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

function staticParts(sheetName: string): [string, string][] {
  return [
    [
      '[Content_Types].xml',
      `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    ],
    ['_rels/.rels', `${HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    [
      'xl/workbook.xml',
      `${HEAD}<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="${escapeXml(sheetName.replace(/[[\]:*?/\\]/g, '_').slice(0, 31) || 'Sheet')}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    ],
    [
      'xl/styles.xml',
      `${HEAD}<styleSheet xmlns="${NS}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf quotePrefix="1" numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
    ],
  ];
}

function rowXml(r: number, cells: readonly unknown[], text: readonly boolean[]): string {
  let out = `<row r="${r}">`;
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    if (v == null || v === '') continue;
    const ref = `${columnName(i)}${r}`;
    if (typeof v === 'number' && Number.isFinite(v) && !text[i]) {
      out += `<c r="${ref}"><v>${v}</v></c>`;
      continue;
    }
    const s = typeof v === 'boolean' ? (v ? 'TRUE' : 'FALSE') : String(v);
    const style = text[i] || FORMULA_LIKE.test(s) ? ' s="1"' : '';
    const space = /^\s|\s$/.test(s) ? ' xml:space="preserve"' : '';
    out += `<c r="${ref}" t="inlineStr"${style}><is><t${space}>${escapeXml(s)}</t></is></c>`;
  }
  return `${out}</row>`;
}

async function* sheetXml(columns: readonly StreamColumn[], batches: AsyncIterable<readonly (readonly unknown[])[]>, stamp: ExportStamp | undefined): AsyncGenerator<Buffer> {
  const text = columns.map((c) => Boolean(c.text));
  const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width ?? 12}" customWidth="1"/>`).join('');
  yield Buffer.from(`${HEAD}<worksheet xmlns="${NS}" xmlns:r="${REL}"><cols>${cols}</cols><sheetData>${rowXml(1, columns.map((c) => c.header), [])}`);
  let r = 1;
  for await (const batch of batches) {
    let xml = '';
    for (const row of batch) xml += rowXml(++r, row, text);
    yield Buffer.from(xml);
  }
  yield Buffer.from(`</sheetData>${stampHeaderFooterXml(stamp)}</worksheet>`);
}

const LOC_SIG = 0x04034b50;
const CEN_SIG = 0x02014b50;
const DESC_SIG = 0x08074b50;
const EOCD_SIG = 0x06054b50;
const FLAGS = 0x0808; // sizes in a data descriptor, UTF-8 names

async function* zipStream(parts: readonly [string, AsyncIterable<Buffer>][]): AsyncGenerator<Buffer> {
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [partName, content] of parts) {
    const name = Buffer.from(partName, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOC_SIG, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(FLAGS, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(0x00210000, 10);
    local.writeUInt16LE(name.length, 26);
    yield local;
    yield name;
    let crc = 0;
    let size = 0;
    let packed = 0;
    const counted = (async function* () {
      for await (const chunk of content) {
        crc = crc32(chunk, crc);
        size += chunk.length;
        yield chunk;
      }
    })();
    // pipe() does not pass a source's error on: a read that fails mid-export (a replica that dies) would be an
    // unhandled 'error' that ends the process. Forwarded, it rejects this generator and the export fails normally.
    const source = Readable.from(counted);
    const deflate = createDeflateRaw({ level: 6 });
    source.once('error', (err) => deflate.destroy(err));
    for await (const chunk of source.pipe(deflate)) {
      packed += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
    if (size > 0xffffffff || packed > 0xffffffff || offset > 0xffffffff) throw new RangeError('export needs zip64');
    const desc = Buffer.alloc(16);
    desc.writeUInt32LE(DESC_SIG, 0);
    desc.writeUInt32LE(crc, 4);
    desc.writeUInt32LE(packed, 8);
    desc.writeUInt32LE(size, 12);
    yield desc;
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CEN_SIG, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(FLAGS, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0x00210000, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed + desc.length;
  }
  const cdSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD_SIG, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  yield Buffer.concat([...centrals, end]);
}

async function* once(data: string): AsyncGenerator<Buffer> {
  yield Buffer.from(data, 'utf8');
}

/** The workbook as a byte stream: a header row of `columns`, then every row of every batch. */
export function xlsxStream(sheetName: string, columns: readonly StreamColumn[], batches: AsyncIterable<readonly (readonly unknown[])[]>): Readable {
  const parts: [string, AsyncIterable<Buffer>][] = staticParts(sheetName).map(([name, xml]) => [name, once(xml)]);
  // The exporter and time in the print header and footer, taken now: the stream is read after the request's context ends.
  parts.splice(3, 0, ['xl/worksheets/sheet1.xml', sheetXml(columns, batches, currentExportStamp())]);
  return Readable.from(zipStream(parts), { objectMode: false });
}
