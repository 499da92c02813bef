import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { homeworkListQuery, homeworkSaveSchema, homeworkStudentQuery, homeworkSubmissionQuery, videoReviewSchema } from '@/domain/activities/homework';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { audit } from '../../lib/audit';
import { registerResource, uuidOr404 } from '../../lib/resource';
import { requireAccess, requireActor, type Actor } from '../../plugins/tenant';
import { sendXlsx } from '../../lib/spreadsheet/http';
import { registerRefCheck } from '../activities/ref-checks';
import { exportHomework } from './homework-export';
import {
  classCompletion,
  createHomework,
  deleteHomework,
  endHomework,
  expireHomeworkVideos,
  homeworkById,
  homeworkOptions,
  homeworkPage,
  homeworkRefCheck,
  reviewSubmission,
  studentCompletion,
  submissionPage,
  updateHomework,
  type HomeworkReader,
} from './homework.service';
import type { ServedBy } from '@/domain/menus/access';

const idParams = z.object({ id: z.string().max(64) });

/** The detail's reads (completion per class and per student, submissions) and their export under `{page}/:id/…`. */
function detailReads(app: FastifyInstance, key: string, reader: (actor: Actor) => HomeworkReader) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = requireAccess(key, 'detail');
  r.get('/:id/classes', { preValidation: read, schema: { params: idParams } }, async (request) =>
    ok(await classCompletion(app.db, reader(await requireActor(request)), uuidOr404(request.params.id), app.now())),
  );
  r.get('/:id/students', { preValidation: read, schema: { params: idParams, querystring: homeworkStudentQuery } }, async (request) =>
    ok(await studentCompletion(app.db, reader(await requireActor(request)), uuidOr404(request.params.id), request.query, app.now())),
  );
  r.get('/:id/submissions', { preValidation: read, schema: { params: idParams, querystring: homeworkSubmissionQuery } }, async (request) =>
    ok(await submissionPage(app.db, reader(await requireActor(request)), uuidOr404(request.params.id), request.query, app.now())),
  );
  r.get('/:id/export', { preValidation: requireAccess(key, 'export'), schema: { params: idParams } }, async (request, reply) => {
    const t = (k: string, options?: Record<string, unknown>) => request.t(k, options ?? {});
    const { workbook, fileName } = await exportHomework(app.db, reader(await requireActor(request)), uuidOr404(request.params.id), t, app.now());
    return sendXlsx(reply, workbook, fileName);
  });
}

/**
 * Sports homework (docs/product-rules.md#homework): the school's screens (k12: list, publish, edit, detail, early end,
 * delete, video review) and a management organisation's read-only list and detail over its schools (admin).
 */
export const homeworkRoutes: FastifyPluginAsync<{ family: ServedBy<'homework.homeworkManagement'>; expireEveryMs?: number }> = async (app, { family, expireEveryMs = 0 }) => {
  app.addHook('onRequest', app.authenticate);
  const key = `${family}.homework.homeworkManagement`;

  if (family === 'admin') {
    const reader = (actor: Actor): HomeworkReader => ({ actor, subtree: true });
    await registerResource(
      app,
      family,
      {
        key,
        entity: 'homework',
        list: { query: homeworkListQuery, handler: (db, actor, q) => homeworkPage(db, reader(actor), q, app.now()) },
        get: (db, actor, id) => homeworkById(db, reader(actor), id, app.now()),
      },
      (scope) => detailReads(scope, key, reader),
    );
    return;
  }

  registerRefCheck('homework', homeworkRefCheck);
  const reader = (actor: Actor): HomeworkReader => ({ actor, subtree: false });
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'homework',
      list: { query: homeworkListQuery, handler: (db, actor, q) => homeworkPage(db, reader(actor), q, app.now()) },
      get: (db, actor, id) => homeworkById(db, reader(actor), id, app.now()),
      create: { body: homeworkSaveSchema, handler: (tx, actor, body) => createHomework(tx, actor, body, app.now()) },
      update: { body: homeworkSaveSchema, handler: (tx, actor, id, body) => updateHomework(tx, actor, id, body, app.now()) },
      remove: (tx, actor, id) => deleteHomework(tx, actor, id, app.now()),
    },
    (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      r.get('/options', { preValidation: requireAccess(key, 'view') }, async (request) => ok(await homeworkOptions(app.db, await requireActor(request))));
      r.post('/:id/end', { preValidation: requireAccess(key, 'end'), schema: { params: idParams } }, async (request) => {
        const actor = await requireActor(request);
        const id = uuidOr404(request.params.id);
        const after = await app.db.transaction(async (tx) => {
          const change = await endHomework(tx, actor, id, app.now());
          await audit(tx, actor, { action: 'end', entity: 'homework', entityId: id, before: change.before, after: change.after });
          return change.after;
        });
        return ok(after, request.t(OK_MSG.operation));
      });
      r.put(
        '/submissions/:id/review',
        { preValidation: requireAccess(key, 'edit'), schema: { params: idParams, body: videoReviewSchema } },
        async (request) => {
          const actor = await requireActor(request);
          const id = uuidOr404(request.params.id);
          const after = await app.db.transaction(async (tx) => {
            const change = await reviewSubmission(tx, actor, id, request.body, app.now());
            await audit(tx, actor, { action: 'review', entity: 'homeworkSubmission', entityId: id, before: change.before, after: change.after });
            return change.after;
          });
          return ok(after, request.t(OK_MSG.saved));
        },
      );
      detailReads(scope, key, reader);
    },
  );

  if (expireEveryMs > 0) {
    const timer = setInterval(() => {
      expireHomeworkVideos(app.db, app.now()).catch((err: unknown) => app.log.error({ err }, 'homework video expiry failed'));
    }, expireEveryMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
};
