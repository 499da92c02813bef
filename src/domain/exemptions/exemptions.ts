import { z } from 'zod';
import { enumFilter, nullableId, requiredId, requiredText } from '../fields';
import { idFilter, listQuery, textFilter, versionField } from '../list-query';
import { enumTable } from '../presentation';
import { EXEMPTION_KINDS as YEAR_EXEMPTION_KINDS, type ExemptionKind } from '../physique-year/year-result';

/**
 * 免测/缓测 requests (docs/product-rules.md#physique-year, "Exemptions"): a class teacher (or a parent through the app
 * API) asks for one student and school year with the reason and a medical certificate; a role holding the page's
 * audit button approves or refuses it with a note. The year's rule itself is src/domain/physique-year/year-result.ts.
 */

export type { ExemptionKind };
export const EXEMPTION_KINDS = YEAR_EXEMPTION_KINDS as readonly [ExemptionKind, ...ExemptionKind[]];
export const EXEMPTION_STATUSES = ['pending', 'approved', 'refused'] as const;
export type ExemptionStatus = (typeof EXEMPTION_STATUSES)[number];
export const EXEMPTION_VIA = ['console', 'app'] as const;
export type ExemptionVia = (typeof EXEMPTION_VIA)[number];
export const DECISIONS = ['approved', 'refused'] as const;
export type ExemptionDecision = (typeof DECISIONS)[number];

/** Longest reason and decision note (characters): a paragraph, as the paper form's box holds. */
export const EXEMPTION_REASON_MAX = 500;
export const EXEMPTION_NOTE_MAX = 200;
/** What a medical certificate may be (by content, the file store's sniffed MIME): a photo or scan, or a PDF. */
export const CERTIFICATE_MIMES: readonly string[] = ['image/png', 'image/jpeg', 'application/pdf'];
/** The file store purpose a certificate goes up under (it accepts images and PDF; CERTIFICATE_MIMES narrows it). */
export const CERTIFICATE_PURPOSE = 'attachment' as const;

export const EXEMPTION_KIND_TABLE = enumTable(EXEMPTION_KINDS, (k) => `exemptions:kind.${k}`, { exempt: 'primary', deferred: 'warning' });
export const EXEMPTION_STATUS_TABLE = enumTable(EXEMPTION_STATUSES, (s) => `exemptions:status.${s}`, { pending: 'warning', approved: 'success', refused: 'danger' });

const reason = requiredText(EXEMPTION_REASON_MAX, 'exemptions:reasonRequired');

/** A request from the console: a student of the requester's classes, the school year, kind, reason, certificate. */
export const exemptionSaveSchema = z.object({
  studentId: requiredId('exemptions:studentRequired'),
  schoolYearId: requiredId('exemptions:schoolYearRequired'),
  kind: z.enum(EXEMPTION_KINDS, { error: 'exemptions:kindRequired' }),
  reason,
  certificateFileId: nullableId(),
});
export type ExemptionSave = z.output<typeof exemptionSaveSchema>;
export type ExemptionForm = z.input<typeof exemptionSaveSchema>;

/** A parent's request through the app API: the school year is the student's current one. */
export const appExemptionSaveSchema = z.object({
  studentId: requiredId('exemptions:studentRequired'),
  kind: z.enum(EXEMPTION_KINDS, { error: 'exemptions:kindRequired' }),
  reason,
  certificateFileId: nullableId(),
});
export type AppExemptionSave = z.output<typeof appExemptionSaveSchema>;

/** Approve or refuse (button audit): the note is required when refusing, so the requester learns why. */
export const exemptionDecideSchema = z
  .object({
    decision: z.enum(DECISIONS, { error: 'exemptions:decisionRequired' }),
    note: z.string({ error: 'validation:common.invalid' }).trim().max(EXEMPTION_NOTE_MAX, 'validation:common.tooLong').default(''),
    version: versionField,
  })
  .refine((b) => b.decision !== 'refused' || b.note.length > 0, { path: ['note'], message: 'exemptions:noteRequired' });
export type ExemptionDecide = z.output<typeof exemptionDecideSchema>;
export type ExemptionDecideForm = z.input<typeof exemptionDecideSchema>;

export const exemptionListQuery = listQuery({
  schoolYearId: idFilter,
  status: enumFilter(EXEMPTION_STATUSES),
  kind: enumFilter(EXEMPTION_KINDS),
  classId: idFilter,
  keyword: textFilter(),
});
export type ExemptionListQuery = z.output<typeof exemptionListQuery>;
export const exemptionExportQuery = exemptionListQuery.omit({ current: true, size: true });
export const exemptionStudentQuery = z.object({ keyword: textFilter() });

export interface ExemptionRow {
  id: string;
  studentId: string;
  name: string;
  regNo: string;
  gender: 'male' | 'female';
  classId: string;
  className: string;
  gradeNo: number;
  schoolYearId: string;
  academicYear: string;
  kind: ExemptionKind;
  reason: string;
  certificateFileId: string | null;
  certificateName: string | null;
  status: ExemptionStatus;
  requestedVia: ExemptionVia;
  requestedByName: string | null;
  requestedAt: string;
  decidedByName: string | null;
  decidedAt: string | null;
  decisionNote: string | null;
  version: number;
}

/** What the request form offers: the school years (current first) and the classes of the requester's scope. */
export interface ExemptionOptions {
  schoolYears: { id: string; academicYear: string; current: boolean }[];
  classes: { id: string; name: string }[];
}
export interface ExemptionStudentOption {
  id: string;
  name: string;
  regNo: string;
  className: string;
}

/** A parent's view of a child's request (the app API). */
export interface AppExemptionRow {
  id: string;
  studentId: string;
  studentName: string;
  academicYear: string;
  kind: ExemptionKind;
  reason: string;
  certificateFileId: string | null;
  status: ExemptionStatus;
  requestedVia: ExemptionVia;
  requestedAt: string;
  decidedAt: string | null;
  decisionNote: string | null;
}

// Answer schemas for the API documents (describe, never filter).
const kindSchema = z.enum(EXEMPTION_KINDS);
const statusSchema = z.enum(EXEMPTION_STATUSES);
export const exemptionRowSchema = z.object({
  id: z.string(),
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  gender: z.enum(['male', 'female']),
  classId: z.string(),
  className: z.string(),
  gradeNo: z.number(),
  schoolYearId: z.string(),
  academicYear: z.string(),
  kind: kindSchema,
  reason: z.string(),
  certificateFileId: z.string().nullable(),
  certificateName: z.string().nullable(),
  status: statusSchema,
  requestedVia: z.enum(EXEMPTION_VIA),
  requestedByName: z.string().nullable(),
  requestedAt: z.string(),
  decidedByName: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
  version: z.number(),
});
export const exemptionOptionsSchema = z.object({
  schoolYears: z.array(z.object({ id: z.string(), academicYear: z.string(), current: z.boolean() })),
  classes: z.array(z.object({ id: z.string(), name: z.string() })),
});
export const exemptionStudentSchema = z.array(z.object({ id: z.string(), name: z.string(), regNo: z.string(), className: z.string() }));
export const appExemptionRowSchema = z.object({
  id: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  academicYear: z.string(),
  kind: kindSchema,
  reason: z.string(),
  certificateFileId: z.string().nullable(),
  status: statusSchema,
  requestedVia: z.enum(EXEMPTION_VIA),
  requestedAt: z.string(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
});
export const appExemptionQuery = z.object({ studentId: idFilter });
