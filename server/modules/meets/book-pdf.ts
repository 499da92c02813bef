import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { loadFont, patchedFontkit } from '../../lib/pdf-fonts';

/**
 * A4 documents of tables (the results book and the points tables, docs/product-rules.md#meet-documents): a running
 * header with the meet and the document's title, sections of titled tables whose column header repeats on every page
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
}

export interface BookSection {
  heading: string;
  tables: readonly BookTable[];
}

export interface BookDocument {
  /** Running header: the meet's name and the document's title. */
  meet: string;
  title: string;
  /** Under the title on the first page (dates, organisation). */
  subtitle?: string;
  sections: readonly BookSection[];
  /** '第 1 页 / 共 3 页'. */
  pageLabel(page: number, pages: number): string;
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
function fit(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  const chars = [...text];
  while (chars.length && font.widthOfTextAtSize(`${chars.join('')}…`, size) > width) chars.pop();
  return `${chars.join('')}…`;
}

class Writer {
  page!: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];
  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: Fonts,
    private readonly book: BookDocument,
  ) {}

  newPage() {
    this.page = this.doc.addPage(A4);
    this.pages.push(this.page);
    const top = A4[1] - MARGIN;
    this.page.drawText(fit(this.fonts.regular, this.book.meet, 8.5, TEXT_W * 0.6), { x: MARGIN, y: top, size: 8.5, font: this.fonts.regular, color: MUTED });
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

  private row(columns: readonly BookColumn[], cells: readonly string[], bold: boolean) {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    const total = columns.reduce((s, c) => s + c.width, 0);
    let x = MARGIN;
    const baseline = this.y - ROW_H + 5.5;
    columns.forEach((c, i) => {
      const w = (c.width / total) * TEXT_W;
      const shown = fit(font, cells[i] ?? '', BODY, w - 8);
      const tw = font.widthOfTextAtSize(shown, BODY);
      const tx = c.align === 'right' ? x + w - 4 - tw : c.align === 'center' ? x + (w - tw) / 2 : x + 4;
      this.page.drawText(shown, { x: tx, y: baseline, size: BODY, font, color: INK });
      x += w;
    });
    this.y -= ROW_H;
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: A4[0] - MARGIN, y: this.y }, thickness: bold ? 0.8 : 0.3, color: bold ? INK : LINE });
  }

  table(t: BookTable, continued: (title: string) => string) {
    // A title never ends a page alone: it keeps its header and two rows with it.
    this.ensure(14 + ROW_H * 3);
    this.text(t.title, 11, true, 5);
    this.row(t.columns, t.columns.map((c) => c.label), true);
    if (!t.rows.length) {
      this.text(t.empty, BODY, false, 4, MUTED);
    }
    for (const cells of t.rows) {
      if (this.ensure(ROW_H)) {
        this.text(continued(t.title), 11, true, 5);
        this.row(t.columns, t.columns.map((c) => c.label), true);
      }
      this.row(t.columns, cells, false);
    }
    this.y -= 14;
  }
}

/** One PDF of the document's sections; `continued` titles a table's part on a following page. */
export async function bookPdf(book: BookDocument, continued: (title: string) => string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(patchedFontkit);
  doc.setTitle(`${book.meet} ${book.title}`);
  doc.setCreator('tiyu');
  const [regular, bold] = await Promise.all([loadFont('regular'), loadFont('bold')]);
  const fonts: Fonts = { regular: await doc.embedFont(regular, { subset: true }), bold: await doc.embedFont(bold, { subset: true }) };
  const w = new Writer(doc, fonts, book);
  w.newPage();
  w.centred(book.meet, 18, true, 8);
  w.centred(book.title, 14, true, book.subtitle ? 6 : 18);
  if (book.subtitle) w.centred(book.subtitle, 10, false, 18);
  for (const section of book.sections) {
    w.ensure(16 + 14 + ROW_H * 3);
    w.text(section.heading, 13.5, true, 10);
    for (const t of section.tables) w.table(t, continued);
  }
  w.pages.forEach((page, i) => {
    const label = book.pageLabel(i + 1, w.pages.length);
    page.drawText(label, { x: (A4[0] - fonts.regular.widthOfTextAtSize(label, 8.5)) / 2, y: FOOTER_Y, size: 8.5, font: fonts.regular, color: MUTED });
  });
  return doc.save();
}
