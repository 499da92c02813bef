import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { idParamsSchema } from '@/domain/list-query';
import type { Family } from '@/domain/menus/access';
import { onlineSessionQuery, operationLogQuery, signInLogQuery } from '@/domain/platform/logs';
import { relativeApi, uuidOr404 } from '../../lib/resource';
import { sendXlsx } from '../../lib/spreadsheet/http';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { operationLogWorkbook, signInLogWorkbook } from './logs.export';
import { onlineSessionPage, operationLogDetail, operationLogPage, operationLogRows, signInLogPage, signInLogRows, signOutSession } from './logs.service';

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
    r.get('/page', { preValidation: requireAccess(signInKey), schema: { querystring: signInLogQuery } }, async (request) =>
      ok(await signInLogPage(db, await requireActor(request), request.query)),
    );
    r.get('/export', { preValidation: requireAccess(signInKey, 'export'), schema: { querystring: signInLogQuery } }, async (request, reply) => {
      const rows = await signInLogRows(db, await requireActor(request), request.query);
      return sendXlsx(reply, signInLogWorkbook(rows, request.t), `${request.t('platform:signInLog.exportName')}.xlsx`);
    });
  };

  const operation: FastifyPluginAsyncZod = async (r) => {
    r.get('/page', { preValidation: requireAccess(operationKey), schema: { querystring: operationLogQuery } }, async (request) =>
      ok(await operationLogPage(db, await requireActor(request), request.query)),
    );
    r.get('/export', { preValidation: requireAccess(operationKey, 'export'), schema: { querystring: operationLogQuery } }, async (request, reply) => {
      const rows = await operationLogRows(db, await requireActor(request), request.query);
      return sendXlsx(reply, operationLogWorkbook(rows, request.t), `${request.t('platform:operationLog.exportName')}.xlsx`);
    });
    r.get('/:id', { preValidation: requireAccess(operationKey, 'detail'), schema: { params: idParamsSchema } }, async (request) =>
      ok(await operationLogDetail(db, await requireActor(request), uuidOr404(request.params.id))),
    );
  };

  const online: FastifyPluginAsyncZod = async (r) => {
    r.get('/page', { preValidation: requireAccess(sessionKey), schema: { querystring: onlineSessionQuery } }, async (request) =>
      ok(await onlineSessionPage(db, await requireActor(request), app.now(), request.session!.sessionId, request.query)),
    );
    r.post('/:id/signOut', { preValidation: requireAccess(sessionKey, 'signOut'), schema: { params: idParamsSchema } }, async (request) => {
      const actor = await requireActor(request);
      const id = uuidOr404(request.params.id);
      await db.transaction((tx) => signOutSession(tx, actor, app.now(), id));
      return ok(null, request.t(OK_MSG.operation));
    });
  };

  await app.register(signIn, { prefix: relativeApi(signInKey, family) });
  await app.register(operation, { prefix: relativeApi(operationKey, family) });
  await app.register(online, { prefix: relativeApi(sessionKey, family) });
};
