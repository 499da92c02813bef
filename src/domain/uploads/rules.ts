import { ESTAMP_MAX, IMAGE_COMPRESS_ABOVE, STYLE_PHOTO_MAX, UPLOAD_LIMIT } from '../constants';
import { ERR } from '../errors';

/** The kinds of file the product uploads (spec §5). */
export const UPLOAD_KINDS = ['image', 'video', 'audio', 'gif', 'facePhoto', 'stylePhoto', 'estamp', 'excel', 'eventFile'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export interface UploadRule {
  /** Allowed extensions, lower case without the dot; null = any. */
  extensions: readonly string[] | null;
  /** Allowed MIME types; checked only when the browser reports one (it may send ''). */
  mimeTypes: readonly string[] | null;
  /** Byte ceiling; null = none named by the spec. */
  maxBytes: number | null;
  /** Default number of files a field accepts, when the spec names one. */
  maxCount: number | null;
  /** Images above IMAGE_COMPRESS_ABOVE bytes are compressed in the browser first (spec §5). */
  compress: boolean;
  /** Error key when the type is wrong. */
  formatError: UploadErrorKey;
}

export type UploadErrorKey = typeof ERR.fileFormat | typeof ERR.fileTooLarge | typeof ERR.onlyExcel;

const PNG_JPG = ['png', 'jpg', 'jpeg'] as const;
const PNG_JPG_MIME = ['image/png', 'image/jpeg'] as const;
const XLSX_MIME = ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/octet-stream'] as const;

/** Type and size limits per upload kind (spec §5, §9). Ceilings come from UPLOAD_LIMIT. */
export const UPLOAD_RULES: Record<UploadKind, UploadRule> = {
  image: { extensions: PNG_JPG, mimeTypes: PNG_JPG_MIME, maxBytes: UPLOAD_LIMIT.image, maxCount: null, compress: true, formatError: ERR.fileFormat },
  video: { extensions: ['mp4'], mimeTypes: ['video/mp4'], maxBytes: UPLOAD_LIMIT.video, maxCount: null, compress: false, formatError: ERR.fileFormat },
  audio: { extensions: ['mp3'], mimeTypes: ['audio/mpeg', 'audio/mp3'], maxBytes: UPLOAD_LIMIT.audio, maxCount: null, compress: false, formatError: ERR.fileFormat },
  gif: { extensions: ['gif'], mimeTypes: ['image/gif'], maxBytes: UPLOAD_LIMIT.gif, maxCount: null, compress: false, formatError: ERR.fileFormat },
  // Face photos feed recognition: keep the original pixels.
  facePhoto: { extensions: PNG_JPG, mimeTypes: PNG_JPG_MIME, maxBytes: UPLOAD_LIMIT.facePhoto, maxCount: null, compress: false, formatError: ERR.fileFormat },
  stylePhoto: { extensions: PNG_JPG, mimeTypes: PNG_JPG_MIME, maxBytes: UPLOAD_LIMIT.stylePhoto, maxCount: STYLE_PHOTO_MAX, compress: false, formatError: ERR.fileFormat },
  // E-stamps are transparent PNGs: compressing to JPEG would lose the transparency.
  estamp: { extensions: ['png'], mimeTypes: ['image/png'], maxBytes: UPLOAD_LIMIT.estamp, maxCount: ESTAMP_MAX, compress: false, formatError: ERR.fileFormat },
  excel: { extensions: ['xlsx'], mimeTypes: XLSX_MIME, maxBytes: null, maxCount: 1, compress: false, formatError: ERR.onlyExcel },
  eventFile: { extensions: null, mimeTypes: null, maxBytes: UPLOAD_LIMIT.eventFile, maxCount: null, compress: false, formatError: ERR.fileFormat },
};

/** What a file input reports about a file. */
export interface FileFacts {
  name: string;
  size: number;
  type: string;
}

/** Lower-case extension of a file name without the dot, '' when none. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 || dot === name.length - 1 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The `accept` attribute of a file input for a kind (extensions and MIME types). */
export function acceptAttribute(kind: UploadKind): string | undefined {
  const rule = UPLOAD_RULES[kind];
  if (!rule.extensions) return undefined;
  const parts = rule.extensions.map((e) => `.${e}`);
  // application/octet-stream is only tolerated, not advertised
  for (const m of rule.mimeTypes ?? []) if (m !== 'application/octet-stream') parts.push(m);
  return parts.join(',');
}

/** Checks a file against the kind's type and byte ceiling (spec §5). Returns null or an i18n error key. */
export function checkUpload(kind: UploadKind, file: FileFacts): UploadErrorKey | null {
  const rule = UPLOAD_RULES[kind];
  if (rule.extensions && !rule.extensions.includes(fileExtension(file.name))) return rule.formatError;
  if (rule.mimeTypes && file.type !== '' && !rule.mimeTypes.includes(file.type)) return rule.formatError;
  if (rule.maxBytes !== null && file.size > rule.maxBytes) return ERR.fileTooLarge;
  return null;
}

/** True when an image of this kind and size (bytes) is compressed before upload (spec §5: over 100 KB). */
export function shouldCompress(kind: UploadKind, size: number): boolean {
  return UPLOAD_RULES[kind].compress && size > IMAGE_COMPRESS_ABOVE;
}

/** True for .xlsx file names: imports accept only Excel (spec §5). */
export function isExcelFileName(name: string): boolean {
  return fileExtension(name) === 'xlsx';
}

/** Human size of a byte ceiling for hints: 5242880 → '5MB', 524288000 → '500MB', 2 GiB → '2GB'. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)}${units[unit]}`;
}
