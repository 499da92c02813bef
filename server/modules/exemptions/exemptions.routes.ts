import type { FastifyPluginAsync } from 'fastify';
import {
  exemptionDecideSchema,
  exemptionExportQuery,
  exemptionListQuery,
  exemptionOptionsSchema,
  exemptionRowSchema,
  exemptionSaveSchema,
  exemptionStudentQuery,
  exemptionStudentSchema,
} from '@/domain/exemptions/exemptions';
import { OK_MSG } from '@/domain/errors';
import { idParamsSchema as idParams } from '@/domain/list-query';
import type { ServedBy } from '@/domain/menus/access';
import { resourceAction } from '../../lib/action';
import { registerResource } from '../../lib/resource';
import { exemptionForm, exemptionSheet } from './exemption-documents';
import { createExemption, decideExemption, deleteExemption, exemptionById, exemptionOptions, exemptionPage, exemptionRows, exemptionStudents } from './exemptions.service';

/**
 * 免测/缓测 requests of a school (physiqueManage/exemption, docs/product-rules.md#physique-year "Exemptions"): list,
 * request (add), approve/refuse (audit), delete a pending one, export, and the standard's application form (print).
 * A request is never edited: a refused one is asked again as a new request.
 */
export const exemptionRoutes: FastifyPluginAsync<{ family: ServedBy<'test.exemption'> }> = async (app, { family }) => {
  const key = `${family}.test.exemption`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'physiqueExemption',
      list: { query: exemptionListQuery, handler: exemptionPage },
      get: exemptionById,
      create: { body: exemptionSaveSchema, handler: (tx, actor, body) => createExemption(tx, actor, body, app.now()) },
      remove: deleteExemption,
      response: { row: exemptionRowSchema, detail: exemptionRowSchema, saved: exemptionRowSchema },
    },
    (scope) => {
      resourceAction(scope, { method: 'GET', path: '/options', access: [key, 'view'], answer: exemptionOptionsSchema, read: exemptionOptions });
      resourceAction(scope, {
        method: 'GET',
        path: '/students',
        access: [key, 'add'],
        query: exemptionStudentQuery,
        answer: exemptionStudentSchema,
        summary: "Students of the requester's classes, by name or 学籍号",
        read: (db, actor, { query }) => exemptionStudents(db, actor, query),
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/decide',
        access: [key, 'audit'],
        params: idParams,
        body: exemptionDecideSchema,
        entity: 'physiqueExemption',
        audit: 'decide',
        message: OK_MSG.operation,
        answer: exemptionRowSchema,
        summary: 'Approve or refuse a pending request (stale version: 409)',
        write: (tx, actor, { params, body }) => decideExemption(tx, actor, params.id, body, app.now()),
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/export',
        access: [key, 'export'],
        query: exemptionExportQuery,
        answers: 'file',
        // Students' exemptions and their reasons (docs/product-rules.md#personal-data-access). The form of one request
        // below is one student's: never above the threshold (at least 1).
        approval: { rows: async (db, actor, { query }) => (await exemptionRows(db, actor, query)).length },
        read: async (db, actor, { query }, { t }) => exemptionSheet(await exemptionRows(db, actor, query), t),
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/form.pdf',
        access: [key, 'print'],
        params: idParams,
        answers: 'file',
        summary: '《免予执行〈国家学生体质健康标准〉申请表》 of one request, as PDF',
        read: (db, actor, { params }, { t }) => exemptionForm(db, actor, params.id, t),
      });
    },
  );
};
