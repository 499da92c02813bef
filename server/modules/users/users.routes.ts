import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { idParamsSchema } from '@/domain/list-query';
import { resetPasswordSchema, userCreateSchema, userListQuery, userStatusSchema, userUpdateSchema } from '@/domain/users/users';
import { audit } from '../../lib/audit';
import { isUuid } from '../../lib/ids';
import { notFound, registerResource } from '../../lib/resource';
import { maskPage } from '../../lib/sensitive';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { createUser, deleteUser, resetPassword, setUserStatus, updateUser, userById, userPage, userRoleOptions } from './users.service';

const KEY = 'admin.user.user';
const idOr404 = (id: string) => {
  if (!isUuid(id)) throw notFound();
  return id;
};

/** The management organisation's own accounts, /api/busi/web/admin/user (docs/product-rules.md#users). */
export const userRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', app.authenticate);
  await registerResource(
    app,
    'admin',
    {
      key: KEY,
      entity: 'user',
      // Mobiles masked without the page's "view sensitive fields" button (docs/product-rules.md#data-scopes).
      list: { query: userListQuery, handler: async (db, actor, q) => maskPage(actor, KEY, await userPage(db, actor, q), { mobile: 'mobile' }) },
      get: userById,
      create: { body: userCreateSchema, handler: createUser },
      update: { body: userUpdateSchema, handler: (tx, actor, id, body) => updateUser(tx, actor, id, body, app.now()) },
      remove: (tx, actor, id) => deleteUser(tx, actor, id, app.now()),
    },
    (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      r.get('/options', { preValidation: requireAccess(KEY, 'view') }, async (request) => ok({ roles: await userRoleOptions(app.db, await requireActor(request)) }));
      r.put('/:id/status', { preValidation: requireAccess(KEY, 'status'), schema: { params: idParamsSchema, body: userStatusSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOr404(request.params.id);
        const saved = await app.db.transaction(async (tx) => {
          const change = await setUserStatus(tx, actor, id, request.body.enabled, app.now());
          await audit(tx, actor, { action: 'status', entity: 'user', entityId: id, before: change.before, after: change.after });
          return change.after;
        });
        return ok(saved, request.t(OK_MSG.saved));
      });
      r.put('/:id/password', { preValidation: requireAccess(KEY, 'resetPassword'), schema: { params: idParamsSchema, body: resetPasswordSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOr404(request.params.id);
        const result = await app.db.transaction(async (tx) => {
          const answer = await resetPassword(tx, actor, id, request.body, app.now());
          // The mode only: never the password, generated or typed.
          await audit(tx, actor, { action: 'resetPassword', entity: 'user', entityId: id, after: { mode: request.body.mode, mustChangePassword: true } });
          return answer;
        });
        return ok(result, request.t(OK_MSG.saved));
      });
    },
  );
};
