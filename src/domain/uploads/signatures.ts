/**
 * What a file is, read from its first bytes (magic numbers), never from its name or the type the
 * browser reports. A small table of the formats the product stores; anything else is 'unknown'.
 */
export const SNIFFED_TYPES = ['png', 'jpeg', 'gif', 'webp', 'mp4', 'mp3', 'pdf', 'zip', 'ole', 'svg', 'html', 'unknown'] as const;
export type SniffedType = (typeof SNIFFED_TYPES)[number];

/** The MIME type each stored format is served with. */
export const SNIFFED_MIME: Record<SniffedType, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
  pdf: 'application/pdf',
  // xlsx, docx, pptx are zip containers
  zip: 'application/zip',
  // xls, doc, ppt (OLE compound documents)
  ole: 'application/x-ole-storage',
  svg: 'image/svg+xml',
  html: 'text/html',
  unknown: 'application/octet-stream',
};

/** How many leading bytes sniffFileType needs. */
export const SNIFF_BYTES = 512;

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

// ISO base media brands of MP4 video (ftyp box); QuickTime 'qt  ' and 3GP are not mp4 for our screens.
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'dash', 'M4V ', 'mmp4', 'MSNV']);

function isMp3(b: Uint8Array): boolean {
  if (startsWith(b, [0x49, 0x44, 0x33])) return true; // 'ID3' tag
  // MPEG audio frame sync: 11 set bits, layer III, valid bitrate and sample-rate indices
  if (b.length < 3 || b[0] !== 0xff || (b[1] & 0xe0) !== 0xe0) return false;
  const layer = (b[1] >> 1) & 0x3;
  const bitrate = b[2] >> 4;
  const rate = (b[2] >> 2) & 0x3;
  return layer === 0x1 && bitrate !== 0xf && bitrate !== 0 && rate !== 0x3;
}

/** Markup that a browser would run as a document: refused everywhere (SVG can carry script). */
function markup(b: Uint8Array): 'svg' | 'html' | null {
  let text = ascii(b, 0, Math.min(b.length, SNIFF_BYTES));
  if (text.startsWith('\ufeff') || text.startsWith('ï»¿')) text = text.slice(text.startsWith('\ufeff') ? 1 : 3);
  const head = text.trimStart().toLowerCase();
  if (!head.startsWith('<')) return null;
  if (/<svg[\s>]/.test(head)) return 'svg';
  if (/^<(!doctype html|html|head|body|script|iframe|div|a |p>|!--)/.test(head) || /<(script|html|body)[\s>]/.test(head)) return 'html';
  // Other XML (e.g. an SVG whose <svg> tag comes after SNIFF_BYTES of prolog): treat as markup too.
  if (head.startsWith('<?xml') || head.startsWith('<!doctype')) return 'svg';
  return null;
}

/** The format of a file from its first SNIFF_BYTES bytes. */
export function sniffFileType(head: Uint8Array): SniffedType {
  const b = head;
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(b, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return 'gif';
  if (startsWith(b, [0x52, 0x49, 0x46, 0x46]) && ascii(b, 8, 12) === 'WEBP') return 'webp';
  if (b.length >= 12 && ascii(b, 4, 8) === 'ftyp' && MP4_BRANDS.has(ascii(b, 8, 12))) return 'mp4';
  if (startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (isMp3(b)) return 'mp3';
  return markup(b) ?? 'unknown';
}
