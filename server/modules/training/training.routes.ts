import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { candidateQuery, trainingDataQuery, trainingListQuery, trainingSaveSchema } from '@/domain/activities/training';
import { ok } from '@/domain/api';
import { idParamsSchema as idParams } from '@/domain/list-query';
import { OK_MSG } from '@/domain/errors';
import { audit } from '../../lib/audit';
import { registerResource, uuidOr404 } from '../../lib/resource';
import { requireAccess, requireActor } from '../../plugins/tenant';
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
    },
    (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      r.get('/options', { preValidation: requireAccess(KEY, 'add') }, async (request) => ok(await trainingOptions(app.db, await requireActor(request))));
      r.get('/candidates', { preValidation: requireAccess(KEY, 'add'), schema: { querystring: candidateQuery } }, async (request) =>
        ok(await trainingCandidates(app.db, await requireActor(request), request.query)),
      );
      r.post('/:id/end', { preValidation: requireAccess(KEY, 'end'), schema: { params: idParams } }, async (request) => {
        const actor = await requireActor(request);
        const id = uuidOr404(request.params.id);
        const after = await app.db.transaction(async (tx) => {
          const change = await endTraining(tx, actor, id, app.now());
          await audit(tx, actor, { action: 'end', entity: 'trainingPlan', entityId: id, before: change.before, after: change.after });
          return change.after;
        });
        return ok(after, request.t(OK_MSG.operation));
      });
      r.get('/:id/progress', { preValidation: requireAccess(KEY, 'data'), schema: { params: idParams, querystring: trainingDataQuery } }, async (request) =>
        ok(await trainingProgress(app.db, await requireActor(request), uuidOr404(request.params.id), request.query, app.now())),
      );
      r.get('/:id/sessions', { preValidation: requireAccess(KEY, 'data'), schema: { params: idParams, querystring: trainingDataQuery } }, async (request) =>
        ok(await trainingSessions(app.db, await requireActor(request), uuidOr404(request.params.id), request.query, app.now())),
      );
    },
  );
};
