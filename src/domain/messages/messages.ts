import { z } from 'zod';
import { enumFilter, uuid } from '../fields';
import { listQuery } from '../list-query';
import { JOB_KINDS, JOB_STATES, type JobKind, type JobState } from '../jobs';

/**
 * A user's messages and to-dos (docs/product-rules.md#to-dos-and-messages). A message is what a finished job left its
 * starter; a to-do is a count of rows waiting for the user on a list they may open, with the link that opens exactly
 * those rows; an export request's decision is a message to its requester linking to 我的导出.
 */
export const MESSAGE_KINDS = ['job', 'exportDecision'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** The messages list's filters: read or not, and only those with failures (a to-do opens that filter). */
export const MESSAGE_READ_FILTERS = ['unread', 'read'] as const;
export const MESSAGE_OUTCOME_FILTERS = ['failures'] as const;
export const messageListQuery = listQuery({
  read: enumFilter(MESSAGE_READ_FILTERS, 'validation:common.invalid'),
  outcome: enumFilter(MESSAGE_OUTCOME_FILTERS, 'validation:common.invalid'),
});
export type MessageListQuery = z.output<typeof messageListQuery>;

/** Mark some messages read (their ids), or all the user's when `ids` is absent. */
export const messageReadSchema = z.object({
  ids: z.array(uuid(), { error: 'validation:common.invalid' }).max(200, 'validation:common.tooBig').optional(),
});
export type MessageRead = z.output<typeof messageReadSchema>;

/** One message as the list shows it: texts already in the reader's language. */
export interface MessageRow {
  id: string;
  kind: MessageKind;
  jobId: string | null;
  jobKind: JobKind | null;
  jobState: JobState | null;
  /** The job's result or failure, translated. */
  text: string;
  failures: number;
  /** The job's file while the store keeps it (download through GET /jobs/:id/download). */
  fileName: string | null;
  createdAt: string;
  readAt: string | null;
  /** The console path the message opens (an export decision's: 我的导出), or null. */
  to: string | null;
}
export const messageRowSchema = z.object({
  id: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  jobId: z.string().nullable(),
  jobKind: z.enum(JOB_KINDS).nullable(),
  jobState: z.enum(JOB_STATES).nullable(),
  text: z.string(),
  failures: z.number(),
  fileName: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  to: z.string().nullable(),
}) satisfies z.ZodType<MessageRow>;

/** What may wait for a user, in the order the panel shows them. */
export const TODO_KINDS = ['signUpReview', 'homeworkVideos', 'reportRelease', 'exemptionReview', 'openCases', 'unreadNotices', 'jobFailures'] as const;
export type TodoKind = (typeof TODO_KINDS)[number];

/** One to-do: how many rows wait, and the list (catalogue page and its URL with the filter) that shows exactly them. */
export interface TodoItem {
  kind: TodoKind;
  count: number;
  /** The catalogue page whose list opens. */
  pageKey: string;
  /** The console path with the list's filter in the query string (`/k12/physiqueManage/exemption?status=pending`). */
  to: string;
  /** What the rows belong to when one kind comes per record (a meet's sign-ups): its name. */
  subject?: string;
}
export const todoItemSchema = z.object({
  kind: z.enum(TODO_KINDS),
  count: z.number(),
  pageKey: z.string(),
  to: z.string(),
  subject: z.string().optional(),
}) satisfies z.ZodType<TodoItem>;

/** GET /todos: the items (only those with rows waiting), their total, and the user's unread messages. */
export interface TodoSummary {
  items: TodoItem[];
  total: number;
  unread: number;
}
export const todoSummarySchema = z.object({ items: z.array(todoItemSchema), total: z.number(), unread: z.number() }) satisfies z.ZodType<TodoSummary>;

/** At most this many records of one kind become items (the meets with sign-ups waiting); the rest wait their turn. */
export const TODO_PER_KIND_MAX = 5;
/** The bell asks again this often (ms), and when the window regains focus. */
export const TODO_POLL_MS = 60_000;
/** The bell's popover lists this many latest messages (of the smallest page the list API allows). */
export const TODO_LATEST_MESSAGES = 5;

/** POST …/myInfo/messages/read: how many messages were marked read. */
export const messagesReadAnswerSchema = z.object({ count: z.number().int() });
