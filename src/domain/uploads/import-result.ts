/** Success and failure counts of an import (docs/product-rules.md#import-files). */
export interface ImportCounts {
  success: number;
  failure: number;
}

const COUNT = /^\d+$/;

function baseName(fileName: string): string {
  const slash = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'));
  const name = slash >= 0 ? fileName.slice(slash + 1) : fileName;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Reads the import counts from the download-file name `<prefix>_<success>_<failure>.xlsx` (docs/product-rules.md#import-files:
 * split by underscore, second and third parts). When the prefix itself holds underscores the last two
 * parts are used instead. Returns null when the name carries no counts.
 */
export function parseImportCounts(fileName: string): ImportCounts | null {
  const parts = baseName(safeDecode(fileName.trim())).split('_');
  if (parts.length < 3) return null;
  const pick = (a: string, b: string): ImportCounts | null =>
    COUNT.test(a) && COUNT.test(b) ? { success: Number(a), failure: Number(b) } : null;
  return pick(parts[1], parts[2]) ?? pick(parts[parts.length - 2], parts[parts.length - 1]);
}

/**
 * The file name carried by a Content-Disposition header (RFC 6266): `filename*=UTF-8''…` wins over
 * `filename="…"`. Returns null when there is none.
 */
export function fileNameFromContentDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star) return safeDecode(star[2].trim().replace(/^"|"$/g, ''));
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  if (plain) return safeDecode((plain[2] ?? plain[1]).trim());
  return null;
}
