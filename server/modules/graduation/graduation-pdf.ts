import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { loadFont, patchedFontkit } from '../../lib/pdf-fonts';

/**
 * The graduation record card (docs/product-rules.md#physique-year: Graduation), laid out like the standard's
 * 《国家学生体质健康标准登记卡》: a landscape A4 page per student with every school year of the stage side by side
 * (each item's value, score and level; the year's standard score, bonus, total and level), the graduation score and
 * level, and signature lines. The texts come translated; this file only draws. Noto Sans SC as the meets' documents.
 */
export interface CardRow {
  label: string;
  /** Per year: the three cells (value, score, level), or one text across them. */
  cells: readonly (readonly [string, string, string] | string)[];
  strong?: boolean;
}

export interface CardPage {
  title: string;
  subtitle: string;
  /** 'label：value' pairs under the title. */
  info: readonly string[];
  itemHeader: string;
  yearHeaders: readonly string[];
  subHeaders: readonly [string, string, string];
  rows: readonly CardRow[];
  /** The graduation score, level and what follows, one line each. */
  graduation: readonly string[];
  signatures: readonly string[];
}

const PAGE: [number, number] = [841.89, 595.28];
const MARGIN = 30;
const WIDTH = PAGE[0] - 2 * MARGIN;
const FIRST_COL = 96;
const ROW_H = 15.5;
const INK = rgb(0, 0, 0);
const LINE = rgb(0.45, 0.45, 0.45);
const SHADE = rgb(0.93, 0.93, 0.93);

function fit(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  const chars = [...text];
  while (chars.length && font.widthOfTextAtSize(`${chars.join('')}…`, size) > width) chars.pop();
  return `${chars.join('')}…`;
}

function cell(page: PDFPage, font: PDFFont, text: string, x: number, y: number, w: number, size: number, shade = false) {
  if (shade) page.drawRectangle({ x, y, width: w, height: ROW_H, color: SHADE });
  page.drawRectangle({ x, y, width: w, height: ROW_H, borderColor: LINE, borderWidth: 0.5 });
  if (!text) return;
  const shown = fit(font, text, size, w - 4);
  page.drawText(shown, { x: x + (w - font.widthOfTextAtSize(shown, size)) / 2, y: y + (ROW_H - size) / 2 + 1.5, size, font, color: INK });
}

function drawCard(doc: PDFDocument, fonts: { regular: PDFFont; bold: PDFFont }, card: CardPage) {
  const page = doc.addPage(PAGE);
  let y = PAGE[1] - MARGIN - 16;
  const centre = (text: string, size: number, font: PDFFont) => page.drawText(text, { x: (PAGE[0] - font.widthOfTextAtSize(text, size)) / 2, y, size, font, color: INK });
  centre(card.title, 16, fonts.bold);
  y -= 16;
  centre(card.subtitle, 9.5, fonts.regular);
  y -= 20;
  const infoText = card.info.join('    ');
  page.drawText(fit(fonts.regular, infoText, 9.5, WIDTH), { x: MARGIN, y, size: 9.5, font: fonts.regular, color: INK });
  y -= 10 + ROW_H;

  const years = Math.max(card.yearHeaders.length, 1);
  const yearW = (WIDTH - FIRST_COL) / years;
  const subW = yearW / 3;
  // Header: the item column spans both header rows; each year spans its three columns.
  page.drawRectangle({ x: MARGIN, y: y - ROW_H, width: FIRST_COL, height: ROW_H * 2, color: SHADE, borderColor: LINE, borderWidth: 0.5 });
  page.drawText(card.itemHeader, { x: MARGIN + (FIRST_COL - fonts.bold.widthOfTextAtSize(card.itemHeader, 9)) / 2, y: y - ROW_H / 2 + 1, size: 9, font: fonts.bold, color: INK });
  card.yearHeaders.forEach((h, i) => cell(page, fonts.bold, h, MARGIN + FIRST_COL + i * yearW, y, yearW, 8.5, true));
  y -= ROW_H;
  card.yearHeaders.forEach((_, i) => card.subHeaders.forEach((s, j) => cell(page, fonts.regular, s, MARGIN + FIRST_COL + i * yearW + j * subW, y, subW, 8, true)));
  for (const row of card.rows) {
    y -= ROW_H;
    const font = row.strong ? fonts.bold : fonts.regular;
    cell(page, font, row.label, MARGIN, y, FIRST_COL, 8.5, true);
    row.cells.forEach((c, i) => {
      const x = MARGIN + FIRST_COL + i * yearW;
      if (typeof c === 'string') cell(page, font, c, x, y, yearW, 8.5);
      else c.forEach((v, j) => cell(page, font, v, x + j * subW, y, subW, 8.5));
    });
  }
  y -= 24;
  for (const [i, line] of card.graduation.entries()) {
    page.drawText(fit(i === 0 ? fonts.bold : fonts.regular, line, i === 0 ? 11 : 9.5, WIDTH), { x: MARGIN, y, size: i === 0 ? 11 : 9.5, font: i === 0 ? fonts.bold : fonts.regular, color: INK });
    y -= 16;
  }
  // Signature lines at the foot of the page, spread across it.
  const signY = MARGIN + 8;
  const slot = WIDTH / Math.max(card.signatures.length, 1);
  card.signatures.forEach((s, i) => {
    const x = MARGIN + i * slot;
    page.drawText(s, { x, y: signY, size: 9.5, font: fonts.regular, color: INK });
    const from = x + fonts.regular.widthOfTextAtSize(s, 9.5) + 2;
    page.drawLine({ start: { x: from, y: signY - 2 }, end: { x: x + slot - 14, y: signY - 2 }, thickness: 0.6, color: INK });
  });
}

/** One PDF, a page per card in the order given. */
export async function graduationCardsPdf(cards: readonly CardPage[], title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(patchedFontkit);
  doc.setTitle(title);
  doc.setCreator('tiyu');
  const [regular, bold] = await Promise.all([loadFont('regular'), loadFont('bold')]);
  const fonts = { regular: await doc.embedFont(regular, { subset: true }), bold: await doc.embedFont(bold, { subset: true }) };
  for (const card of cards) drawCard(doc, fonts, card);
  if (cards.length === 0) doc.addPage(PAGE);
  return doc.save();
}
