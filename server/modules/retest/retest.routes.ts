import type { FastifyPluginAsync } from 'fastify';
import type { ServedBy } from '@/domain/menus/access';
import {
  retestCandidateSchema,
  retestCreateSchema,
  retestExportQuery,
  retestPlanSchema,
  retestStudentPageSchema,
  retestStudentQuery,
} from '@/domain/retest/retest';
import { resourceAction } from '../../lib/action';
import { classScopeOf } from '../../lib/data-scope';
import { createRetest, retestCandidates, retestPlans, retestStudentPage, retestExportRows, retestSheet } from './retest.service';

/**
 * 补测 (physiqueManage/retest, docs/product-rules.md#physique-year, "Re-test") under
 * /api/busi/web/{k12|gx}/physiqueManage/retest: the re-test plans and their eligible students, 发起补测, the export.
 * The re-test plan's results are imported or synced on the test-plan page like any plan's.
 */
export const retestRoutes: FastifyPluginAsync<{ family: ServedBy<'test.retest'> }> = async (app, { family }) => {
  const key = `${family}.test.retest`;
  resourceAction(app, {
    method: 'GET',
    path: '/page',
    access: [key, 'view'],
    query: retestStudentQuery,
    answer: retestStudentPageSchema,
    summary: 'The eligible students of one re-test plan (the latest when none is named), with both totals and the year',
    read: async (db, actor, { query }, { now }) => retestStudentPage(db, actor, query, await classScopeOf(db, actor), now),
  });
  resourceAction(app, {
    method: 'GET',
    path: '/plans',
    access: [key, 'view'],
    answer: retestPlanSchema.array(),
    summary: "The school's re-test plans with their originals and counts",
    read: (db, actor, _input, { now }) => retestPlans(db, actor, now),
  });
  resourceAction(app, {
    method: 'GET',
    path: '/candidates',
    access: [key, 'add'],
    answer: retestCandidateSchema.array(),
    summary: 'Plans that may be re-tested: regular, with failing years, not re-tested yet',
    read: (db, actor) => retestCandidates(db, actor),
  });
  resourceAction(app, {
    method: 'POST',
    path: '/add',
    access: [key, 'add'],
    body: retestCreateSchema,
    answer: retestPlanSchema,
    entity: 'testPlan',
    audit: 'create',
    write: async (tx, actor, { body }, { now }) => {
      const after = await createRetest(tx, actor, body, now);
      return { after, entityId: after.id };
    },
  });
  resourceAction(app, {
    method: 'GET',
    path: '/export',
    access: [key, 'export'],
    query: retestExportQuery,
    answers: 'file',
    // Students' results (docs/product-rules.md#personal-data-access).
    approval: { rows: async (db, actor, { query }) => retestExportRows(db, actor, query, await classScopeOf(db, actor)) },
    read: async (db, actor, { query }, { t }) => retestSheet(db, actor, query, await classScopeOf(db, actor), t),
  });
};
