import { and, desc, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import type { JobKind, JobState } from '@/domain/jobs';
import { EXPORT_LINK_HOURS } from '@/domain/data-access/data-access';
import { getCatalogEntry } from '@/domain/menus/catalog';
import type { MessageKind, MessageListQuery, MessageRead, MessageRow } from '@/domain/messages/messages';
import type { DbOrTx, Tx } from '../../db/client';
import { exportRequests } from '../../db/schema/data-access';
import { files } from '../../db/schema/files';
import { jobs } from '../../db/schema/jobs';
import { messages } from '../../db/schema/messages';
import type { StoredJobResult } from '../../lib/jobs';
import { paginate } from '../../lib/paginate';

/** Translates a message key with its parameters, in the reader's language. */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

const columns = {
  id: messages.id,
  kind: messages.kind,
  jobId: messages.jobId,
  failures: messages.failures,
  createdAt: messages.createdAt,
  readAt: messages.readAt,
  jobKind: jobs.kind,
  jobState: jobs.state,
  result: jobs.result,
  error: jobs.error,
  // The file while the store keeps it: a deleted file's message keeps its text, without the download.
  fileName: sql<string | null>`case when ${files.deletedAt} is null then ${files.name} end`,
  exportScreen: exportRequests.screen,
  exportRows: exportRequests.rows,
  exportStatus: exportRequests.status,
  exportNote: exportRequests.note,
};

/** The personal page an export decision links to (the catalogue's personal.myInfo.exports). */
const MY_EXPORTS = getCatalogEntry('personal.myInfo.exports')!.path;

/** The text of an export decision told to its requester: which export, approved (for how long) or refused (why). */
function exportText(t: Translate, r: { exportScreen: string | null; exportRows: number | null; exportStatus: string | null; exportNote: string | null }): string {
  const entry = r.exportScreen ? getCatalogEntry(r.exportScreen) : undefined;
  const page = entry ? t(`menus:${entry.i18nKey}`) : (r.exportScreen ?? '');
  if (r.exportStatus === 'refused') return t('messages:exportDecision.refused', { page, rows: r.exportRows ?? 0, note: r.exportNote || t('messages:exportDecision.noNote') });
  return t('messages:exportDecision.approved', { page, rows: r.exportRows ?? 0, hours: EXPORT_LINK_HOURS });
}

/** The text of a job's message: its result message or counts, or why it failed. */
function jobText(t: Translate, kind: string | null, result: StoredJobResult | null, error: { key: string; params?: Record<string, unknown> } | null): string {
  const what = kind ? t(`jobs:kind.${kind}`) : '';
  if (error) return t('messages:job.failed', { what, reason: t(error.key, error.params) });
  const outcome = result?.messageKey ? t(result.messageKey, result.messageParams) : '';
  return outcome ? t('messages:job.doneWith', { what, outcome }) : t('messages:job.done', { what });
}

/** The user's messages, newest first (docs/product-rules.md#to-dos-and-messages): a message is its recipient's only. */
export async function messagePage(db: DbOrTx, userId: string, q: MessageListQuery, t: Translate): Promise<Page<MessageRow>> {
  const where = and(
    eq(messages.userId, userId),
    q.read === 'unread' ? isNull(messages.readAt) : q.read === 'read' ? isNotNull(messages.readAt) : undefined,
    q.outcome === 'failures' ? gt(messages.failures, 0) : undefined,
  );
  const query = db
    .select(columns)
    .from(messages)
    .leftJoin(jobs, eq(jobs.id, messages.jobId))
    .leftJoin(files, sql`${files.id}::text = ${jobs.result} ->> 'fileId'`)
    .leftJoin(exportRequests, eq(exportRequests.id, messages.exportRequestId))
    .where(where)
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .$dynamic();
  const page = await paginate(db, query, q);
  return {
    ...page,
    records: page.records.map((r) => ({
      id: r.id,
      kind: r.kind as MessageKind,
      jobId: r.jobId,
      jobKind: (r.jobKind as JobKind | null) ?? null,
      jobState: (r.jobState as JobState | null) ?? null,
      text:
        r.kind === 'exportDecision'
          ? exportText(t, r)
          : jobText(t, r.jobKind, r.result as StoredJobResult | null, r.jobState === 'failed' ? ((r.error as { key: string; params?: Record<string, unknown> } | null) ?? { key: 'jobs:error.unexpected' }) : null),
      failures: r.failures,
      fileName: r.jobState === 'done' ? r.fileName : null,
      createdAt: r.createdAt.toISOString(),
      readAt: r.readAt?.toISOString() ?? null,
      to: r.kind === 'exportDecision' ? MY_EXPORTS : null,
    })),
  };
}

/** Marks the user's messages read (the ids given, or all unread); another user's ids change nothing. Answers how many. */
export async function markMessagesRead(tx: Tx, userId: string, body: MessageRead, now: Date): Promise<number> {
  const rows = await tx
    .update(messages)
    .set({ readAt: now })
    .where(and(eq(messages.userId, userId), isNull(messages.readAt), body.ids ? inArray(messages.id, body.ids) : undefined))
    .returning({ id: messages.id });
  return rows.length;
}

/** Tells an export request's requester of its decision (docs/product-rules.md#personal-data-access), in the decision's transaction. */
export async function leaveExportDecisionMessage(tx: Tx, request: { id: string; orgId: string; userId: string }, now: Date): Promise<void> {
  await tx.insert(messages).values({ orgId: request.orgId, userId: request.userId, kind: 'exportDecision', exportRequestId: request.id, createdAt: now });
}
