import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { keywordQuery } from '@/domain/list-query';
import { parentListQuery, parentSaveSchema } from '@/domain/people/parents';
import { registerResource } from '../../lib/resource';
import { appAccountRoutes } from './app-account';
import { maskPage } from '../../lib/sensitive';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { childOptions, deleteParent, parentById, parentPage, updateParent } from './parent.service';

/**
 * Parents of /api/busi/web/k12/user/parent (docs/product-rules.md#students-and-staff): no add route, parents come
 * from the student form and imports.
 */
export const parentRoutes: FastifyPluginAsync = async (app) => {
  const key = 'k12.user.parent';
  await registerResource(
    app,
    'k12',
    {
      key,
      entity: 'parent',
      // Mobiles masked without the page's "view sensitive fields" button (docs/product-rules.md#data-scopes).
      list: { query: parentListQuery, handler: async (db, actor, q) => maskPage(actor, key, await parentPage(db, actor, q), { mobile: 'mobile', appAccount: { accountNum: 'mobile' } }) },
      get: parentById,
      update: { body: parentSaveSchema, handler: updateParent },
      remove: deleteParent,
    },
    (scope) => {
      scope.withTypeProvider<ZodTypeProvider>().get('/student-options', { preValidation: requireAccess(key, 'view'), schema: { querystring: keywordQuery } }, async (request) =>
        ok(await childOptions(app.db, await requireActor(request), request.query.keyword)),
      );
      appAccountRoutes(scope, { key, entity: 'parent', now: () => app.now() });
    },
  );
};
