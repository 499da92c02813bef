import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import { ERR } from '@/domain/errors';
import { JOB_LIST_MAX, jobListQuery, jobRowSchema, type JobKind, type JobResult, type JobRow, type JobState } from '@/domain/jobs';
import { idParamsSchema } from '@/domain/list-query';
import { users } from '../../db/schema/auth';
import { files } from '../../db/schema/files';
import { jobs } from '../../db/schema/jobs';
import { AppError } from '../../lib/app-error';
import type { StoredJobResult } from '../../lib/jobs';
import { resourceAction, SIGNED_IN, type ActionContext } from '../../lib/action';
import { uuidOr404 } from '../../lib/resource';
import type { DbOrTx } from '../../db/client';
import type { Storage } from '../../lib/storage/storage';
import { requireActor, type Actor } from '../../plugins/tenant';
import { sendStoredFile } from '../files/files.send';
import { XLSX_MIME } from '../../lib/spreadsheet/http';


/**
 * The user's jobs (docs/product-rules.md#jobs), under /api/busi/web/jobs: the tasks panel lists them, a screen that
 * started one polls it, and a finished job's file downloads here. A job is its starter's; an administrator of the same
 * organisation (a role whose data scope is the whole organisation) sees the organisation's. Anything else is 404.
 */
function visible(actor: Actor): SQL {
  const ownOrg = eq(jobs.orgId, actor.tenantOrgId);
  return actor.dataScope === 'org' ? ownOrg : and(ownOrg, eq(jobs.userId, actor.userId))!;
}

type Row = typeof jobs.$inferSelect & { startedBy: string | null };

function toJobRow(row: Row, t: ActionContext['t']): JobRow {
  const error = row.error as { key: string; params?: Record<string, unknown>; status?: number } | null;
  const result = row.result as StoredJobResult | null;
  return {
    id: row.id,
    kind: row.kind as JobKind,
    state: row.state as JobState,
    done: row.done,
    total: row.total,
    stage: row.stage ? t(row.stage) : null,
    result: result && {
      fileId: result.fileId,
      fileName: result.fileName,
      counts: result.counts,
      message: result.messageKey ? t(result.messageKey, result.messageParams) : undefined,
    },
    error: error ? t(error.key, error.params) : null,
    ...(error?.status ? { errorStatus: error.status } : {}),
    startedBy: row.startedBy ?? '',
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export const jobRoutes: FastifyPluginAsync<{ storage: Storage }> = async (app, { storage }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  const select = (db: DbOrTx) => db.select({ job: jobs, startedBy: users.name }).from(jobs).leftJoin(users, eq(users.id, jobs.userId));
  const one = async (db: DbOrTx, actor: Actor, id: string): Promise<Row> => {
    const [found] = await select(db)
      .where(and(eq(jobs.id, uuidOr404(id)), visible(actor)))
      .limit(1);
    if (!found) throw new AppError(404, ERR.notFound);
    return { ...found.job, startedBy: found.startedBy };
  };

  // A job is its starter's (or the organisation administrator's), behind no catalogue page: signed in is the access,
  // and `visible` answers 404 for anyone else's.
  resourceAction(app, {
    method: 'GET',
    path: '/',
    access: SIGNED_IN,
    summary: '我的任务',
    // The worker writes the progress, not the caller: the caller's read-your-writes cookie does not cover it.
    reads: 'primary',
    query: jobListQuery,
    answer: jobRowSchema.array(),
    read: async (db, me, { query }, { t }) => {
      const actor = await me.actor();
      const rows = await select(db)
        .where(and(visible(actor), query.kind ? eq(jobs.kind, query.kind) : undefined))
        .orderBy(desc(jobs.createdAt), desc(jobs.id))
        .limit(JOB_LIST_MAX);
      return rows.map((row) => toJobRow({ ...row.job, startedBy: row.startedBy }, t));
    },
  });

  resourceAction(app, {
    method: 'GET',
    path: '/:id',
    access: SIGNED_IN,
    summary: '任务进度',
    reads: 'primary',
    params: idParamsSchema,
    answer: jobRowSchema,
    read: async (db, me, { params }, { t }) => toJobRow(await one(db, await me.actor(), params.id), t),
  });

  // A hand route: the job's stored file goes out through sendStoredFile (ETag, byte ranges, sandboxing headers), as
  // every stored file does.
  r.get('/:id/download', { schema: { params: idParamsSchema } }, async (request, reply) => {
    const job = await one(app.db, await requireActor(request), request.params.id);
    const fileId = (job.result as JobResult | null)?.fileId;
    if (job.state !== 'done' || !fileId) throw new AppError(404, ERR.notFound);
    const [file] = await app.db
      .select()
      .from(files)
      .where(and(eq(files.id, fileId), eq(files.orgId, job.orgId)))
      .limit(1);
    if (!file || file.deletedAt) throw new AppError(404, ERR.notFound);
    // A workbook is stored as the zip it is by content; it downloads as the spreadsheet it is.
    const mime = /\.xlsx$/i.test(file.name) ? XLSX_MIME : file.mime;
    return sendStoredFile(storage, request, reply, { hash: file.hash, size: file.size, mime, name: file.name }, 'no-store');
  });
};
