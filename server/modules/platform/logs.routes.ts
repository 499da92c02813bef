import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { idParamsSchema } from '@/domain/list-query';
import type { Family } from '@/domain/menus/access';
import {
  onlineSessionQuery,
  onlineSessionRowSchema,
  auditChainReportSchema,
  operationLogDetailSchema,
  operationLogPageSchema,
  operationLogQuery,
  signInLogPageSchema,
  signInLogQuery,
} from '@/domain/platform/logs';
import { accessLogPageSchema, accessLogQuery } from '@/domain/platform/access-log';
import { resourceAction } from '../../lib/action';
import { asIs, kitDoc, pageAnswerSchema } from '../../lib/openapi';
import { relativeApi } from '../../lib/resource';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { registerLogList } from '../../lib/log-list';
import { accessLogPage, accessLogRows } from './access-log.service';
import { accessLogSheet, operationLogSheet, signInLogSheet } from './logs.export';
import { onlineSessionPage, operationLogDetail, operationLogPage, operationLogRows, signInLogPage, signInLogRows, signOutSession, verifyOperationLog } from './logs.service';

/**
 * The sign-in log, the operation log, the access log and the online sessions of a family (docs/product-rules.md#platform-logs), under
 * their catalogue pages' API paths (`/api/busi/web/{family}/system/...`).
 */
export const logsRoutes: FastifyPluginAsyncZod<{ family: Family }> = async (app, { family }) => {
  const signInKey = `${family}.system.signInLog`;
  const operationKey = `${family}.system.operationLog`;
  const sessionKey = `${family}.system.onlineSession`;
  const accessKey = `${family}.system.accessLog`;
  const db = app.db;

  await registerLogList(app, family, {
    key: signInKey,
    query: signInLogQuery,
    answer: signInLogPageSchema,
    page: signInLogPage,
    rows: signInLogRows,
    sheet: signInLogSheet,
    fileName: 'platform:signInLog.exportName',
  });

  await registerLogList(
    app,
    family,
    { key: operationKey, query: operationLogQuery, answer: operationLogPageSchema, page: operationLogPage, rows: operationLogRows, sheet: operationLogSheet, fileName: 'platform:operationLog.exportName' },
    (r) => {
      // Seals first (writes the chain columns of new rows), so it reads and writes the primary.
      resourceAction(r, {
        method: 'GET',
        path: '/verify',
        access: [operationKey, 'verify'],
        reads: 'primary',
        read: (primary, actor, _input, { now }) => verifyOperationLog(primary, actor, now),
        answer: auditChainReportSchema,
      });
      resourceAction(r, { method: 'GET', path: '/:id', access: [operationKey, 'detail'], params: idParamsSchema, read: (rdb, actor, { params }) => operationLogDetail(rdb, actor, params.id), answer: operationLogDetailSchema });
    },
  );

  await registerLogList(app, family, {
    key: accessKey,
    query: accessLogQuery,
    answer: accessLogPageSchema,
    page: accessLogPage,
    rows: accessLogRows,
    sheet: accessLogSheet,
    fileName: 'platform:accessLog.exportName',
  });

  const online: FastifyPluginAsyncZod = async (r) => {
    // Hand route: the page marks the request's own session, which a declared read (db, actor, input) does not see
    // (no kit option for it yet).
    r.get('/page', { preValidation: requireAccess(sessionKey), serializerCompiler: asIs, schema: { ...kitDoc(sessionKey, 'view', '列表'), querystring: onlineSessionQuery, response: pageAnswerSchema(onlineSessionRowSchema) } }, async (request) =>
      ok(await onlineSessionPage(db, await requireActor(request), app.now(), request.session!.sessionId, request.query)),
    );
    resourceAction(r, {
      method: 'POST',
      path: '/:id/signOut',
      access: [sessionKey, 'signOut'],
      params: idParamsSchema,
      entity: 'session',
      audit: 'signOut',
      answers: 'nothing',
      message: OK_MSG.operation,
      write: async (tx, actor, { params }) => ({ before: await signOutSession(tx, actor, app.now(), params.id), after: undefined }),
    });
  };

  await app.register(online, { prefix: relativeApi(sessionKey, family) });
};
