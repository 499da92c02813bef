import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { ERR, OK_MSG } from '@/domain/errors';
import { getCatalogEntry, type ButtonAction } from '@/domain/menus/catalog';
import { PLAN_ADMIN_ACTION } from '@/domain/test-plans/access';
import { planDatesSchema, planPageQuerySchema, planReopenSchema, planRequestSchema, signUpQuerySchema } from '@/domain/test-plans/schemas';
import { AppError } from '../../lib/app-error';
import { requirePermission, requireScope } from '../../plugins/tenant';
import {
  classCompletion,
  correctPlanDates,
  createPlan,
  deletePlan,
  endPlan,
  planDetail,
  planFormOptions,
  planPage,
  planSchools,
  reopenPlan,
  restorePlan,
  signUpPage,
  updatePlan,
  type PlanActor,
} from './test-plan-manage.service';

export interface TestPlanRoutesOptions {
  /** The route family whose testManage permission codes guard these routes (spec §2). */
  family: 'admin' | 'k12' | 'gx';
}

/** Permission codes of the testManage page of a family, read from the catalogue (never typed by hand). */
export function testManagePermissions(family: TestPlanRoutesOptions['family']) {
  const pageKey = `${family}.test.testManage`;
  const page = getCatalogEntry(pageKey);
  const check = getCatalogEntry(`${pageKey}.check`);
  if (!page || page.kind !== 'page' || !check) throw new Error(`No catalogue page '${pageKey}' with a check route`);
  const button = (action: ButtonAction) => page.buttons.find((b) => b.action === action)?.permission;
  const need = (action: ButtonAction) => {
    const code = button(action);
    if (!code) throw new Error(`Catalogue page '${pageKey}' has no '${action}' button`);
    return code;
  };
  const add = need('add');
  return {
    view: page.permission,
    /** The check/{id} screen opens with the detail button. */
    detail: check.permission,
    add,
    // The catalogue gives testManage no edit button; editing is part of adding/maintaining plans until it does.
    edit: button('edit') ?? add,
    end: need('end'),
    delete: need('delete'),
    /** Plan administrators: correct an ended plan's dates, undo an early end, restore from the bin (src/domain/test-plans/access.ts). */
    admin: need(PLAN_ADMIN_ACTION),
  };
}

const idParams = z.object({ id: z.string().max(64) });
const optionsQuery = z.object({ schoolOrgId: z.preprocess((v) => (v === '' ? undefined : v), z.string().max(64).optional()) });

/**
 * Test plans of issue 3 §2 under /api/busi/web/{admin|k12|gx}/organizeTest/testManage: list (and recycle
 * bin), detail, sign-up list, class completion, form options, add, edit, early end, delete, and for plan
 * administrators reopen, date correction and restore (docs/api/test-plans.md). Every route runs
 * auth → tenant scope → permission code → zod validation → service.
 */
export const testPlanRoutes: FastifyPluginAsyncZod<TestPlanRoutesOptions> = async (app, { family }) => {
  const can = testManagePermissions(family);
  app.addHook('onRequest', app.authenticate);

  const actor = async (request: FastifyRequest): Promise<PlanActor> => {
    const scope = await requireScope(request);
    if (!request.session) throw new AppError(401, ERR.sessionExpired);
    return { tenantOrgId: scope.tenantOrgId, orgType: scope.orgType, userId: request.session.userId, now: app.now() };
  };

  app.get('/page', { preValidation: requirePermission(can.view), schema: { querystring: planPageQuerySchema } }, async (request) =>
    ok(await planPage(app.db, await actor(request), request.query)),
  );

  // Schools a management organisation may plan for (admin family); a school sees itself only.
  app.get('/schools', { preValidation: requirePermission(can.view) }, async (request) => ok(await planSchools(app.db, (await actor(request)).tenantOrgId)));

  app.get('/options', { preValidation: requirePermission(can.add, can.edit, can.detail), schema: { querystring: optionsQuery } }, async (request) =>
    ok(await planFormOptions(app.db, await actor(request), request.query.schoolOrgId)),
  );

  app.get('/detail/:id', { preValidation: requirePermission(can.detail), schema: { params: idParams } }, async (request) =>
    ok(await planDetail(app.db, await actor(request), request.params.id)),
  );

  app.get('/signUp/:id', { preValidation: requirePermission(can.detail), schema: { params: idParams, querystring: signUpQuerySchema } }, async (request) =>
    ok(await signUpPage(app.db, await actor(request), request.params.id, request.query)),
  );

  app.get('/classCompletion/:id', { preValidation: requirePermission(can.detail), schema: { params: idParams } }, async (request) =>
    ok(await classCompletion(app.db, await actor(request), request.params.id)),
  );

  app.post('/add', { preValidation: requirePermission(can.add), schema: { body: planRequestSchema } }, async (request) =>
    ok(await createPlan(app.db, await actor(request), request.body), request.t(OK_MSG.saved)),
  );

  app.post('/edit/:id', { preValidation: requirePermission(can.edit), schema: { params: idParams, body: planRequestSchema } }, async (request) =>
    ok(await updatePlan(app.db, await actor(request), request.params.id, request.body), request.t(OK_MSG.saved)),
  );

  app.post('/end/:id', { preValidation: requirePermission(can.end), schema: { params: idParams } }, async (request) =>
    ok(await endPlan(app.db, await actor(request), request.params.id), request.t(OK_MSG.operation)),
  );

  app.post('/delete/:id', { preValidation: requirePermission(can.delete), schema: { params: idParams } }, async (request) =>
    ok(await deletePlan(app.db, await actor(request), request.params.id), request.t(OK_MSG.deleted)),
  );

  app.post('/reopen/:id', { preValidation: requirePermission(can.admin), schema: { params: idParams, body: planReopenSchema } }, async (request) =>
    ok(await reopenPlan(app.db, await actor(request), request.params.id, request.body), request.t(OK_MSG.operation)),
  );

  app.post('/dates/:id', { preValidation: requirePermission(can.admin), schema: { params: idParams, body: planDatesSchema } }, async (request) =>
    ok(await correctPlanDates(app.db, await actor(request), request.params.id, request.body), request.t(OK_MSG.saved)),
  );

  app.post('/restore/:id', { preValidation: requirePermission(can.admin), schema: { params: idParams } }, async (request) =>
    ok(await restorePlan(app.db, await actor(request), request.params.id), request.t(OK_MSG.operation)),
  );
};
