import type { FastifyPluginAsync } from 'fastify';
import {
  contestEntryFilter,
  contestEntryInvalidBody,
  contestEntryListQuery,
  contestEntryValidBody,
  contestEntryRowSchema,
  contestListQuery,
  contestPageKey,
  contestRowSchema,
  contestSaveSchema,
  leaderboardQuery,
  leaderboardSchema,
  participationSchema,
} from '@/domain/contests/contests';
import { activityOptionsSchema, validityChangedSchema } from '@/domain/activities/exercise-records';
import { pageSchema } from '@/domain/api';
import { ERR } from '@/domain/errors';
import { idParamsSchema } from '@/domain/list-query';
import { pageAccess, type Family } from '@/domain/menus/access';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { resourceAction, type Access, type ActionContext } from '../../lib/action';
import { classScopeOf } from '../../lib/data-scope';
import { registerResource } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { registerRefCheck } from '../activities/ref-checks';
import { activityOptions } from '../activities/exercise-records.service';
import { contestRefCheck } from './contest-ref-check';
import { exportLeaderboard } from './contest-export';
import { contestEntryExportRows, contestEntryPage, exportContestEntries, setContestEntriesInvalid } from './contest-entries.service';
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

const translator = (t: ActionContext['t']) => (key: string, options?: Record<string, unknown>) => t(key, options ?? {});

/**
 * Online contests of /api/busi/web/{admin|k12|gx} (docs/product-rules.md#contests): the resource (list, get, add, edit,
 * delete with its entries), early end, the live leaderboards by student and by class, participation per day and the
 * export. Registers the 'contest' ref check through which the ingestion path accepts or refuses entries.
 */
export const contestRoutes: FastifyPluginAsync<{ family: Family }> = async (app, { family }) => {
  registerRefCheck('contest', contestRefCheck);
  const key = contestPageKey(family);
  const caller = (actor: Actor): ContestCaller => ({ actor, family, now: app.now() });
  const reader = async (db: DbOrTx, actor: Actor): Promise<ContestReader> => ({ ...caller(actor), classScope: await classScopeOf(db, actor) });
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
      response: { row: contestRowSchema, detail: contestRowSchema, saved: contestRowSchema },
    },
    (scope) => {
      const data: Access = [key, 'data'];
      resourceAction(scope, {
        method: 'GET',
        path: '/options',
        access: [key, 'view'],
        answer: activityOptionsSchema,
        read: (db, actor) => activityOptions(db, { family, tenantOrgId: actor.tenantOrgId, userId: actor.userId, classScope: { all: true } }),
      });
      if (gx) {
        // Either button opens the form; the body's type says which one it takes.
        resourceAction(scope, {
          method: 'POST',
          path: '/',
          access: [key, 'addRank', [key, 'addChallenge']],
          body: contestSaveSchema,
          entity: 'contest',
          audit: 'create',
          answer: contestRowSchema,
          write: async (tx, actor, { body }) => {
            if (!actor.permissions.has(pageAccess(key).need(body.type === 'challenge' ? 'addChallenge' : 'addRank'))) throw new AppError(403, ERR.forbidden);
            const row = await createContest(tx, caller(actor), body);
            return { after: row, entityId: row.id };
          },
        });
      }
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/end',
        access: [key, 'end'],
        params: idParamsSchema,
        entity: 'contest',
        audit: 'end',
        message: 'contests:endedNow',
        answer: contestRowSchema,
        write: (tx, actor, { params }) => endContest(tx, caller(actor), params.id),
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/leaderboard',
        access: data,
        params: idParamsSchema,
        query: leaderboardQuery,
        answer: leaderboardSchema,
        read: async (db, actor, { params, query }) => {
          const who = await reader(db, actor);
          return query.by === 'class' ? classLeaderboard(db, who, params.id, query) : studentLeaderboard(db, who, params.id, query);
        },
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/participation',
        access: data,
        params: idParamsSchema,
        answer: participationSchema,
        read: async (db, actor, { params }) => participation(db, await reader(db, actor), params.id),
      });
      // The entries behind the board: listed, exported, set invalid (with a reason) or valid again, each change audited.
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/entries/page',
        access: data,
        params: idParamsSchema,
        query: contestEntryListQuery,
        answer: pageSchema(contestEntryRowSchema),
        read: async (db, actor, { params, query }) => contestEntryPage(db, await reader(db, actor), params.id, query),
      });
      for (const [path, action, invalid, body] of [
        ['/:id/entries/invalid', 'invalid', true, contestEntryInvalidBody],
        ['/:id/entries/valid', 'valid', false, contestEntryValidBody],
      ] as const) {
        resourceAction(scope, {
          method: 'POST',
          path,
          access: [key, action],
          params: idParamsSchema,
          body: body as typeof contestEntryInvalidBody | typeof contestEntryValidBody,
          entity: 'contestEntry',
          audit: action,
          message: null,
          answer: validityChangedSchema,
          write: async (tx, actor, { params, body }) => {
            const reason = 'reason' in body ? body.reason : undefined;
            const changed = await setContestEntriesInvalid(tx, await reader(tx, actor), params.id, { ids: body.ids, reason }, invalid);
            return { after: { ids: changed, reason: reason ?? null }, answer: { changed: changed.length }, audited: changed.length > 0 };
          },
        });
      }

      resourceAction(scope, {
        method: 'GET',
        path: '/:id/export',
        access: data,
        params: idParamsSchema,
        query: leaderboardQuery,
        answers: 'file',
        // Students' ranks and scores (docs/product-rules.md#personal-data-access): one row per participant.
        approval: { rows: async (db, actor, { params, query }) => (await studentLeaderboard(db, await reader(db, actor), params.id, query, 1)).total },
        read: async (db, actor, { params, query }, { t }) => exportLeaderboard(db, await reader(db, actor), params.id, query, translator(t)),
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/entries/export',
        access: [key, 'export'],
        params: idParamsSchema,
        query: contestEntryFilter,
        answers: 'file',
        approval: { rows: async (db, actor, { params, query }) => contestEntryExportRows(db, await reader(db, actor), params.id, query) },
        read: async (db, actor, { params, query }, { t, now }) => exportContestEntries(db, await reader(db, actor), params.id, query, translator(t), now),
      });
    },
  );
};
