import { z } from 'zod';
import { ESTAMP_MAX, STYLE_PHOTO_MAX } from '../constants';
import { requiredId, uuid as idField } from '../fields';
import { listQuery, textFilter, versionField } from '../list-query';
import { isIsoDate } from '../school/school-years';
import { enumTable } from '../presentation';

/**
 * What a meet leaves behind (docs/product-rules.md#meet-documents): the organisation's e-stamps, certificate templates
 * and the certificates issued from published results, and the style photos (运动风采) of each meet.
 */
const uuid = requiredId('validation:common.id');

// ── E-stamps ────────────────────────────────────────────────────────────────────────────────────────────
export { ESTAMP_MAX };
export const STAMP_NAME_MAX = 20;

/** An uploaded stamp: its name and the file-store id of a PNG of purpose 'stamp' (1:1, under 2 MB: checked by the store). */
export const stampSaveSchema = z.object({
  name: z.string({ error: 'meets:stamp.v.name' }).trim().min(1, 'meets:stamp.v.name').max(STAMP_NAME_MAX, 'meets:stamp.v.nameLength'),
  fileId: requiredId('meets:stamp.v.file'),
});
export type StampSave = z.output<typeof stampSaveSchema>;

export interface StampRow {
  id: string;
  name: string;
  fileId: string;
  width: number | null;
  height: number | null;
  size: number;
  createdAt: string;
}

// ── Certificate templates ───────────────────────────────────────────────────────────────────────────────
export const CERTIFICATE_NAME_MAX = 30;
/** What a positioned text shows: a value of the athlete's result, or fixed text of the template. */
export const CERTIFICATE_FIELDS = ['name', 'className', 'event', 'place', 'mark', 'date', 'meet', 'text'] as const;
export type CertificateFieldKind = (typeof CERTIFICATE_FIELDS)[number];
export const CERTIFICATE_FIELD_TABLE = enumTable(CERTIFICATE_FIELDS, (f) => `meets:certificate.kinds.${f}`);
export const ORIENTATIONS = ['landscape', 'portrait'] as const;
export type Orientation = (typeof ORIENTATIONS)[number];
export const ORIENTATION_TABLE = enumTable(ORIENTATIONS, (o) => `meets:certificate.orientations.${o}`);
export const ALIGNS = ['left', 'center', 'right'] as const;
export type Align = (typeof ALIGNS)[number];
export const ALIGN_TABLE = enumTable(ALIGNS, (a) => `meets:certificate.aligns.${a}`);
/** A4 in millimetres, width × height, per orientation. */
export const PAGE_MM: Record<Orientation, readonly [number, number]> = { landscape: [297, 210], portrait: [210, 297] };
export const FONT_PT = { min: 6, max: 96 } as const;
export const STAMP_MM = { min: 10, max: 80 } as const;
export const FIELDS_MAX = 20;
export const FIXED_TEXT_MAX = 40;
/** Millimetres per PDF point. */
export const MM_PER_PT = 25.4 / 72;

const mm = (message: string) => z.coerce.number({ error: message }).min(0, message).max(297, message);

export const certificateFieldSchema = z.object({
  field: z.enum(CERTIFICATE_FIELDS, { error: 'meets:certificate.v.field' }),
  /** Millimetres from the page's left edge to the text's anchor (its left end, middle or right end by `align`). */
  x: mm('meets:certificate.v.position'),
  /** Millimetres from the page's top edge to the text's baseline. */
  y: mm('meets:certificate.v.position'),
  /** Font size, points. */
  size: z.coerce.number({ error: 'meets:certificate.v.size' }).int('meets:certificate.v.size').min(FONT_PT.min, 'meets:certificate.v.size').max(FONT_PT.max, 'meets:certificate.v.size'),
  color: z.string({ error: 'meets:certificate.v.color' }).regex(/^#[0-9a-fA-F]{6}$/, 'meets:certificate.v.color'),
  align: z.enum(ALIGNS).default('center'),
  bold: z.boolean().default(false),
  /** The fixed text of a 'text' field (e.g. 荣获). */
  text: z.string().trim().max(FIXED_TEXT_MAX, 'meets:certificate.v.textLength').optional(),
});
export type CertificateField = z.output<typeof certificateFieldSchema>;

export const certificateSaveSchema = z
  .object({
    name: z.string({ error: 'meets:certificate.v.name' }).trim().min(1, 'meets:certificate.v.name').max(CERTIFICATE_NAME_MAX, 'meets:certificate.v.nameLength'),
    orientation: z.enum(ORIENTATIONS).default('landscape'),
    /** A file-store image (purpose 'certificate', PNG or JPEG) drawn over the whole page; none = a white page. */
    backgroundFileId: uuid.nullable().optional(),
    fields: z.array(certificateFieldSchema).min(1, 'meets:certificate.v.fields').max(FIELDS_MAX, 'meets:certificate.v.fields'),
    stampId: uuid.nullable().optional(),
    /** The stamp's centre, millimetres from the top left, and its side. */
    stampX: z.coerce.number().min(0).max(297).nullable().optional(),
    stampY: z.coerce.number().min(0).max(297).nullable().optional(),
    stampSize: z.coerce.number({ error: 'meets:certificate.v.stampSize' }).min(STAMP_MM.min, 'meets:certificate.v.stampSize').max(STAMP_MM.max, 'meets:certificate.v.stampSize').nullable().optional(),
    version: versionField.optional(),
  })
  .superRefine((v, ctx) => {
    const [w, h] = PAGE_MM[v.orientation];
    v.fields.forEach((f, i) => {
      if (f.x > w) ctx.addIssue({ code: 'custom', path: ['fields', i, 'x'], message: 'meets:certificate.v.position' });
      if (f.y > h) ctx.addIssue({ code: 'custom', path: ['fields', i, 'y'], message: 'meets:certificate.v.position' });
      if (f.field === 'text' && !f.text) ctx.addIssue({ code: 'custom', path: ['fields', i, 'text'], message: 'meets:certificate.v.text' });
    });
    if (v.stampId) {
      if (v.stampX == null || v.stampX > w) ctx.addIssue({ code: 'custom', path: ['stampX'], message: 'meets:certificate.v.stampPosition' });
      if (v.stampY == null || v.stampY > h) ctx.addIssue({ code: 'custom', path: ['stampY'], message: 'meets:certificate.v.stampPosition' });
      if (v.stampSize == null) ctx.addIssue({ code: 'custom', path: ['stampSize'], message: 'meets:certificate.v.stampSize' });
    }
  });
export type CertificateSave = z.output<typeof certificateSaveSchema>;
export type CertificateForm = z.input<typeof certificateSaveSchema>;

export const certificateListQuery = listQuery({ name: textFilter() });

export interface CertificateRow {
  id: string;
  name: string;
  orientation: Orientation;
  backgroundFileId: string | null;
  fields: CertificateField[];
  stampId: string | null;
  stampName: string | null;
  stampFileId: string | null;
  stampX: number | null;
  stampY: number | null;
  stampSize: number | null;
  version: number;
  createdAt: string;
}

/** The fields a new template starts with: a landscape A4 award certificate. */
export const DEFAULT_CERTIFICATE_FIELDS: CertificateField[] = [
  { field: 'name', x: 148.5, y: 88, size: 32, color: '#1f2937', align: 'center', bold: true },
  { field: 'className', x: 148.5, y: 104, size: 16, color: '#374151', align: 'center', bold: false },
  { field: 'meet', x: 148.5, y: 122, size: 16, color: '#374151', align: 'center', bold: false },
  { field: 'event', x: 120, y: 138, size: 20, color: '#1f2937', align: 'center', bold: false },
  { field: 'place', x: 180, y: 138, size: 24, color: '#b91c1c', align: 'center', bold: true },
  { field: 'mark', x: 148.5, y: 152, size: 14, color: '#374151', align: 'center', bold: false },
  // Below the stamp, not under it (a stamp printed over the date hides it).
  { field: 'date', x: 225, y: 186, size: 12, color: '#374151', align: 'center', bold: false },
];

/** Where a new template's stamp sits (mm, its centre and side): above the date, clear of the other texts. */
export const DEFAULT_CERTIFICATE_STAMP = { stampX: 225, stampY: 158, stampSize: 36 } as const;

/**
 * Whether a stamp would cover a text printed with this field (mm): the text's box from its baseline up by its size,
 * each character at most one em wide (CJK), placed by its alignment.
 */
export function stampCovers(f: Pick<CertificateField, 'x' | 'y' | 'size' | 'align'>, text: string, stamp: { stampX: number; stampY: number; stampSize: number }): boolean {
  const em = f.size * MM_PER_PT;
  const width = [...text].length * em;
  const left = f.align === 'center' ? f.x - width / 2 : f.align === 'right' ? f.x - width : f.x;
  const half = stamp.stampSize / 2;
  return left < stamp.stampX + half && left + width > stamp.stampX - half && f.y - em < stamp.stampY + half && f.y > stamp.stampY - half;
}

// ── Issuing ─────────────────────────────────────────────────────────────────────────────────────────────
export const ISSUE_FORMATS = ['pdf', 'zip'] as const;
export type IssueFormat = (typeof ISSUE_FORMATS)[number];
export const PLACE_MAX = 99;

/**
 * Certificates of one meet from its published results: one event (or every event when `eventId` is empty) and the
 * places from `fromPlace` to `toPlace`; one multi-page PDF or a zip with one PDF per athlete.
 */
export const certificateIssueSchema = z
  .object({
    meetId: uuid,
    eventId: uuid.nullable().optional(),
    fromPlace: z.coerce.number({ error: 'meets:certificate.v.places' }).int('meets:certificate.v.places').min(1, 'meets:certificate.v.places').max(PLACE_MAX, 'meets:certificate.v.places').default(1),
    toPlace: z.coerce.number({ error: 'meets:certificate.v.places' }).int('meets:certificate.v.places').min(1, 'meets:certificate.v.places').max(PLACE_MAX, 'meets:certificate.v.places').default(8),
    format: z.enum(ISSUE_FORMATS).default('pdf'),
    /** The date printed; defaults to the meet's last day. */
    date: z.string().refine(isIsoDate, 'validation:date.format').optional(),
  })
  .refine((v) => v.toPlace >= v.fromPlace, { path: ['toPlace'], message: 'meets:certificate.v.places' });
export type CertificateIssue = z.output<typeof certificateIssueSchema>;

/** What one certificate says. */
export interface CertificateValues {
  name: string;
  className: string;
  event: string;
  place: string;
  mark: string;
  date: string;
  meet: string;
}

/** The text a field prints for an athlete. */
export const fieldText = (f: Pick<CertificateField, 'field' | 'text'>, values: CertificateValues): string => (f.field === 'text' ? (f.text ?? '') : values[f.field]);

// ── Style photos ────────────────────────────────────────────────────────────────────────────────────────
export { STYLE_PHOTO_MAX };
export const CAPTION_MAX = 50;

export const photoAddSchema = z.object({
  fileIds: z.array(idField('meets:photo.v.file')).min(1, 'meets:photo.v.file').max(STYLE_PHOTO_MAX, 'meets:photo.v.max'),
});
export const photoCaptionSchema = z.object({
  caption: z.string().trim().max(CAPTION_MAX, 'meets:photo.v.caption').nullable().optional(),
  version: versionField.optional(),
});

export interface PhotoRow {
  id: string;
  fileId: string;
  caption: string | null;
  name: string;
  width: number | null;
  height: number | null;
  version: number;
  createdAt: string;
}

// ── Answers (the OpenAPI document's schemas) ─────────────────────────────────────────────────────────────────
const nullableNumber = z.number().nullable();

/** An e-stamp (StampRow). */
export const stampRowSchema = z.object({ id: z.string(), name: z.string(), fileId: z.string(), width: nullableNumber, height: nullableNumber, size: z.number().int(), createdAt: z.string() });

export const stampListSchema = z.array(stampRowSchema);

/** A certificate template (CertificateRow). */
export const certificateRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  orientation: z.enum(ORIENTATIONS),
  backgroundFileId: z.string().nullable(),
  fields: z.array(certificateFieldSchema),
  stampId: z.string().nullable(),
  stampName: z.string().nullable(),
  stampFileId: z.string().nullable(),
  stampX: nullableNumber,
  stampY: nullableNumber,
  stampSize: nullableNumber,
  version: z.number().int(),
  createdAt: z.string(),
});

/** GET …/certificates/issue/options: meets with published places, and per event how many. */
export const issueOptionsSchema = z.array(
  z.object({ id: z.string(), name: z.string(), events: z.array(z.object({ id: z.string(), name: z.string(), groupName: z.string(), places: z.number().int() })) }),
);

/** POST …/certificates/:id/issue: the job drawing the certificates (follow it under /jobs). */
export const issueJobSchema = z.object({ id: z.string().describe('The job') });

/** A style photo of a meet (PhotoRow). */
export const photoRowSchema = z.object({ id: z.string(), fileId: z.string(), caption: z.string().nullable(), name: z.string(), width: nullableNumber, height: nullableNumber, version: z.number().int(), createdAt: z.string() });

export const photoListSchema = z.array(photoRowSchema);

/** PUT …/photos/:photoId: the photo's row as saved. */
export const photoSavedSchema = z.object({ id: z.string(), meetId: z.string(), fileId: z.string(), caption: z.string().nullable(), version: z.number().int(), createdAt: z.string() });
