import { ParseSpeeds, PDFArray, PDFDocument, PDFName, PDFObjectCopier, PDFPage, PDFRef, rgb, type PDFObject, type PDFFont, type PDFImage } from 'pdf-lib';
import { crc32, deflateRawSync } from 'node:zlib';
import { loadFont, patchedFontkit } from '../../lib/pdf-fonts';
import { fieldText, MM_PER_PT, PAGE_MM, type CertificateField, type CertificateValues, type Orientation } from '@/domain/meets/documents';

/**
 * Certificates as PDF (docs/product-rules.md#meet-documents): A4 pages with the template's background stretched over
 * the page, its texts in Noto Sans SC (embedded as a subset: only the characters printed) and its stamp.
 */
export interface CertificateLayout {
  orientation: Orientation;
  fields: CertificateField[];
  stampX: number | null;
  stampY: number | null;
  stampSize: number | null;
}

export interface CertificateImages {
  background: { bytes: Uint8Array; mime: string } | null;
  stamp: Uint8Array | null;
}

const pt = (mm: number) => mm / MM_PER_PT;
const colour = (hex: string) => rgb(parseInt(hex.slice(1, 3), 16) / 255, parseInt(hex.slice(3, 5), 16) / 255, parseInt(hex.slice(5, 7), 16) / 255);

interface Kit {
  regular: PDFFont;
  bold: PDFFont | null;
  background: PDFImage | null;
  stamp: PDFImage | null;
}

function drawPage(doc: PDFDocument, kit: Kit, layout: CertificateLayout, values: CertificateValues): PDFPage {
  const [wMm, hMm] = PAGE_MM[layout.orientation];
  const page = doc.addPage([pt(wMm), pt(hMm)]);
  const height = page.getHeight();
  if (kit.background) page.drawImage(kit.background, { x: 0, y: 0, width: page.getWidth(), height });
  for (const f of layout.fields) {
    const text = fieldText(f, values);
    if (!text) continue;
    const font = f.bold && kit.bold ? kit.bold : kit.regular;
    const width = font.widthOfTextAtSize(text, f.size);
    const anchor = pt(f.x);
    const x = f.align === 'center' ? anchor - width / 2 : f.align === 'right' ? anchor - width : anchor;
    page.drawText(text, { x, y: height - pt(f.y), size: f.size, font, color: colour(f.color) });
  }
  if (kit.stamp && layout.stampX != null && layout.stampY != null && layout.stampSize != null) {
    const side = pt(layout.stampSize);
    page.drawImage(kit.stamp, { x: pt(layout.stampX) - side / 2, y: height - pt(layout.stampY) - side / 2, width: side, height: side });
  }
  return page;
}

/** Told after each page or file, so a job shows how far it got (and yields to other work between pages). */
export type CertificateProgress = (done: number, total: number) => Promise<void> | void;

/** One PDF with a page per certificate, in the order given. */
export async function certificatesPdf(layout: CertificateLayout, images: CertificateImages, list: readonly CertificateValues[], onPage?: CertificateProgress): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(patchedFontkit);
  doc.setTitle('Certificates');
  doc.setCreator('tiyu');
  const bold = layout.fields.some((f) => f.bold);
  const [regular, boldFont] = await Promise.all([loadFont('regular'), bold ? loadFont('bold') : null]);
  const kit: Kit = {
    regular: await doc.embedFont(regular, { subset: true }),
    bold: boldFont ? await doc.embedFont(boldFont, { subset: true }) : null,
    // Embedded once, drawn on every page.
    background: images.background ? await (images.background.mime === 'image/png' ? doc.embedPng(images.background.bytes) : doc.embedJpg(images.background.bytes)) : null,
    stamp: images.stamp ? await doc.embedPng(images.stamp) : null,
  };
  for (const [i, values] of list.entries()) {
    drawPage(doc, kit, layout, values);
    await onPage?.(i + 1, list.length);
  }
  return doc.save();
}

/** Characters no common file system takes in a name (Windows' set, which covers the others), and control characters. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\\/:*?"<>|\u0000-\u001f\u007f]+/g;
/** Zip entry names stay well under every file system's 255-byte limit (3 bytes per Chinese character in UTF-8). */
const NAME_MAX = 60;

/** One part of a file name: unsafe characters become '_', spaces collapse, no leading or trailing dots and spaces, at most NAME_MAX characters. */
export function safeFileNamePart(part: string): string {
  const cleaned = part.replace(UNSAFE, '_').replace(/\s+/g, ' ').replace(/^[\s.]+|[\s.]+$/g, '');
  return [...cleaned].slice(0, NAME_MAX).join('').trim() || '_';
}

/**
 * The zip's file name of each certificate, `<event>-<place>-<name>.pdf` (the place two digits, so files sort by it),
 * safe for file systems and unique in the zip: a second 张三 of the same event and place becomes `…-张三(2).pdf`.
 */
export function certificateFileNames(list: readonly { event: string; place: number; name: string }[]): string[] {
  const taken = new Set<string>(['index.csv']);
  return list.map((c) => {
    const stem = [safeFileNamePart(c.event), String(c.place).padStart(2, '0'), safeFileNamePart(c.name)].join('-');
    let name = `${stem}.pdf`;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem}(${n}).pdf`;
    taken.add(name.toLowerCase());
    return name;
  });
}

/**
 * The objects every file of a zip shares (fonts, images, their descriptors and width arrays) do not change once copied,
 * so each is serialized once and its bytes reused for every file: pdf-lib would write them again per file, a stream's
 * contents one byte at a time.
 */
function writeOnce(obj: PDFObject): void {
  const bytes = new Uint8Array(obj.sizeInBytes());
  obj.copyBytesInto(bytes, 0);
  obj.sizeInBytes = () => bytes.length;
  obj.copyBytesInto = (buffer: Uint8Array, offset: number) => (buffer.set(bytes, offset), bytes.length);
}

/**
 * A zip with one PDF per certificate: the multi-page PDF split page by page, plus index.csv (UTF-8) naming each file's
 * athlete. fflate writes the names in UTF-8 with the language-encoding flag, so Chinese names open as written in
 * Windows Explorer, macOS and unzip alike.
 *
 * Every file carries the one font subset (and images) of the whole PDF, copied ONCE: one output document and one
 * copier for all pages, so the shared objects are copied on the first page and reused by reference after; each file
 * is that document holding only its page, which is removed again after writing (a fresh document and copy per file
 * cost more than drawing the pages; target in docs/performance.md, "certificates").
 */
export async function certificatesZip(pdf: Uint8Array, files: readonly { fileName: string; row: readonly string[] }[], header: readonly string[], onFile?: CertificateProgress): Promise<Buffer> {
  const source = await PDFDocument.load(pdf, { parseSpeed: ParseSpeeds.Fastest, updateMetadata: false });
  const pages = source.getPages();
  const one = await PDFDocument.create();
  const copier = PDFObjectCopier.for(source.context, one.context);
  // The document's own objects (catalog, page tree, info) change with each file; what the pages bring is shared.
  const own = new Set(one.context.enumerateIndirectObjects().map(([r]) => r));
  const written = new Set<PDFRef>();
  const zip = new ZipWriter();
  for (const [i, file] of files.entries()) {
    const node = copier.copy(pages[i].node);
    const ref = one.context.register(node);
    one.addPage(PDFPage.of(node, ref, one));
    // The page's own objects: the page and its content streams (each page has its own); they go after writing.
    const contents = node.get(PDFName.of('Contents'));
    const pageOwn = new Set([ref, ...(contents instanceof PDFArray ? contents.asArray() : [contents]).filter((c) => c instanceof PDFRef)]);
    for (const [r, obj] of one.context.enumerateIndirectObjects()) {
      if (own.has(r) || pageOwn.has(r) || written.has(r)) continue;
      writeOnce(obj);
      written.add(r);
    }
    // No object streams (they would deflate the shared objects again for every file); no waiting between objects.
    zip.add(file.fileName, await one.save({ useObjectStreams: false, objectsPerTick: Infinity }), false);
    one.removePage(0);
    for (const r of pageOwn) one.context.delete(r);
    await onFile?.(i + 1, files.length);
  }
  const csv = [header, ...files.map((f) => [f.fileName, ...f.row])].map((r) => r.map(csvCell).join(',')).join('\r\n');
  zip.add('index.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv, 'utf8')]), true);
  return zip.finish();
}

/**
 * A zip written as it is filled: entries stored (PDF streams are compressed already) or deflated, names in UTF-8 with
 * the language-encoding flag (bit 11) so Chinese names open as written in Windows Explorer, macOS and unzip alike.
 * Its own writer rather than fflate's zipSync because the CRC-32 of every file (60 MiB for 1,000 certificates) is
 * node:zlib's native one here, fflate's JavaScript one took a third of the zip's time. No zip64: at most 65,535 files.
 */
class ZipWriter {
  private readonly parts: Buffer[] = [];
  private readonly central: Buffer[] = [];
  private offset = 0;
  private count = 0;
  private readonly time: number;
  private readonly date: number;

  constructor(now = new Date()) {
    this.time = (now.getHours() << 11) | (now.getMinutes() << 5) | (now.getSeconds() >> 1);
    this.date = ((now.getFullYear() - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate();
  }

  add(name: string, bytes: Uint8Array, deflate: boolean): void {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = deflate ? deflateRawSync(bytes, { level: 6 }) : bytes;
    const fields = (h: Buffer, at: number) => {
      h.writeUInt16LE(20, at); // version needed: 2.0
      h.writeUInt16LE(0x0800, at + 2); // names in UTF-8
      h.writeUInt16LE(deflate ? 8 : 0, at + 4);
      h.writeUInt16LE(this.time, at + 6);
      h.writeUInt16LE(this.date, at + 8);
      h.writeUInt32LE(crc32(bytes), at + 10);
      h.writeUInt32LE(data.length, at + 14);
      h.writeUInt32LE(bytes.length, at + 18);
      h.writeUInt16LE(nameBytes.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 4);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4); // made by: 2.0, MS-DOS attributes
    fields(entry, 6);
    entry.writeUInt32LE(this.offset, 42);
    this.parts.push(local, nameBytes, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    this.central.push(entry, nameBytes);
    this.offset += local.length + nameBytes.length + data.length;
    this.count++;
  }

  finish(): Buffer {
    if (this.count > 0xffff || this.offset > 0xffffffff) throw new Error('zip too large without zip64');
    const central = Buffer.concat(this.central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.count, 8);
    end.writeUInt16LE(this.count, 10);
    end.writeUInt32LE(central.length, 12);
    end.writeUInt32LE(this.offset, 16);
    return Buffer.concat([...this.parts, central, end]);
  }
}

const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
