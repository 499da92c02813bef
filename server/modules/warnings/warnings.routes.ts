import type { FastifyPluginAsync } from 'fastify';
import { pageSchema } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { idParamsSchema } from '@/domain/list-query';
import type { ServedBy } from '@/domain/menus/access';
import {
  caseActionSchema,
  caseDetailSchema,
  caseListQuery,
  caseOpenSchema,
  caseRowSchema,
  caseSaveSchema,
  caseTrainingCandidateQuery,
  caseTrainingLinkSchema,
  caseTrainingListQuery,
  caseTrainingRowSchema,
  caseTrainingSchema,
  districtWarningsSchema,
  warningExportQuery,
  warningListQuery,
  warningOptionsSchema,
  warningRowSchema,
  warningSettingsRowSchema,
  warningSettingsSchema,
  warningSummarySchema,
  type CaseDetail,
  type CaseTrainingRow,
} from '@/domain/warnings/warnings';
import { resourceAction } from '../../lib/action';
import { registerLinked } from '../../lib/linked';
import { registerResource, relativeApi } from '../../lib/resource';
import {
  addCaseAction,
  caseById,
  casePage,
  caseTrainingCandidates,
  caseTrainingPage,
  createCaseTraining,
  linkCaseTrainings,
  openCase,
  saveCase,
  unlinkCaseTrainings,
} from './cases.service';
import { districtWarnings, saveWarningSettings, warningExport, warningExportRows, warningOptions, warningPage, warningSettingsOf, warningSummary } from './warnings.service';

/**
 * physiqueManage/warning of /api/busi/web/{k12|gx} (docs/product-rules.md#warnings): the resource is the page's cases
 * (`/page`, `/:id`); the warnings themselves, the thresholds and the counts are actions beside it. A case's training
 * plans are linked records, in K12 schools only (the training module is theirs).
 */
export const warningRoutes: FastifyPluginAsync<{ family: ServedBy<'test.warning'> }> = async (app, { family }) => {
  const key = `${family}.test.warning`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'warningCase',
      list: { query: caseListQuery, handler: casePage },
      get: caseById,
      response: { row: caseRowSchema, detail: caseDetailSchema },
    },
    (scope) => {
      resourceAction(scope, {
        method: 'GET',
        path: '/warnings',
        access: [key, 'view'],
        query: warningListQuery,
        answer: pageSchema(warningRowSchema),
        summary: 'Warnings of a school year: one row per student and kind, with its case',
        read: (db, actor, { query }) => warningPage(db, actor, query, app.now()),
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/export',
        access: [key, 'export'],
        query: warningExportQuery,
        answers: 'file',
        // Students' warnings and their cases (docs/product-rules.md#personal-data-access).
        approval: { rows: (db, actor, { query }) => warningExportRows(db, actor, query, app.now()) },
        read: (db, actor, { query }, { t }) => warningExport(db, actor, query, (k, o) => t(k, o ?? {}), app.now()),
      });
      resourceAction(scope, { method: 'GET', path: '/options', access: [key, 'view'], answer: warningOptionsSchema, read: warningOptions });
      resourceAction(scope, {
        method: 'GET',
        path: '/summary',
        access: [key, 'view', [`${family}.dataCenter.school`, 'view']],
        answer: warningSummarySchema,
        summary: "Counts of the school's warnings by kind and of its open and closed cases (no names)",
        read: (db, actor) => warningSummary(db, actor, app.now()),
      });
      resourceAction(scope, { method: 'GET', path: '/settings', access: [key, 'view'], answer: warningSettingsRowSchema, read: (db, actor) => warningSettingsOf(db, actor.tenantOrgId) });
      resourceAction(scope, {
        method: 'PUT',
        path: '/settings',
        access: [key, 'setting'],
        body: warningSettingsSchema,
        entity: 'warningSetting',
        audit: 'update',
        answer: warningSettingsRowSchema,
        write: (tx, actor, { body }) => saveWarningSettings(tx, actor, body, app.now()),
      });
      resourceAction(scope, {
        method: 'POST',
        path: '/cases',
        access: [key, 'followUp'],
        body: caseOpenSchema,
        entity: 'warningCase',
        audit: 'create',
        answer: caseDetailSchema,
        write: async (tx, actor, { body }) => {
          const made = await openCase(tx, actor, body, app.now());
          return { after: made, entityId: made.id };
        },
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/case',
        access: [key, 'followUp'],
        params: idParamsSchema,
        body: caseSaveSchema,
        entity: 'warningCase',
        audit: 'update',
        answer: caseDetailSchema,
        write: (tx, actor, { params, body }) => saveCase(tx, actor, params.id, body, app.now()),
      });
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/actions',
        access: [key, 'followUp'],
        params: idParamsSchema,
        body: caseActionSchema,
        entity: 'warningCase',
        audit: 'followUp',
        answer: caseDetailSchema,
        write: (tx, actor, { params, body }) => addCaseAction(tx, actor, params.id, body, app.now()),
      });
      if (family === 'k12') {
        resourceAction(scope, {
          method: 'POST',
          path: '/:id/training',
          access: [key, 'followUp'],
          params: idParamsSchema,
          body: caseTrainingSchema,
          entity: 'warningCase',
          audit: 'createTraining',
          answer: caseDetailSchema,
          write: (tx, actor, { params, body }) => createCaseTraining(tx, actor, params.id, body, app.now()),
        });
      }
    },
  );
  if (family === 'k12') {
    await registerLinked<CaseDetail, typeof caseTrainingListQuery, typeof caseTrainingCandidateQuery, typeof caseTrainingLinkSchema, CaseTrainingRow, CaseTrainingRow>(app, family, {
      key,
      action: 'followUp',
      entity: 'warningCase',
      path: 'trainings',
      owner: caseById,
      members: { query: caseTrainingListQuery, handler: caseTrainingPage },
      candidates: { query: caseTrainingCandidateQuery, handler: (db, actor, owner) => caseTrainingCandidates(db, actor, owner) },
      link: { body: caseTrainingLinkSchema, ids: 'trainingPlanIds', audit: 'attachTrainings', handler: (tx, actor, owner, ids) => linkCaseTrainings(tx, actor, owner, ids, app.now()) },
      unlink: { audit: 'detachTraining', handler: (tx, actor, owner, ids) => unlinkCaseTrainings(tx, actor, owner, ids, app.now()) },
      unlinked: OK_MSG.saved,
      response: { member: caseTrainingRowSchema, candidate: caseTrainingRowSchema },
    });
  }
};

const OVERVIEW = 'admin.dataCenter.overview';

/** GET …/admin/dataCenter/overview/warnings: the district's schools with their warning and case counts (no names). */
export const districtWarningRoutes: FastifyPluginAsync = async (app) => {
  resourceAction(app, {
    method: 'GET',
    path: `${relativeApi(OVERVIEW, 'admin')}/warnings`,
    access: [OVERVIEW, 'view'],
    answer: districtWarningsSchema,
    summary: "Each school's warnings by kind and open and closed cases (counts only)",
    read: (db, actor) => districtWarnings(db, actor, app.now()),
  });
};
