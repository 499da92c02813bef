import { z } from 'zod';
import { isIsoDate } from '../dates';
import { blankAsNull, enumFilter, formBoolean, uuid } from '../fields';
import { listQuery, textFilter, versionField } from '../list-query';
import { enumTable } from '../presentation';
import { richTextLength } from '../content/rich-text';

/**
 * Notices (通知公告, docs/product-rules.md#notices): a management organisation publishes to its schools (all, or
 * chosen ones), a school or university to its own staff and, when asked (`toParents`), to its students' parents in
 * the app. Rich text under the wiki's allow-list, attachments of the
 * file store, a window of days (Asia/Shanghai) in which readers see it, pinned first, read receipts.
 */

export const NOTICE_TITLE_MAX = 80;
/** Visible characters of a notice's text. */
export const NOTICE_TEXT_MAX = 20_000;
/** Stored HTML, markup included: a bound on what one save may send. */
export const NOTICE_HTML_MAX = 200_000;
export const NOTICE_ATTACHMENTS_MAX = 10;
export const NOTICE_SCHOOLS_MAX = 2_000;
/** Unread people a receipt answer names at most (the counts per school are always whole). */
export const NOTICE_UNREAD_LIST_MAX = 500;

/** Who a notice is for: a management organisation's `allSchools` / `chosenSchools`, a school's `staff`. */
export const NOTICE_AUDIENCES = ['allSchools', 'chosenSchools', 'staff'] as const;
export type NoticeAudience = (typeof NOTICE_AUDIENCES)[number];
export const NOTICE_AUDIENCE_TABLE = enumTable(NOTICE_AUDIENCES, (a) => `notices:audiences.${a}`);
/** The audiences a publisher of this kind may choose. */
export const audiencesFor = (management: boolean): readonly NoticeAudience[] => (management ? ['allSchools', 'chosenSchools'] : ['staff']);

/** Where a notice stands for its readers today (docs/product-rules.md#notices). */
export const NOTICE_STATES = ['draft', 'scheduled', 'showing', 'ended'] as const;
export type NoticeState = (typeof NOTICE_STATES)[number];
export const NOTICE_STATE_TABLE = enumTable(NOTICE_STATES, (s) => `notices:states.${s}`, { draft: 'neutral', scheduled: 'warning', showing: 'success', ended: 'neutral' });

/** A published notice is shown from `showFrom` to `showUntil` (days, both included; no end = until taken back). */
export function noticeState(published: boolean, showFrom: string, showUntil: string | null, today: string): NoticeState {
  if (!published) return 'draft';
  if (today < showFrom) return 'scheduled';
  if (showUntil !== null && today > showUntil) return 'ended';
  return 'showing';
}

const day = (message: string) => z.string({ error: message }).refine(isIsoDate, 'validation:date.format');

export const noticeSaveSchema = z
  .object({
    title: z.string({ error: 'notices:validation.titleRequired' }).trim().min(1, 'notices:validation.titleRequired').max(NOTICE_TITLE_MAX, 'validation:common.tooLong'),
    content: z
      .string({ error: 'notices:validation.contentRequired' })
      .max(NOTICE_HTML_MAX, 'notices:validation.contentLength')
      .refine((html) => richTextLength(html) > 0 || /<(img|video)\b/i.test(html), 'notices:validation.contentRequired')
      .refine((html) => richTextLength(html) <= NOTICE_TEXT_MAX, 'notices:validation.contentLength'),
    attachmentIds: z.array(uuid(), { error: 'validation:common.invalid' }).max(NOTICE_ATTACHMENTS_MAX, 'notices:validation.attachmentsMax').default([]),
    audience: z.enum(NOTICE_AUDIENCES, { error: 'notices:validation.audienceRequired' }),
    schoolIds: z.array(uuid(), { error: 'validation:common.invalid' }).max(NOTICE_SCHOOLS_MAX, 'validation:common.tooBig').default([]),
    /** Only a school's `staff` notice may also go to its students' parents; a district's never does by itself. */
    toParents: formBoolean.default(false),
    pinned: formBoolean,
    published: formBoolean,
    showFrom: day('notices:validation.showFromRequired'),
    showUntil: z.preprocess(blankAsNull, day('validation:date.format').nullable()),
    version: versionField.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.audience === 'chosenSchools' && v.schoolIds.length === 0) ctx.addIssue({ code: 'custom', path: ['schoolIds'], message: 'notices:validation.schoolsRequired' });
    if (v.toParents && v.audience !== 'staff') ctx.addIssue({ code: 'custom', path: ['toParents'], message: 'notices:validation.parentsSchoolOnly' });
    if (v.showUntil !== null && v.showUntil < v.showFrom) ctx.addIssue({ code: 'custom', path: ['showUntil'], message: 'notices:validation.untilBeforeFrom' });
  });
export type NoticeSave = z.output<typeof noticeSaveSchema>;
export type NoticeForm = z.input<typeof noticeSaveSchema>;

export const noticeListQuery = listQuery({ title: textFilter(), state: enumFilter(NOTICE_STATES) });
export type NoticeListQuery = z.output<typeof noticeListQuery>;

/** The readers' inbox: every notice they may read now, or the unread ones only. */
export const inboxQuery = listQuery({ title: textFilter(), unread: z.preprocess((v) => (v === 'true' ? true : v === 'false' || v === '' ? undefined : v), z.boolean().optional()) });
export type InboxQuery = z.output<typeof inboxQuery>;

/** `…/notices/:id/files/:fileId`: a file of a notice, read through the notice. */
export const noticeFileParams = z.object({ id: uuid(), fileId: uuid() });

export const attachmentSchema = z.object({ id: z.string(), name: z.string(), size: z.number().int(), mime: z.string() });
export type NoticeAttachment = z.output<typeof attachmentSchema>;

export const noticeRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  audience: z.enum(NOTICE_AUDIENCES),
  /** Organisations the notice reaches (schools, or the school itself). */
  orgCount: z.number().int(),
  toParents: z.boolean(),
  pinned: z.boolean(),
  published: z.boolean(),
  showFrom: z.string(),
  showUntil: z.string().nullable(),
  state: z.enum(NOTICE_STATES),
  readCount: z.number().int(),
  audienceSize: z.number().int(),
  updatedAt: z.string(),
  updatedByName: z.string().nullable(),
  version: z.number().int(),
});
export type NoticeRow = z.output<typeof noticeRowSchema>;

export const noticeDetailSchema = noticeRowSchema.extend({
  content: z.string().describe('Sanitised HTML'),
  attachments: z.array(attachmentSchema),
  schoolIds: z.array(z.string()),
  publisherName: z.string(),
});
export type NoticeDetail = z.output<typeof noticeDetailSchema>;

/** Receipts of a notice: per organisation reached, and the people who have not read it yet. */
export const noticeReceiptsSchema = z.object({
  orgs: z.array(z.object({ orgId: z.string(), name: z.string(), audienceSize: z.number().int(), readCount: z.number().int() })),
  unread: z.array(z.object({ userId: z.string(), name: z.string(), account: z.string(), orgName: z.string() })),
  unreadTotal: z.number().int(),
  read: z.array(z.object({ userId: z.string(), name: z.string(), orgName: z.string(), readAt: z.string() })),
  /** A `toParents` notice: its parents as their own group (app accounts of on-roll students' parents); else null. */
  parents: z.object({ audienceSize: z.number().int(), readCount: z.number().int() }).nullable(),
});
export type NoticeReceipts = z.output<typeof noticeReceiptsSchema>;

/** A management organisation's schools a notice may be addressed to. */
export const noticeSchoolSchema = z.object({ id: z.string(), name: z.string() });
export type NoticeSchool = z.output<typeof noticeSchoolSchema>;

export const inboxRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  publisherName: z.string(),
  pinned: z.boolean(),
  showFrom: z.string(),
  publishedAt: z.string().nullable(),
  read: z.boolean(),
});
export type InboxRow = z.output<typeof inboxRowSchema>;
export const inboxNoticeSchema = inboxRowSchema.extend({ content: z.string().describe('Sanitised HTML'), attachments: z.array(attachmentSchema) });
export type InboxNotice = z.output<typeof inboxNoticeSchema>;
export const unreadCountSchema = z.object({ unread: z.number().int() });

/** POST …/myInfo/notices/:id/read: the notice is read (the first open audited). */
export const noticeReadAnswerSchema = z.object({ read: z.literal(true) });
