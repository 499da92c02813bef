import { BANNER_MAX, ESTAMP_MAX, IMAGE_COMPRESS_ABOVE, STYLE_PHOTO_MAX, UPLOAD_LIMIT } from '../constants';
import { ERR } from '../errors';
import type { SniffedType } from './signatures';

/** The kinds of file the product uploads (docs/product-rules.md#uploads). */
export const UPLOAD_KINDS = ['image', 'video', 'audio', 'gif', 'facePhoto', 'stylePhoto', 'estamp', 'excel', 'eventFile'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export interface UploadRule {
  /** Allowed extensions, lower case without the dot; null = any. */
  extensions: readonly string[] | null;
  /** Allowed MIME types; checked only when the browser reports one (it may send ''). */
  mimeTypes: readonly string[] | null;
  /** Byte ceiling; null = none named by docs/product-rules.md#uploads. */
  maxBytes: number | null;
  /** Default number of files a field accepts, when the product names one. */
  maxCount: number | null;
  /** Images above IMAGE_COMPRESS_ABOVE bytes are compressed in the browser first (docs/product-rules.md#uploads). */
  compress: boolean;
  /** Error key when the type is wrong. */
  formatError: UploadErrorKey;
}

export type UploadErrorKey = typeof ERR.fileFormat | typeof ERR.fileTooLarge | typeof ERR.onlyExcel;

const PNG_JPG = ['png', 'jpg', 'jpeg'] as const;
const PNG_JPG_MIME = ['image/png', 'image/jpeg'] as const;
const XLSX_MIME = ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/octet-stream'] as const;

/** Type and size limits per upload kind (docs/product-rules.md#uploads). Ceilings come from UPLOAD_LIMIT. */
export const UPLOAD_RULES: Record<UploadKind, UploadRule> = {
  image: { extensions: PNG_JPG, mimeTypes: PNG_JPG_MIME, maxBytes: UPLOAD_LIMIT.image, maxCount: null, compress: true, formatError: ERR.fileFormat },
  video: { extensions: ['mp4'], mimeTypes: ['video/mp4'], maxBytes: UPLOAD_LIMIT.video, maxCount: null, compress: false, formatError: ERR.fileFormat },
  audio: { extensions: ['mp3'], mimeTypes: ['audio/mpeg', 'audio/mp3'], maxBytes: UPLOAD_LIMIT.audio, maxCount: null, compress: false, formatError: ERR.fileFormat },
  gif: { extensions: ['gif'], mimeTypes: ['image/gif'], maxBytes: UPLOAD_LIMIT.gif, maxCount: null, compress: false, formatError: ERR.fileFormat },
  facePhoto: { extensions: PNG_JPG, mimeTypes: PNG_JPG_MIME, maxBytes: UPLOAD_LIMIT.facePhoto, maxCount: null, compress: true, formatError: ERR.fileFormat },
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

/** Checks a file against the kind's type and byte ceiling (docs/product-rules.md#uploads). Returns null or an i18n error key. */
export function checkUpload(kind: UploadKind, file: FileFacts): UploadErrorKey | null {
  const rule = UPLOAD_RULES[kind];
  if (rule.extensions && !rule.extensions.includes(fileExtension(file.name))) return rule.formatError;
  if (rule.mimeTypes && file.type !== '' && !rule.mimeTypes.includes(file.type)) return rule.formatError;
  if (rule.maxBytes !== null && file.size > rule.maxBytes) return ERR.fileTooLarge;
  return null;
}

/** True when an image of this kind and size (bytes) is compressed before upload (docs/product-rules.md#uploads: over 100 KB). */
export function shouldCompress(kind: UploadKind, size: number): boolean {
  return UPLOAD_RULES[kind].compress && size > IMAGE_COMPRESS_ABOVE;
}

/** True for .xlsx file names: imports accept only Excel (docs/product-rules.md#uploads). */
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

// ── The file store: what each purpose accepts, judged by content (./signatures.ts) ──────────────────

/** Byte ceilings by stored format (docs/product-rules.md#uploads): images 5 MB, gif 10 MB, audio 50 MB, video 500 MB, documents 50 MB. */
export const TYPE_LIMIT: Record<SniffedType, number | null> = {
  png: UPLOAD_LIMIT.image,
  jpeg: UPLOAD_LIMIT.image,
  webp: UPLOAD_LIMIT.image,
  gif: UPLOAD_LIMIT.gif,
  mp4: UPLOAD_LIMIT.video,
  mp3: UPLOAD_LIMIT.audio,
  pdf: UPLOAD_LIMIT.eventFile,
  zip: UPLOAD_LIMIT.eventFile,
  ole: UPLOAD_LIMIT.eventFile,
  // never stored: markup can run script in the browser
  svg: null,
  html: null,
  unknown: null,
};

/** Per-purpose ceilings the screens name (docs/product-rules.md#uploads), beside the per-format ones of TYPE_LIMIT. */
export const PURPOSE_LIMIT = {
  face: UPLOAD_LIMIT.facePhoto,
  cover: 2 * 1024 * 1024,
  lessonCover: 5 * 1024 * 1024,
  stamp: UPLOAD_LIMIT.estamp,
  style: UPLOAD_LIMIT.stylePhoto,
  lessonVideo: UPLOAD_LIMIT.video,
  attachment: UPLOAD_LIMIT.eventFile,
} as const;

/** What an upload is for; picks its rule set. */
export const FILE_PURPOSES = ['face', 'cover', 'lessonCover', 'banner', 'branding', 'stamp', 'style', 'certificate', 'image', 'lessonVideo', 'video', 'audio', 'attachment'] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];

export interface PurposeRule {
  /** Formats accepted, by content. */
  types: readonly SniffedType[];
  /** Ceiling for every accepted format; null = each format's TYPE_LIMIT. */
  maxBytes: number | null;
  /** Images over IMAGE_COMPRESS_ABOVE are re-encoded smaller on the server (docs/product-rules.md#uploads). */
  compress: boolean;
  /** Required width:height of images (checked on the decoded image). */
  aspect: readonly [number, number] | null;
  /** Served without sign-in (the login screen shows it). */
  public: boolean;
  /** Files a field of this purpose holds, when the product names a number. */
  maxCount: number | null;
}

const IMAGES = ['png', 'jpeg'] as const satisfies readonly SniffedType[];
const rule = (types: readonly SniffedType[], more: Partial<PurposeRule> = {}): PurposeRule => ({
  types,
  maxBytes: null,
  compress: false,
  aspect: null,
  public: false,
  maxCount: null,
  ...more,
});

/** The rule set of each purpose (docs/product-rules.md#uploads, #limits). */
export const PURPOSE_RULES: Record<FilePurpose, PurposeRule> = {
  // Compressed like any photo: COMPRESSED_SIDE px is far more than face recognition needs.
  face: rule(IMAGES, { maxBytes: PURPOSE_LIMIT.face, compress: true }),
  cover: rule(IMAGES, { maxBytes: PURPOSE_LIMIT.cover, aspect: [1, 1], compress: true }),
  lessonCover: rule(IMAGES, { maxBytes: PURPOSE_LIMIT.lessonCover, compress: true }),
  banner: rule(IMAGES, { compress: true, public: true, maxCount: BANNER_MAX }),
  branding: rule(IMAGES, { compress: true, public: true }),
  // E-stamps are transparent PNGs printed on certificates: no lossy re-encoding.
  stamp: rule(['png'], { maxBytes: PURPOSE_LIMIT.stamp, aspect: [1, 1], maxCount: ESTAMP_MAX }),
  style: rule(IMAGES, { maxBytes: PURPOSE_LIMIT.style, compress: true, maxCount: STYLE_PHOTO_MAX }),
  // Certificate backgrounds: PNG or JPEG, the two formats a PDF embeds as they are.
  certificate: rule(IMAGES, { compress: true }),
  image: rule([...IMAGES, 'gif', 'webp'], { compress: true }),
  lessonVideo: rule(['mp4'], { maxBytes: PURPOSE_LIMIT.lessonVideo }),
  video: rule(['mp4']),
  audio: rule(['mp3']),
  attachment: rule(['png', 'jpeg', 'gif', 'webp', 'pdf', 'zip', 'ole', 'mp4', 'mp3'], { maxBytes: PURPOSE_LIMIT.attachment }),
};

/** Formats whose pixels the server decodes: compression, thumbnails, aspect checks. */
export const RASTER_TYPES: ReadonlySet<SniffedType> = new Set(['png', 'jpeg', 'webp', 'gif']);

/** Files above this size go up resumably (tus) instead of one request. */
export const RESUMABLE_ABOVE = 10 * 1024 * 1024;
/** Largest file one multipart request may carry; bigger ones must use the resumable route. */
export const SINGLE_REQUEST_MAX = UPLOAD_LIMIT.eventFile;
/** A resumable upload untouched this long is abandoned and deleted (ms). */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;
/** Longest side of a thumbnail, px. */
export const THUMBNAIL_SIDE = 256;
/** Longest side of a compressed image, px: enough for any screen that shows it. */
export const COMPRESSED_SIDE = 1920;
/** Relative tolerance of aspect-ratio rules (a 1:1 stamp may be off by a pixel or so). */
export const ASPECT_TOLERANCE = 0.01;

/** The ceiling of a file of this format for this purpose, bytes; null when the format is refused. */
export function purposeCeiling(purpose: FilePurpose, type: SniffedType): number | null {
  const r = PURPOSE_RULES[purpose];
  if (!r.types.includes(type)) return null;
  return r.maxBytes ?? TYPE_LIMIT[type];
}

/** The largest file the purpose accepts in any format, bytes (checked before content is known). */
export function purposeMaxBytes(purpose: FilePurpose): number {
  return Math.max(...PURPOSE_RULES[purpose].types.map((t) => purposeCeiling(purpose, t) ?? 0));
}

export type FileErrorKey = typeof ERR.fileFormat | typeof ERR.fileTooLarge | typeof ERR.imageDimensions | typeof ERR.imageDamaged;

/** Checks a file's sniffed format and size against the purpose (docs/product-rules.md#uploads). Null or an i18n error key. */
export function checkFile(purpose: FilePurpose, type: SniffedType, size: number): FileErrorKey | null {
  const ceiling = purposeCeiling(purpose, type);
  if (ceiling === null) return ERR.fileFormat;
  if (size > ceiling) return ERR.fileTooLarge;
  return null;
}

/** Checks decoded image dimensions against the purpose's aspect rule. Null or the "resolution or size" message. */
export function checkImageSize(purpose: FilePurpose, width: number, height: number): FileErrorKey | null {
  if (width < 1 || height < 1) return ERR.imageDamaged;
  const aspect = PURPOSE_RULES[purpose].aspect;
  if (!aspect) return null;
  const want = aspect[0] / aspect[1];
  return Math.abs(width / height - want) / want > ASPECT_TOLERANCE ? ERR.imageDimensions : null;
}

const EXTENSIONS: Partial<Record<SniffedType, readonly string[]>> = {
  png: ['png'],
  jpeg: ['jpg', 'jpeg'],
  gif: ['gif'],
  webp: ['webp'],
  mp4: ['mp4'],
  mp3: ['mp3'],
  pdf: ['pdf'],
  zip: ['zip', 'xlsx', 'docx', 'pptx'],
  ole: ['xls', 'doc', 'ppt'],
};

/** File-name extensions offered by the picker of a purpose (a hint only: the server judges by content). */
export function purposeExtensions(purpose: FilePurpose): string[] {
  return PURPOSE_RULES[purpose].types.flatMap((t) => EXTENSIONS[t] ?? []);
}

/** True for purposes whose files are images (fields show thumbnails). */
export function isImagePurpose(purpose: FilePurpose): boolean {
  return PURPOSE_RULES[purpose].types.every((t) => RASTER_TYPES.has(t));
}
