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
import { resourceAction } from '../../lib/action';
import { requireAccess, requireScope, type Actor } from '../../plugins/tenant';
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
} from './test-plans-manage.service';

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
  // Guards of the writes from the catalogue's testManage page (the check/:id screen opens with its detail button).
  const page = `${family}.test.testManage`;
  const can = {
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

  const reader = (a: Actor): PlanActor => ({ tenantOrgId: a.tenantOrgId, orgType: a.orgType, userId: a.userId, now: app.now() });

  resourceAction(app, { method: 'GET', path: '/page', access: [page, 'view'], query: planPageQuerySchema, read: (db, a, { query }) => planPage(db, reader(a), query) });

  // Schools a management organisation may plan for (admin family); a school sees itself only.
  resourceAction(app, { method: 'GET', path: '/schools', access: [page, 'view'], read: (db, a) => planSchools(db, a.tenantOrgId) });

  resourceAction(app, {
    method: 'GET',
    path: '/options',
    access: [page, 'add', [page, 'edit'], [page, 'detail']],
    query: optionsQuery,
    read: async (db, a, { query }) => planFormOptions(db, reader(a), query.schoolOrgId, await classScopeOf(db, a)),
  });

  resourceAction(app, { method: 'GET', path: '/detail/:id', access: [page, 'detail'], params: idParams, read: (db, a, { params }) => planDetail(db, reader(a), params.id) });

  resourceAction(app, {
    method: 'GET',
    path: '/signUp/:id',
    access: [page, 'detail'],
    params: idParams,
    query: signUpQuerySchema,
    read: async (db, a, { params, query }) => signUpPage(db, reader(a), params.id, query, await classScopeOf(db, a)),
  });

  resourceAction(app, {
    method: 'GET',
    path: '/classCompletion/:id',
    access: [page, 'detail'],
    params: idParams,
    read: async (db, a, { params }) => classCompletion(db, reader(a), params.id, await classScopeOf(db, a)),
  });

  // The writes stay hand routes: the action kit writes an audit row per write, and a plan has no audit entity — its
  // history is test_plan_events, written by the services in their own transactions (an audit row would be new behaviour).
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
