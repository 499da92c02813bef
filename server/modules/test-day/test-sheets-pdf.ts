import QRCode from 'qrcode';
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { CARDS_ACROSS, CARDS_DOWN, CARDS_PER_PAGE } from '@/domain/test-day/test-sheets';
import { fit } from '../../lib/book-pdf';
import { loadFont, patchedFontkit } from '../../lib/pdf-fonts';

/**
 * Test cards as PDF (docs/product-rules.md#physique-year, "Test sheets"): an A4 page per class (a class of more than
 * CARDS_PER_PAGE runs onto the next), a card per student with the QR code of `testCardCode` beside the student's name,
 * 学籍号, class, gender and the plan, inside dashed cut lines. Noto Sans SC is embedded as a subset, as in the meets' PDFs.
 */
export interface CardStudent {
  name: string;
  regNo: string;
  className: string;
  /** The gender as printed ('男'). */
  gender: string;
  /** What the QR code holds. */
  code: string;
}

export interface CardsDocument {
  planName: string;
  title: string;
  classes: readonly { className: string; students: readonly CardStudent[] }[];
  /** A page's heading: '七年级1班 测试卡' (continued: '（续）'). */
  heading(className: string, continued: boolean): string;
  /** '共 45 人'. */
  count(students: number): string;
  pageLabel(page: number, pages: number): string;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 28;
const HEAD_H = 46;
const FOOT_H = 22;
const CARD_W = (A4[0] - 2 * MARGIN) / CARDS_ACROSS;
const CARD_H = (A4[1] - 2 * MARGIN - HEAD_H - FOOT_H) / CARDS_DOWN;
const PAD = 4;
const QR = CARD_H - 2 * PAD;
const TEXT_X = PAD + QR + 4;
const TEXT_W = CARD_W - TEXT_X - PAD;
const INK = rgb(0, 0, 0);
const MUTED = rgb(0.38, 0.38, 0.38);
const CUT = rgb(0.7, 0.7, 0.7);

/**
 * The QR code as a form XObject in module units (one unit a module, dark runs of a row as rectangles in one fill): drawn
 * as vectors it prints sharp at any size, and it costs a fraction of a PNG's encode and decode (a school's cards in a
 * few seconds). Level M: 15 % of the code may be smudged or folded and it still reads. A fixed mask pattern (any of the
 * eight is valid) spares the library scoring all eight for every code.
 */
export function qrForm(doc: PDFDocument, text: string) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M', maskPattern: 0 } as QRCode.QRCodeOptions);
  const size = modules.size;
  const dark = modules.data;
  const ops: string[] = ['0 g'];
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; ) {
      if (!dark[r * size + c]) {
        c++;
        continue;
      }
      let e = c;
      while (e < size && dark[r * size + e]) e++;
      ops.push(`${c} ${size - 1 - r} ${e - c} 1 re`);
      c = e;
    }
  }
  ops.push('f');
  const stream = doc.context.flateStream(ops.join('\n'), { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, size, size] });
  return { ref: doc.context.register(stream), size };
}

/** The largest size up to `max` at which the whole text fits the width: a 学籍号 is never cut short. */
function sizeToFit(font: PDFFont, text: string, max: number, width: number): number {
  const at1 = font.widthOfTextAtSize(text, 1);
  return at1 === 0 ? max : Math.min(max, width / at1);
}

/** `planName` is fitted to the card already (the same on every card). */
function drawCard(doc: PDFDocument, page: PDFPage, fonts: { regular: PDFFont; bold: PDFFont }, planName: string, s: CardStudent, x: number, y: number) {
  // y is the card's top edge.
  page.drawRectangle({ x, y: y - CARD_H, width: CARD_W, height: CARD_H, borderColor: CUT, borderWidth: 0.4, borderDashArray: [2, 2] });
  // A quiet zone of two modules inside the card's padding.
  const qr = qrForm(doc, s.code);
  const scale = QR / (qr.size + 4);
  const name = page.node.newXObject('QR', qr.ref);
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(scale, 0, 0, scale, x + PAD + 2 * scale, y - PAD - QR + 2 * scale), drawObject(name), popGraphicsState());
  const tx = x + TEXT_X;
  page.drawText(fit(fonts.bold, s.name, 10, TEXT_W), { x: tx, y: y - PAD - 10, size: 10, font: fonts.bold, color: INK });
  const regSize = sizeToFit(fonts.regular, s.regNo, 7.5, TEXT_W);
  page.drawText(s.regNo, { x: tx, y: y - PAD - 22, size: regSize, font: fonts.regular, color: INK });
  page.drawText(fit(fonts.regular, `${s.className} ${s.gender}`, 7, TEXT_W), { x: tx, y: y - PAD - 33, size: 7, font: fonts.regular, color: INK });
  page.drawText(planName, { x: tx, y: y - CARD_H + PAD + 2, size: 5.5, font: fonts.regular, color: MUTED });
}

/** One PDF of every class's cards, classes in the order given. */
export async function testCardsPdf(book: CardsDocument): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(patchedFontkit);
  doc.setTitle(`${book.planName} ${book.title}`);
  doc.setCreator('tiyu');
  const [regular, bold] = await Promise.all([loadFont('regular'), loadFont('bold')]);
  const fonts = { regular: await doc.embedFont(regular, { subset: true }), bold: await doc.embedFont(bold, { subset: true }) };
  const pages: PDFPage[] = [];
  const cardPlan = fit(fonts.regular, book.planName, 5.5, TEXT_W);
  for (const cls of book.classes) {
    // A school's cards take seconds: other requests get their turn between classes.
    await new Promise((resolve) => setImmediate(resolve));
    for (let from = 0; from < cls.students.length || from === 0; from += CARDS_PER_PAGE) {
      const page = doc.addPage(A4);
      pages.push(page);
      const top = A4[1] - MARGIN;
      const heading = fit(fonts.bold, book.heading(cls.className, from > 0), 14, (A4[0] - 2 * MARGIN) * 0.7);
      page.drawText(heading, { x: MARGIN, y: top - 14, size: 14, font: fonts.bold, color: INK });
      const count = book.count(cls.students.length);
      page.drawText(count, { x: A4[0] - MARGIN - fonts.regular.widthOfTextAtSize(count, 9), y: top - 13, size: 9, font: fonts.regular, color: MUTED });
      page.drawText(fit(fonts.regular, book.planName, 9, A4[0] - 2 * MARGIN), { x: MARGIN, y: top - 30, size: 9, font: fonts.regular, color: MUTED });
      const gridTop = top - HEAD_H;
      for (const [i, s] of cls.students.slice(from, from + CARDS_PER_PAGE).entries()) {
        drawCard(doc, page, fonts, cardPlan, s, MARGIN + (i % CARDS_ACROSS) * CARD_W, gridTop - Math.floor(i / CARDS_ACROSS) * CARD_H);
      }
    }
  }
  pages.forEach((page, i) => {
    const label = book.pageLabel(i + 1, pages.length);
    page.drawText(label, { x: (A4[0] - fonts.regular.widthOfTextAtSize(label, 8.5)) / 2, y: MARGIN, size: 8.5, font: fonts.regular, color: MUTED });
  });
  return doc.save();
}
