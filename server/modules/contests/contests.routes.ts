import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import {
  contestEntryFilter,
  contestEntryInvalidBody,
  contestEntryListQuery,
  contestEntryValidBody,
  contestListQuery,
  contestPageKey,
  contestSaveSchema,
  leaderboardQuery,
} from '@/domain/activities/contests';
import { ERR, OK_MSG } from '@/domain/errors';
import { idParamsSchema } from '@/domain/list-query';
import { pageAccess, type Family } from '@/domain/menus/access';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { classScopeOf } from '../../lib/data-scope';
import { registerResource, uuidOr404 } from '../../lib/resource';
import { sendXlsx } from '../../lib/spreadsheet/http';
import { requireAccess, requireActor, type Actor } from '../../plugins/tenant';
import { registerRefCheck } from '../activities/ref-checks';
import { activityOptions } from '../activities/exercise-records.service';
import { contestRefCheck } from './contest-ref-check';
import { exportLeaderboard } from './contest-export';
import { contestEntryPage, exportContestEntries, setContestEntriesInvalid } from './contest-entries.service';
import {
  classLeaderboard,
  contestById,
  contestPage,
  createContest,
  deleteContest,
  endContest,
  participation,
  studentLeaderboard,
  updateContest,
  type ContestCaller,
  type ContestReader,
} from './contests.service';

const translator = (request: FastifyRequest) => (key: string, options?: Record<string, unknown>) => request.t(key, options ?? {});

/**
 * Online contests of /api/busi/web/{admin|k12|gx} (docs/product-rules.md#contests): the resource (list, get, add, edit,
 * delete with its entries), early end, the live leaderboards by student and by class, participation per day and the
 * export. Registers the 'contest' ref check through which the ingestion path accepts or refuses entries.
 */
export const contestRoutes: FastifyPluginAsync<{ family: Family }> = async (app, { family }) => {
  registerRefCheck('contest', contestRefCheck);
  app.addHook('onRequest', app.authenticate);
  const key = contestPageKey(family);
  const caller = (actor: Actor): ContestCaller => ({ actor, family, now: app.now() });
  const reader = async (actor: Actor): Promise<ContestReader> => ({ ...caller(actor), classScope: await classScopeOf(app.db, actor) });
  const gx = family === 'gx';

  await registerResource(
    app,
    family,
    {
      key,
      entity: 'contest',
      list: { query: contestListQuery, handler: (db, actor, q) => contestPage(db, caller(actor), q) },
      get: (db, actor, id) => contestById(db, caller(actor), id),
      // A university adds ranking contests and challenges with a button each (below).
      create: gx ? undefined : { body: contestSaveSchema, handler: (tx, actor, body) => createContest(tx, caller(actor), body) },
      update: { body: contestSaveSchema, handler: (tx, actor, id, body) => updateContest(tx, caller(actor), id, body) },
      remove: (tx, actor, id) => deleteContest(tx, caller(actor), id),
    },
    (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      const data = requireAccess(key, 'data');
      r.get('/options', { preValidation: requireAccess(key, 'view') }, async (request) => {
        const actor = await requireActor(request);
        return ok(await activityOptions(app.db, { family, tenantOrgId: actor.tenantOrgId, userId: actor.userId, classScope: { all: true } }));
      });
      if (gx) {
        r.post('/', { preValidation: requireAccess(key, 'addRank', [key, 'addChallenge']), schema: { body: contestSaveSchema } }, async (request) => {
          const actor = await requireActor(request);
          const code = pageAccess(key).need(request.body.type === 'challenge' ? 'addChallenge' : 'addRank');
          if (!actor.permissions.has(code)) throw new AppError(403, ERR.forbidden);
          const saved = await app.db.transaction(async (tx) => {
            const row = await createContest(tx, caller(actor), request.body);
            await audit(tx, actor, { action: 'create', entity: 'contest', entityId: row.id, after: row });
            return row;
          });
          return ok(saved, request.t(OK_MSG.saved));
        });
      }
      r.put('/:id/end', { preValidation: requireAccess(key, 'end'), schema: { params: idParamsSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = uuidOr404(request.params.id);
        const after = await app.db.transaction(async (tx) => {
          const change = await endContest(tx, caller(actor), id);
          await audit(tx, actor, { action: 'end', entity: 'contest', entityId: id, before: change.before, after: change.after });
          return change.after;
        });
        return ok(after, request.t('activities:contests.endedNow'));
      });
      r.get('/:id/leaderboard', { preValidation: data, schema: { params: idParamsSchema, querystring: leaderboardQuery } }, async (request) => {
        const who = await reader(await requireActor(request));
        const id = uuidOr404(request.params.id);
        return ok(request.query.by === 'class' ? await classLeaderboard(app.db, who, id, request.query) : await studentLeaderboard(app.db, who, id, request.query));
      });
      r.get('/:id/participation', { preValidation: data, schema: { params: idParamsSchema } }, async (request) =>
        ok(await participation(app.db, await reader(await requireActor(request)), uuidOr404(request.params.id))),
      );
      r.get('/:id/export', { preValidation: data, schema: { params: idParamsSchema, querystring: leaderboardQuery } }, async (request, reply) => {
        const who = await reader(await requireActor(request));
        const { workbook, fileName } = await exportLeaderboard(app.db, who, uuidOr404(request.params.id), request.query, translator(request));
        return sendXlsx(reply, workbook, fileName);
      });
      // The entries behind the board: listed, exported, set invalid (with a reason) or valid again, each change audited.
      r.get('/:id/entries/page', { preValidation: data, schema: { params: idParamsSchema, querystring: contestEntryListQuery } }, async (request) =>
        ok(await contestEntryPage(app.db, await reader(await requireActor(request)), uuidOr404(request.params.id), request.query)),
      );
      r.get('/:id/entries/export', { preValidation: requireAccess(key, 'export'), schema: { params: idParamsSchema, querystring: contestEntryFilter } }, async (request, reply) => {
        const who = await reader(await requireActor(request));
        const { workbook, fileName } = await exportContestEntries(app.db, who, uuidOr404(request.params.id), request.query, translator(request), app.now());
        return sendXlsx(reply, workbook, fileName);
      });
      for (const [path, action, invalid, body] of [
        ['/:id/entries/invalid', 'invalid', true, contestEntryInvalidBody],
        ['/:id/entries/valid', 'valid', false, contestEntryValidBody],
      ] as const) {
        r.post(path, { preValidation: requireAccess(key, action), schema: { params: idParamsSchema, body } }, async (request) => {
          const actor = await requireActor(request);
          const who = await reader(actor);
          const id = uuidOr404(request.params.id);
          const reason = 'reason' in request.body ? request.body.reason : undefined;
          const ids = await app.db.transaction(async (tx) => {
            const changed = await setContestEntriesInvalid(tx, who, id, { ids: request.body.ids, reason }, invalid);
            if (changed.length) await audit(tx, actor, { action, entity: 'contestEntry', entityId: id, after: { ids: changed, reason: reason ?? null } });
            return changed;
          });
          return ok({ changed: ids.length });
        });
      }
    },
  );
};
