import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { exerciseRecordFilter, exerciseRecordListQuery, exerciseValidityBody } from '@/domain/activities/exercise-records';
import type { Family } from '@/domain/menus/access';
import { classScopeOf } from '../../lib/data-scope';
import { resourceAction } from '../../lib/action';
import { audit } from '../../lib/audit';
import { registerResource } from '../../lib/resource';
import { sendXlsx } from '../../lib/spreadsheet/http';
import { requireAccess, requireActor, type Actor } from '../../plugins/tenant';
import { activityOptions, exerciseRecordPage, exportExerciseRecords, setExerciseRecordsInvalid, type ActivityReader } from './exercise-records.service';

const translator = (request: FastifyRequest) => (key: string, options?: Record<string, unknown>) => request.t(key, options ?? {});

/**
 * Exercise records of /api/busi/web/{admin|k12|gx} (sportData/exerciseRecord, docs/product-rules.md#exercise-records):
 * the list with its filters, export, and invalid / valid again (each change audited).
 */
export const exerciseRecordRoutes: FastifyPluginAsync<{ family: Family }> = async (app, { family }) => {
  const key = `${family}.sportData.exerciseRecord`;
  const reader = async (actor: Actor): Promise<ActivityReader> => ({ family, tenantOrgId: actor.tenantOrgId, userId: actor.userId, classScope: await classScopeOf(app.db, actor) });

  await registerResource(
    app,
    family,
    { key, entity: 'exerciseRecord', list: { query: exerciseRecordListQuery, handler: async (db, actor, q) => exerciseRecordPage(db, await reader(actor), q) } },
    (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      resourceAction(scope, { method: 'GET', path: '/options', access: [key, 'view'], read: async (db, actor) => activityOptions(db, await reader(actor)) });
      // Hand route: it answers a workbook stream, not the envelope.
      r.get('/export', { preValidation: requireAccess(key, 'export'), schema: { querystring: exerciseRecordFilter } }, async (request, reply) => {
        const { workbook, fileName } = await app.readWith(request, async (db) => exportExerciseRecords(db, await reader(await requireActor(request)), request.query, translator(request), app.now()));
        return sendXlsx(reply, workbook, fileName);
      });
      // Hand routes: a batch over many records, audited as one row naming no single record (the action kit audits a row's
      // id) and only when something changed.
      for (const [path, action, invalid] of [
        ['/invalid', 'invalid', true],
        ['/valid', 'valid', false],
      ] as const) {
        r.post(path, { preValidation: requireAccess(key, action), schema: { body: exerciseValidityBody } }, async (request) => {
          const actor = await requireActor(request);
          const who = await reader(actor);
          const changed = await app.db.transaction(async (tx) => {
            const ids = await setExerciseRecordsInvalid(tx, who, request.body, invalid, app.now());
            if (ids.length) await audit(tx, actor, { action, entity: 'exerciseRecord', after: { ids, reason: request.body.reason ?? null } });
            return ids;
          });
          return ok({ changed: changed.length });
        });
      }
    },
  );
};
