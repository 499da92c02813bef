import type { FastifyPluginAsync } from 'fastify';
import { activityOptionsSchema, exerciseRecordFilter, exerciseRecordListQuery, exerciseRecordRowSchema, exerciseValidityBody, validityChangedSchema } from '@/domain/activities/exercise-records';
import type { Family } from '@/domain/menus/access';
import type { DbOrTx } from '../../db/client';
import { classScopeOf } from '../../lib/data-scope';
import { resourceAction, type ActionContext } from '../../lib/action';
import { audit } from '../../lib/audit';
import { registerResource } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { activityOptions, exerciseRecordExportRows, exerciseRecordPage, exportExerciseRecords, setExerciseRecordsInvalid, type ActivityReader } from './exercise-records.service';

const translator = (t: ActionContext['t']) => (key: string, options?: Record<string, unknown>) => t(key, options ?? {});

/**
 * Exercise records of /api/busi/web/{admin|k12|gx} (sportData/exerciseRecord, docs/product-rules.md#exercise-records):
 * the list with its filters, export, and invalid / valid again (each change audited).
 */
export const exerciseRecordRoutes: FastifyPluginAsync<{ family: Family }> = async (app, { family }) => {
  const key = `${family}.sportData.exerciseRecord`;
  // The scope is read on the request's own handle: inside a write's transaction another connection would wait on it.
  const reader = async (db: DbOrTx, actor: Actor): Promise<ActivityReader> => ({ family, tenantOrgId: actor.tenantOrgId, userId: actor.userId, classScope: await classScopeOf(db, actor) });

  await registerResource(
    app,
    family,
    {
      key,
      entity: 'exerciseRecord',
      list: { query: exerciseRecordListQuery, handler: async (db, actor, q) => exerciseRecordPage(db, await reader(db, actor), q) },
      response: { row: exerciseRecordRowSchema },
    },
    (scope) => {
      resourceAction(scope, { method: 'GET', path: '/options', access: [key, 'view'], answer: activityOptionsSchema, read: async (db, actor) => activityOptions(db, await reader(db, actor)) });
      resourceAction(scope, {
        method: 'GET',
        path: '/export',
        access: [key, 'export'],
        query: exerciseRecordFilter,
        answers: 'file',
        // Students' records: above the organisation's threshold it needs an approval (docs/product-rules.md#personal-data-access).
        approval: { rows: async (db, actor, { query }) => exerciseRecordExportRows(db, await reader(db, actor), query) },
        read: async (db, actor, { query }, { t, now }) => exportExerciseRecords(db, await reader(db, actor), query, translator(t), now),
      });
      // A batch over many records: audited as one row naming no single record (so the write logs its own row, not the
      // kit's row of an id), and only when something changed.
      for (const [path, action, invalid] of [
        ['/invalid', 'invalid', true],
        ['/valid', 'valid', false],
      ] as const) {
        resourceAction(scope, {
          method: 'POST',
          path,
          access: [key, action],
          body: exerciseValidityBody,
          entity: 'exerciseRecord',
          audit: action,
          message: null,
          answer: validityChangedSchema,
          write: async (tx, actor, { body }) => {
            const ids = await setExerciseRecordsInvalid(tx, await reader(tx, actor), body, invalid, app.now());
            const after = { ids, reason: body.reason ?? null };
            if (ids.length) await audit(tx, actor, { action, entity: 'exerciseRecord', after });
            return { after, answer: { changed: ids.length }, audited: false };
          },
        });
      }
    },
  );
};
