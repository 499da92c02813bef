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
import { resourceAction } from '../../lib/action';
import { asIs, kitDoc, pageAnswerSchema } from '../../lib/openapi';
import { relativeApi } from '../../lib/resource';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { operationLogSheet, signInLogSheet } from './logs.export';
import { onlineSessionPage, operationLogDetail, operationLogPage, operationLogRows, signInLogPage, signInLogRows, signOutSession, verifyOperationLog } from './logs.service';

/**
 * The sign-in log, the operation log and the online sessions of a family (docs/product-rules.md#platform-logs), under
 * their catalogue pages' API paths (`/api/busi/web/{family}/system/...`).
 */
export const logsRoutes: FastifyPluginAsyncZod<{ family: Family }> = async (app, { family }) => {
  const signInKey = `${family}.system.signInLog`;
  const operationKey = `${family}.system.operationLog`;
  const sessionKey = `${family}.system.onlineSession`;
  const db = app.db;

  const signIn: FastifyPluginAsyncZod = async (r) => {
    resourceAction(r, { method: 'GET', path: '/page', access: [signInKey, 'view'], query: signInLogQuery, read: (rdb, actor, { query }) => signInLogPage(rdb, actor, query), answer: signInLogPageSchema });
    resourceAction(r, {
      method: 'GET',
      path: '/export',
      access: [signInKey, 'export'],
      query: signInLogQuery,
      answers: 'file',
      // Each row names an account, its holder and address (docs/product-rules.md#personal-data-access).
      approval: { rows: async (rdb, actor, { query }) => (await signInLogRows(rdb, actor, query)).length },
      read: async (rdb, actor, { query }, { t }) => ({ sheet: signInLogSheet(await signInLogRows(rdb, actor, query), t), fileName: `${t('platform:signInLog.exportName')}.xlsx` }),
    });
  };

  const operation: FastifyPluginAsyncZod = async (r) => {
    resourceAction(r, { method: 'GET', path: '/page', access: [operationKey, 'view'], query: operationLogQuery, read: (rdb, actor, { query }) => operationLogPage(rdb, actor, query), answer: operationLogPageSchema });
    resourceAction(r, {
      method: 'GET',
      path: '/export',
      access: [operationKey, 'export'],
      query: operationLogQuery,
      answers: 'file',
      // Each row names who did what to whose record (docs/product-rules.md#personal-data-access).
      approval: { rows: async (rdb, actor, { query }) => (await operationLogRows(rdb, actor, query)).length },
      read: async (rdb, actor, { query }, { t }) => ({ sheet: operationLogSheet(await operationLogRows(rdb, actor, query), t), fileName: `${t('platform:operationLog.exportName')}.xlsx` }),
    });
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
  };

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

  await app.register(signIn, { prefix: relativeApi(signInKey, family) });
  await app.register(operation, { prefix: relativeApi(operationKey, family) });
  await app.register(online, { prefix: relativeApi(sessionKey, family) });
};
