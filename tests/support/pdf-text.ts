import { decodePDFRawStream, PDFArray, PDFDict, PDFName, PDFRawStream, type PDFDocument, type PDFObject } from 'pdf-lib';

/**
 * The text drawn on each page of a PDF made with pdf-lib, one line per drawText: embedded (subset) fonts write glyph
 * ids, so they are read back through each font's ToUnicode map. Enough for tests of what a document says.
 */
export function pageTexts(pdf: PDFDocument): string[] {
  const streamText = (o: PDFObject | undefined): string => (o instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(o).decode()).toString('latin1') : '');
  return pdf.getPages().map((page) => {
    const maps = new Map<string, Map<string, string>>();
    const fonts = page.node.Resources()?.lookup(PDFName.of('Font'), PDFDict);
    for (const [name, ref] of fonts?.entries() ?? []) {
      const font = pdf.context.lookup(ref, PDFDict);
      maps.set(name.decodeText(), toUnicode(streamText(font.lookup(PDFName.of('ToUnicode')))));
    }
    const contents = page.node.Contents();
    const parts = contents instanceof PDFArray ? contents.asArray().map((r) => pdf.context.lookup(r)) : [contents];
    const ops = parts.map(streamText).join('\n');
    const lines: string[] = [];
    let current = new Map<string, string>();
    for (const m of ops.matchAll(/\/([^\s/]+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>\s*Tj/g)) {
      if (m[1] !== undefined) current = maps.get(m[1]) ?? new Map();
      else lines.push((m[2].match(/.{4}/g) ?? []).map((cid) => current.get(cid.toUpperCase()) ?? '?').join(''));
    }
    return lines.join('\n');
  });
}

const utf16 = (hex: string) => Buffer.from(hex, 'hex').swap16().toString('utf16le');

/** A ToUnicode CMap's bfchar and bfrange entries as glyph id (4 hex digits) → text. */
function toUnicode(cmap: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of block[1].matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) map.set(m[1].toUpperCase().padStart(4, '0'), utf16(m[2]));
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1].matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) {
      const [lo, hi, dst] = [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
      for (let g = lo; g <= hi; g++) map.set(g.toString(16).toUpperCase().padStart(4, '0'), String.fromCodePoint(dst + g - lo));
    }
  }
  return map;
}
