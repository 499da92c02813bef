import type { FastifyPluginAsync, preValidationHookHandler } from 'fastify';
import type { AuditAction } from '@/domain/platform/audit';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { bibSaveSchema, drawSchema, entryListQuery, entryReviewSchema, entrySaveSchema, teamSaveSchema } from '@/domain/meets/entries';
import { meetListQuery, meetSaveSchema } from '@/domain/meets/meets';
import { heatResultsSchema, invalidSchema, resultStepSchema } from '@/domain/meets/results';
import { recordListQuery, recordSaveSchema } from '@/domain/meets/records';
import { UUID_PATTERN } from '@/domain/list-query';
import type { Tx } from '../../db/client';
import { audit } from '../../lib/audit';
import { registerResource, resourceRoutes, uuidOr404 } from '../../lib/resource';
import { requireAccess, requireActor, type Actor } from '../../plugins/tenant';
import { arrangement, clearArrangement, drawMeet, moveLane, moveSlot, scheduleMeet } from './arrange.service';
import { addEntries, addTeam, entryCandidates, entryPage, removeEntry, reviewEntries, setBib, setTeamBib, updateTeam } from './entry.service';
import { createMeet, deleteMeet, endMeet, meetById, meetFormOptions, meetPage, updateMeet } from './meet.service';
import { meetBoard, meetPoints } from './points.service';
import { meetBook, type BookKind } from './results-book.service';
import { entryIoRoutes } from './entry-io.routes';
import { recordIoRoutes } from './record-io.routes';
import { approveRecord, createRecord, deleteRecord, recordById, recordPage, updateRecord } from './record.service';
import { enterResults, heatResults, setResultInvalid, stepResults } from './result.service';
import type { SchoolFamily } from '@/domain/menus/access';

/**
 * Sports meets of /api/busi/web/{k12|gx}/sportsMeet (docs/product-rules.md#meets): the meet resource (list, add,
 * detail with groups and events, edit, delete, early end), and under `/:id` the work of the shared meet screens
 * (/single/sportsMeet/*: sign-up, arrangement, results, points, live board), each with its catalogue permission.
 * Records of the organisation are under `/records`.
 */
const SIGN_UP = 'single.sportsMeet.signUp';
const SCORE = 'single.sportsMeet.score';
const POINTS = 'single.sportsMeet.points';
const RECORD = 'single.sportsMeet.record';

const meetParams = z.object({ id: z.string().max(64) });
const sub = <K extends string>(name: K) => z.object({ id: z.string().max(64) }).extend({ [name]: z.string().max(64) } as Record<K, z.ZodString>);
const uuid = z.string().regex(UUID_PATTERN, 'validation:common.id');

export const meetRoutes: FastifyPluginAsync<{ family: SchoolFamily }> = async (app, { family }) => {
  app.addHook('onRequest', app.authenticate);
  const key = `${family}.sportsMeet.manage`;

  /** A write of a meet's sub-resource: one transaction with its audit row. */
  const write = async <T extends { before: unknown; after: unknown }>(actor: Actor, action: AuditAction, entityId: string, run: (tx: Tx) => Promise<T>) =>
    app.db.transaction(async (tx) => {
      const change = await run(tx);
      await audit(tx, actor, { action, entity: 'meet', entityId, before: change.before, after: change.after });
      return change.after;
    });

  await registerResource(
    app,
    family,
    {
      key,
      entity: 'meet',
      list: { query: meetListQuery, handler: (db, actor, q) => meetPage(db, actor, q, app.now()) },
      get: (db, actor, id) => meetById(db, actor, id, app.now()),
      create: { body: meetSaveSchema, handler: (tx, actor, body) => createMeet(tx, actor, body, app.now()) },
      update: { body: meetSaveSchema, handler: (tx, actor, id, body) => updateMeet(tx, actor, id, body, app.now()) },
      remove: (tx, actor, id) => deleteMeet(tx, actor, id, app.now()),
      alsoReadBy: [
        [SIGN_UP, 'view'],
        [SCORE, 'view'],
        [POINTS, 'view'],
      ],
    },
    (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      const on = (k: string, a: Parameters<typeof requireAccess>[1], ...alt: Parameters<typeof requireAccess>[2][]): preValidationHookHandler => requireAccess(k, a, ...alt);
      const idOf = (p: { id: string }) => uuidOr404(p.id);

      r.get('/options', { preValidation: on(key, 'view', [key, 'add']) }, async (request) => ok(await meetFormOptions(app.db, await requireActor(request))));
      r.post('/:id/end', { preValidation: on(key, 'end'), schema: { params: meetParams } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        await write(actor, 'end', id, (tx) => endMeet(tx, actor, id, app.now()));
        return ok(null, request.t(OK_MSG.saved));
      });

      // Registration (signUp): teachers enter their classes' athletes; reviewers approve, reject and set bibs.
      void entryIoRoutes(scope, SIGN_UP);
      r.get('/:id/entries', { preValidation: on(SIGN_UP, 'view'), schema: { params: meetParams, querystring: entryListQuery.omit({ meetId: true }) } }, async (request) =>
        ok(await entryPage(app.db, await requireActor(request), idOf(request.params), request.query)),
      );
      r.get('/:id/entries/candidates', { preValidation: on(SIGN_UP, 'detail'), schema: { params: meetParams, querystring: z.object({ keyword: z.string().trim().max(64).default(''), classId: uuid.optional(), eventId: uuid.optional() }) } }, async (request) =>
        ok(await entryCandidates(app.db, await requireActor(request), idOf(request.params), request.query.keyword, request.query.classId, request.query.eventId)),
      );
      r.post('/:id/entries', { preValidation: on(SIGN_UP, 'detail'), schema: { params: meetParams, body: entrySaveSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        const saved = await app.db.transaction(async (tx) => {
          const out = await addEntries(tx, actor, id, request.body, app.now());
          await audit(tx, actor, { action: 'signUp', entity: 'meet', entityId: id, after: { ...request.body, ...out } });
          return out;
        });
        return ok(saved, request.t(OK_MSG.saved));
      });
      // Relay teams: entered and edited by the class's teachers, reviewed with the other entries.
      r.post('/:id/teams', { preValidation: on(SIGN_UP, 'detail'), schema: { params: meetParams, body: teamSaveSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        const saved = await app.db.transaction(async (tx) => {
          const out = await addTeam(tx, actor, id, request.body, app.now());
          await audit(tx, actor, { action: 'signUpTeam', entity: 'meet', entityId: id, after: { ...request.body, ...out } });
          return out;
        });
        return ok(saved, request.t(OK_MSG.saved));
      });
      r.put('/:id/teams/:entryId', { preValidation: on(SIGN_UP, 'detail'), schema: { params: sub('entryId'), body: teamSaveSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        await write(actor, 'editTeam', id, (tx) => updateTeam(tx, actor, id, uuidOr404(request.params.entryId as string), request.body, app.now()));
        return ok(null, request.t(OK_MSG.saved));
      });
      r.put('/:id/entries/:entryId/bib', { preValidation: on(SIGN_UP, 'audit'), schema: { params: sub('entryId'), body: bibSaveSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        await write(actor, 'bib', id, (tx) => setTeamBib(tx, actor, id, uuidOr404(request.params.entryId as string), request.body.bib));
        return ok(null, request.t(OK_MSG.saved));
      });
      r.delete('/:id/entries/:entryId', { preValidation: on(SIGN_UP, 'detail'), schema: { params: sub('entryId') } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        const entryId = uuidOr404(request.params.entryId as string);
        await app.db.transaction(async (tx) => {
          const before = await removeEntry(tx, actor, id, entryId);
          await audit(tx, actor, { action: 'withdraw', entity: 'meet', entityId: id, before });
        });
        return ok(null, request.t(OK_MSG.deleted));
      });
      r.post('/:id/entries/review', { preValidation: on(SIGN_UP, 'audit'), schema: { params: meetParams, body: entryReviewSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        await write(actor, 'review', id, (tx) => reviewEntries(tx, actor, id, request.body));
        return ok(null, request.t(OK_MSG.saved));
      });
      r.put('/:id/athletes/:athleteId/bib', { preValidation: on(SIGN_UP, 'audit'), schema: { params: sub('athleteId'), body: bibSaveSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        await write(actor, 'bib', id, (tx) => setBib(tx, actor, id, uuidOr404(request.params.athleteId as string), request.body.bib));
        return ok(null, request.t(OK_MSG.saved));
      });

      // Arrangement: draw, cancel / clear, manual lane moves, schedule, manual slot moves; calendar and heat sheets read it.
      r.get('/:id/arrangement', { preValidation: on(key, 'arrange', [key, 'calendar'], [SCORE, 'view']), schema: { params: meetParams } }, async (request) =>
        ok(await arrangement(app.db, await requireActor(request), idOf(request.params))),
      );
      r.post('/:id/draw', { preValidation: on(key, 'arrange'), schema: { params: meetParams, body: drawSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        return ok(await write(actor, 'draw', id, (tx) => drawMeet(tx, actor, id, request.body)), request.t(OK_MSG.saved));
      });
      r.post('/:id/arrangement/clear', { preValidation: on(key, 'arrange'), schema: { params: meetParams, body: z.object({ eventIds: z.array(uuid).max(500).optional() }) } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        await write(actor, 'clearArrangement', id, (tx) => clearArrangement(tx, actor, id, request.body.eventIds));
        return ok(null, request.t(OK_MSG.saved));
      });
      r.put('/:id/lanes/:resultId', { preValidation: on(key, 'arrange'), schema: { params: sub('resultId'), body: z.object({ heatId: uuid, lane: z.coerce.number().int() }) } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        await write(actor, 'moveLane', id, (tx) => moveLane(tx, actor, id, uuidOr404(request.params.resultId as string), request.body.heatId, request.body.lane));
        return ok(null, request.t(OK_MSG.saved));
      });
      r.post('/:id/schedule', { preValidation: on(key, 'arrange'), schema: { params: meetParams, body: z.object({ confirm: z.boolean().default(false) }) } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        return ok(await write(actor, 'schedule', id, (tx) => scheduleMeet(tx, actor, id, request.body.confirm)), request.t(OK_MSG.saved));
      });
      r.put(
        '/:id/heats/:heatId/slot',
        { preValidation: on(key, 'arrange'), schema: { params: sub('heatId'), body: z.object({ day: z.coerce.number().int().min(0), start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'meets:v.clock'), venueId: uuid.nullable().optional() }) } },
        async (request) => {
          const actor = await requireActor(request);
          const id = idOf(request.params);
          await write(actor, 'moveSlot', id, (tx) => moveSlot(tx, actor, id, uuidOr404(request.params.heatId as string), request.body));
          return ok(null, request.t(OK_MSG.saved));
        },
      );

      // Results: entry per heat, review (confirm, publish), invalid / valid.
      r.get('/:id/heats/:heatId/results', { preValidation: on(SCORE, 'view'), schema: { params: sub('heatId') } }, async (request) =>
        ok(await heatResults(app.db, await requireActor(request), idOf(request.params), uuidOr404(request.params.heatId as string))),
      );
      r.put('/:id/heats/:heatId/results', { preValidation: on(SCORE, 'entry'), schema: { params: sub('heatId'), body: heatResultsSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        await write(actor, 'enterResults', id, (tx) => enterResults(tx, actor, id, uuidOr404(request.params.heatId as string), request.body));
        return ok(null, request.t(OK_MSG.saved));
      });
      r.post('/:id/results/step', { preValidation: on(SCORE, 'audit'), schema: { params: meetParams, body: resultStepSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        await write(actor, request.body.step, id, (tx) => stepResults(tx, actor, id, request.body, app.now()));
        return ok(null, request.t(OK_MSG.saved));
      });
      r.put('/:id/results/:resultId/invalid', { preValidation: on(SCORE, 'invalid', [SCORE, 'valid']), schema: { params: sub('resultId'), body: invalidSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = idOf(request.params);
        await write(actor, request.body.invalid ? 'invalid' : 'valid', id, (tx) => setResultInvalid(tx, actor, id, uuidOr404(request.params.resultId as string), request.body, app.now()));
        return ok(null, request.t(OK_MSG.saved));
      });

      r.get('/:id/points', { preValidation: on(POINTS, 'view'), schema: { params: meetParams } }, async (request) => ok(await meetPoints(app.db, await requireActor(request), idOf(request.params))));
      r.get('/:id/board', { preValidation: on(SCORE, 'screen'), schema: { params: meetParams } }, async (request) => ok(await meetBoard(app.db, await requireActor(request), idOf(request.params))));
      // The results book and the points tables as PDF (manage page buttons; the points page's export also has the tables).
      const book = (kind: BookKind, ...also: Parameters<typeof requireAccess>[2][]) =>
        r.get(`/:id/${kind === 'resultsBook' ? 'results-book' : 'points-table'}.pdf`, { preValidation: on(key, kind, ...also), schema: { params: meetParams } }, async (request, reply) => {
          const { name, pdf } = await meetBook(app.db, await requireActor(request), idOf(request.params), kind, request.t);
          return reply
            .type('application/pdf')
            .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`)
            .header('cache-control', 'no-store')
            .send(Buffer.from(pdf));
        });
      book('resultsBook');
      book('pointsTable', [POINTS, 'export']);
    },
  );

  // Records of the organisation (/single/sportsMeet/record): add, edit, delete; approving a pending (new) record.
  await app.register(
    async (scope) => {
      resourceRoutes(scope, {
        key: RECORD,
        entity: 'meetRecord',
        list: { query: recordListQuery, handler: recordPage },
        get: recordById,
        create: { body: recordSaveSchema, handler: createRecord },
        update: { body: recordSaveSchema, handler: updateRecord },
        remove: deleteRecord,
      });
      await recordIoRoutes(scope, RECORD);
      const r = scope.withTypeProvider<ZodTypeProvider>();
      r.post('/:id/approve', { preValidation: requireAccess(RECORD, 'edit'), schema: { params: meetParams } }, async (request) => {
        const actor = await requireActor(request);
        const id = uuidOr404(request.params.id);
        await app.db.transaction(async (tx) => {
          const change = await approveRecord(tx, actor, id);
          await audit(tx, actor, { action: 'approve', entity: 'meetRecord', entityId: id, before: change.before, after: change.after });
        });
        return ok(null, request.t(OK_MSG.saved));
      });
    },
    { prefix: '/sportsMeet/records' },
  );
};
