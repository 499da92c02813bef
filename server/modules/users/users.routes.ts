import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { userCreateSchema, userListQuery, userUpdateSchema } from '@/domain/users/users';
import { accountRoutes } from '../../lib/accounts';
import { registerResource } from '../../lib/resource';
import { maskPage } from '../../lib/sensitive';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { createUser, deleteUser, resetPassword, setUserStatus, updateUser, userById, userPage, userRoleOptions } from './users.service';

const KEY = 'admin.user.user';

/** The management organisation's own accounts, /api/busi/web/admin/user (docs/product-rules.md#users). */
export const userRoutes: FastifyPluginAsync = async (app) => {
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
      scope.withTypeProvider<ZodTypeProvider>().get('/options', { preValidation: requireAccess(KEY, 'view') }, async (request) =>
        ok({ roles: await userRoleOptions(app.db, await requireActor(request)) }),
      );
      accountRoutes(scope, {
        key: KEY,
        entity: 'user',
        setStatus: (tx, actor, id, enabled) => setUserStatus(tx, actor, id, enabled, app.now()),
        resetPassword: (tx, actor, id, body) => resetPassword(tx, actor, id, body, app.now()),
      });
    },
  );
};
