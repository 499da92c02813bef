import { AsyncLocalStorage } from 'node:async_hooks';

/** Who exported a file and when: written in its footer by the spreadsheet and PDF writers (server/lib/spreadsheet). */
export interface ExportStamp {
  name: string;
  account: string;
  at: Date;
}

const stampStore = new AsyncLocalStorage<ExportStamp>();

/** Runs `fn` with the exporter's stamp, which every workbook written inside it carries. */
export const withExportStamp = <T>(stamp: ExportStamp, fn: () => Promise<T>): Promise<T> => stampStore.run(stamp, fn);

/** The stamp of the export being written, if any. */
export const currentExportStamp = (): ExportStamp | undefined => stampStore.getStore();

/** The stamp's text, in both languages as a file outlives the exporter's language: `导出 Exported by 陈丽华 (school01) 2026-11-29 18:00 UTC`. */
export function stampText(stamp: ExportStamp): string {
  return `导出 Exported by ${stamp.name} (${stamp.account}) ${stamp.at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A worksheet's print header and footer naming the exporter and time (Excel's `&L` left section; `&&` is a literal &). */
export function stampHeaderFooterXml(stamp: ExportStamp | undefined): string {
  if (!stamp) return '';
  const text = escapeXml(stampText(stamp).replace(/&/g, '&&'));
  return `<headerFooter><oddHeader>&amp;L${text}</oddHeader><oddFooter>&amp;L${text}&amp;R&amp;P / &amp;N</oddFooter></headerFooter>`;
}

/** Puts the stamp's header and footer into a worksheet's XML where the schema orders it (after margins and page setup). */
export function withStampXml(sheet: string, stamp: ExportStamp | undefined): string {
  if (!stamp || sheet.includes('<headerFooter')) return sheet;
  const next = /<(rowBreaks|colBreaks|customProperties|cellWatches|ignoredErrors|smartTags|drawing|legacyDrawing|legacyDrawingHF|picture|oleObjects|controls|webPublishItems|tableParts|extLst)\b|<\/worksheet>/g;
  const after = sheet.indexOf('</sheetData>');
  next.lastIndex = after < 0 ? 0 : after;
  const at = next.exec(sheet)?.index ?? -1;
  if (at < 0) return sheet;
  return sheet.slice(0, at) + stampHeaderFooterXml(stamp) + sheet.slice(at);
}
