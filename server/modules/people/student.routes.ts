import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { textFilter } from '@/domain/list-query';
import { studentListQuery, studentSaveSchema, studentTransferSchema } from '@/domain/people/students';
import { registerResource } from '../../lib/resource';
import { appAccountRoutes } from './app-account';
import { maskPage, maskSensitive } from '../../lib/sensitive';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { createStudent, deleteStudent, parentOptions, studentById, studentFormOptions, studentPage, transferStudents, updateStudent } from './student.service';
import type { SchoolFamily } from '@/domain/menus/access';

/** Students of /api/busi/web/{k12|gx}/user/student (docs/product-rules.md#students-and-staff), on the resource kit. */
export const studentRoutes: FastifyPluginAsync<{ family: SchoolFamily }> = async (app, { family }) => {
  app.addHook('onRequest', app.authenticate);
  const key = `${family}.user.student`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'student',
      // Parents' mobiles masked without the page's "view sensitive fields" button (docs/product-rules.md#data-scopes).
      list: { query: studentListQuery, handler: async (db, actor, q) => maskPage(actor, key, await studentPage(db, actor, q), { parents: { mobile: 'mobile' } }) },
      get: studentById,
      create: { body: studentSaveSchema, handler: createStudent },
      update: { body: studentSaveSchema, handler: updateStudent },
      remove: deleteStudent,
    },
    (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      r.get('/options', { preValidation: requireAccess(key, 'view') }, async (request) => ok(await studentFormOptions(app.db, await requireActor(request))));
      r.get('/parent-options', { preValidation: requireAccess(key, 'view'), schema: { querystring: z.object({ keyword: textFilter() }) } }, async (request) => {
        const actor = await requireActor(request);
        return ok(maskSensitive(actor, key, await parentOptions(app.db, actor, request.query.keyword), { hint: 'mobile' }));
      });
      // A transfer is an edit of each student's class; the audit rows are written per student by the service.
      r.post('/transfer', { preValidation: requireAccess(key, 'edit'), schema: { body: studentTransferSchema } }, async (request) => {
        const actor = await requireActor(request);
        return ok(await app.db.transaction((tx) => transferStudents(tx, actor, request.body)), request.t(OK_MSG.saved));
      });
      appAccountRoutes(scope, { key, entity: 'student', now: () => app.now() });
    },
  );
};
