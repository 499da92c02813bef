import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { loadFont, patchedFontkit } from './pdf-fonts';
import { currentExportStamp, stampText } from './spreadsheet/export-stamp';

/**
 * A4 documents of tables (a meet's results book and points tables, docs/product-rules.md#meet-documents; a test day's
 * station rosters, #physique-year): a running header with the meet or plan and the document's title, sections of titled tables whose column header repeats on every page
 * a table runs onto, and page numbers. Noto Sans SC is embedded as a subset, as on the certificates.
 */
export interface BookColumn {
  label: string;
  /** Share of the page's text width. */
  width: number;
  align?: 'left' | 'center' | 'right';
}

export interface BookTable {
  title: string;
  columns: readonly BookColumn[];
  rows: readonly (readonly string[])[];
  /** Printed in place of the rows when there are none. */
  empty: string;
  /** Lines between the columns too (a sheet filled in by hand). */
  ruled?: boolean;
}

/** A drawing in a section before its tables (a chart drawn as vectors: sharp in print, no image to render). */
export interface BookFigure {
  /** Height in points; the width is the page's text width. */
  height: number;
  /** Draws into the box (its `y` is the bottom edge, PDF points). */
  draw(page: PDFPage, box: { x: number; y: number; width: number; height: number }, font: PDFFont): void;
}

export interface BookSection {
  heading: string;
  figure?: BookFigure;
  tables: readonly BookTable[];
  /** Starts on a page of its own (a class's roster is handed out alone). */
  newPage?: boolean;
}

export interface BookDocument {
  /** Running header: the meet's (or plan's) name and the document's title. */
  header: string;
  title: string;
  /** Under the title on the first page (dates, organisation). */
  subtitle?: string;
  sections: readonly BookSection[];
  /** '第 1 页 / 共 3 页'. */
  pageLabel(page: number, pages: number): string;
  /** Height of a table row in points (17 by default; taller where values are written in by hand). */
  rowHeight?: number;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 42;
const TEXT_W = A4[0] - 2 * MARGIN;
const BODY = 9.5;
const ROW_H = 17;
const HEADER_H = 30;
const FOOTER_Y = 24;
const LINE = rgb(0.6, 0.6, 0.6);
const INK = rgb(0, 0, 0);
const MUTED = rgb(0.35, 0.35, 0.35);

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** The text cut with '…' so it fits the width (a long class or athlete name never runs into the next column). */
export function fit(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  const chars = [...text];
  while (chars.length && font.widthOfTextAtSize(`${chars.join('')}…`, size) > width) chars.pop();
  return `${chars.join('')}…`;
}

/** A header's text in lines that fit the width, broken between words ('Standing long jump' over two lines); a word too long is cut by `fit`. */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  return text.split('\n').flatMap((line) => {
    const out: string[] = [];
    let current = '';
    for (const word of line.split(' ')) {
      const next = current ? `${current} ${word}` : word;
      if (current && font.widthOfTextAtSize(next, size) > width) {
        out.push(current);
        current = word;
      } else current = next;
    }
    out.push(current);
    return out;
  });
}

class Writer {
  page!: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];
  readonly rowH: number;
  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: Fonts,
    private readonly book: BookDocument,
  ) {
    this.rowH = book.rowHeight ?? ROW_H;
  }

  newPage() {
    this.page = this.doc.addPage(A4);
    this.pages.push(this.page);
    const top = A4[1] - MARGIN;
    this.page.drawText(fit(this.fonts.regular, this.book.header, 8.5, TEXT_W * 0.6), { x: MARGIN, y: top, size: 8.5, font: this.fonts.regular, color: MUTED });
    const title = fit(this.fonts.regular, this.book.title, 8.5, TEXT_W * 0.38);
    this.page.drawText(title, { x: A4[0] - MARGIN - this.fonts.regular.widthOfTextAtSize(title, 8.5), y: top, size: 8.5, font: this.fonts.regular, color: MUTED });
    this.page.drawLine({ start: { x: MARGIN, y: top - 6 }, end: { x: A4[0] - MARGIN, y: top - 6 }, thickness: 0.6, color: LINE });
    this.y = top - HEADER_H;
  }

  /** Room for `height` points above the footer, else a new page; true when a page was started. */
  ensure(height: number): boolean {
    if (this.y - height >= MARGIN + 12) return false;
    this.newPage();
    return true;
  }

  text(text: string, size: number, bold = false, gap = 6, color = INK) {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    this.ensure(size + gap);
    this.page.drawText(fit(font, text, size, TEXT_W), { x: MARGIN, y: this.y - size, size, font, color });
    this.y -= size + gap;
  }

  centred(text: string, size: number, bold = false, gap = 8) {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    const shown = fit(font, text, size, TEXT_W);
    this.page.drawText(shown, { x: (A4[0] - font.widthOfTextAtSize(shown, size)) / 2, y: this.y - size, size, font });
    this.y -= size + gap;
  }

  private row(columns: readonly BookColumn[], cells: readonly string[], bold: boolean, ruled = false) {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    const total = columns.reduce((s, c) => s + c.width, 0);
    // A cell may hold lines ('立定跳远\n（厘米）'), and a header's words wrap: the row grows to the most lines.
    const widthOf = (i: number) => (columns[i].width / total) * TEXT_W - 8;
    const lines = cells.map((c, i) => (bold && i < columns.length ? wrap(font, c, BODY, widthOf(i)) : c.split('\n')));
    const most = Math.max(1, ...lines.map((l) => l.length));
    const height = Math.max(bold ? ROW_H : this.rowH, ROW_H + (most - 1) * (BODY + 2));
    let x = MARGIN;
    const top = this.y;
    if (ruled && bold) this.page.drawLine({ start: { x: MARGIN, y: top }, end: { x: A4[0] - MARGIN, y: top }, thickness: 0.8, color: INK });
    columns.forEach((c, i) => {
      const w = (c.width / total) * TEXT_W;
      if (ruled) this.page.drawLine({ start: { x, y: top }, end: { x, y: top - height }, thickness: 0.3, color: LINE });
      const cell = lines[i] ?? [''];
      cell.forEach((line, n) => {
        const shown = fit(font, line, BODY, w - 8);
        const tw = font.widthOfTextAtSize(shown, BODY);
        const tx = c.align === 'right' ? x + w - 4 - tw : c.align === 'center' ? x + (w - tw) / 2 : x + 4;
        const baseline = top - height + 5.5 + (cell.length - 1 - n) * (BODY + 2);
        this.page.drawText(shown, { x: tx, y: baseline, size: BODY, font, color: INK });
      });
      x += w;
    });
    if (ruled) this.page.drawLine({ start: { x, y: top }, end: { x, y: top - height }, thickness: 0.3, color: LINE });
    this.y -= height;
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: A4[0] - MARGIN, y: this.y }, thickness: bold ? 0.8 : 0.3, color: bold ? INK : LINE });
  }

  figure(f: BookFigure) {
    this.ensure(f.height + 14);
    f.draw(this.page, { x: MARGIN, y: this.y - f.height, width: TEXT_W, height: f.height }, this.fonts.regular);
    this.y -= f.height + 14;
  }

  table(t: BookTable, continued: (title: string) => string) {
    // A title never ends a page alone: it keeps its header and two rows with it.
    this.ensure(14 + ROW_H + this.rowH * 2);
    if (t.title) this.text(t.title, 11, true, 5);
    this.row(t.columns, t.columns.map((c) => c.label), true, t.ruled);
    if (!t.rows.length) {
      this.text(t.empty, BODY, false, 4, MUTED);
    }
    for (const cells of t.rows) {
      if (this.ensure(this.rowH)) {
        if (t.title) this.text(continued(t.title), 11, true, 5);
        this.row(t.columns, t.columns.map((c) => c.label), true, t.ruled);
      }
      this.row(t.columns, cells, false, t.ruled);
    }
    this.y -= 14;
  }
}

/** One PDF of the document's sections; `continued` titles a table's part on a following page. */
export async function bookPdf(book: BookDocument, continued: (title: string) => string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(patchedFontkit);
  doc.setTitle(`${book.header} ${book.title}`);
  doc.setCreator('tiyu');
  const [regular, bold] = await Promise.all([loadFont('regular'), loadFont('bold')]);
  const fonts: Fonts = { regular: await doc.embedFont(regular, { subset: true }), bold: await doc.embedFont(bold, { subset: true }) };
  const w = new Writer(doc, fonts, book);
  w.newPage();
  w.centred(book.header, 18, true, 8);
  w.centred(book.title, 14, true, book.subtitle ? 6 : 18);
  if (book.subtitle) w.centred(book.subtitle, 10, false, 18);
  for (const [i, section] of book.sections.entries()) {
    if (section.newPage && i > 0) w.newPage();
    w.ensure(16 + 14 + ROW_H + w.rowH * 2);
    w.text(section.heading, 13.5, true, 10);
    if (section.figure) w.figure(section.figure);
    for (const t of section.tables) w.table(t, continued);
  }
  // A book sent by an export names its exporter and time in every page's footer (docs/product-rules.md#personal-data-access).
  const stamp = currentExportStamp();
  const stampLine = stamp ? fit(fonts.regular, stampText(stamp), 7, TEXT_W * 0.4) : '';
  w.pages.forEach((page, i) => {
    const label = book.pageLabel(i + 1, w.pages.length);
    page.drawText(label, { x: (A4[0] - fonts.regular.widthOfTextAtSize(label, 8.5)) / 2, y: FOOTER_Y, size: 8.5, font: fonts.regular, color: MUTED });
    if (stampLine) page.drawText(stampLine, { x: MARGIN, y: FOOTER_Y, size: 7, font: fonts.regular, color: MUTED });
  });
  return doc.save();
}
