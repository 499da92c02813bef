import type { FastifyPluginAsync } from 'fastify';
import {
  arrangementClearSchema,
  bibSaveSchema,
  drawSchema,
  entryCandidatesQuery,
  entryListQuery,
  arrangementSchema,
  drawAnswerSchema,
  entriesAddedSchema,
  entryCandidateListSchema,
  entryReviewSchema,
  entryRowSchema,
  entrySaveSchema,
  laneMoveSchema,
  scheduleAnswerSchema,
  scheduleRequestSchema,
  slotMoveSchema,
  teamAddedSchema,
  teamSaveSchema,
} from '@/domain/meets/entries';
import { pageSchema } from '@/domain/api';
import { meetBoardViewSchema } from '@/domain/meets/board';
import { pointsViewSchema } from '@/domain/meets/points';
import { meetDetailSchema, meetListQuery, meetOptionsSchema, meetRowSchema, meetSaveSchema } from '@/domain/meets/meets';
import { heatResultsSchema, heatResultListSchema, invalidSchema, resultStepSchema } from '@/domain/meets/results';
import { recordListQuery, recordRowSchema, recordSaveSchema } from '@/domain/meets/records';
import { idParamsSchema, idParamsWith } from '@/domain/list-query';
import { resourceAction, type Access } from '../../lib/action';
import { registerResource, resourceRoutes } from '../../lib/resource';
import { arrangement, clearArrangement, drawMeet, moveLane, moveSlot, scheduleMeet } from './arrange.service';
import { addEntries, addTeam, entryCandidates, entryPage, removeEntry, reviewEntries, setBib, setTeamBib, updateTeam } from './entry.service';
import { createMeet, deleteMeet, endMeet, meetById, meetFormOptions, meetPage, updateMeet } from './meet.service';
import { meetBoard, meetPoints, placedLines } from './points.service';
import { meetBook, type BookKind } from './results-book.service';
import { entryIoRoutes } from './entry-io.routes';
import { recordIoRoutes } from './record-io.routes';
import { approveRecord, createRecord, deleteRecord, recordById, recordPage, updateRecord } from './record.service';
import { enterResults, heatResults, setResultInvalid, stepResults } from './result.service';
import type { SchoolFamily } from '@/domain/menus/access';

/**
 * Sports meets of /api/busi/web/{k12|gx}/sportsMeet (docs/product-rules.md#meets): the meet resource (list, add,
 * detail with groups and events, edit, delete, early end), and under `/:id` the work of the shared meet screens
 * (/single/sportsMeet/*: sign-up, arrangement, results, points, live board) as actions, each with its catalogue
 * permission; every write is audited on the meet. Records of the organisation are under `/records`.
 */
const SIGN_UP = 'single.sportsMeet.signUp';
const SCORE = 'single.sportsMeet.score';
const POINTS = 'single.sportsMeet.points';
const RECORD = 'single.sportsMeet.record';

const entryParams = idParamsWith('entryId');
const athleteParams = idParamsWith('athleteId');
const heatParams = idParamsWith('heatId');
const resultParams = idParamsWith('resultId');

export const meetRoutes: FastifyPluginAsync<{ family: SchoolFamily }> = async (app, { family }) => {
  const key = `${family}.sportsMeet.manage`;

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
      response: { row: meetRowSchema, detail: meetDetailSchema, saved: meetDetailSchema },
      alsoReadBy: [
        [SIGN_UP, 'view'],
        [SCORE, 'view'],
        [POINTS, 'view'],
      ],
    },
    (scope) => {
      resourceAction(scope, { method: 'GET', path: '/options', access: [key, 'view', [key, 'add']], answer: meetOptionsSchema, read: meetFormOptions });
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/end',
        access: [key, 'end'],
        params: idParamsSchema,
        entity: 'meet',
        audit: 'end',
        answers: 'nothing',
        write: (tx, actor, { params }) => endMeet(tx, actor, params.id, app.now()),
      });

      // Registration (signUp): teachers enter their classes' athletes; reviewers approve, reject and set bibs.
      void entryIoRoutes(scope, SIGN_UP);
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/entries',
        access: [SIGN_UP, 'view'],
        params: idParamsSchema,
        query: entryListQuery.omit({ meetId: true }),
        answer: pageSchema(entryRowSchema),
        read: (db, actor, { params, query }) => entryPage(db, actor, params.id, query),
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/entries/candidates',
        access: [SIGN_UP, 'detail'],
        params: idParamsSchema,
        query: entryCandidatesQuery,
        answer: entryCandidateListSchema,
        read: (db, actor, { params, query }) => entryCandidates(db, actor, params.id, query.keyword, query.classId, query.eventId),
      });
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/entries',
        access: [SIGN_UP, 'detail'],
        params: idParamsSchema,
        body: entrySaveSchema,
        entity: 'meet',
        audit: 'signUp',
        answer: entriesAddedSchema,
        write: async (tx, actor, { params, body }) => {
          const out = await addEntries(tx, actor, params.id, body, app.now());
          return { after: { ...body, ...out }, answer: out };
        },
      });
      // Relay teams: entered and edited by the class's teachers, reviewed with the other entries.
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/teams',
        access: [SIGN_UP, 'detail'],
        params: idParamsSchema,
        body: teamSaveSchema,
        entity: 'meet',
        audit: 'signUpTeam',
        answer: teamAddedSchema,
        write: async (tx, actor, { params, body }) => {
          const out = await addTeam(tx, actor, params.id, body, app.now());
          return { after: { ...body, ...out }, answer: out };
        },
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/teams/:entryId',
        access: [SIGN_UP, 'detail'],
        params: entryParams,
        body: teamSaveSchema,
        entity: 'meet',
        audit: 'editTeam',
        answers: 'nothing',
        write: (tx, actor, { params, body }) => updateTeam(tx, actor, params.id, params.entryId, body, app.now()),
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/entries/:entryId/bib',
        access: [SIGN_UP, 'audit'],
        params: entryParams,
        body: bibSaveSchema,
        entity: 'meet',
        audit: 'bib',
        answers: 'nothing',
        write: (tx, actor, { params, body }) => setTeamBib(tx, actor, params.id, params.entryId, body.bib),
      });
      resourceAction(scope, {
        method: 'DELETE',
        path: '/:id/entries/:entryId',
        access: [SIGN_UP, 'detail'],
        params: entryParams,
        entity: 'meet',
        audit: 'withdraw',
        answers: 'nothing',
        write: async (tx, actor, { params }) => ({ before: await removeEntry(tx, actor, params.id, params.entryId), after: undefined }),
      });
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/entries/review',
        access: [SIGN_UP, 'audit'],
        params: idParamsSchema,
        body: entryReviewSchema,
        entity: 'meet',
        audit: 'review',
        answers: 'nothing',
        write: (tx, actor, { params, body }) => reviewEntries(tx, actor, params.id, body),
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/athletes/:athleteId/bib',
        access: [SIGN_UP, 'audit'],
        params: athleteParams,
        body: bibSaveSchema,
        entity: 'meet',
        audit: 'bib',
        answers: 'nothing',
        write: (tx, actor, { params, body }) => setBib(tx, actor, params.id, params.athleteId, body.bib),
      });

      // Arrangement: draw, cancel / clear, manual lane moves, schedule, manual slot moves; calendar and heat sheets read it.
      const arrange: Access = [key, 'arrange'];
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/arrangement',
        access: [key, 'arrange', [key, 'calendar'], [SCORE, 'view']],
        params: idParamsSchema,
        answer: arrangementSchema,
        read: (db, actor, { params }) => arrangement(db, actor, params.id),
      });
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/draw',
        access: arrange,
        params: idParamsSchema,
        body: drawSchema,
        entity: 'meet',
        audit: 'draw',
        answer: drawAnswerSchema,
        write: (tx, actor, { params, body }) => drawMeet(tx, actor, params.id, body),
      });
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/arrangement/clear',
        access: arrange,
        params: idParamsSchema,
        body: arrangementClearSchema,
        entity: 'meet',
        audit: 'clearArrangement',
        answers: 'nothing',
        write: (tx, actor, { params, body }) => clearArrangement(tx, actor, params.id, body.eventIds),
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/lanes/:resultId',
        access: arrange,
        params: resultParams,
        body: laneMoveSchema,
        entity: 'meet',
        audit: 'moveLane',
        answers: 'nothing',
        write: (tx, actor, { params, body }) => moveLane(tx, actor, params.id, params.resultId, body.heatId, body.lane),
      });
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/schedule',
        access: arrange,
        params: idParamsSchema,
        body: scheduleRequestSchema,
        entity: 'meet',
        audit: 'schedule',
        answer: scheduleAnswerSchema,
        write: (tx, actor, { params, body }) => scheduleMeet(tx, actor, params.id, body.confirm),
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/heats/:heatId/slot',
        access: arrange,
        params: heatParams,
        body: slotMoveSchema,
        entity: 'meet',
        audit: 'moveSlot',
        answers: 'nothing',
        write: (tx, actor, { params, body }) => moveSlot(tx, actor, params.id, params.heatId, body),
      });

      // Results: entry per heat, review (confirm, publish), invalid / valid.
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/heats/:heatId/results',
        access: [SCORE, 'view'],
        params: heatParams,
        answer: heatResultListSchema,
        read: (db, actor, { params }) => heatResults(db, actor, params.id, params.heatId),
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/heats/:heatId/results',
        access: [SCORE, 'entry'],
        params: heatParams,
        body: heatResultsSchema,
        entity: 'meet',
        audit: 'enterResults',
        answers: 'nothing',
        write: (tx, actor, { params, body }) => enterResults(tx, actor, params.id, params.heatId, body),
      });
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/results/step',
        access: [SCORE, 'audit'],
        params: idParamsSchema,
        body: resultStepSchema,
        entity: 'meet',
        audit: ({ body }) => body.step,
        answers: 'nothing',
        write: (tx, actor, { params, body }) => stepResults(tx, actor, params.id, body, app.now()),
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/results/:resultId/invalid',
        access: [SCORE, 'invalid', [SCORE, 'valid']],
        params: resultParams,
        body: invalidSchema,
        entity: 'meet',
        audit: ({ body }) => (body.invalid ? 'invalid' : 'valid'),
        answers: 'nothing',
        write: (tx, actor, { params, body }) => setResultInvalid(tx, actor, params.id, params.resultId, body, app.now()),
      });

      resourceAction(scope, { method: 'GET', path: '/:id/points', access: [POINTS, 'view'], params: idParamsSchema, answer: pointsViewSchema, read: (db, actor, { params }) => meetPoints(db, actor, params.id) });
      resourceAction(scope, { method: 'GET', path: '/:id/board', access: [SCORE, 'screen'], params: idParamsSchema, answer: meetBoardViewSchema, read: (db, actor, { params }) => meetBoard(db, actor, params.id) });

      // The results book and the points tables as PDF (manage page buttons; the points page's export also has the tables).
      const book = (kind: BookKind, ...also: (readonly [string, 'export'])[]) =>
        resourceAction(scope, {
          method: 'GET',
          path: `/:id/${kind === 'resultsBook' ? 'results-book' : 'points-table'}.pdf`,
          access: [key, kind, ...also],
          params: idParamsSchema,
          answers: 'file',
          // Both books rank the athletes by name (docs/product-rules.md#personal-data-access): one row per placed result.
          approval: { rows: async (db, actor, { params }) => (await placedLines(db, actor, params.id)).rows.length },
          read: async (db, actor, { params }, { t }) => {
            const { name, pdf } = await meetBook(db, actor, params.id, kind, t);
            return { body: Buffer.from(pdf), fileName: name, contentType: 'application/pdf' };
          },
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
        response: { row: recordRowSchema, detail: recordRowSchema, saved: recordRowSchema },
      });
      await recordIoRoutes(scope, RECORD);
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/approve',
        access: [RECORD, 'edit'],
        params: idParamsSchema,
        entity: 'meetRecord',
        audit: 'approve',
        answers: 'nothing',
        write: (tx, actor, { params }) => approveRecord(tx, actor, params.id),
      });
    },
    { prefix: '/sportsMeet/records' },
  );
};
