import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { idParamsSchema as idParams } from '@/domain/list-query';
import { ERR, OK_MSG } from '@/domain/errors';
import type { Family } from '@/domain/menus/access';
import { PLAN_ADMIN_ACTION } from '@/domain/test-plans/access';
import { planDatesSchema, planOptionsQuery as optionsQuery, planPageQuerySchema, planReopenSchema, planRequestSchema, signUpQuerySchema } from '@/domain/test-plans/schemas';
import { AppError } from '../../lib/app-error';
import { classScopeOf } from '../../lib/data-scope';
import { requireAccess, requireScope } from '../../plugins/tenant';
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
  /** The route family whose testManage permission codes guard these routes (docs/product-rules.md#families). */
  family: Family;
}


/**
 * Test plans (docs/product-rules.md#test-plans) under /api/busi/web/{admin|k12|gx}/organizeTest/testManage: list (and recycle
 * bin), detail, sign-up list, class completion, form options, add, edit, early end, delete, and for plan
 * administrators reopen, date correction and restore (docs/product-rules.md#test-plans). Every route runs
 * auth → tenant scope → permission code → zod validation → service.
 */
export const testPlanRoutes: FastifyPluginAsyncZod<TestPlanRoutesOptions> = async (app, { family }) => {
  // Guards from the catalogue's testManage page (the check/:id screen opens with its detail button).
  const page = `${family}.test.testManage`;
  const can = {
    view: requireAccess(page),
    form: requireAccess(page, 'add', [page, 'edit'], [page, 'detail']),
    detail: requireAccess(page, 'detail'),
    add: requireAccess(page, 'add'),
    edit: requireAccess(page, 'edit'),
    end: requireAccess(page, 'end'),
    delete: requireAccess(page, 'delete'),
    /** Plan administrators: correct an ended plan's dates, undo an early end, restore from the bin (src/domain/test-plans/access.ts). */
    admin: requireAccess(page, PLAN_ADMIN_ACTION),
  };

  const actor = async (request: FastifyRequest): Promise<PlanActor> => {
    const scope = await requireScope(request);
    if (!request.session) throw new AppError(401, ERR.sessionExpired);
    return { tenantOrgId: scope.tenantOrgId, orgType: scope.orgType, userId: request.session.userId, now: app.now() };
  };

  app.get('/page', { preValidation: can.view, schema: { querystring: planPageQuerySchema } }, async (request) =>
    ok(await planPage(app.db, await actor(request), request.query)),
  );

  // Schools a management organisation may plan for (admin family); a school sees itself only.
  app.get('/schools', { preValidation: can.view }, async (request) => ok(await planSchools(app.db, (await actor(request)).tenantOrgId)));

  app.get('/options', { preValidation: can.form, schema: { querystring: optionsQuery } }, async (request) =>
    ok(await planFormOptions(app.db, await actor(request), request.query.schoolOrgId, await classScopeOf(app.db, await requireScope(request)))),
  );

  app.get('/detail/:id', { preValidation: can.detail, schema: { params: idParams } }, async (request) =>
    ok(await planDetail(app.db, await actor(request), request.params.id)),
  );

  app.get('/signUp/:id', { preValidation: can.detail, schema: { params: idParams, querystring: signUpQuerySchema } }, async (request) =>
    ok(await signUpPage(app.db, await actor(request), request.params.id, request.query, await classScopeOf(app.db, await requireScope(request)))),
  );

  app.get('/classCompletion/:id', { preValidation: can.detail, schema: { params: idParams } }, async (request) =>
    ok(await classCompletion(app.db, await actor(request), request.params.id, await classScopeOf(app.db, await requireScope(request)))),
  );

  app.post('/add', { preValidation: can.add, schema: { body: planRequestSchema } }, async (request) =>
    ok(await createPlan(app.db, await actor(request), request.body), request.t(OK_MSG.saved)),
  );

  app.post('/edit/:id', { preValidation: can.edit, schema: { params: idParams, body: planRequestSchema } }, async (request) =>
    ok(await updatePlan(app.db, await actor(request), request.params.id, request.body), request.t(OK_MSG.saved)),
  );

  app.post('/end/:id', { preValidation: can.end, schema: { params: idParams } }, async (request) =>
    ok(await endPlan(app.db, await actor(request), request.params.id), request.t(OK_MSG.operation)),
  );

  app.post('/delete/:id', { preValidation: can.delete, schema: { params: idParams } }, async (request) =>
    ok(await deletePlan(app.db, await actor(request), request.params.id), request.t(OK_MSG.deleted)),
  );

  app.post('/reopen/:id', { preValidation: can.admin, schema: { params: idParams, body: planReopenSchema } }, async (request) =>
    ok(await reopenPlan(app.db, await actor(request), request.params.id, request.body), request.t(OK_MSG.operation)),
  );

  app.post('/dates/:id', { preValidation: can.admin, schema: { params: idParams, body: planDatesSchema } }, async (request) =>
    ok(await correctPlanDates(app.db, await actor(request), request.params.id, request.body), request.t(OK_MSG.saved)),
  );

  app.post('/restore/:id', { preValidation: can.admin, schema: { params: idParams } }, async (request) =>
    ok(await restorePlan(app.db, await actor(request), request.params.id), request.t(OK_MSG.operation)),
  );
};
