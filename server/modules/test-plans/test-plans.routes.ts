import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema as idParams } from '@/domain/list-query';
import { OK_MSG } from '@/domain/errors';
import type { Family } from '@/domain/menus/access';
import { pageSchema } from '@/domain/api';
import { PLAN_ADMIN_ACTION } from '@/domain/test-plans/access';
import { classCompletionRowSchema, planDeletedSchema, planDetailSchema, planFormOptionsSchema, planRowSchema, planSchoolOptionSchema, signUpRowSchema } from '@/domain/test-plans/answers';
import { planDatesSchema, planOptionsQuery as optionsQuery, planPageQuerySchema, planReopenSchema, planRequestSchema, signUpQuerySchema } from '@/domain/test-plans/schemas';
import { classScopeOf } from '../../lib/data-scope';
import { resourceAction } from '../../lib/action';
import type { DbOrTx } from '../../db/client';
import type { Actor } from '../../plugins/tenant';
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
  const page = `${family}.test.testManage`;

  const reader = (a: Actor): PlanActor => ({ tenantOrgId: a.tenantOrgId, orgType: a.orgType, userId: a.userId, now: app.now() });

  resourceAction(app, { method: 'GET', path: '/page', access: [page, 'view'], query: planPageQuerySchema, answer: pageSchema(planRowSchema), read: (db, a, { query }) => planPage(db, reader(a), query) });

  // Schools a management organisation may plan for (admin family); a school sees itself only.
  resourceAction(app, { method: 'GET', path: '/schools', access: [page, 'view'], answer: planSchoolOptionSchema.array(), read: (db, a) => planSchools(db, a.tenantOrgId) });

  resourceAction(app, {
    method: 'GET',
    path: '/options',
    access: [page, 'add', [page, 'edit'], [page, 'detail']],
    query: optionsQuery,
    answer: planFormOptionsSchema,
    read: async (db, a, { query }) => planFormOptions(db, reader(a), query.schoolOrgId, await classScopeOf(db, a)),
  });

  resourceAction(app, { method: 'GET', path: '/detail/:id', access: [page, 'detail'], params: idParams, answer: planDetailSchema, read: (db, a, { params }) => planDetail(db, reader(a), params.id) });

  resourceAction(app, {
    method: 'GET',
    path: '/signUp/:id',
    access: [page, 'detail'],
    params: idParams,
    query: signUpQuerySchema,
    answer: pageSchema(signUpRowSchema),
    read: async (db, a, { params, query }) => signUpPage(db, reader(a), params.id, query, await classScopeOf(db, a)),
  });

  resourceAction(app, {
    method: 'GET',
    path: '/classCompletion/:id',
    access: [page, 'detail'],
    params: idParams,
    answer: classCompletionRowSchema.array(),
    read: async (db, a, { params }) => classCompletion(db, reader(a), params.id, await classScopeOf(db, a)),
  });

  // The writes run the services (which also keep the plan's own history, test_plan_events) in the kit's transaction,
  // with an audit row for the operation log.
  const writer = (a: Actor, now: Date): PlanActor => ({ tenantOrgId: a.tenantOrgId, orgType: a.orgType, userId: a.userId, now });
  /** The plan as it was, for the audit row (404 across tenants before anything is written). */
  const before = (tx: DbOrTx, a: Actor, id: string, now: Date) => planDetail(tx, writer(a, now), id);

  resourceAction(app, {
    method: 'POST',
    path: '/add',
    answer: planDetailSchema,
    access: [page, 'add'],
    body: planRequestSchema,
    entity: 'testPlan',
    audit: 'create',
    write: async (tx, a, { body }, { now }) => {
      const after = await createPlan(tx, writer(a, now), body);
      return { after, entityId: after.id };
    },
  });
  resourceAction(app, {
    method: 'POST',
    path: '/edit/:id',
    answer: planDetailSchema,
    access: [page, 'edit'],
    params: idParams,
    body: planRequestSchema,
    entity: 'testPlan',
    audit: 'update',
    write: async (tx, a, { params, body }, { now }) => ({ before: await before(tx, a, params.id, now), after: await updatePlan(tx, writer(a, now), params.id, body) }),
  });
  resourceAction(app, {
    method: 'POST',
    path: '/end/:id',
    answer: planDetailSchema,
    access: [page, 'end'],
    params: idParams,
    entity: 'testPlan',
    audit: 'end',
    message: OK_MSG.operation,
    write: async (tx, a, { params }, { now }) => ({ before: await before(tx, a, params.id, now), after: await endPlan(tx, writer(a, now), params.id) }),
  });
  resourceAction(app, {
    method: 'POST',
    path: '/delete/:id',
    answer: planDeletedSchema,
    access: [page, 'delete'],
    params: idParams,
    entity: 'testPlan',
    audit: 'delete',
    message: OK_MSG.deleted,
    write: async (tx, a, { params }, { now }) => ({ before: await before(tx, a, params.id, now), after: await deletePlan(tx, writer(a, now), params.id) }),
  });
  // Plan administrators: undo an early end, correct an ended plan's dates, restore from the bin (src/domain/test-plans/access.ts).
  resourceAction(app, {
    method: 'POST',
    path: '/reopen/:id',
    answer: planDetailSchema,
    access: [page, PLAN_ADMIN_ACTION],
    params: idParams,
    body: planReopenSchema,
    entity: 'testPlan',
    audit: 'reopen',
    message: OK_MSG.operation,
    write: async (tx, a, { params, body }, { now }) => ({ before: await before(tx, a, params.id, now), after: await reopenPlan(tx, writer(a, now), params.id, body) }),
  });
  resourceAction(app, {
    method: 'POST',
    path: '/dates/:id',
    answer: planDetailSchema,
    access: [page, PLAN_ADMIN_ACTION],
    params: idParams,
    body: planDatesSchema,
    entity: 'testPlan',
    audit: 'correctDates',
    write: async (tx, a, { params, body }, { now }) => ({ before: await before(tx, a, params.id, now), after: await correctPlanDates(tx, writer(a, now), params.id, body) }),
  });
  // A binned plan has no detail to read before: the restored detail is the change.
  resourceAction(app, {
    method: 'POST',
    path: '/restore/:id',
    answer: planDetailSchema,
    access: [page, PLAN_ADMIN_ACTION],
    params: idParams,
    entity: 'testPlan',
    audit: 'restore',
    message: OK_MSG.operation,
    write: async (tx, a, { params }, { now }) => ({ after: await restorePlan(tx, writer(a, now), params.id) }),
  });
};
