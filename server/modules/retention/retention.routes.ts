import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OK_MSG } from '@/domain/errors';
import { idParamsSchema as idParams } from '@/domain/list-query';
import { pageAccess, type ServedBy } from '@/domain/menus/access';
import { pageSchema } from '@/domain/api';
import {
  accessLogArchiveRowSchema,
  dataRequestHandleSchema,
  dataRequestListQuery,
  dataRequestRowSchema,
  retentionRunRowSchema,
  retentionSaveSchema,
  retentionScheduleSchema,
} from '@/domain/retention/retention';
import { resourceAction } from '../../lib/action';
import { registerResource, relativeApi } from '../../lib/resource';
import type { Storage } from '../../lib/storage/storage';
import { isTopManagementOrg } from '../menus/menus.service';
import { accessLogArchive, accessLogArchivePage } from '../platform/access-log.service';
import { dataRequestById, dataRequestPage, handleDataRequest, schoolChildDataFile } from './data-requests.service';
import { archiveFile, retentionRunPage, retentionSchedule, saveRetention } from './retention.service';

/**
 * The retention screen (system/retention, docs/product-rules.md#retention): the schedule (saved by platform operators
 * only), the runs with what each removed, and the operation-log archives for those who may read the operation log.
 */
export const retentionRoutes: FastifyPluginAsyncZod<{ family: ServedBy<'system.retention'>; storage: Storage }> = async (app, { family, storage }) => {
  const key = `${family}.system.retention`;
  const logView = pageAccess(`${family}.system.operationLog`).view;
  const accessLogKey = `${family}.system.accessLog`;
  const accessLogView = pageAccess(accessLogKey).view;
  /** The access log's archives hold every organisation's requests: a platform operator who reads the access log. */
  const accessLogOperator = async (db: Parameters<typeof isTopManagementOrg>[0], actor: { tenantOrgId: string; permissions: ReadonlySet<string> }) =>
    actor.permissions.has(accessLogView) && (await isTopManagementOrg(db, actor.tenantOrgId));
  const routes: FastifyPluginAsyncZod = async (r) => {
    resourceAction(r, { method: 'GET', path: '/schedule', access: [key, 'view'], answer: retentionScheduleSchema, summary: 'The retention schedule', read: (db, actor) => retentionSchedule(db, actor) });
    // The schedule is the whole installation's: only the management family can hold a platform operator, so only it
    // has the save (a school's edit button has nothing to save; a bureau below the top still gets 403 from the service).
    if (family === 'admin') {
      resourceAction(r, {
        method: 'PUT',
        path: '/schedule',
        access: [key, 'edit'],
        body: retentionSaveSchema,
        entity: 'platformSetting',
        audit: 'update',
        message: OK_MSG.saved,
        answer: retentionScheduleSchema,
        summary: "Save the retention schedule (platform operators only: 403 otherwise; each duration within its category's bounds; stale version: 409)",
        // saveRetention writes its own audit row (the platform_settings pattern), so the kit's is skipped.
        write: async (tx, actor, { body }) => ({ after: await saveRetention(tx, actor, body, app.now()), audited: false }),
      });
    }
    resourceAction(r, {
      method: 'GET',
      path: '/runs',
      access: [key, 'view'],
      answer: pageSchema(retentionRunRowSchema),
      summary: 'The latest retention runs, with the operation-log archives the reader may download',
      read: (db, actor) => retentionRunPage(db, actor, actor.permissions.has(logView)),
    });
    resourceAction(r, {
      method: 'GET',
      path: '/archives/:id',
      access: [`${family}.system.operationLog`, 'view'],
      params: idParams,
      answers: 'file',
      summary: 'An operation-log archive (JSON Lines: chain, place, previous hash, hash, the hashed content and the row)',
      read: async (db, actor, { params }) => {
        const f = await archiveFile(db, storage, actor, params.id);
        return { body: f.bytes, fileName: f.fileName, contentType: 'application/x-ndjson; charset=utf-8' };
      },
    });
    resourceAction(r, {
      method: 'GET',
      path: '/access-log-archives',
      access: [key, 'view'],
      answer: pageSchema(accessLogArchiveRowSchema),
      summary: "The access log's archives, newest first (platform operators who read the access log; others: none)",
      read: async (db, actor) => accessLogArchivePage(db, await accessLogOperator(db, actor)),
    });
    resourceAction(r, {
      method: 'GET',
      path: '/access-log-archives/:id',
      access: [accessLogKey, 'export'],
      params: idParams,
      answers: 'file',
      summary: "An access-log archive (JSON Lines of the rows as stored; a day's is gzip): personal data, so above the export threshold it needs an approval, and every approved download is logged",
      // User ids and IPs of every organisation: an export of personal data like the log exports (server/lib/log-list.ts).
      approval: { rows: async (db, actor, { params }) => (await accessLogArchive(db, storage, await accessLogOperator(db, actor), params.id)).row.rows },
      read: async (db, actor, { params }) => {
        const a = await accessLogArchive(db, storage, await accessLogOperator(db, actor), params.id);
        return { body: await storage.readBlob(a.row.hash), fileName: a.fileName, contentType: a.gzip ? 'application/gzip' : 'application/x-ndjson; charset=utf-8' };
      },
    });
  };
  await app.register(routes, { prefix: relativeApi(key, family) });
};

/**
 * A school's queue of parents' data requests (system/dataRequest): list with deadlines (overdue first), handle (audit
 * button: done with a note, or refused with a reason) and download the child's data (download button).
 */
export const dataRequestRoutes: FastifyPluginAsync<{ family: ServedBy<'system.dataRequest'> }> = async (app, { family }) => {
  const key = `${family}.system.dataRequest`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'dataRequest',
      list: { query: dataRequestListQuery, handler: (db, actor, q) => dataRequestPage(db, actor, q, app.now()) },
      get: (db, actor, id) => dataRequestById(db, actor, id, app.now()),
      response: { row: dataRequestRowSchema, detail: dataRequestRowSchema },
    },
    (scope) => {
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/handle',
        access: [key, 'audit'],
        params: idParams,
        body: dataRequestHandleSchema,
        entity: 'dataRequest',
        audit: 'decide',
        message: OK_MSG.operation,
        answer: dataRequestRowSchema,
        summary: 'Mark a pending request done (with a note) or refused (with a reason); handled already: 409, stale version: 409',
        write: (tx, actor, { params, body }) => handleDataRequest(tx, actor, params.id, body, app.now()),
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/download',
        access: [key, 'download'],
        params: idParams,
        answers: 'file',
        summary: "The request's child's data as JSON (personal data, parents, results, activities, requests); audited",
        read: (db, actor, { params }) => schoolChildDataFile(db, actor, params.id, app.now()),
      });
    },
  );
};
