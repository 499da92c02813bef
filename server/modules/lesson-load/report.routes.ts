import type { FastifyPluginAsync } from 'fastify';
import { idParamsSchema } from '@/domain/list-query';
import { loadListQuery, loadOptionsSchema, loadReportSchema, loadRowSchema } from '@/domain/lesson-load/report';
import type { ServedBy } from '@/domain/menus/access';
import type { DbOrTx } from '../../db/client';
import { resourceAction } from '../../lib/action';
import type { Actor } from '../../plugins/tenant';
import { registerResource } from '../../lib/resource';
import { lessonReportPdf, lessonTitle, lessonWorkbook, loadListWorkbook } from './report-files';
import { loadOptions, loadPage, loadReport, loadRows } from './report.service';

/** The schools' lesson load reports (docs/product-rules.md#lesson-load, "Reports"): `class/load` and its lesson report. */
export type LoadReportFamily = ServedBy<'class.load.lesson'>;

export const loadReportRoutes: FastifyPluginAsync<{ family: LoadReportFamily }> = async (app, { family }) => {
  const key = `${family}.class.load`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'lesson',
      list: { query: loadListQuery, handler: (db, actor, q) => loadPage(db, actor, q, app.now()) },
      response: { row: loadRowSchema },
    },
    (scope) => {
      // The list's export is one row per lesson (class, teacher, figures): no student's data, free.
      const lessonStudents = { rows: async (db: DbOrTx, actor: Actor, { params }: { params: { id: string } }) => (await loadReport(db, actor, params.id, app.now())).students.length };
      resourceAction(scope, { method: 'GET', path: '/options', access: [key, 'view'], answer: loadOptionsSchema, read: (db, actor) => loadOptions(db, actor) });
      resourceAction(scope, {
        method: 'GET',
        path: '/export',
        access: [key, 'export'],
        query: loadListQuery.omit({ current: true, size: true }),
        answers: 'file',
        read: async (db, actor, { query }, { t, now }) => ({ workbook: loadListWorkbook(await loadRows(db, actor, query, now), t), fileName: `${t('lessonLoad:report.listSheet')}.xlsx` }),
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id',
        access: [key, 'detail'],
        params: idParamsSchema,
        answer: loadReportSchema,
        read: (db, actor, { params }, { now }) => loadReport(db, actor, params.id, now),
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/export',
        access: [key, 'export'],
        params: idParamsSchema,
        answers: 'file',
        // A lesson's students and their heart rates (docs/product-rules.md#personal-data-access).
        approval: lessonStudents,
        read: async (db, actor, { params }, { t, now }) => {
          const report = await loadReport(db, actor, params.id, now);
          return { workbook: lessonWorkbook(report, t), fileName: `${t('lessonLoad:report.printTitle')} ${lessonTitle(report)}.xlsx` };
        },
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/print',
        access: [key, 'print'],
        params: idParamsSchema,
        answers: 'file',
        approval: lessonStudents,
        read: async (db, actor, { params }, { t, now }) => {
          const report = await loadReport(db, actor, params.id, now);
          return { body: await lessonReportPdf(report, t), fileName: `${t('lessonLoad:report.printTitle')} ${lessonTitle(report)}.pdf`, contentType: 'application/pdf' };
        },
      });
    },
  );
};
