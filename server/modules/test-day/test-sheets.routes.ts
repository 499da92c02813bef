import type { FastifyPluginAsync } from 'fastify';
import { idParamsSchema } from '@/domain/list-query';
import type { ServedBy } from '@/domain/menus/access';
import { stationRosterQuery, testCardsQuery, testSheetOptionsSchema } from '@/domain/test-day/test-sheets';
import { resourceAction } from '../../lib/action';
import { sheetStudentRows, stationRosterFile, testCardsFile, testSheetOptions } from './test-sheets.service';

/**
 * A test day's printed sheets under /api/busi/web/{k12|gx}/physiqueManage/testDay/sheets/:id (the plan's id;
 * docs/product-rules.md#physique-year, "Test sheets"): the dialog's options, the test cards and a station's roster as
 * PDF. Each takes the test-day page's `print` button; another organisation's plan or a class outside the caller's
 * scope is 404. Printing reads and writes nothing, so nothing is audited.
 */
export const testSheetRoutes: FastifyPluginAsync<{ family: ServedBy<'test.testDay'> }> = async (app, { family }) => {
  const PRINT = [`${family}.test.testDay`, 'print'] as const;
  const base = '/physiqueManage/testDay/sheets/:id';
  resourceAction(app, {
    method: 'GET',
    path: `${base}/options`,
    access: PRINT,
    params: idParamsSchema,
    answer: testSheetOptionsSchema,
    summary: 'What the print dialog offers for a plan: its classes and items',
    read: (db, actor, { params }) => testSheetOptions(db, actor, params.id),
  });
  resourceAction(app, {
    method: 'GET',
    path: `${base}/cards.pdf`,
    access: PRINT,
    params: idParamsSchema,
    query: testCardsQuery,
    answers: 'file',
    summary: 'Test cards of a class or of every class: an A4 page per class, a QR code per student',
    // Students' names and numbers (docs/product-rules.md#personal-data-access).
    approval: { rows: (db, actor, { params, query }) => sheetStudentRows(db, actor, params.id, query.classId) },
    read: (db, actor, { params, query }, { t }) => testCardsFile(db, actor, params.id, query, t),
  });
  resourceAction(app, {
    method: 'GET',
    path: `${base}/roster.pdf`,
    access: PRINT,
    params: idParamsSchema,
    query: stationRosterQuery,
    answers: 'file',
    summary: 'A station’s class roster: students taking the items, blank value and signature columns',
    approval: { rows: (db, actor, { params, query }) => sheetStudentRows(db, actor, params.id, query.classId) },
    read: (db, actor, { params, query }, { t }) => stationRosterFile(db, actor, params.id, query, t),
  });
};
