import type { TFunction } from 'i18next';
import type { PDFFont, PDFPage, rgb as Rgb } from 'pdf-lib';
import { ORG_TIME_ZONE } from '@/domain/dates';
import { missedTargets, studentBand, type LoadReport, type LoadRow } from '@/domain/lesson-load/report';
import { ZONES } from '@/domain/lesson-load/zones';
import type { BookFigure } from '../../lib/book-pdf';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';

/**
 * The files of the lesson load reports (docs/product-rules.md#lesson-load, "Reports"): the list's workbook, a lesson's
 * workbook (students, per-minute class curve) and its printable A4 report. The class curve prints as vectors (lines on
 * the page, not a picture of the screen's chart): sharp at any zoom and on paper, a few kilobytes, and no browser on
 * the server; the per-minute values are in the workbook.
 */

const pct = (v: number | null) => (v === null ? '—' : `${Math.round(v * 1000) / 10}%`);
const num = (v: number | null) => (v === null ? '—' : String(v));
const minutes = (seconds: number) => Math.round((seconds / 60) * 10) / 10;

function timeFormat() {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: ORG_TIME_ZONE, dateStyle: 'short', timeStyle: 'short' });
}

/** The verdict of a row as text: met, in progress, or the targets it missed. */
export function verdict(row: Pick<LoadRow, 'inProgress' | 'meetsTargets' | 'targets'>, t: TFunction): string {
  if (row.inProgress) return t('lessonLoad:report.inProgress');
  if (row.meetsTargets) return t('lessonLoad:report.meets');
  const missed = missedTargets(row.targets).map((n) => t(`lessonLoad:report.target.${n}`));
  return t('lessonLoad:report.missed', { targets: missed.join(t('lessonLoad:report.listSeparator')) });
}

/** The list of the current filters as a workbook. */
export function loadListWorkbook(rows: readonly LoadRow[], t: TFunction): Buffer {
  const time = timeFormat();
  const head = ['startedAt', 'className', 'teacher', 'minutes', 'studentCount', 'mainMeanBpm', 'groupDensity', 'individualDensity', 'targetShare', 'meets'].map((k) => t(`lessonLoad:report.column.${k}`));
  const body = rows.map((r) => [
    time.format(new Date(r.startedAt)),
    r.className,
    r.teacherName ?? '',
    r.minutes,
    r.studentCount,
    r.mainMeanBpm,
    r.groupDensity,
    r.individualDensity,
    r.targetShare,
    verdict(r, t),
  ]);
  return writeXlsx([{ name: t('lessonLoad:report.listSheet'), rows: [head, ...body], columnWidths: [18, 24, 12, 10, 10, 12, 12, 12, 12, 36] }]);
}

/** The lesson's name for files and headers: class and start ('七年级1班 2026-10-12 09:00'). */
export function lessonTitle(report: LoadReport): string {
  return `${report.lesson.className} ${timeFormat().format(new Date(report.lesson.startedAt))}`;
}

/** A lesson's figures: a sheet of the class's figures, one of each student, one of the class curve per minute. */
export function lessonWorkbook(report: LoadReport, t: TFunction): Buffer {
  const { load } = report;
  const tr = (k: string) => t(`lessonLoad:report.${k}`);
  const figures = [
    [tr('figure.name'), tr('figure.value'), tr('figure.met')],
    [tr('column.className'), report.lesson.className, ''],
    [tr('column.startedAt'), timeFormat().format(new Date(report.lesson.startedAt)), ''],
    [tr('column.minutes'), report.lesson.minutes, ''],
    [tr('column.studentCount'), load.students.length, ''],
    [tr('column.mainMeanBpm'), load.mainMeanBpm, load.targets.meanBpm ? tr('yes') : tr('no')],
    [tr('column.groupDensity'), load.groupDensity, load.targets.groupDensity ? tr('yes') : tr('no')],
    [tr('column.individualDensity'), load.individualDensity, load.targets.individualDensity ? tr('yes') : tr('no')],
    [tr('column.targetShare'), load.targetShare, ''],
    [tr('peakBpm'), load.peakBpm, ''],
    [tr('recoveryBpm'), load.recoveryBpm, ''],
    [tr('column.meets'), verdict(report.lesson, t), ''],
  ];
  const byId = new Map(load.students.map((s) => [s.studentId, s]));
  const studentHead = [tr('student.name'), tr('student.regNo'), tr('student.measuredMinutes'), tr('student.meanBpm'), tr('student.mainMeanBpm'), tr('peakBpm'), tr('student.density'), ...ZONES.map((z) => t('lessonLoad:report.zoneMinutes', { zone: t(`lessonLoad:zones.${z}`) })), tr('student.band')];
  const studentRows = report.students.map((p) => {
    const s = byId.get(p.studentId)!;
    const band = studentBand(s);
    return [p.name, p.regNo, minutes(s.measured), s.meanBpm, s.mainMeanBpm, s.peakBpm, s.density, ...ZONES.map((z) => minutes(s.zones[z])), band ? tr(`band.${band}`) : ''];
  });
  const partOf = (m: number) => (m < load.mainPart.from ? 'warmUp' : m < load.mainPart.to ? 'main' : 'coolDown');
  const curveRows = load.curve.map((c) => [c.minute + 1, tr(`part.${partOf(c.minute)}`), c.meanBpm, c.students]);
  return writeXlsx([
    { name: tr('sheet.figures'), rows: figures, columnWidths: [22, 24, 10] },
    { name: tr('sheet.students'), rows: [studentHead, ...studentRows], columnWidths: [14, 20, 10, 10, 12, 10, 10, 10, 10, 10, 10, 10, 10] },
    { name: tr('sheet.curve'), rows: [[tr('curve.minute'), tr('curve.part'), tr('curve.meanBpm'), tr('curve.students')], ...curveRows], columnWidths: [10, 12, 14, 12] },
  ]);
}

/** The figure's colours, made with pdf-lib's `rgb` once the report is drawn (pdf-lib loads only for a PDF, not at start). */
const colours = (rgb: typeof Rgb) => ({
  GRID: rgb(0.82, 0.82, 0.82),
  MUTED: rgb(0.35, 0.35, 0.35),
  BAND: rgb(0.84, 0.94, 0.86),
  MAIN: rgb(0.94, 0.94, 0.97),
  LINE: rgb(0.11, 0.36, 0.72),
});

/** The class mean curve over the lesson: the main part shaded, the 140–160 band, minute and bpm axes, a legend. */
function curveFigure(report: LoadReport, legend: { curve: string; main: string; band: string; minute: string }, { GRID, MUTED, BAND, MAIN, LINE }: ReturnType<typeof colours>): BookFigure {
  const { curve, mainPart } = report.load;
  return {
    height: 190,
    draw(page: PDFPage, box, font: PDFFont) {
      const left = box.x + 28;
      const bottom = box.y + 30;
      const width = box.width - 34;
      const height = box.height - 44;
      const span = Math.max(report.lesson.minutes, (curve.at(-1)?.minute ?? 0) + 1);
      const lo = Math.min(60, Math.floor(Math.min(...curve.map((c) => c.meanBpm), 60) / 20) * 20);
      const hi = Math.max(200, Math.ceil(Math.max(...curve.map((c) => c.meanBpm), 200) / 20) * 20);
      const x = (m: number) => left + (m / span) * width;
      const y = (bpm: number) => bottom + ((bpm - lo) / (hi - lo)) * height;
      page.drawRectangle({ x: x(mainPart.from), y: bottom, width: x(mainPart.to) - x(mainPart.from), height, color: MAIN });
      page.drawRectangle({ x: left, y: y(140), width, height: y(160) - y(140), color: BAND });
      for (let bpm = lo; bpm <= hi; bpm += 20) {
        page.drawLine({ start: { x: left, y: y(bpm) }, end: { x: left + width, y: y(bpm) }, thickness: 0.3, color: GRID });
        const label = String(bpm);
        page.drawText(label, { x: left - 4 - font.widthOfTextAtSize(label, 7), y: y(bpm) - 2.5, size: 7, font, color: MUTED });
      }
      const step = span > 60 ? 10 : 5;
      for (let m = 0; m <= span; m += step) {
        const label = String(m);
        page.drawLine({ start: { x: x(m), y: bottom }, end: { x: x(m), y: bottom - 3 }, thickness: 0.5, color: MUTED });
        page.drawText(label, { x: x(m) - font.widthOfTextAtSize(label, 7) / 2, y: bottom - 11, size: 7, font, color: MUTED });
      }
      page.drawLine({ start: { x: left, y: bottom }, end: { x: left + width, y: bottom }, thickness: 0.6, color: MUTED });
      // A minute without samples breaks the line rather than bridging it.
      for (let i = 1; i < curve.length; i++) {
        const a = curve[i - 1];
        const b = curve[i];
        if (b.minute !== a.minute + 1) continue;
        page.drawLine({ start: { x: x(a.minute + 0.5), y: y(a.meanBpm) }, end: { x: x(b.minute + 0.5), y: y(b.meanBpm) }, thickness: 1.4, color: LINE });
      }
      if (curve.length === 1) page.drawCircle({ x: x(curve[0].minute + 0.5), y: y(curve[0].meanBpm), size: 1.5, color: LINE });
      // Legend under the axis.
      let lx = left;
      const ly = box.y + 4;
      const item = (draw: () => void, text: string) => {
        draw();
        page.drawText(text, { x: lx + 16, y: ly, size: 7.5, font, color: MUTED });
        lx += 16 + font.widthOfTextAtSize(text, 7.5) + 14;
      };
      item(() => page.drawLine({ start: { x: lx, y: ly + 3 }, end: { x: lx + 12, y: ly + 3 }, thickness: 1.4, color: LINE }), legend.curve);
      item(() => page.drawRectangle({ x: lx, y: ly, width: 12, height: 7, color: MAIN, borderColor: GRID, borderWidth: 0.3 }), legend.main);
      item(() => page.drawRectangle({ x: lx, y: ly, width: 12, height: 7, color: BAND }), legend.band);
      page.drawText(legend.minute, { x: left + width - font.widthOfTextAtSize(legend.minute, 7.5), y: ly, size: 7.5, font, color: MUTED });
    },
  };
}

/**
 * A column header in two lines when it has no spaces to wrap at (Chinese): the book wraps headers between words only,
 * and a narrow column would otherwise cut '基本部分平均心率' to '基本部分…'.
 */
const twoLines = (label: string) => (label.includes(' ') || [...label].length <= 3 ? label : `${[...label].slice(0, Math.ceil([...label].length / 2)).join('')}\n${[...label].slice(Math.ceil([...label].length / 2)).join('')}`);

/** The lesson's report on A4: figures against the targets with the class curve, time in zones, each student. */
export async function lessonReportPdf(report: LoadReport, t: TFunction): Promise<Buffer> {
  const { load, lesson } = report;
  const tr = (k: string, o?: Record<string, unknown>) => t(`lessonLoad:report.${k}`, o ?? {});
  const yesNo = (v: boolean) => (v ? tr('yes') : tr('no'));
  const measured = load.students.reduce((s, st) => s + st.measured, 0);
  const classZones = Object.fromEntries(ZONES.map((z) => [z, load.students.reduce((s, st) => s + st.zones[z], 0)])) as Record<(typeof ZONES)[number], number>;
  const byId = new Map(load.students.map((s) => [s.studentId, s]));
  const [{ rgb }, { bookPdf }] = await Promise.all([import('pdf-lib'), import('../../lib/book-pdf')]);
  const pdf = await bookPdf(
    {
      header: lesson.className,
      title: tr('printTitle'),
      subtitle: [timeFormat().format(new Date(lesson.startedAt)), lesson.teacherName, tr('subtitle', { minutes: lesson.minutes, students: load.students.length })].filter(Boolean).join(' · '),
      pageLabel: (page, pages) => tr('pageLabel', { page, pages }),
      sections: [
        {
          heading: `${tr('figuresHeading')} · ${verdict(lesson, t)}`,
          figure: curveFigure(report, { curve: tr('legend.curve'), main: tr('legend.main'), band: tr('legend.band'), minute: tr('legend.minute') }, colours(rgb)),
          tables: [
            {
              title: '',
              columns: [
                { label: tr('figure.name'), width: 3 },
                { label: tr('figure.value'), width: 2, align: 'right' },
                { label: tr('figure.target'), width: 2, align: 'right' },
                { label: tr('figure.met'), width: 1.2, align: 'center' },
              ],
              rows: [
                [tr('column.groupDensity'), pct(load.groupDensity), '≥ 75%', yesNo(load.targets.groupDensity)],
                [tr('column.individualDensity'), pct(load.individualDensity), '≥ 50%', yesNo(load.targets.individualDensity)],
                [tr('column.mainMeanBpm'), num(load.mainMeanBpm), '140–160', yesNo(load.targets.meanBpm)],
                [tr('column.targetShare'), pct(load.targetShare), '', ''],
                [tr('peakBpm'), num(load.peakBpm), '', ''],
                [tr('recoveryBpm'), num(load.recoveryBpm), '', ''],
              ],
              empty: tr('empty'),
            },
          ],
        },
        {
          heading: tr('zonesHeading'),
          tables: [
            {
              title: '',
              columns: [
                { label: tr('zone'), width: 3 },
                { label: tr('zoneMinutesTotal'), width: 2, align: 'right' },
                { label: tr('zoneShare'), width: 2, align: 'right' },
              ],
              rows: ZONES.map((z) => [t(`lessonLoad:zones.${z}`), String(minutes(classZones[z])), pct(measured ? Math.round((classZones[z] / measured) * 1000) / 1000 : null)]),
              empty: tr('empty'),
            },
          ],
        },
        {
          heading: tr('studentsHeading'),
          tables: [
            {
              title: '',
              columns: [
                { label: tr('student.name'), width: 2.2 },
                { label: twoLines(tr('student.mainMeanBpm')), width: 1.5, align: 'right' },
                { label: twoLines(tr('peakBpm')), width: 1.2, align: 'right' },
                { label: twoLines(tr('student.density')), width: 1.4, align: 'right' },
                ...ZONES.map((z) => ({ label: twoLines(t(`lessonLoad:zones.${z}`)), width: 1.1, align: 'right' as const })),
                { label: twoLines(tr('student.band')), width: 1.4, align: 'center' },
              ],
              rows: report.students.map((p) => {
                const s = byId.get(p.studentId)!;
                const band = studentBand(s);
                return [p.name, num(s.mainMeanBpm), num(s.peakBpm), pct(s.density), ...ZONES.map((z) => String(minutes(s.zones[z]))), band ? tr(`band.${band}`) : '—'];
              }),
              empty: tr('empty'),
            },
          ],
        },
      ],
    },
    (title) => tr('continued', { title }),
  );
  return Buffer.from(pdf);
}
