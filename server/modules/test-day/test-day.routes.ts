import type { FastifyPluginAsync } from 'fastify';
import { OK_MSG } from '@/domain/errors';
import { idParamsSchema } from '@/domain/list-query';
import type { ServedBy } from '@/domain/menus/access';
import { checkInSchema, entryAppealSchema, entryConfirmSchema, entryResolveSchema, entryRowSchema, entrySaveSchema, progressSchema, stationStudentParams, stationStudentSchema, stationViewSchema } from '@/domain/test-day/entries';
import { planQuery, stationListQuery, stationOptionsSchema, stationRowSchema, stationSaveSchema, testDayPlansSchema } from '@/domain/test-day/stations';
import { resourceAction } from '../../lib/action';
import { registerResource } from '../../lib/resource';
import { appealValue, checkIn, confirmValues, enterValue, progressOf, resolveAppeal, stationStudentOf, stationView } from './entry.service';
import { createStation, deleteStation, stationById, stationOptions, stationPage, testDayPlans, updateStation } from './station.service';

/**
 * A plan's test day (docs/product-rules.md#physique-year, test day) under /api/busi/web/{k12|gx}/physiqueManage/testDay:
 * stations (list, form, delete), the station screen (check-in, values, the student's confirmation, appeals and their
 * resolution by a second teacher: button `audit`) and the day's progress.
 */
export const testDayRoutes: FastifyPluginAsync<{ family: ServedBy<'test.testDay'> }> = async (app, { family }) => {
  const key = `${family}.test.testDay`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'testDayStation',
      list: { query: stationListQuery, handler: stationPage },
      get: stationById,
      create: { body: stationSaveSchema, handler: createStation },
      update: { body: stationSaveSchema, handler: updateStation },
      remove: deleteStation,
      response: { row: stationRowSchema, detail: stationRowSchema, saved: stationRowSchema },
    },
    (scope) => {
      resourceAction(scope, { method: 'GET', path: '/plans', access: [key, 'view'], read: (db, actor, input, { now }) => testDayPlans(db, actor, input, now), answer: testDayPlansSchema, summary: 'The school’s plans to organise a test day for' });
      resourceAction(scope, {
        method: 'GET',
        path: '/options',
        access: [key, 'add', [key, 'edit']],
        query: planQuery,
        read: (db, actor, { query }) => stationOptions(db, actor, query.planId),
        answer: stationOptionsSchema,
        summary: 'What the station form offers: the plan’s items, venues, devices, teachers',
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/progress',
        access: [key, 'view'],
        query: planQuery,
        read: (db, actor, { query }, { now }) => progressOf(db, actor, query.planId, now),
        answer: progressSchema,
        summary: 'The day’s progress per station and class',
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/station',
        access: [key, 'entry'],
        params: idParamsSchema,
        reads: 'primary',
        read: (db, actor, { params }, { now }) => stationView(db, actor, params.id, now),
        answer: stationViewSchema,
        summary: 'The station screen: its queue and open appeals',
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/student/:studentId',
        access: [key, 'entry'],
        params: stationStudentParams,
        reads: 'primary',
        read: (db, actor, { params }, { now }) => stationStudentOf(db, actor, params.id, params.studentId, now),
        answer: stationStudentSchema,
        summary: 'A checked-in student with their values and the station devices’ records of today',
      });
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/checkIn',
        access: [key, 'entry'],
        params: idParamsSchema,
        body: checkInSchema,
        entity: 'testDayStation',
        audit: 'checkIn',
        answer: stationStudentSchema,
        message: null,
        write: async (tx, actor, { params, body }, { now }) => {
          const answer = await checkIn(tx, actor, params.id, body.code, now);
          return { after: { studentId: answer.student.id, regNo: answer.student.regNo }, answer };
        },
        summary: 'Checks a student in by 学籍号 or test card code',
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/entry',
        access: [key, 'entry'],
        params: idParamsSchema,
        body: entrySaveSchema,
        entity: 'testDayEntry',
        audit: 'enter',
        answer: stationStudentSchema,
        write: async (tx, actor, { params, body }, { now }) => {
          const { before, after, answer } = await enterValue(tx, actor, params.id, body, now);
          return { before, after, entityId: after.id, answer };
        },
        summary: 'A value from a station device or typed, waiting for the student’s confirmation',
      });
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/student/:studentId/confirm',
        access: [key, 'entry'],
        params: stationStudentParams,
        body: entryConfirmSchema,
        entity: 'testDayEntry',
        audit: 'confirm',
        answer: stationStudentSchema,
        write: async (tx, actor, { params, body }, { now }) => {
          const { before, after, answer } = await confirmValues(tx, actor, params.id, params.studentId, body.entries, now);
          return { before, after, entityIds: after.map((e) => e.id), answer };
        },
        summary: 'The student’s confirmation (签字确认): the values count and land in the plan’s results',
      });
      resourceAction(scope, {
        method: 'POST',
        path: '/entry/:id/appeal',
        access: [key, 'entry'],
        params: idParamsSchema,
        body: entryAppealSchema,
        entity: 'testDayEntry',
        audit: 'appeal',
        answer: entryRowSchema,
        message: OK_MSG.saved,
        write: (tx, actor, { params, body }, { now }) => appealValue(tx, actor, params.id, body, now),
        summary: 'An appeal (申诉) on a value, with a note and an optional video',
      });
      resourceAction(scope, {
        method: 'POST',
        path: '/entry/:id/resolve',
        access: [key, 'audit'],
        params: idParamsSchema,
        body: entryResolveSchema,
        entity: 'testDayEntry',
        audit: 'resolve',
        answer: entryRowSchema,
        write: (tx, actor, { params, body }, { now }) => resolveAppeal(tx, actor, params.id, body, now),
        summary: 'A second teacher resolves an appeal: keep or correct the value',
      });
    },
  );
};
