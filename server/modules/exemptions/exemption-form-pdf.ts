import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { loadFont, patchedFontkit } from '../../lib/pdf-fonts';

/**
 * The standard's application form 《免予执行〈国家学生体质健康标准〉申请表》 as one A4 page (docs/product-rules.md#physique-year,
 * "Exemptions"): a bordered table of the student's details, the kind, the reason, the certificate, the requester and
 * the school's decision, with signature lines for the student, the parent, the class teacher and the school.
 */
export interface ExemptionFormCell {
  label: string;
  value: string;
}
export interface ExemptionFormDocument {
  title: string;
  school: string;
  /** Rows of label/value pairs (two pairs per row where given two). */
  rows: readonly (readonly ExemptionFormCell[])[];
  /** Tall boxes: the reason, the certificate, the decision. */
  boxes: readonly ExemptionFormCell[];
  /** Signature lines ('学生签字', …) and the date label under each. */
  signatures: readonly string[];
  dateLabel: string;
  footer: string;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const WIDTH = A4[0] - 2 * MARGIN;
const LABEL_W = 96;
const ROW_H = 28;
const BODY = 10.5;
const INK = rgb(0, 0, 0);
const MUTED = rgb(0.35, 0.35, 0.35);

/** Lines of `text` that fit `width` at `size` (CJK breaks anywhere; a long Latin word is cut too). */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const ch of paragraph) {
      if (font.widthOfTextAtSize(line + ch, size) > width && line) {
        lines.push(line);
        line = ch.trim() ? ch : '';
      } else line += ch;
    }
    lines.push(line);
  }
  return lines;
}

function cell(page: PDFPage, x: number, y: number, w: number, h: number) {
  page.drawRectangle({ x, y: y - h, width: w, height: h, borderColor: INK, borderWidth: 0.7 });
}

export async function exemptionFormPdf(form: ExemptionFormDocument): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(patchedFontkit);
  doc.setTitle(form.title);
  doc.setCreator('tiyu');
  const [regularBytes, boldBytes] = await Promise.all([loadFont('regular'), loadFont('bold')]);
  const regular = await doc.embedFont(regularBytes, { subset: true });
  const bold = await doc.embedFont(boldBytes, { subset: true });
  const page = doc.addPage(A4);
  let y = A4[1] - MARGIN;

  const centred = (text: string, size: number, font: PDFFont) => {
    const lines = wrap(font, text, size, WIDTH);
    for (const line of lines) {
      page.drawText(line, { x: (A4[0] - font.widthOfTextAtSize(line, size)) / 2, y: y - size, size, font, color: INK });
      y -= size + 6;
    }
  };
  centred(form.title, 16, bold);
  y -= 4;
  page.drawText(form.school, { x: MARGIN, y: y - BODY, size: BODY, font: regular, color: MUTED });
  y -= BODY + 10;

  const text = (s: string, x: number, yTop: number, w: number, h: number, font = regular) => {
    const lines = wrap(font, s, BODY, w - 10);
    const lineH = BODY + 4;
    const top = yTop - Math.max(8, (h - lines.length * lineH) / 2);
    lines.forEach((line, i) => page.drawText(line, { x: x + 5, y: top - BODY - i * lineH + 2, size: BODY, font, color: INK }));
  };

  for (const row of form.rows) {
    const pairW = WIDTH / row.length;
    row.forEach((c, i) => {
      const x = MARGIN + i * pairW;
      cell(page, x, y, LABEL_W, ROW_H);
      cell(page, x + LABEL_W, y, pairW - LABEL_W, ROW_H);
      text(c.label, x, y, LABEL_W, ROW_H, bold);
      text(c.value, x + LABEL_W, y, pairW - LABEL_W, ROW_H);
    });
    y -= ROW_H;
  }
  for (const box of form.boxes) {
    const lines = wrap(regular, box.value, BODY, WIDTH - LABEL_W - 10).length;
    const h = Math.max(ROW_H * 2.4, lines * (BODY + 4) + 20);
    cell(page, MARGIN, y, LABEL_W, h);
    cell(page, MARGIN + LABEL_W, y, WIDTH - LABEL_W, h);
    text(box.label, MARGIN, y, LABEL_W, h, bold);
    // A box's text starts at its top, like handwriting on the paper form.
    wrap(regular, box.value, BODY, WIDTH - LABEL_W - 10).forEach((line, i) =>
      page.drawText(line, { x: MARGIN + LABEL_W + 5, y: y - 8 - BODY - i * (BODY + 4) + 2, size: BODY, font: regular, color: INK }),
    );
    y -= h;
  }

  // Signature lines, two per row: "学生签字：________  日期：________".
  y -= 26;
  const half = WIDTH / 2;
  form.signatures.forEach((label, i) => {
    const x = MARGIN + (i % 2) * half;
    const lineY = y - Math.floor(i / 2) * 44;
    page.drawText(`${label}：`, { x, y: lineY, size: BODY, font: regular, color: INK });
    const start = x + regular.widthOfTextAtSize(`${label}：`, BODY) + 2;
    page.drawLine({ start: { x: start, y: lineY - 2 }, end: { x: x + half - 20, y: lineY - 2 }, thickness: 0.6, color: INK });
    page.drawText(`${form.dateLabel}：`, { x, y: lineY - 18, size: 9, font: regular, color: MUTED });
    const dateStart = x + regular.widthOfTextAtSize(`${form.dateLabel}：`, 9) + 2;
    page.drawLine({ start: { x: dateStart, y: lineY - 20 }, end: { x: x + half - 20, y: lineY - 20 }, thickness: 0.4, color: MUTED });
  });
  page.drawText(form.footer, { x: MARGIN, y: MARGIN - 18, size: 8, font: regular, color: MUTED });
  return doc.save();
}
