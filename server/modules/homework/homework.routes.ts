import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import {
  homeworkClassCompletionSchema,
  homeworkDetailSchema,
  homeworkListQuery,
  homeworkOptionsSchema,
  homeworkRowSchema,
  homeworkSaveSchema,
  homeworkStudentCompletionSchema,
  homeworkStudentQuery,
  homeworkSubmissionQuery,
  homeworkSubmissionSchema,
  videoReviewedSchema,
  videoReviewSchema,
} from '@/domain/homework/homework';
import { pageSchema } from '@/domain/api';
import { idParamsSchema as idParams } from '@/domain/list-query';
import { OK_MSG } from '@/domain/errors';
import { resourceAction } from '../../lib/action';
import { registerResource } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { registerRefCheck } from '../activities/ref-checks';
import { exportHomework, homeworkExportRows } from './homework-export';
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


/** The detail's reads (completion per class and per student, submissions) and their export under `{page}/:id/…`. */
function detailReads(app: FastifyInstance, key: string, reader: (actor: Actor) => HomeworkReader) {
  const access = [key, 'detail'] as const;
  resourceAction(app, {
    method: 'GET',
    path: '/:id/classes',
    access,
    params: idParams,
    answer: homeworkClassCompletionSchema,
    read: (db, actor, { params }) => classCompletion(db, reader(actor), params.id, app.now()),
  });
  resourceAction(app, {
    method: 'GET',
    path: '/:id/students',
    access,
    params: idParams,
    query: homeworkStudentQuery,
    answer: pageSchema(homeworkStudentCompletionSchema),
    read: (db, actor, { params, query }) => studentCompletion(db, reader(actor), params.id, query, app.now()),
  });
  resourceAction(app, {
    method: 'GET',
    path: '/:id/submissions',
    access,
    params: idParams,
    query: homeworkSubmissionQuery,
    answer: pageSchema(homeworkSubmissionSchema),
    read: (db, actor, { params, query }) => submissionPage(db, reader(actor), params.id, query, app.now()),
  });
  resourceAction(app, {
    method: 'GET',
    path: '/:id/export',
    access: [key, 'export'],
    params: idParams,
    answers: 'file',
    // Students' submissions and results (docs/product-rules.md#personal-data-access).
    approval: { rows: (db, actor, { params }) => homeworkExportRows(db, reader(actor), params.id, app.now()) },
    read: (db, actor, { params }, { t, now }) => exportHomework(db, reader(actor), params.id, (k, options) => t(k, options ?? {}), now),
  });
}

/**
 * Sports homework (docs/product-rules.md#homework): the school's screens (k12: list, publish, edit, detail, early end,
 * delete, video review) and a management organisation's read-only list and detail over its schools (admin).
 */
export const homeworkRoutes: FastifyPluginAsync<{ family: ServedBy<'homework.homeworkManagement'>; expireEveryMs?: number }> = async (app, { family, expireEveryMs = 0 }) => {
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
        response: { row: homeworkRowSchema, detail: homeworkDetailSchema },
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
      response: { row: homeworkRowSchema, detail: homeworkDetailSchema, saved: homeworkDetailSchema },
    },
    (scope) => {
      resourceAction(scope, { method: 'GET', path: '/options', access: [key, 'view'], answer: homeworkOptionsSchema, read: homeworkOptions });
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/end',
        access: [key, 'end'],
        params: idParams,
        entity: 'homework',
        audit: 'end',
        message: OK_MSG.operation,
        answer: homeworkDetailSchema,
        write: (tx, actor, { params }) => endHomework(tx, actor, params.id, app.now()),
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/submissions/:id/review',
        access: [key, 'edit'],
        params: idParams,
        body: videoReviewSchema,
        entity: 'homeworkSubmission',
        audit: 'review',
        answer: videoReviewedSchema,
        write: (tx, actor, { params, body }) => reviewSubmission(tx, actor, params.id, body, app.now()),
      });
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
