import type { FastifyPluginAsync } from 'fastify';
import {
  candidateQuery,
  trainingCandidatesSchema,
  trainingDataQuery,
  trainingDetailSchema,
  trainingListQuery,
  trainingOptionsSchema,
  trainingProgressSchema,
  trainingRowSchema,
  trainingSaveSchema,
  trainingSessionSchema,
} from '@/domain/training/training';
import { pageSchema } from '@/domain/api';
import { idParamsSchema as idParams } from '@/domain/list-query';
import { OK_MSG } from '@/domain/errors';
import { resourceAction } from '../../lib/action';
import { registerResource } from '../../lib/resource';
import { registerRefCheck } from '../activities/ref-checks';
import {
  createTraining,
  deleteTraining,
  endTraining,
  trainingById,
  trainingCandidates,
  trainingOptions,
  trainingPage,
  trainingProgress,
  trainingRefCheck,
  trainingSessions,
} from './training.service';

const KEY = 'k12.training.specialTraining';

/** Special-training plans of a school (docs/product-rules.md#special-training): list, add, detail, data, early end, delete. */
export const trainingRoutes: FastifyPluginAsync = async (app) => {
  registerRefCheck('training', trainingRefCheck);
  await registerResource(
    app,
    'k12',
    {
      key: KEY,
      entity: 'trainingPlan',
      list: { query: trainingListQuery, handler: (db, actor, q) => trainingPage(db, actor, q, app.now()) },
      get: (db, actor, id) => trainingById(db, actor, id, app.now()),
      create: { body: trainingSaveSchema, handler: (tx, actor, body) => createTraining(tx, actor, body, app.now()) },
      remove: (tx, actor, id) => deleteTraining(tx, actor, id, app.now()),
      response: { row: trainingRowSchema, detail: trainingDetailSchema, saved: trainingDetailSchema },
    },
    (scope) => {
      resourceAction(scope, { method: 'GET', path: '/options', access: [KEY, 'add'], answer: trainingOptionsSchema, read: trainingOptions });
      resourceAction(scope, {
        method: 'GET',
        path: '/candidates',
        access: [KEY, 'add'],
        query: candidateQuery,
        answer: trainingCandidatesSchema,
        read: (db, actor, { query }) => trainingCandidates(db, actor, query),
      });
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/end',
        access: [KEY, 'end'],
        params: idParams,
        entity: 'trainingPlan',
        audit: 'end',
        message: OK_MSG.operation,
        answer: trainingDetailSchema,
        write: (tx, actor, { params }) => endTraining(tx, actor, params.id, app.now()),
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/progress',
        access: [KEY, 'data'],
        params: idParams,
        query: trainingDataQuery,
        answer: pageSchema(trainingProgressSchema),
        read: (db, actor, { params, query }) => trainingProgress(db, actor, params.id, query, app.now()),
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/sessions',
        access: [KEY, 'data'],
        params: idParams,
        query: trainingDataQuery,
        answer: pageSchema(trainingSessionSchema),
        read: (db, actor, { params, query }) => trainingSessions(db, actor, params.id, query, app.now()),
      });
    },
  );
};
