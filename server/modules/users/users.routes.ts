import type { FastifyPluginAsync } from 'fastify';
import { userCreateSchema, userFormOptionsSchema, userListQuery, userRowSchema, userUpdateSchema } from '@/domain/users/users';
import { accountRoutes } from '../../lib/accounts';
import { resourceAction } from '../../lib/action';
import { registerResource } from '../../lib/resource';
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
      // Mobiles masked without the page's "view sensitive fields" button, unmasked views logged (docs/product-rules.md#data-scopes).
      sensitive: { mobile: 'mobile' },
      list: { query: userListQuery, handler: userPage },
      get: userById,
      create: { body: userCreateSchema, handler: createUser },
      update: { body: userUpdateSchema, handler: (tx, actor, id, body) => updateUser(tx, actor, id, body, app.now()) },
      remove: (tx, actor, id) => deleteUser(tx, actor, id, app.now()),
      response: { row: userRowSchema, detail: userRowSchema, saved: userRowSchema },
    },
    (scope) => {
      resourceAction(scope, { method: 'GET', path: '/options', access: [KEY, 'view'], read: async (db, actor) => ({ roles: await userRoleOptions(db, actor) }), answer: userFormOptionsSchema });
      accountRoutes(scope, {
        key: KEY,
        entity: 'user',
        setStatus: (tx, actor, id, enabled) => setUserStatus(tx, actor, id, enabled, app.now()),
        resetPassword: (tx, actor, id, body) => resetPassword(tx, actor, id, body, app.now()),
        row: userRowSchema,
      });
    },
  );
};
