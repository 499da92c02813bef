import { z } from 'zod';
import { pageSchema } from '../api';
import { enumFilter, optionalDay } from '../fields';
import { listQuery, textFilter } from '../list-query';
import { enumTable } from '../presentation';

/**
 * Views of unmasked personal data and approvals of large exports (docs/product-rules.md#personal-data-access).
 */

/** How an unmasked view happened: a list page, a form's record, an export's file. */
export const REVEAL_VIAS = ['list', 'form', 'export'] as const;
export type RevealVia = (typeof REVEAL_VIAS)[number];

/** An approved export's link works this long after the decision. */
export const EXPORT_LINK_HOURS = 24;
export const EXPORT_REASON_MAX = 200;
export const EXPORT_NOTE_MAX = 200;

const rangeInOrder = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;
const rangeIssue = { message: 'validation:logs.rangeOrder', path: ['to'] };

export const sensitiveLogQuery = listQuery({
  from: optionalDay(),
  to: optionalDay(),
  /** Name or login account of the viewer. */
  viewer: textFilter(),
  /** Name of a person shown. */
  person: textFilter(),
}).refine(rangeInOrder, rangeIssue);
export type SensitiveLogQuery = z.output<typeof sensitiveLogQuery>;

export const sensitiveLogRowSchema = z.object({
  id: z.string(),
  at: z.string(),
  userName: z.string(),
  accountNum: z.string(),
  screen: z.string(),
  via: z.enum(REVEAL_VIAS),
  people: z.array(z.object({ id: z.string(), name: z.string() })),
  peopleCount: z.number().int(),
});
export type SensitiveLogRow = z.output<typeof sensitiveLogRowSchema>;
export const sensitiveLogPageSchema = pageSchema(sensitiveLogRowSchema);

export const EXPORT_REQUEST_STATUSES = ['pending', 'approved', 'refused', 'expired'] as const;
export type ExportRequestStatus = (typeof EXPORT_REQUEST_STATUSES)[number];
export const EXPORT_REQUEST_STATUS_TABLE = enumTable(EXPORT_REQUEST_STATUSES, (s) => `dataAccess:exportApproval.statuses.${s}`, {
  pending: 'warning',
  approved: 'success',
  refused: 'danger',
  expired: 'neutral',
});

/** The approval screen: every request of the organisation (with the page's `audit`), else the caller's own. */
export const exportRequestQuery = listQuery({
  status: enumFilter(EXPORT_REQUEST_STATUSES, 'dataAccess:errors.status'),
  /** Name of the requester. */
  user: textFilter(),
  /** 'mine': only the caller's own requests. */
  mine: enumFilter(['true'] as const),
});
export type ExportRequestQuery = z.output<typeof exportRequestQuery>;

/** A request of an export above the threshold: the export's page, its query as the list sent it, and a reason. */
export const exportRequestCreateSchema = z.object({
  screen: z.string().min(1).max(120),
  /** The refused export's path as the server named it (its params included); absent: the page's list export. */
  path: z.string().max(500).optional(),
  query: z.record(z.string().max(64), z.string().max(2000)).default({}),
  reason: z.string().trim().min(1, 'dataAccess:errors.reasonRequired').max(EXPORT_REASON_MAX, 'dataAccess:errors.reasonTooLong'),
});
export type ExportRequestCreate = z.output<typeof exportRequestCreateSchema>;
export type ExportRequestForm = z.input<typeof exportRequestCreateSchema>;

export const exportDecisionSchema = z.object({
  approve: z.boolean(),
  note: z.string().trim().max(EXPORT_NOTE_MAX, 'dataAccess:errors.noteTooLong').default(''),
});
export type ExportDecision = z.output<typeof exportDecisionSchema>;

export const exportRequestRowSchema = z.object({
  id: z.string(),
  userName: z.string(),
  screen: z.string(),
  query: z.record(z.string(), z.string()),
  rows: z.number().int(),
  reason: z.string(),
  status: z.enum(EXPORT_REQUEST_STATUSES),
  decidedByName: z.string().nullable(),
  note: z.string().nullable(),
  decidedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  downloads: z.number().int(),
  /** The caller's own request: the screen offers its download while approved. */
  mine: z.boolean(),
});
export type ExportRequestRow = z.output<typeof exportRequestRowSchema>;
export const exportRequestPageSchema = pageSchema(exportRequestRowSchema);

/** What the console needs to draw the watermark over personal data (docs/product-rules.md#personal-data-access). */
export const watermarkSchema = z.object({ on: z.boolean(), name: z.string(), account: z.string() });
export type Watermark = z.output<typeof watermarkSchema>;

/** POST …/system/exportApproval: the request made, to follow on the approvals screen. */
export const exportRequestCreatedSchema = z.object({ id: z.string() });
