import type { FastifyPluginAsync } from 'fastify';
import { keywordQuery } from '@/domain/list-query';
import { parentListQuery, parentRecordSchema, parentSaveSchema } from '@/domain/people/parents';
import { personOptionsSchema } from '@/domain/people/students';
import { resourceAction } from '../../lib/action';
import { registerResource } from '../../lib/resource';
import { appAccountRoutes } from './app-account';
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
      // Mobiles masked without the page's "view sensitive fields" button, unmasked views logged (docs/product-rules.md#data-scopes).
      sensitive: { mobile: 'mobile', appAccount: { accountNum: 'mobile' } },
      list: { query: parentListQuery, handler: parentPage },
      get: parentById,
      update: { body: parentSaveSchema, handler: updateParent },
      remove: deleteParent,
      response: { row: parentRecordSchema, detail: parentRecordSchema, saved: parentRecordSchema },
    },
    (scope) => {
      resourceAction(scope, {
        method: 'GET',
        path: '/student-options',
        access: [key, 'view'],
        query: keywordQuery,
        read: (db, actor, { query }) => childOptions(db, actor, query.keyword),
        answer: personOptionsSchema,
      });
      appAccountRoutes(scope, { key, entity: 'parent', now: () => app.now() });
    },
  );
};
