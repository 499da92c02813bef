import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { zipSync, type Zippable } from 'fflate';
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

const require = createRequire(import.meta.url);
const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
} as const;
/** The font files (10 MB each) are read once per process, when first needed. */
const fontBytes = new Map<keyof typeof FONT_FILES, Promise<Buffer>>();
export function loadFont(weight: keyof typeof FONT_FILES): Promise<Buffer> {
  let bytes = fontBytes.get(weight);
  if (!bytes) {
    bytes = readFile(require.resolve(FONT_FILES[weight]));
    bytes.catch(() => fontBytes.delete(weight));
    fontBytes.set(weight, bytes);
  }
  return bytes;
}

/**
 * @pdf-lib/fontkit 1.1.1 writes a subset's `loca` table in the short format without padding odd-length glyph records,
 * so every glyph after the first odd one is read from the wrong offset and prints blank (most of Noto Sans SC). The long
 * format needs no padding; fixed upstream in fontkit 1.8 (foliojs/fontkit#191), which the pdf-lib fork predates.
 */
type SubsetProto = { _addGlyph(this: { loca: { version?: number } }, gid: number): number; longLoca?: true };
export const patchedFontkit: typeof fontkit = {
  ...fontkit,
  create(bytes: Uint8Array, postscriptName?: string) {
    const font = fontkit.create(bytes, postscriptName);
    const proto = Object.getPrototypeOf(font.createSubset()) as SubsetProto;
    if (!proto.longLoca && typeof proto._addGlyph === 'function') {
      const add = proto._addGlyph;
      proto._addGlyph = function (gid) {
        this.loca.version ??= 1;
        return add.call(this, gid);
      };
      proto.longLoca = true;
    }
    return font;
  },
};

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

/** One PDF with a page per certificate, in the order given. */
export async function certificatesPdf(layout: CertificateLayout, images: CertificateImages, list: readonly CertificateValues[]): Promise<Uint8Array> {
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
  for (const values of list) drawPage(doc, kit, layout, values);
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
 * A zip with one PDF per certificate: the multi-page PDF split page by page (each file carries the same font subset),
 * plus index.csv (UTF-8) naming each file's athlete. fflate writes the names in UTF-8 with the language-encoding flag,
 * so Chinese names open as written in Windows Explorer, macOS and unzip alike.
 */
export async function certificatesZip(pdf: Uint8Array, files: readonly { fileName: string; row: readonly string[] }[], header: readonly string[]): Promise<Buffer> {
  const source = await PDFDocument.load(pdf);
  const entries: Zippable = {};
  for (const [i, file] of files.entries()) {
    const one = await PDFDocument.create();
    const [page] = await one.copyPages(source, [i]);
    one.addPage(page);
    // PDF streams are compressed already: stored, not deflated again.
    entries[file.fileName] = [await one.save(), { level: 0 }];
  }
  const csv = [header, ...files.map((f) => [f.fileName, ...f.row])].map((r) => r.map(csvCell).join(',')).join('\r\n');
  entries['index.csv'] = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv, 'utf8')]);
  return Buffer.from(zipSync(entries, { level: 6 }));
}

const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
